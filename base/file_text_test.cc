#include "base/file_text.h"

#include <malloc.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "base/huge_pages.h"

namespace dtrcheck {
namespace {

namespace fs = std::filesystem;

class FileTextTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("file_text_test." + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  // The text is followed by kPadding zero bytes.
  static void ExpectPadded(const FileText& file) {
    const char* end = file.text().data() + file.text().size();
    for (size_t i = 0; i < FileText::kPadding; ++i) ASSERT_EQ(end[i], '\0') << "padding byte " << i;
  }

  fs::path dir_;
};

TEST_F(FileTextTest, HoldsARegularFilesTextThenZeros) {
  const std::string text = "{\"type\": \"CONSTANT\"}\nno newline at the end";
  const FileText file(Write("a.log", text));
  EXPECT_EQ(file.text(), text);
  ExpectPadded(file);
}

// The padding then lies wholly after the file's last page.
TEST_F(FileTextTest, PadsAFileThatFillsItsLastPage) {
  const std::string text(static_cast<size_t>(sysconf(_SC_PAGESIZE)) * 2, 'x');
  const FileText file(Write("pages.log", text));
  EXPECT_EQ(file.text(), text);
  ExpectPadded(file);
}

// A file of a megabyte or more is read into huge pages where the kernel
// offers them (mapped elsewhere): the text must come out whole either way,
// whether or not it ends at a huge-page boundary.
TEST_F(FileTextTest, HoldsLargeFilesWholeThenZeros) {
  for (size_t size : {size_t{1} << 20, (size_t{1} << 20) + 3, size_t{2} << 20,
                      (size_t{2} << 20) - 1, (size_t{5} << 20) + 4097}) {
    std::string text(size, '\0');
    for (size_t i = 0; i < size; ++i) text[i] = static_cast<char>('a' + (i * 7 + i / 4096) % 26);
    const FileText file(Write("large.log", text));
    EXPECT_TRUE(file.text() == text) << size << " bytes";
    ExpectPadded(file);
  }
}

TEST_F(FileTextTest, AnEmptyFileIsEmptyText) {
  const FileText file(Write("empty.log", ""));
  EXPECT_TRUE(file.text().empty());
  ExpectPadded(file);
}

TEST_F(FileTextTest, ReadsAPipe) {
  const std::string path = (dir_ / "fifo").string();
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  const std::string text(200000, 'y');  // more than one read and one pipe buffer
  std::thread writer([&] { std::ofstream(path, std::ios::binary) << text; });
  const FileText file(path);
  writer.join();
  EXPECT_EQ(file.text(), text);
  ExpectPadded(file);
}

TEST_F(FileTextTest, NamesWhatCannotBeRead) {
  const std::string missing = (dir_ / "missing.log").string();
  try {
    FileText file(missing);
    FAIL() << "no error";
  } catch (const TraceError& e) {
    EXPECT_EQ(e.file(), missing);
    EXPECT_EQ(e.message(), "cannot open file");
  }
  try {
    FileText file(dir_.string());
    FAIL() << "no error";
  } catch (const TraceError& e) {
    EXPECT_EQ(e.file(), dir_.string());
    EXPECT_EQ(e.message(), "is a directory, not a regular file");
  }
}

// What is read (not mapped) is bounded: /dev/zero, which has no line end,
// stops at the first line past kMaxLineBytes instead of taking all the
// memory there is (it grew to 14 GB in 30 s); max_bytes bounds a stream of
// short lines. With regular_only, a device or FIFO is refused unopened.
TEST_F(FileTextTest, BoundsWhatIsRead) {
  try {
    FileText file("/dev/zero");
    FAIL() << "no error";
  } catch (const TraceError& e) {
    EXPECT_EQ(e.line(), 1);
    EXPECT_EQ(e.message().rfind("a line of more than 16777216 bytes", 0), 0u) << e.message();
  }
  const std::string fifo = (dir_ / "lines").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  signal(SIGPIPE, SIG_IGN);  // the writer goes on after the reader stops
  std::thread writer([&] {
    std::ofstream out(fifo, std::ios::binary);
    for (int i = 0; i < 100000 && out; ++i) out << "{}\n";
  });
  try {
    FileText file(fifo, FileLimits{.max_bytes = 1000});
    FAIL() << "no error";
  } catch (const TraceError& e) {
    EXPECT_EQ(e.message(), "longer than 1000 bytes, the most read here");
  }
  writer.join();
  for (const std::string& special : {std::string("/dev/zero"), fifo}) {
    try {
      FileText file(special, FileLimits{.regular_only = true});
      FAIL() << "no error";
    } catch (const TraceError& e) {
      EXPECT_NE(e.message().find(", not a regular file"), std::string::npos) << e.message();
    }
  }
}

// A gzip file, by path or through a pipe, is named as such (not as bad
// JSON at its first byte).
TEST_F(FileTextTest, NamesAGzipFile) {
  const std::string gz = Write("trace.log.gz", std::string("\x1f\x8b\x08\x00rest", 8));
  try {
    FileText file(gz);
    FAIL() << "no error";
  } catch (const TraceError& e) {
    EXPECT_EQ(e.file(), gz);
    EXPECT_NE(e.message().find("gzip-compressed"), std::string::npos) << e.message();
  }
  const std::string fifo = (dir_ / "fifo").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { std::ofstream(fifo, std::ios::binary) << "\x1f\x8b\x08"; });
  EXPECT_THROW(FileText file(fifo), TraceError);
  writer.join();
}

// Once the heap is on huge pages (the dtrcheck command's, noted by
// cli/heap_pages.cc), a large file is read into a block of the heap, whose
// pages the run reuses after the parse: malloc counts the block as in use
// while the text lives. Last in this file: the note lasts for the process,
// and a test binary run whole (not one test per process, as ctest runs it)
// would take this path in the tests after it.
TEST_F(FileTextTest, ReadsLargeFilesIntoTheHeapOnceItIsOnHugePages) {
  if (!KernelOffersHugePagesOnRequest())
    GTEST_SKIP() << "the kernel offers no transparent huge pages on request";
  NoteHeapOnHugePages();
  ASSERT_TRUE(HeapOnHugePages());
  for (size_t size : {size_t{1} << 20, (size_t{3} << 20) + 5}) {
    std::string text(size, '\0');
    for (size_t i = 0; i < size; ++i) text[i] = static_cast<char>('a' + (i * 5 + i / 999) % 26);
    const std::string path = Write("heap.log", text);
    const struct mallinfo2 before = mallinfo2();
    const FileText file(path);
    const struct mallinfo2 during = mallinfo2();
    EXPECT_GE(during.uordblks + during.hblkhd, before.uordblks + before.hblkhd + size)
        << size << " bytes: not a block of the heap";
    EXPECT_TRUE(file.text() == text) << size << " bytes";
    ExpectPadded(file);
  }
}

}  // namespace
}  // namespace dtrcheck
