// Integers past 64 bits in dtrcheck's JSON: written as their digits (as
// Python's json.dumps writes an int), read back exactly by ParseJson, and
// refused, naming the field, beyond what Int holds. The expected digits are
// Python's: str(2**64 + 1), str(2**100), str(-2**64 - 1), str(2**127 - 1).
#include "io/json.h"

#include <sys/stat.h>

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "io/error_of.h"
#include "io/input_file.h"
#include "io/json_fields.h"
#include "io/record.h"
#include "sim/log_line.h"

namespace dtrcheck {
namespace {

const Int kTwo64 = Int(1) << 64;
const Int kMax = ~(static_cast<unsigned __int128>(1) << 127);  // 2^127 - 1
const Int kMin = -kMax - 1;                                    // -2^127

TEST(Json, WritesIntegersOfAnySizeAsTheirDigits) {
  Json j = {{"a", kTwo64 + 1}, {"b", Int(1) << 100}, {"c", -kTwo64 - 1},
            {"max", kMax},     {"min", kMin},        {"small", Int(-5)}};
  EXPECT_EQ(j.dump(), R"({"a":18446744073709551617,"b":1267650600228229401496703205376,)"
                      R"("c":-18446744073709551617,"max":170141183460469231731687303715884105727,)"
                      R"("min":-170141183460469231731687303715884105728,"small":-5})");
}

TEST(Json, ReadsBackWhatItWrites) {
  for (Int v : {kTwo64 + 1, Int(1) << 100, -kTwo64 - 1, kMax, kMin, kTwo64 - 1, kTwo64,
                Int(INT64_MIN) - 1, Int(0), Int(7)}) {
    Json written = {{"v", v}, {"list", {v, {{"v", v}}}}};
    Json back = ParseJson(written.dump());
    EXPECT_EQ(back, written) << IntToString(v);
    EXPECT_EQ(JsonFields(back).Integer("v"), v) << IntToString(v);
    EXPECT_EQ(JsonFields(back["list"][1]).Integer("v"), v) << IntToString(v);
    std::istringstream in(written.dump(2));
    EXPECT_EQ(ParseJson(in), written) << IntToString(v);
  }
}

// What nlohmann's own parser does with these, and why ParseJson exists.
TEST(Json, NlohmannAloneReadsThemAsDoubles) {
  EXPECT_TRUE(Json::parse("18446744073709551617").is_number_float());  // NOLINT: the point
  EXPECT_TRUE(ParseJson("18446744073709551617").is_number_integer());
}

TEST(Json, KeepsFloatsAndTheOtherValues) {
  Json j = ParseJson(R"({"r": 0.1, "e": 1e30, "n": null, "s": "x", "t": [true, false, -0]})");
  EXPECT_TRUE(j["r"].is_number_float());
  EXPECT_EQ(j["r"].get<double>(), 0.1);
  EXPECT_TRUE(j["e"].is_number_float());  // json.loads('1e30') is a float too
  EXPECT_EQ(j.dump(), R"({"r":0.1,"e":1e+30,"n":null,"s":"x","t":[true,false,0]})");
}

TEST(Json, RefusesIntegersBeyondIntNamingTheField) {
  const std::string past = "170141183460469231731687303715884105728";  // 2^127
  EXPECT_EQ(ErrorOf<FieldError>([&] { ParseJson(R"({"budget": )" + past + "}"); }),
            "field \"budget\": the integer " + past +
                " is outside -2^127 .. 2^127-1, the integers dtrcheck holds (QUIRKS.md, "
                "Q-INT-RANGE)");
  EXPECT_EQ(ErrorOf<FieldError>([&] {
              ParseJson(R"({"a": 1, "storage_stats": [{"size": 1}, {"root_id": 2, "size": -)" +
                        past + "1}]}");
            }),
            "field \"storage_stats[1].size\": the integer -" + past +
                "1 is outside -2^127 .. 2^127-1, the integers dtrcheck holds (QUIRKS.md, "
                "Q-INT-RANGE)");
  // Past a double's range nlohmann reports an overflow (json.loads reads an
  // int of any length): the same refusal, the literal cut.
  std::string e =
      ErrorOf<FieldError>([] { ParseJson("[[0], {\"x\": 1" + std::string(400, '0') + "}]"); });
  EXPECT_EQ(e, "field \"[1].x\": the integer 1" + std::string(39, '0') +
                   "... (401 characters) is outside -2^127 .. 2^127-1, the integers dtrcheck "
                   "holds (QUIRKS.md, Q-INT-RANGE)");
  EXPECT_EQ(ErrorOf<FieldError>([] { ParseJson(R"({"ratio": 1e400})"); }),
            "field \"ratio\": the number 1e400 is beyond the range of a double");
  EXPECT_EQ(ErrorOf<FieldError>([&] { ParseJson(past); }),
            "the integer " + past +
                " is outside -2^127 .. 2^127-1, the integers dtrcheck holds (QUIRKS.md, "
                "Q-INT-RANGE)");
  EXPECT_THROW(ParseJson("{\"a\": }"), Json::parse_error);
}

// A run whose clock passes 2^64 (values as a trace with three operators of
// TIME near 2^63 gives them) is written and read back field for field.
TEST(Json, RecordRoundTripPast64Bits) {
  RunRecord r;
  r.config.budget = Int(1) << 100;
  r.budget = *r.config.budget;
  r.config.seed = r.seed_used = kMin;
  r.remat_limit_int = r.config.remat_limit = kTwo64 + 1;
  r.clock = 3 * (kTwo64 / 2) - 2;
  r.model_compute = r.clock - 1;
  r.remat_compute = -kTwo64 - 1;  // no run gives it; the record must still hold it
  r.baseline.compute = kMax;
  Json j = RecordToJson(r);
  std::string text = j.dump();
  EXPECT_NE(text.find("\"clock\":27670116110564327422"), std::string::npos) << text;
  EXPECT_NE(text.find("\"budget\":1267650600228229401496703205376"), std::string::npos) << text;
  RunRecord back = RecordFromJson(ParseJson(text));
  EXPECT_EQ(RecordToJson(back).dump(), text);
  EXPECT_EQ(back.clock, r.clock);
  EXPECT_EQ(back.remat_compute, r.remat_compute);
  EXPECT_EQ(back.baseline.compute, kMax);
  EXPECT_EQ(back.seed_used, kMin);
  EXPECT_EQ(back.remat_limit_int, kTwo64 + 1);
}

TEST(JsonFields, Int64RefusesWhatOnlyIntHolds) {
  Json j = {{"n", kTwo64 + 1}};
  EXPECT_EQ(ErrorOf<FieldError>([&] { JsonFields(j).Int64("n"); }),
            "field \"n\": expected an integer from -2^63 to 2^63-1, found 18446744073709551617");
  Json u = {{"n", static_cast<unsigned __int128>(kMax) + 1}};
  EXPECT_EQ(ErrorOf<FieldError>([&] { JsonFields(u).Integer("n"); }),
            "field \"n\": expected an integer from -2^127 to 2^127-1, found "
            "170141183460469231731687303715884105728");
}

// ReadJsonLines: blank lines skipped, numbers counted from 1 over all lines,
// and every error (bad JSON, a field past Int, the caller's own) names the
// file and the line.
TEST(ReadJsonLines, NumbersLinesAndNamesTheLineOfAnError) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("json_lines_test_" + std::to_string(getpid())))
          .string();
  auto write = [&](const std::string& text) { std::ofstream(path) << text; };
  std::vector<std::pair<long, Json>> read;
  auto collect = [&](long n, Json&& j) { read.emplace_back(n, std::move(j)); };

