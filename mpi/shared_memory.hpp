#pragma once
// One buffer per node in MPI-3 shared memory: the ranks of a node (MPI_Comm_split_type SHARED) share a
// window allocated by the node's first rank (MPI_Win_allocate_shared); the others map the same pages
// (MPI_Win_shared_query). Node leaders (node rank 0) also get a communicator among themselves, to fill
// every node's copy from one reader.
#include <mpi.h>

#include <cstddef>

namespace keff {

// The node communicator and the leaders' communicator of `parent`. Collective over `parent`.
class NodeComms {
 public:
  explicit NodeComms(MPI_Comm parent);
  ~NodeComms();
  NodeComms(const NodeComms&) = delete;
  NodeComms& operator=(const NodeComms&) = delete;

  MPI_Comm node() const { return node_; }
  // MPI_COMM_NULL on ranks that are not their node's leader. Leaders are ordered by parent rank, so
  // the parent's rank 0 is leader 0.
  MPI_Comm leaders() const { return leaders_; }
  int node_rank() const { return node_rank_; }

 private:
  MPI_Comm node_ = MPI_COMM_NULL;
  MPI_Comm leaders_ = MPI_COMM_NULL;
  int node_rank_ = 0;
};

// `bytes` of memory shared by every rank of `node` (allocated on the node leader, 8-byte aligned).
// Collective over `node`. Writes by one rank become visible to the others after fence().
class SharedBuffer {
 public:
  SharedBuffer(std::size_t bytes, MPI_Comm node);
  ~SharedBuffer();
  SharedBuffer(const SharedBuffer&) = delete;
  SharedBuffer& operator=(const SharedBuffer&) = delete;

  void* data() const { return data_; }
  std::size_t size() const { return bytes_; }
  // Collective over the node: completes every rank's writes before any rank reads past it.
  void fence() const;

 private:
  MPI_Win win_ = MPI_WIN_NULL;
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace keff
