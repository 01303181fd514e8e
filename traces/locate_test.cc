#include "traces/locate.h"

#include "traces/captured.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>

#include <unistd.h>

#include <gtest/gtest.h>

namespace dtrcheck {
namespace {

namespace fs = std::filesystem;

// Sets an environment variable for the scope of a test.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_)
      setenv(name_, old_->c_str(), 1);
    else
      unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

fs::path ScratchDir(const std::string& name) {
  fs::path dir =
      fs::temp_directory_path() / ("dtrcheck_locate_test_" + name + "_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void WriteFile(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

std::string ErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const TraceLocateError& e) {
    return e.what();
  }
  return "";
}

TEST(Locate, ManifestNamesTheEightSimrdTraces) {
  std::vector<std::string> names;
  for (const auto& t : PublicTraces()) {
    names.push_back(t.name);
    EXPECT_EQ(t.sha256.size(), 64u) << t.name;
    EXPECT_TRUE(t.has_start) << t.name;  // all eight public logs start with START
  }
  EXPECT_EQ(names, (std::vector<std::string>{"resnet32", "unet", "lstm", "treelstm", "transformer",
                                             "densenet121", "inceptionv4", "unroll_gan"}));
}

TEST(Locate, Sha256MatchesTheFips180Vector) {
  fs::path dir = ScratchDir("sha");
  WriteFile(dir / "abc", "abc");  // FIPS 180-2, appendix B.1
  EXPECT_EQ(Sha256OfFile((dir / "abc").string()),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  fs::remove_all(dir);
}

TEST(Locate, UnknownNameListsTheKnownNames) {
  std::string error = ErrorOf([] { LocatePublicTrace("resnet33"); });
  EXPECT_NE(error.find("unknown trace \"resnet33\""), std::string::npos) << error;
  EXPECT_NE(error.find("resnet32, unet, lstm"), std::string::npos) << error;
}

TEST(Locate, EnvironmentDirectoryIsTheOnlyOneSearched) {
  fs::path dir = ScratchDir("env");
  ScopedEnv env("DTRCHECK_TRACES", dir.string());
  ASSERT_EQ(TraceSearchPath().size(), 1u);
  std::string error = ErrorOf([] { LocatePublicTrace("unet"); });
  EXPECT_NE(error.find("not found"), std::string::npos) << error;
  EXPECT_NE(error.find(dir.string()), std::string::npos) << error;
  EXPECT_NE(error.find("fetch_traces.sh"), std::string::npos) << error;
  fs::remove_all(dir);
}

TEST(Locate, WrongBytesAreAMismatchNamingBothDigests) {
  fs::path dir = ScratchDir("mismatch");
  const PublicTrace* t = FindPublicTrace("resnet32");
  ASSERT_NE(t, nullptr);
  WriteFile(dir / t->file, "abc");
  ScopedEnv env("DTRCHECK_TRACES", dir.string());
  std::string error = ErrorOf([] { LocatePublicTrace("resnet32"); });
  EXPECT_NE(error.find("SHA-256 mismatch"), std::string::npos) << error;
  EXPECT_NE(error.find(t->sha256), std::string::npos) << error;
  EXPECT_NE(error.find("ba7816bf8f01cfea"), std::string::npos) << error;
  EXPECT_EQ(InspectPublicTrace("resnet32").check, TraceCheck::kMismatch);
  fs::remove_all(dir);
}

TEST(Locate, ResolveKeepsExistingFilesAndRejectsNonsense) {
  fs::path dir = ScratchDir("resolve");
  WriteFile(dir / "x.log", "");
  EXPECT_EQ(ResolveTraceArgument((dir / "x.log").string()), (dir / "x.log").string());
  std::string error = ErrorOf([&] { ResolveTraceArgument((dir / "missing.log").string()); });
  EXPECT_NE(error.find("neither a file nor a trace name"), std::string::npos) << error;
  fs::remove_all(dir);
}

TEST(Locate, EveryTraceFoundOnTheDefaultPathVerifies) {
  int found = 0;
  for (const auto& t : PublicTraces()) {
    LocatedTrace located = InspectPublicTrace(t.name);
    if (located.check == TraceCheck::kMissing) continue;
    ++found;
    EXPECT_EQ(located.check, TraceCheck::kVerified) << located.path;
    EXPECT_TRUE(fs::path(located.path).is_absolute()) << located.path;
    EXPECT_EQ(LocatePublicTrace(t.name), located.path);
  }
  if (found == 0) GTEST_SKIP() << "no public trace on the search path";
}

TEST(Captured, EveryCapturedTraceDecompressesIntoTheCacheAndVerifies) {
  ASSERT_FALSE(CapturedTraces().empty());
  fs::path cache = ScratchDir("captured_cache");
  ScopedEnv env("XDG_CACHE_HOME", cache.string());
  for (const auto& t : CapturedTraces()) {
    EXPECT_EQ(FindPublicTrace(t.name), nullptr) << t.name << " is also a public trace name";
    std::string path = LocateCapturedTrace(t.name);
    EXPECT_EQ(path, (cache / "dtrcheck" / "captured" / (t.name + ".log")).string());
    EXPECT_EQ(Sha256OfFile(path), t.sha256);
    EXPECT_EQ(LocateNamedTrace(t.name), path);
    EXPECT_EQ(ResolveTraceArgument(t.name), path);
    EXPECT_EQ(*PinnedTraceSha256(t.name), t.sha256);
  }
  fs::remove_all(cache);
}

TEST(Captured, AStaleCachedLogIsReplaced) {
  const CapturedTrace& t = CapturedTraces().front();
  fs::path cache = ScratchDir("captured_stale");
  ScopedEnv env("XDG_CACHE_HOME", cache.string());
  fs::create_directories(cache / "dtrcheck" / "captured");
  WriteFile(cache / "dtrcheck" / "captured" / (t.name + ".log"), "not the log\n");
  EXPECT_EQ(Sha256OfFile(LocateCapturedTrace(t.name)), t.sha256);
  fs::remove_all(cache);
}

TEST(Captured, MissingOrCorruptArchivesAreErrors) {
  const CapturedTrace& t = CapturedTraces().front();
  fs::path cache = ScratchDir("captured_errors_cache");
  fs::path archives = ScratchDir("captured_errors_archives");
  ScopedEnv env("XDG_CACHE_HOME", cache.string());
  ScopedEnv dir("DTRCHECK_CAPTURED", archives.string());
  std::string error = ErrorOf([&] { LocateCapturedTrace(t.name); });
  EXPECT_NE(error.find("not found"), std::string::npos) << error;
  WriteFile(archives / t.file, std::string("\x1f\x8b\x08\x00garbage", 12));
  error = ErrorOf([&] { LocateCapturedTrace(t.name); });
  EXPECT_FALSE(error.empty());
  EXPECT_FALSE(fs::exists(cache / "dtrcheck" / "captured" / (t.name + ".log")));
  error = ErrorOf([&] { LocateNamedTrace("resnet33"); });
  EXPECT_NE(error.find("captured: "), std::string::npos) << error;
  fs::remove_all(cache);
  fs::remove_all(archives);
}

}  // namespace
}  // namespace dtrcheck
