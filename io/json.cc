#include "io/json.h"

#include <algorithm>
#include <utility>

#include "io/input_file.h"
#include "sim/log_line.h"  // Excerpt, kMaxLineBytes, TraceError

namespace dtrcheck {

namespace {

// True for what Python's json.loads reads as an int: an optional '-' and
// digits, no fraction or exponent (JSON allows no '+' and no leading zeros).
bool IsIntegerLiteral(std::string_view text) {
  size_t i = !text.empty() && text[0] == '-' ? 1 : 0;
  if (i == text.size()) return false;
  for (; i < text.size(); ++i)
    if (text[i] < '0' || text[i] > '9') return false;
  return true;
}

// A literal as an error message shows it: at most 60 characters.
std::string Shown(std::string_view text) {
  if (text.size() <= 60) return std::string(text);
  return std::string(text.substr(0, 40)) + "... (" + std::to_string(text.size()) + " characters)";
}

// nlohmann's DOM builder, with integer literals past 64 bits kept exact.
// nlohmann's lexer reads integers with strtoull/strtoll: one they overflow
// comes to number_float as a double, with its text beside it, and is put
// back here as the integer of that text. The builder's path to the current
// value (keys and array indices) names the field of a number it cannot
// hold.
class ExactIntegerBuilder {
 public:
  using number_integer_t = Json::number_integer_t;
  using number_unsigned_t = Json::number_unsigned_t;
  using number_float_t = Json::number_float_t;
  using string_t = Json::string_t;
  using binary_t = Json::binary_t;

  explicit ExactIntegerBuilder(Json& root) : dom_(root, /*allow_exceptions=*/true) {}

  bool null() { return Element(), dom_.null(); }
  bool boolean(bool v) { return Element(), dom_.boolean(v); }
  bool number_integer(number_integer_t v) { return Element(), dom_.number_integer(v); }
  bool number_unsigned(number_unsigned_t v) { return Element(), dom_.number_unsigned(v); }
  bool number_float(number_float_t v, const string_t& text) {
    Element();
    if (!IsIntegerLiteral(text)) return dom_.number_float(v, text);
    auto exact = ParseInt(text);
    if (!exact) OutOfRange(text);
    return dom_.number_integer(*exact);
  }
  bool string(string_t& v) { return Element(), dom_.string(v); }
  bool binary(binary_t& v) { return Element(), dom_.binary(v); }

  bool start_object(std::size_t n) {
    Element();
    path_.push_back({false, "", 0});
    return dom_.start_object(n);
  }
  bool key(string_t& k) {
    path_.back().key = k;
    return dom_.key(k);
  }
  bool end_object() {
    path_.pop_back();
    return dom_.end_object();
  }
  bool start_array(std::size_t n) {
    Element();
    path_.push_back({true, "", 0});
    return dom_.start_array(n);
  }
  bool end_array() {
    path_.pop_back();
    return dom_.end_array();
  }

  // nlohmann reports a literal past a double's range (an integer of 309
  // digits or more, 1e400) as out_of_range 406 here; every other error is
  // the text's and is thrown as nlohmann throws it.
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& e) {
    if (e.id == 406) OutOfRange(token);
    return dom_.parse_error(position, token, e);
  }

 private:
  struct Level {
    bool array;
    std::string key;  // an object's current key
    size_t next;      // an array's next index
  };

  // Called at the start of every value: in an array, it is the next element.
  void Element() {
    if (!path_.empty() && path_.back().array) ++path_.back().next;
  }

  // Where the current value is, as JsonFields names fields: "a.b[2].c".
  std::string Path() const {
    std::string out;
    for (const Level& l : path_) {
      if (l.array) {
        out += '[';
        out += std::to_string(l.next - 1);
        out += ']';
      } else {
        if (!out.empty()) out += '.';
        out += l.key;
      }
    }
    return out;
  }

  [[noreturn]] void OutOfRange(std::string_view text) const {
    std::string where = path_.empty() ? "" : "field \"" + Path() + "\": ";
    if (IsIntegerLiteral(text))
      throw FieldError(where + "the integer " + Shown(text) +
                       " is outside -2^127 .. 2^127-1, the integers dtrcheck holds (QUIRKS.md, "
                       "Q-INT-RANGE)");
    throw FieldError(where + "the number " + Shown(text) + " is beyond the range of a double");
  }

  nlohmann::detail::json_sax_dom_parser<Json> dom_;
  std::vector<Level> path_;
};

template <class Input>
Json Parse(Input&& input) {
  Json out;
  ExactIntegerBuilder builder(out);
  Json::sax_parse(std::forward<Input>(input), &builder);
  return out;
}

}  // namespace

Json ParseJson(std::string_view text) { return Parse(text); }

Json ParseJson(std::istream& in) { return Parse(in); }

void ReadJsonLines(const std::string& path, const std::function<void(long, Json&&)>& on_line) {
  // The one bounded reader (io/input_file.h): regular files only, lines
  // of at most kMaxLineBytes.
  const FileText file = OpenInputFile(path, FileLimits{}.max_bytes);
  // JSON Lines end at "\n" (a "\r" before it is white space to JSON), as
  // std::getline split them before: not at a lone "\r", as a simrd log.
  const std::string_view all = file.text();
  for (size_t start = 0, n = 1; start < all.size(); ++n) {
    const size_t end = std::min(all.find('\n', start), all.size());
    const std::string_view text = all.substr(start, end - start);
    start = end + 1;
    const std::string where = path + ":" + std::to_string(n) + ": ";
    if (text.size() > kMaxLineBytes)
      throw std::invalid_argument(where + "a line of " + std::to_string(text.size()) +
                                  " bytes; dtrcheck reads lines of at most 16 MiB");
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    Json value;
    try {
      value = ParseJson(text);
    } catch (const Json::exception& e) {
      throw std::invalid_argument(where + "not JSON: " + Excerpt(e.what()));
    } catch (const std::invalid_argument& e) {  // FieldError
      throw std::invalid_argument(where + e.what());
    }
    try {
      on_line(static_cast<long>(n), std::move(value));
    } catch (const Json::exception& e) {
      throw std::invalid_argument(where + e.what());
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(where + e.what());
    }
  }
}

}  // namespace dtrcheck
