// The JSON value of dtrcheck's records, configurations, manifests and the
// oracle's answers, and the one reader of their text.
//
// simrd's ints are unbounded and the oracle prints its records with Python's
// json.dumps, which writes an int of any size as its digits: a clock past
// 2^64 is `18446744073709551617`, not a float. dtrcheck computes in Int
// (128 bits, sim/python/py_arith.h), so its JSON holds 128-bit integers too:
//
//   writing  Json(v) holds any Int exactly and dump() prints its digits, as
//            json.dumps does, wherever a record is written (nlohmann's
//            serializer works on the integer types it is given);
//   reading  ParseJson keeps an integer literal of any size up to what Int
//            holds exactly. nlohmann's own parse() would turn one past
//            2^64-1 into a double: every record, manifest and oracle answer
//            is read here instead (ci/layering_check.py refuses
//            `Json::parse` anywhere else).
//
// Integers beyond Int (simrd would carry on with them) are refused, naming
// the field (QUIRKS.md, Q-INT-RANGE).
#ifndef DTRCHECK_IO_JSON_H_
#define DTRCHECK_IO_JSON_H_

#include <functional>
#include <istream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/python/py_arith.h"

namespace dtrcheck {

// A field that is missing, mistyped or out of range (what JsonFields and
// ParseJson throw).
class FieldError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// nlohmann::ordered_json (keys in insertion order, as the oracle prints
// them) with Int for its signed integers. Its unsigned type must be 128 bits
// as well: the serializer prints a negative integer through it.
using Json = nlohmann::basic_json<nlohmann::ordered_map, std::vector, std::string, bool, Int,
                                  unsigned __int128, double>;

// The JSON text `text` (or all of `in`) as a Json, every integer literal
// exact. Throws Json::parse_error for text that is not JSON, and FieldError
// naming the field ("storage_stats[2].size") for a number that Json cannot
// hold: an integer outside -2^127 .. 2^127-1, or a number beyond a double's
// range (1e400). As fast as nlohmann's parse() (the 12,000 records of
// corpus/oracle/resnet32.jsonl, 25 MB: 0.6 to 1.0 s either way).
Json ParseJson(std::string_view text);
Json ParseJson(std::istream& in);

// Reads the JSON Lines file `path`: on_line(n, value) for each line n
// (from 1) that is not blank, in order. Every error names the file and the
// line: "PATH:N: not JSON: ...", "PATH:N: " + what a FieldError or an
// std::invalid_argument thrown by on_line says, all as
// std::invalid_argument; "PATH: cannot read" if it cannot be opened.
void ReadJsonLines(const std::string& path, const std::function<void(long, Json&&)>& on_line);

}  // namespace dtrcheck

#endif  // DTRCHECK_IO_JSON_H_
