#include "io/entry_path.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "io/error_of.h"
#include "io/json.h"

namespace dtrcheck {
namespace {

namespace fs = std::filesystem;

class EntryPathTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("entry_path_test." + std::to_string(getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "entry" / "sub");
    std::ofstream(root_ / "entry" / "trace.log") << "x";
    std::ofstream(root_ / "outside.log") << "x";
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string Entry() const { return (root_ / "entry").string(); }
  std::string Error(const std::string& name) const {
    return ErrorOf<FieldError>([&] { PathInEntry(Entry(), name, "fuzzer.input"); });
  }

  fs::path root_;
};

TEST_F(EntryPathTest, AcceptsFilesInsideTheEntry) {
  EXPECT_EQ(PathInEntry(Entry(), "trace.log", "trace"), Entry() + "/trace.log");
  EXPECT_EQ(Error("sub/../trace.log"), "");
  EXPECT_EQ(Error("not-yet-written.bin"), "");  // need not exist
}

TEST_F(EntryPathTest, RefusesAbsolutePathsAndEscapesNamingTheField) {
  EXPECT_EQ(Error("/etc/passwd"),
            "field \"fuzzer.input\": \"/etc/passwd\" is an absolute path; the entry's files are "
            "named relative to its directory");
  EXPECT_EQ(Error("../outside.log")
                .rfind("field \"fuzzer.input\": \"../outside.log\" escapes the "
                       "entry directory " +
                           Entry(),
                       0),
            0u);
  EXPECT_NE(Error("../../../../../../etc/passwd"), "");
  EXPECT_NE(Error("."), "");  // the directory itself is not a file in it
  EXPECT_NE(Error("sub/.."), "");
  EXPECT_EQ(Error(""), "field \"fuzzer.input\": an empty path");
}

// A symbolic link inside the entry is followed: one pointing out escapes.
TEST_F(EntryPathTest, FollowsSymbolicLinks) {
  fs::create_symlink(root_ / "outside.log", root_ / "entry" / "link.log");
  fs::create_directory_symlink(root_, root_ / "entry" / "up");
  fs::create_symlink("trace.log", root_ / "entry" / "inner.log");
  EXPECT_NE(Error("link.log").find("escapes the entry directory"), std::string::npos);
  EXPECT_NE(Error("up/outside.log").find("escapes the entry directory"), std::string::npos);
  EXPECT_EQ(Error("inner.log"), "");
}

TEST(CheckSha256Field, RefusesAMissingOrMalformedDigest) {
  const std::string ok(64, 'a');
  EXPECT_EQ(ErrorOf<FieldError>([&] { CheckSha256Field(ok, "trace_sha256"); }), "");
  EXPECT_EQ(ErrorOf<FieldError>([&] { CheckSha256Field("", "trace_sha256"); }),
            "field \"trace_sha256\": empty; the SHA-256 of the file it guards is required");
  EXPECT_NE(ErrorOf<FieldError>([&] { CheckSha256Field(std::string(63, 'a'), "t"); }), "");
  EXPECT_NE(ErrorOf<FieldError>([&] { CheckSha256Field(std::string(64, 'A'), "t"); }), "");
}

}  // namespace
}  // namespace dtrcheck
