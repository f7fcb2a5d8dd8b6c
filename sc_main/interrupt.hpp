// SIGINT and SIGTERM while a command runs: the first one is noted (the run stops at its next
// step and keeps what it has; a sweep passes it on to its points and keeps the finished ones),
// a second one ends the process at once (the handler is reset). The note is the one piece of
// process-wide state in the program: a signal handler can reach nothing else.
#pragma once
#include <atomic>

namespace collnoc::cli {

class InterruptGuard {
 public:
  InterruptGuard();   // installs the handlers
  ~InterruptGuard();  // restores the previous ones
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  // The signal received (SIGINT, SIGTERM), or 0.
  static const std::atomic<int>& signal();
  // The exit status of a process ended by it: 128 + the signal (130, 143).
  static int exit_status() { return 128 + signal().load(); }
};

}  // namespace collnoc::cli
