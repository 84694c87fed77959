#pragma once
// CMFD over a run: each batch from [cmfd] begin, the batch's scores (kernels/cmfd_tally.hpp, fixed point)
// summed over ranks into the tally window, the window's CMFD eigenproblem solved (CmfdSolver), and its
// fission source handed out for feedback. The simulation owns one (src/driver/simulation.hpp); the source cycle
// reweights the fission bank with its source (src/driver/source_cycle.hpp).
//
//   CmfdAccelerator cmfd(exec, *problem.cmfd, params.cmfd_mesh, params.cmfd_n_groups, comm, last_batch, allow);
//   const CmfdResult r = cmfd.add_batch(exec, batch, transporter.cmfd_scores());   // collective
//   if (feedback && r.converged) source_cycle.reweight(cmfd.source());
//
// The window (model::CmfdWindow) sums the integers of whole batches, so adding a batch and dropping the
// oldest are exact and the sum is the same on every rank, before and after a restart. Every rank then
// solves the same system the same way: the same bits everywhere for one build and thread count.
//
// Built with Kokkos Kernels only; in a build without it the constructor throws cmfd_support.hpp's
// message (cmfd_accelerator_unavailable.cpp), and the CLI refuses [cmfd] before that.
#include "io/input/model.hpp"
#include "io/output/run_results.hpp"
#include "kernels/cmfd_tally.hpp"
#include "kernels/device.hpp"
#include "mpi/communicator.hpp"
#include "src/cmfd/cmfd_footprint.hpp"

#include <memory>

namespace keff {

// The footprint of `input` with `groups` groups on `mesh` (a rolling window keeps window_size batches, an
// expanding one two sums of them, whatever the run's length).
CmfdFootprint cmfd_footprint(const model::Cmfd& input, const CmfdMesh& mesh, int groups);

class CmfdAccelerator {
 public:
  // Allocates the solver and the window's buffers for `groups` coarse groups on `mesh`, once
  // cmfd_footprint(input, mesh, groups) is known to fit on every rank (collective; over the
  // memory there: RunError, unless `allow_oversubscribed` makes it a warning). The accelerator's batches
  // are the run's generations, `input`'s begin and window counted in them; `generations_per_batch` names
  // them in messages.
  CmfdAccelerator(const DeviceExec& exec, const model::Cmfd& input, const CmfdMesh& mesh, int groups,
                  const Communicator& comm, int generations_per_batch, bool allow_oversubscribed);
  ~CmfdAccelerator();
  CmfdAccelerator(const CmfdAccelerator&) = delete;
  CmfdAccelerator& operator=(const CmfdAccelerator&) = delete;

  // Collective: batch `batch`'s scores on this rank, summed over ranks into the window, and the solve.
  // Throws RunError when the batch banked fission sites outside the mesh (CMFD must see every fission)
  // or a sum of the window overflows its fixed point. A SIGINT or SIGTERM on any rank during the solve
  // (src/host/interrupt.hpp) abandons it on every rank: the result is marked interrupted and the window
  // and the warm start are left as they were before this batch, as the previous batch's statepoint
  // holds them.
  CmfdResult add_batch(const DeviceExec& exec, int batch, const CmfdTally<DeviceMem>& scores);

  // The CMFD fission source of the last solve, [g * n_cells + c], summing to 1.
  Kokkos::View<const Real*, DeviceMem> source() const;

  // The window as a statepoint keeps it (with the solver's warm start), and back (throws RunError for one
  // of another shape).
  CmfdWindowData window() const;
  void restore(const CmfdWindowData& window);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace keff
