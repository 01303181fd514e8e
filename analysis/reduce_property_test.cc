#include "analysis/reduce_property.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace dtrcheck {
namespace {

TEST(TracePropertyNames, RoundTrip) {
  for (const std::string& name : TracePropertyNames())
    EXPECT_EQ(TracePropertyName(TracePropertyFromName(name)), name);
  EXPECT_STREQ(TracePropertyName(TraceProperty::kOverheadRise), "overhead-rise");
}

// "overhead" was overhead-rise's name until 2026-12-03; no archived manifest
// or command uses it any more, so it is refused like any other unknown name.
TEST(TracePropertyNames, RefusesTheOldNameOfOverheadRise) {
  EXPECT_THROW(TracePropertyFromName("overhead"), std::invalid_argument);
}

TEST(TracePropertyNames, UnknownNamesListTheValidOnes) {
  try {
    TracePropertyFromName("non-monotonic");
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("overhead-rise"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace dtrcheck
