#include "mpi/shared_memory.hpp"

#include "mpi/communicator.hpp"

namespace keff {

NodeComms::NodeComms(MPI_Comm parent) {
  int rank = 0;
  check_mpi(MPI_Comm_rank(parent, &rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_split_type(parent, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node_), "MPI_Comm_split_type");
  check_mpi(MPI_Comm_set_errhandler(node_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check_mpi(MPI_Comm_rank(node_, &node_rank_), "MPI_Comm_rank");
  check_mpi(MPI_Comm_split(parent, node_rank_ == 0 ? 0 : MPI_UNDEFINED, rank, &leaders_), "MPI_Comm_split");
  if (leaders_ != MPI_COMM_NULL) {
    check_mpi(MPI_Comm_set_errhandler(leaders_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  }
}

NodeComms::~NodeComms() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  if (leaders_ != MPI_COMM_NULL) MPI_Comm_free(&leaders_);
  if (node_ != MPI_COMM_NULL) MPI_Comm_free(&node_);
}

SharedBuffer::SharedBuffer(std::size_t bytes, MPI_Comm node) : bytes_(bytes) {
  int node_rank = 0;
  check_mpi(MPI_Comm_rank(node, &node_rank), "MPI_Comm_rank");
  // The leader owns every byte; a size of at least 8 keeps the base pointer valid for an empty library.
  const MPI_Aint mine = node_rank == 0 ? static_cast<MPI_Aint>(bytes < 8 ? 8 : bytes) : 0;
  void* base = nullptr;
  check_mpi(MPI_Win_allocate_shared(mine, 8, MPI_INFO_NULL, node, &base, &win_), "MPI_Win_allocate_shared");
  MPI_Win_set_errhandler(win_, MPI_ERRORS_RETURN);
  MPI_Aint size = 0;
  int unit = 0;
  check_mpi(MPI_Win_shared_query(win_, 0, &size, &unit, &data_), "MPI_Win_shared_query");
  check_mpi(MPI_Win_fence(0, win_), "MPI_Win_fence");
}

SharedBuffer::~SharedBuffer() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && win_ != MPI_WIN_NULL) MPI_Win_free(&win_);
}

void SharedBuffer::fence() const { check_mpi(MPI_Win_fence(0, win_), "MPI_Win_fence"); }

}  // namespace keff
