#include "base/interrupt_guard.h"

#include <csignal>

#include <gtest/gtest.h>

namespace dtrcheck {
namespace {

// The handler SIGINT has now.
void (*CurrentHandler())(int) {
  struct sigaction now = {};
  sigaction(SIGINT, nullptr, &now);
  return now.sa_handler;
}

TEST(InterruptGuard, FirstSigintOnlySetsTheFlag) {
  InterruptGuard guard;
  EXPECT_FALSE(guard.interrupted());
  std::raise(SIGINT);  // would end the test process without the guard
  EXPECT_TRUE(guard.interrupted());
  // The second Ctrl-C gets the default action (kills a stuck run).
  EXPECT_EQ(CurrentHandler(), SIG_DFL);
}

TEST(InterruptGuard, NestedGuardsShareTheFlagAndTheOutermostRestores) {
  std::signal(SIGINT, SIG_IGN);  // a recognisable previous handler
  {
    InterruptGuard outer;
    EXPECT_NE(CurrentHandler(), SIG_IGN);
    std::raise(SIGINT);
    {
      InterruptGuard inner;  // must not clear what the outer one caught
      EXPECT_TRUE(InterruptGuard::interrupted());
    }
    EXPECT_NE(CurrentHandler(), SIG_IGN);  // still inside `outer`
    EXPECT_TRUE(outer.interrupted());
  }
  EXPECT_EQ(CurrentHandler(), SIG_IGN);
  {
    InterruptGuard fresh;  // a new outermost guard starts clear
    EXPECT_FALSE(fresh.interrupted());
  }
  std::signal(SIGINT, SIG_DFL);
}

}  // namespace
}  // namespace dtrcheck
