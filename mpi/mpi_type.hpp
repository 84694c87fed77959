#pragma once
// The MPI datatype of one T, made in one place: sizeof(T) contiguous bytes, committed on construction
// and freed with its owner. Messages then count items, not bytes (up to 2^31 - 1 items rather than
// 2^31 - 1 bytes), and MPI_Get_count reports items. Only for trivially copyable types: MPI copies bytes.
#include "mpi/communicator.hpp"

#include <mpi.h>

#include <type_traits>

namespace keff {

template <class T>
class MpiType {
  static_assert(std::is_trivially_copyable_v<T>, "MPI moves a T as its bytes");

 public:
  MpiType() {
    check_mpi(MPI_Type_contiguous(static_cast<int>(sizeof(T)), MPI_BYTE, &type_), "MPI_Type_contiguous");
    const int committed = MPI_Type_commit(&type_);
    if (committed != MPI_SUCCESS) MPI_Type_free(&type_);
    check_mpi(committed, "MPI_Type_commit");
  }
  ~MpiType() {
    // An owner destroyed after MPI_Finalize (a static, or a failed run unwinding) must not call MPI.
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized && type_ != MPI_DATATYPE_NULL) MPI_Type_free(&type_);
  }
  MpiType(const MpiType&) = delete;
  MpiType& operator=(const MpiType&) = delete;

  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

}  // namespace keff
