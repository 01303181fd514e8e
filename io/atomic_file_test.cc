#include "io/atomic_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "io/error_of.h"
#include "io/staged_entry.h"

namespace dtrcheck {
namespace {

namespace fs = std::filesystem;

class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("atomic_file_test." + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    fs::permissions(dir_, fs::perms::owner_all);
    fs::remove_all(dir_);
  }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string Read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  size_t Entries() const {
    size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++n;
    return n;
  }

  fs::path dir_;
};

// Until the commit, the destination keeps its old bytes; the temporary is
// the only other file, and is gone after.
TEST_F(AtomicFileTest, ReplacesTheFileWholeOnCommit) {
  const std::string path = Path("out.txt");
  std::ofstream(path) << "old\n";
  {
    AtomicFile out(path);
    out.stream() << "new\n";
    EXPECT_EQ(Read(path), "old\n");
    EXPECT_EQ(Entries(), 2u);
    out.Commit();
  }
  EXPECT_EQ(Read(path), "new\n");
  EXPECT_EQ(Entries(), 1u);
}

TEST_F(AtomicFileTest, LeavesNothingWithoutACommit) {
  const std::string path = Path("out.txt");
  {
    AtomicFile out(path);
    out.stream() << "lost\n";
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_EQ(Entries(), 0u);
}

// Two writers of one destination never share a temporary: the last commit
// wins, whole.
TEST_F(AtomicFileTest, TwoWritersNeverInterleave) {
  const std::string path = Path("out.txt");
  AtomicFile a(path), b(path);
  a.stream() << std::string(100000, 'a');
  b.stream() << std::string(100000, 'b');
  a.stream() << "\n";
  b.stream() << "\n";
  a.Commit();
  b.Commit();
  EXPECT_EQ(Read(path), std::string(100000, 'b') + "\n");
}

TEST_F(AtomicFileTest, CommitsUnderAnotherName) {
  const std::string path = Path("out.txt");
  AtomicFile out(path);
  out.stream() << "half\n";
  out.CommitAs(path + ".partial");
  EXPECT_FALSE(fs::exists(path));
  EXPECT_EQ(Read(path + ".partial"), "half\n");
}

// A read-only or missing directory, a directory as the file: OutputError
// naming the file and the system's reason, no temporary left.
TEST_F(AtomicFileTest, NamesTheFileThatCannotBeWritten) {
  if (geteuid() != 0) {  // root writes into a read-only directory
    fs::permissions(dir_, fs::perms::owner_read | fs::perms::owner_exec);
    EXPECT_EQ(ErrorOf<OutputError>([&] { AtomicFile out(Path("x.txt")); }),
              Path("x.txt") + ": cannot write: Permission denied");
    fs::permissions(dir_, fs::perms::owner_all);
  }
  EXPECT_EQ(ErrorOf<OutputError>([&] { AtomicFile out(dir_.string()); }),
            dir_.string() + ": cannot write: is a directory");
  EXPECT_EQ(ErrorOf<OutputError>([&] { AtomicFile out(Path("missing/x.txt")); }),
            Path("missing/x.txt") + ": cannot write: No such file or directory");
  EXPECT_EQ(Entries(), 0u);
}

TEST_F(AtomicFileTest, RefusesAnInputByIdentityNotName) {
  const std::string input = Path("in.log");
  std::ofstream(input) << "x\n";
  fs::create_hard_link(input, Path("link.log"));
  fs::create_symlink(input, Path("sym.log"));
  for (const std::string& same : {input, Path("link.log"), Path("sym.log"), Path("./in.log")})
    EXPECT_EQ(ErrorOf<OutputError>([&] { RefuseSameFile(input, "trace", same, "-o"); }),
              "-o " + same + " is the input trace " + input +
                  ": dtrcheck never writes over its input; write elsewhere")
        << same;
  EXPECT_EQ(ErrorOf<OutputError>([&] { RefuseSameFile(input, "trace", Path("new.log"), "-o"); }),
            "");
  std::ofstream(Path("other.log")) << "x\n";
  EXPECT_EQ(ErrorOf<OutputError>([&] { RefuseSameFile(input, "trace", Path("other.log"), "-o"); }),
            "");
}

// An archive entry (io/staged_entry.h): the directory's AtomicFile.
TEST_F(AtomicFileTest, StagedEntryPublishedEntryHoldsItsFilesAndNothingElseRemains) {
  {
    StagedEntry staged(dir_.string(), "abc");
    staged.WriteText("manifest.json", "{}\n");
    EXPECT_FALSE(fs::exists(dir_ / "abc"));  // invisible until published
    staged.Publish();
  }
  EXPECT_EQ(Read(dir_ / "abc" / "manifest.json"), "{}\n");
  EXPECT_EQ(Entries(), 1u);
}

TEST_F(AtomicFileTest, StagedEntryAnEntryNotPublishedLeavesNoTrace) {
  {
    StagedEntry staged(dir_.string(), "abc");
    staged.WriteText("trace.log", "half");
  }  // an exception between the writes and Publish() ends here
  EXPECT_EQ(Entries(), 0u);
}

TEST_F(AtomicFileTest, StagedEntryTheFirstOfTwoWritersOfOneIdWins) {
  StagedEntry first(dir_.string(), "abc");
  first.WriteText("manifest.json", "first\n");
  first.Publish();
  {
    // Same pid, so a second staging directory of the same name: the
    // constructor clears what a killed process of this pid may have left.
    StagedEntry second(dir_.string(), "abc");
    second.WriteText("manifest.json", "second\n");
    second.Publish();  // the entry exists: kept, no error
  }
  EXPECT_EQ(Read(dir_ / "abc" / "manifest.json"), "first\n");
  EXPECT_EQ(Entries(), 1u);
}

TEST_F(AtomicFileTest, StagedEntryAnArchiveThatIsAFileIsAnOutputError) {
  std::ofstream(dir_ / "file") << "x";
  try {
    StagedEntry staged((dir_ / "file").string(), "abc");
    FAIL() << "no error";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot create"), std::string::npos) << e.what();
  }
  EXPECT_EQ(Read(dir_ / "file"), "x");
}

}  // namespace
}  // namespace dtrcheck
