#include "io/json_fields.h"

#include <algorithm>

namespace dtrcheck {

namespace {

constexpr unsigned __int128 kIntMax = ~(unsigned __int128)0 >> 1;  // 2^127-1

}  // namespace

std::string FoundText(const Json& value) {
  std::string s = value.dump();
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

JsonFields::JsonFields(const Json& object, std::string path)
    : object_(object), path_(std::move(path)) {
  if (!object_.is_object())
    throw FieldError((path_.empty() ? std::string("document") : "field \"" + path_ + "\"") +
                     ": expected an object, found " + FoundText(object_));
}

std::string JsonFields::Name(const char* key) const {
  return path_.empty() ? std::string(key) : path_ + "." + key;
}

void JsonFields::Fail(const char* key, const std::string& expected) const {
  const Json& v = object_.contains(key) ? object_.at(key) : Json(nullptr);
  throw FieldError("field \"" + Name(key) + "\": expected " + expected + ", found " + FoundText(v));
}

bool JsonFields::Has(const char* key) const {
  return object_.contains(key) && !object_.at(key).is_null();
}

const Json& JsonFields::Value(const char* key) const {
  if (!Has(key)) throw FieldError("missing field \"" + Name(key) + "\"");
  return object_.at(key);
}

const Json& JsonFields::Nullable(const char* key) const {
  if (!object_.contains(key)) throw FieldError("missing field \"" + Name(key) + "\"");
  return object_.at(key);
}

JsonFields JsonFields::Object(const char* key) const {
  if (!Value(key).is_object()) Fail(key, "an object");
  return JsonFields(object_.at(key), Name(key));
}

const Json& JsonFields::Array(const char* key) const {
  const Json& v = Value(key);
  if (!v.is_array()) Fail(key, "an array");
  return v;
}

std::string JsonFields::String(const char* key) const {
  const Json& v = Value(key);
  if (!v.is_string()) Fail(key, "a string");
  return v.get<std::string>();
}

bool JsonFields::Bool(const char* key) const {
  const Json& v = Value(key);
  if (!v.is_boolean()) Fail(key, "true or false");
  return v.get<bool>();
}

double JsonFields::Number(const char* key) const {
  const Json& v = Value(key);
  if (!v.is_number()) Fail(key, "a number");
  return v.get<double>();
}

Int JsonFields::Integer(const char* key) const {
  const Json& v = Value(key);
  // ParseJson gives no unsigned value past Int; one built in code might be.
  if (v.is_number_unsigned() && v.get<Json::number_unsigned_t>() > kIntMax)
    Fail(key, "an integer from -2^127 to 2^127-1");
  if (!v.is_number_integer()) Fail(key, "an integer");
  return v.get<Int>();
}

int64_t JsonFields::Int64(const char* key) const {
  Int v = Integer(key);
  if (v < INT64_MIN || v > INT64_MAX) Fail(key, "an integer from -2^63 to 2^63-1");
  return static_cast<int64_t>(v);
}

std::optional<std::string> JsonFields::OptionalString(const char* key) const {
  if (!Has(key)) return std::nullopt;
  return String(key);
}

std::optional<double> JsonFields::OptionalNumber(const char* key) const {
  if (!Has(key)) return std::nullopt;
  return Number(key);
}

std::optional<Int> JsonFields::OptionalInteger(const char* key) const {
  if (!Has(key)) return std::nullopt;
  return Integer(key);
}

std::optional<bool> JsonFields::OptionalBool(const char* key) const {
  if (!Has(key)) return std::nullopt;
  return Bool(key);
}

void JsonFields::RejectUnknown(const std::vector<std::string>& known) const {
  for (const auto& [key, value] : object_.items())
    if (std::find(known.begin(), known.end(), key) == known.end())
      throw FieldError("unknown field \"" + Name(key.c_str()) + "\"");
}

}  // namespace dtrcheck
