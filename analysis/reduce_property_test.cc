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

// Manifests and command lines written before the rename say "overhead".
TEST(TracePropertyNames, ReadsTheOldNameOfOverheadRise) {
  EXPECT_EQ(TracePropertyFromName("overhead"), TraceProperty::kOverheadRise);
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
