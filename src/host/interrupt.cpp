#include "src/host/interrupt.hpp"

#include "io/input/model.hpp"
#include "io/output_path.hpp"
#include "io/printable.hpp"
#include "io/test_point.hpp"

#include <unistd.h>

#include <csignal>
#include <cstring>

namespace keff {

namespace {

volatile std::sig_atomic_t received = 0;
volatile std::sig_atomic_t finishing = 0;

extern "C" void on_signal(int sig) {
  note_signal();
  if (received == 0 && finishing != 0) {
    // write(2) is async-signal-safe; the stream the summary goes to is not.
    static const char said[] =
        "keff: a signal came after the last batch: the run is complete and its outputs are being finished "
        "(a second signal stops at once, and what is not written yet is lost)\n";
    [[maybe_unused]] const auto n = ::write(STDERR_FILENO, said, sizeof said - 1);
  }
  if (received != 0) {
    // The second signal: the user wants out now. What is being written is abandoned, and its temporary
    // file removed; the previous complete file (if any) stays where it was.
    remove_registered_temporaries();
    std::signal(sig, SIG_DFL);
    std::raise(sig);  // delivered, with the default action, when this handler returns
    return;
  }
  received = sig;
}

std::string signal_name(int sig) {
  switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "signal " + std::to_string(sig);
  }
}

std::string message(int sig, int batch, int batches, const std::string& statepoint, int abandoned, int generations) {
  std::string m = "interrupted by " + signal_name(sig) + " after " + model::generation_name(batch, generations) + " of " +
                  std::to_string(batches);
  if (!statepoint.empty()) {
    m += ": statepoint written to '" + printable(statepoint) + "' (continue with --restart " + printable(statepoint) + ")";
  } else if (abandoned == 1) {
    m += generations == 1 ? ": no batch had ended, so there is nothing to continue from"
                          : ": no generation had ended, so there is nothing to continue from";
  } else {
    m += ": no statepoint is configured (settings.statepoint, --statepoint), so the run cannot be continued";
  }
  if (abandoned > 0) m += "; " + model::generation_name(abandoned, generations) + ", under way, was stopped and left out";
  return m;
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // system calls in flight (a write, an MPI wait) carry on
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int interrupt_signal() { return received; }

void enter_finishing_phase() { finishing = 1; }

std::string finishing_note() {
  if (received == 0) return "";
  return signal_name(received) + " came after the last batch had run: the run is complete and its outputs are written";
}

int agreed_interrupt(const Communicator& comm) { return static_cast<int>(comm.max(received)); }

Interrupted::Interrupted(int signal, int batch, int batches, const std::string& statepoint, int abandoned,
                         int generations_per_batch)
    : std::runtime_error(message(signal, batch, batches, statepoint, abandoned, generations_per_batch)), signal_(signal) {}

Interrupted::Interrupted(int signal, const std::string& during)
    : std::runtime_error("interrupted by " + signal_name(signal) + " " + during), signal_(signal), during_(during) {}

void throw_if_interrupted(const std::string& during) {
  if (const int sig = interrupt_signal()) throw Interrupted(sig, during);
}

void stop_if_interrupted(const Communicator& comm, const std::string& during) {
  if (const int sig = agreed_interrupt(comm)) throw Interrupted(sig, during);
}

}  // namespace keff