  write("{\"a\": 1}\n\n  \t\n[2]\n");
  ReadJsonLines(path, collect);
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].first, 1);
  EXPECT_EQ(read[0].second["a"], Int(1));
  EXPECT_EQ(read[1].first, 4);

  write("{}\n\n{\"a\": \n");
  EXPECT_EQ(ErrorOf<std::invalid_argument>([&] {
              ReadJsonLines(path, collect);
            }).rfind(path + ":3: not JSON: ", 0),
            0u);
  write("{}\n{\"big\": 1" + std::string(40, '0') + "}\n");
  EXPECT_EQ(
      ErrorOf<std::invalid_argument>([&] { ReadJsonLines(path, collect); }).rfind(path + ":2: ", 0),
      0u);
  write("{}\n{}\n");
  EXPECT_EQ(ErrorOf<std::invalid_argument>([&] {
              ReadJsonLines(path, [](long n, Json&&) {
                if (n == 2) throw std::invalid_argument("second line refused");
              });
            }),
            path + ":2: second line refused");
  std::filesystem::remove(path);
  EXPECT_EQ(ErrorOf<std::invalid_argument>([&] { ReadJsonLines(path, collect); }),
            path + ": cannot read");
}

// The bounded reader (base/file_text.h): a character device, a FIFO and a
// directory are refused before a byte is read (/dev/zero once grew to 14 GB,
// a FIFO would wait for a writer), naming the file; a line past
// kMaxLineBytes is refused naming the line.
TEST(ReadJsonLines, RefusesSpecialFilesAndOverlongLines) {
  auto ignore = [](long, Json&&) {};
  EXPECT_EQ(ErrorOf<std::invalid_argument>([&] { ReadJsonLines("/dev/zero", ignore); }),
            "/dev/zero: is a character device, not a regular file");
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("json_special_test_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  EXPECT_EQ(ErrorOf<std::invalid_argument>([&] { ReadJsonLines(dir.string(), ignore); }),
            dir.string() + ": is a directory, not a regular file");
  const std::string fifo = (dir / "fifo").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(ErrorOf<std::invalid_argument>([&] { ReadJsonLines(fifo, ignore); }),
            fifo + ": is a FIFO (named pipe), not a regular file");
  EXPECT_EQ(ErrorOf<std::invalid_argument>([&] { ReadJsonFile(fifo); }),
            fifo + ": is a FIFO (named pipe), not a regular file");
  const std::string long_line = (dir / "long.jsonl").string();
  std::ofstream(long_line) << "{}\n\"" << std::string(kMaxLineBytes, 'x') << "\"\n";
  EXPECT_EQ(ErrorOf<std::invalid_argument>([&] {
              ReadJsonLines(long_line, ignore);
            }).rfind(long_line + ":2: a line of ", 0),
            0u);
  // A manifest is one document of at most kMaxLineBytes.
  EXPECT_EQ(ErrorOf<std::invalid_argument>([&] {
              ReadJsonFile(long_line);
            }).rfind(long_line + ": longer than ", 0),
            0u);
  EXPECT_EQ(ErrorOf<std::invalid_argument>([&] { ReadSmallFile(long_line, 10); }),
            long_line + ": longer than 10 bytes, the most read here");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dtrcheck
