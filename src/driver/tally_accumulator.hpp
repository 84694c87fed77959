#pragma once
// The mesh tally's statistics over active batches, kept for the bins this rank owns. Without domain
// decomposition every rank holds and owns every bin. With it, a rank holds the window of bins around
// its domain and owns the bins whose centres lie in its domain; each batch, the ranks of a domain sum
// their windows, and the scores a domain made in bins another domain owns go to that domain's rank in
// the same replica lane. The scores are fixed-point integers, so every owned bin gets exactly the batch
// total an undecomposed run computes, bit for bit.
#include "io/output/run_results.hpp"
#include "kernels/domain_mesh.hpp"
#include "kernels/fixed_point.hpp"
#include "kernels/tally_data.hpp"
#include "mpi/communicator.hpp"

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace keff {

class TallyAccumulator {
 public:
  using HostScores = Kokkos::View<Fixed**, Kokkos::LayoutRight, Kokkos::HostSpace>;  // [group][window bin]

  // `replicas`: the ranks that hold the same window (every rank without decomposition).
  TallyAccumulator(const Communicator& world, MPI_Comm replicas, const DomainMesh& domains, const RegularMesh& mesh,
                   const MeshWindow& window, int groups);

  // One batch's window scores (summed over nothing yet), normalised by `per_particle`. Collective;
  // `progress` runs between the MPI calls (the bank exchange polls there).
  void add_batch(HostScores flux, HostScores fission, double per_particle, const std::function<void()>& progress);

  // Means and standard deviations over `active` batches, and the raw sums for restart, on rank 0 (the
  // owners send theirs). Collective.
  void collect(int active, MeshTallyResult& mesh, RestartData& restart) const;
  // Takes the owned bins' sums from a statepoint's (global) restart data.
  void restore(const RestartData& restart);

  std::size_t bytes() const;  // host memory of the statistics and the batch exchange on this rank

 private:
  const Communicator& world_;
  MPI_Comm replicas_;
  RegularMesh mesh_;
  MeshWindow window_;
  int groups_ = 1;
  bool decomposed_ = false;
  int lane_ = 0;                        // replica lane: only lane 0 reports at collect()
  std::vector<int> owned_;              // window bins this rank owns
  std::vector<int> owned_at_;           // window bin -> index into owned_, or -1
  std::vector<std::int64_t> global_;    // owned bin -> mesh bin
  std::vector<std::vector<int>> send_;  // per rank: window bins whose scores go there
  std::vector<int> send_count_, send_first_, recv_count_, recv_first_;
  std::vector<std::int64_t> send_buffer_, recv_buffer_;
  std::vector<Fixed> total_flux_, total_fission_;  // [owned][group] this batch
  std::vector<double> flux_sum_, flux_sq_, fission_sum_, fission_sq_;  // [owned][group]
};

}  // namespace keff
