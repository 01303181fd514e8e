// Reading a JSON object field by field: the one checked-field reader of
// dtrcheck's JSON files (run configurations and records, parity cases,
// finding manifests). Every error names the key (with its path from the
// document's top, "budgets.lo.ratio"), what was expected and what was found:
//
//   missing field "budget"
//   field "budget": expected an integer, found "12"
//   field "config.seed": expected an integer, found 1e+30
//
// The caller adds where the document came from (file, line).
#ifndef DTRCHECK_IO_JSON_FIELDS_H_
#define DTRCHECK_IO_JSON_FIELDS_H_

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/json.h"
#include "sim/python/py_arith.h"

namespace dtrcheck {

// `value` as an error message shows it: its JSON text, cut at 60 characters.
std::string FoundText(const Json& value);

class JsonFields {
 public:
  // `object` must outlive this reader. `path` names it in messages ("" for
  // the top of the document). Throws FieldError if it is not an object.
  explicit JsonFields(const Json& object, std::string path = "");

  const Json& json() const { return object_; }

  // Present and not null: null counts as absent, as in the oracle's
  // configurations.
  bool Has(const char* key) const;

  // Required fields: FieldError if missing (or null) or of the wrong type.
  const Json& Value(const char* key) const;
  // Required but possibly null (a record's ratio, remat_limit, seed).
  const Json& Nullable(const char* key) const;
  JsonFields Object(const char* key) const;
  const Json& Array(const char* key) const;
  std::string String(const char* key) const;
  bool Bool(const char* key) const;
  double Number(const char* key) const;  // any JSON number
  Int Integer(const char* key) const;    // any JSON integer Int holds
  int64_t Int64(const char* key) const;

  // Optional fields: nothing when absent or null, FieldError when mistyped.
  std::optional<std::string> OptionalString(const char* key) const;
  std::optional<double> OptionalNumber(const char* key) const;
  std::optional<Int> OptionalInteger(const char* key) const;
  std::optional<bool> OptionalBool(const char* key) const;

  // FieldError for the first key of the object that is not in `known`.
  void RejectUnknown(const std::vector<std::string>& known) const;

  // `field "<path.key>": expected <expected>, found <value>`.
  [[noreturn]] void Fail(const char* key, const std::string& expected) const;

 private:
  std::string Name(const char* key) const;

  const Json& object_;
  std::string path_;
};

}  // namespace dtrcheck

#endif  // DTRCHECK_IO_JSON_FIELDS_H_
