#pragma once
// SIGINT and SIGTERM. The first signal only sets a flag, which every long phase looks at:
//  - transport, between kernel launches: the batch under way is abandoned (src/driver/batch_watch.hpp);
//    the ranks agree on that, and on the signal between batches (one integer max over ranks, so all stop
//    at the same batch), write the statepoint of the last batch that ended when one is configured, and
//    stop with Interrupted: the run can continue with --restart, bit for bit, the abandoned batch run
//    again;
//  - the CMFD solve, between outer iterations and GMRES cycles: the batch is abandoned as in transport
//    (src/cmfd/cmfd_accelerator.hpp);
//  - the geometry check (keff check-geometry, and the one before a run), between chunks of points, the
//    ranks agreeing at each;
//  - synthetic nuclear data, between nuclides (keff data generate, and keff run's data in memory);
//  - reading the input (NCrystal sets its materials up there): once it is read, by every command;
//  - NCrystal's tables, between energies and between materials.
// Each stops with Interrupted, status 128 + the signal. Once a run's last batch has ended, a signal stops
// nothing: the outputs are finished, and the run exits as a complete one (enter_finishing_phase). A second signal ends the process at once, as the
// signal's default action would, after removing the temporary file of any output being written
// (io/output_path.hpp), so the previous statepoint stays and nothing half-written is left. Host only; no
// Kokkos.
#include "mpi/communicator.hpp"

#include <stdexcept>
#include <string>

namespace keff {

// Installs the handlers for SIGINT and SIGTERM (main() does, before anything else).
void install_interrupt_handlers();

// Every batch has run: from now on a signal stops nothing. The run's outputs are finished, a first signal
// is acknowledged at once on standard error ("finishing the outputs"), and a second one ends the process
// as before, its temporary files removed. The caller says at the end that the signal came after the
// last batch (finishing_note).
void enter_finishing_phase();

// After the outputs of a run that a signal reached in its finishing phase: the line saying so ("" when no
// signal came).
std::string finishing_note();

// The signal this process received (0 if none).
int interrupt_signal();

// The signal any rank received (0 if none; if several did, the highest number). Collective over `comm`.
int agreed_interrupt(const Communicator& comm);

// A phase stopped by a signal; what() says which signal, where and how to continue.
class Interrupted : public std::runtime_error {
 public:
  // A run stopped after `batch`. `statepoint`: where the run's state after `batch` was written ("" if none
  // was). `abandoned`: the batch under way when the signal came, stopped part-way (0: the signal came
  // between batches). With `generations_per_batch` > 1, `batch` and `abandoned` count generations over
  // the run, and the message names them by batch and generation.
  Interrupted(int signal, int batch, int batches, const std::string& statepoint, int abandoned = 0,
              int generations_per_batch = 1);
  // Any other phase: "interrupted by <signal> <during>".
  Interrupted(int signal, const std::string& during);
  int signal() const { return signal_; }
  // Where a phase was stopped ("" for a run stopped at a batch): for the other ranks of work one rank did.
  const std::string& during() const { return during_; }
  // 128 + the signal number, as a shell reports a process the signal ended.
  int exit_status() const { return 128 + signal_; }

 private:
  int signal_;
  std::string during_;
};

// The phase the commands name when a signal came while their input was read (NCrystal opens its
// materials then, which can take minutes): every command stops there, collectively, once the ranks have
// agreed on the input.
inline constexpr const char* input_read_phase = "while the input was read";

// Throws Interrupted(signal, during) when this process has received a signal. For work one rank does
// alone, or whose ranks agree afterwards (stop_if_interrupted).
void throw_if_interrupted(const std::string& during);

// Throws Interrupted(signal, during) on every rank when any rank has received a signal. Collective.
void stop_if_interrupted(const Communicator& comm, const std::string& during);

}  // namespace keff
