#include "sc_main/interrupt.hpp"

#include <csignal>

namespace collnoc::cli {

namespace {

std::atomic<int> received{0};  // lock-free: safe to store from a signal handler
static_assert(std::atomic<int>::is_always_lock_free, "stored from a signal handler");

struct sigaction previous_int, previous_term;

void note(int signal) { received.store(signal); }

}  // namespace

InterruptGuard::InterruptGuard() {
  received.store(0);
  struct sigaction action {};
  action.sa_handler = note;
  sigemptyset(&action.sa_mask);
  // No SA_RESTART: a sweep waiting for its points wakes up. SA_RESETHAND: a second signal
  // takes the default action.
  action.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &action, &previous_int);
  sigaction(SIGTERM, &action, &previous_term);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &previous_int, nullptr);
  sigaction(SIGTERM, &previous_term, nullptr);
}

const std::atomic<int>& InterruptGuard::signal() { return received; }

}  // namespace collnoc::cli
