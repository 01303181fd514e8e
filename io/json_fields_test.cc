// Every error of the checked-field reader names the field (with its path),
// what was expected and what was found.
#include "io/json_fields.h"

#include <gtest/gtest.h>

#include <string>

#include "io/error_of.h"

namespace dtrcheck {
namespace {

const Json kDoc = ParseJson(R"({"name": "x", "count": 3, "big": 18446744073709551615,
  "neg": -5, "ratio": 0.5, "flag": true, "none": null, "list": [1], "too_big": 1e30,
  "inner": {"deep": {"value": "text"}}})");

TEST(JsonFields, ReadsEveryType) {
  JsonFields j(kDoc);
  EXPECT_EQ(j.String("name"), "x");
  EXPECT_EQ(j.Integer("count"), 3);
  EXPECT_EQ(IntToString(j.Integer("big")), "18446744073709551615");
  EXPECT_EQ(j.Int64("neg"), -5);
  EXPECT_EQ(j.Number("ratio"), 0.5);
  EXPECT_EQ(j.Number("count"), 3.0);  // an integer is a number
  EXPECT_TRUE(j.Bool("flag"));
  EXPECT_EQ(j.Array("list").size(), 1u);
  EXPECT_EQ(j.Object("inner").Object("deep").String("value"), "text");
  EXPECT_TRUE(j.Nullable("none").is_null());
}

TEST(JsonFields, NullIsAbsent) {
  JsonFields j(kDoc);
  EXPECT_FALSE(j.Has("none"));
  EXPECT_FALSE(j.Has("nowhere"));
  EXPECT_TRUE(j.Has("name"));
  EXPECT_FALSE(j.OptionalString("none"));
  EXPECT_FALSE(j.OptionalNumber("nowhere"));
  EXPECT_FALSE(j.OptionalInteger("none"));
  EXPECT_FALSE(j.OptionalBool("none"));
  EXPECT_EQ(j.OptionalInteger("count"), Int(3));
  EXPECT_EQ(ErrorOf<FieldError>([&] { j.String("none"); }), "missing field \"none\"");
}

TEST(JsonFields, NamesTheMissingField) {
  JsonFields j(kDoc);
  EXPECT_EQ(ErrorOf<FieldError>([&] { j.Value("budget"); }), "missing field \"budget\"");
  EXPECT_EQ(ErrorOf<FieldError>([&] { j.Nullable("seed"); }), "missing field \"seed\"");
  EXPECT_EQ(ErrorOf<FieldError>([&] { j.Object("inner").Object("deep").Integer("id"); }),
            "missing field \"inner.deep.id\"");
}

TEST(JsonFields, NamesExpectedAndFound) {
  JsonFields j(kDoc);
  EXPECT_EQ(ErrorOf<FieldError>([&] { j.String("count"); }),
            "field \"count\": expected a string, found 3");
  EXPECT_EQ(ErrorOf<FieldError>([&] { j.Integer("name"); }),
            "field \"name\": expected an integer, found \"x\"");
  EXPECT_EQ(ErrorOf<FieldError>([&] { j.Integer("ratio"); }),
            "field \"ratio\": expected an integer, found 0.5");
  EXPECT_EQ(ErrorOf<FieldError>([&] { j.Integer("too_big"); }),
            "field \"too_big\": expected an integer, found 1e+30");
  EXPECT_EQ(ErrorOf<FieldError>([&] { j.Int64("big"); }),
            "field \"big\": expected an integer from -2^63 to 2^63-1, found 18446744073709551615");
  EXPECT_EQ(ErrorOf<FieldError>([&] { j.Int64("ratio"); }),
            "field \"ratio\": expected an integer, found 0.5");
  EXPECT_EQ(ErrorOf<FieldError>([&] { j.Number("flag"); }),
            "field \"flag\": expected a number, found true");
  EXPECT_EQ(ErrorOf<FieldError>([&] { j.Bool("count"); }),
            "field \"count\": expected true or false, found 3");
  EXPECT_EQ(ErrorOf<FieldError>([&] { j.Array("name"); }),
            "field \"name\": expected an array, found \"x\"");
  EXPECT_EQ(ErrorOf<FieldError>([&] { j.Object("list"); }),
            "field \"list\": expected an object, found [1]");
  EXPECT_EQ(ErrorOf<FieldError>([&] { j.OptionalString("count"); }),
            "field \"count\": expected a string, found 3");
  EXPECT_EQ(ErrorOf<FieldError>([&] { j.OptionalNumber("name"); }),
            "field \"name\": expected a number, found \"x\"");
  EXPECT_EQ(ErrorOf<FieldError>([&] { j.OptionalInteger("ratio"); }),
            "field \"ratio\": expected an integer, found 0.5");
  EXPECT_EQ(ErrorOf<FieldError>([&] { j.OptionalBool("name"); }),
            "field \"name\": expected true or false, found \"x\"");
  EXPECT_EQ(ErrorOf<FieldError>([&] { j.Object("inner").Object("deep").Integer("value"); }),
            "field \"inner.deep.value\": expected an integer, found \"text\"");
  EXPECT_EQ(ErrorOf<FieldError>([&] { j.Fail("count", "an even number"); }),
            "field \"count\": expected an even number, found 3");
}

TEST(JsonFields, CutsLongValues) {
  Json doc = {{"long", std::string(200, 'a')}};
  std::string e = ErrorOf<FieldError>([&] { JsonFields(doc).Integer("long"); });
  EXPECT_EQ(e, "field \"long\": expected an integer, found \"" + std::string(56, 'a') + "...");
}

TEST(JsonFields, RejectsANonObject) {
  EXPECT_EQ(ErrorOf<FieldError>([] { JsonFields(ParseJson("[1, 2]")); }),
            "document: expected an object, found [1,2]");
  EXPECT_EQ(ErrorOf<FieldError>([] { JsonFields(Json(3), "config"); }),
            "field \"config\": expected an object, found 3");
}

TEST(JsonFields, RejectsUnknownFields) {
  JsonFields j(kDoc["inner"], "inner");
  EXPECT_EQ(ErrorOf<FieldError>([&] { j.RejectUnknown({"deep"}); }), "");
  EXPECT_EQ(ErrorOf<FieldError>([&] { j.RejectUnknown({"shallow"}); }),
            "unknown field \"inner.deep\"");
}

}  // namespace
}  // namespace dtrcheck
