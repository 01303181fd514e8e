// The open heuristic registry (sim/heuristic.h): simrd's 24 first, then
// whatever registers, each made by name; a clash is refused with the
// message the plugin loader passes on (plugins/plugin_heuristic.h).
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "sim/heuristic.h"

namespace dtrcheck {
namespace {

TEST(HeuristicRegistry, HoldsSimrdsHeuristicsInItsOrder) {
  ASSERT_EQ(HeuristicNames().size(), 24u);
  EXPECT_EQ(HeuristicNames().front(), "DTR");
  EXPECT_EQ(HeuristicNames().back(), "AbRandom");
  for (const auto& name : HeuristicNames()) {
    EXPECT_FALSE(IsPluginHeuristic(name)) << name;
    ASSERT_NE(MakeHeuristic(name), nullptr) << name;
    EXPECT_EQ(MakeHeuristic(name)->Name(), name);
  }
  EXPECT_EQ(MakeHeuristic("Heuristic")->Label(), "N/A (Placeholder)");
  EXPECT_EQ(MakeHeuristic("NoSuchHeuristic"), nullptr);
}

TEST(HeuristicRegistry, MakesWhatRegistersAfterSimrds) {
  RegisterHeuristic(
      "RegistryTestLru", "an LRU by another name",
      [](Int seed) { return MakeHeuristic("LRU", seed); }, "registry_test");
  EXPECT_TRUE(IsPluginHeuristic("RegistryTestLru"));
  EXPECT_EQ(PluginOrigin("RegistryTestLru"), "registry_test");
  EXPECT_EQ(PluginHeuristicNames().back(), "RegistryTestLru");
  EXPECT_EQ(AllHeuristicNames().size(), 24u + PluginHeuristicNames().size());
  ASSERT_NE(MakeHeuristic("RegistryTestLru"), nullptr);
  EXPECT_EQ(MakeHeuristic("RegistryTestLru")->Name(), "LRU");
}

TEST(HeuristicRegistry, RefusesTakenNames) {
  auto make = [](Int) { return MakeHeuristic("LRU"); };
  try {
    RegisterHeuristic("DTR", "", make, "p.so");
    FAIL() << "registered over simrd's DTR";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "p.so: heuristic name \"DTR\" clashes with a built-in (simrd) heuristic");
  }
  RegisterHeuristic("RegistryTestTaken", "", make, "first.so");
  try {
    RegisterHeuristic("RegistryTestTaken", "", make, "second.so");
    FAIL() << "registered a name twice";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(
        e.what(),
        "second.so: heuristic name \"RegistryTestTaken\" is already registered by first.so");
  }
  EXPECT_THROW(RegisterHeuristic("", "", make, "p.so"), std::invalid_argument);
  EXPECT_THROW(RegisterHeuristic("RegistryTestNoFactory", "", nullptr, "p.so"),
               std::invalid_argument);
  EXPECT_FALSE(IsPluginHeuristic("RegistryTestNoFactory"));
}

}  // namespace
}  // namespace dtrcheck
