#pragma once
// SIGINT and SIGTERM during a run. The first signal only sets a flag. Transport looks at it between
// kernel launches and abandons the batch under way (src/driver/batch_watch.hpp); the ranks agree on that, and on
// the signal between batches (one integer max over ranks, so all stop at the same batch), write the
// statepoint of the last batch that ended when one is configured, and stop with Interrupted: the run can
// continue with --restart, bit for bit, the abandoned batch run again. A second signal ends the
// process at once, as the signal's default action would, after removing the temporary file of any
// output being written (io/output_path.hpp), so the previous statepoint stays and nothing half-written
// is left. Host only; no Kokkos.
#include "mpi/communicator.hpp"

#include <stdexcept>
#include <string>

namespace keff {

// Installs the handlers for SIGINT and SIGTERM (main() does, before anything else).
void install_interrupt_handlers();

// The signal this process received (0 if none).
int interrupt_signal();

// The signal any rank received (0 if none; if several did, the highest number). Collective over `comm`.
int agreed_interrupt(const Communicator& comm);

// For tests: forget a received signal.
void clear_interrupt();

// A run stopped by a signal after a batch; what() says which, where and how to continue.
class Interrupted : public std::runtime_error {
 public:
  // `statepoint`: where the run's state after `batch` was written ("" if none was). `abandoned`: the batch
  // under way when the signal came, stopped part-way (0: the signal came between batches).
  Interrupted(int signal, int batch, int batches, const std::string& statepoint, int abandoned = 0);
  int signal() const { return signal_; }
  // 128 + the signal number, as a shell reports a process the signal ended.
  int exit_status() const { return 128 + signal_; }

 private:
  int signal_;
};

}  // namespace keff
