// The byte cursor behind the Gmsh readers (see cursor.hpp).
#include "cursor.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include <funcmesh/partition/gmsh_reader.hpp>
#include <funcmesh/partition/mesh_read_error.hpp>

namespace funcmesh::gmsh {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace

cursor::cursor(std::span<const std::byte> bytes, std::string_view file)
    : text_(reinterpret_cast<const char*>(bytes.data()), bytes.size()), file_(file) {}

bool cursor::at_end() {
  while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
  return pos_ == text_.size();
}

void cursor::fail_at(std::size_t offset, const std::string& reason) const {
  fail_in(section_, offset, reason);
}

void cursor::fail_in(std::string_view section, std::size_t offset,
                     const std::string& reason) const {
  offset = std::min(offset, text_.size());
  std::string position;
  if (binary_) {
    position = "byte " + std::to_string(offset);
  } else {
    const auto lines =
        std::count(text_.begin(), text_.begin() + static_cast<std::ptrdiff_t>(offset), '\n');
    position = "line " + std::to_string(lines + 1);
  }
  throw mesh_read_error(file_, position, std::string(section), reason);
}

bool cursor::next_line(std::string_view& line) {
  while (pos_ < text_.size()) {
    const std::size_t end = std::min(text_.find('\n', pos_), text_.size());
    line = trim(text_.substr(pos_, end - pos_));
    pos_ = end == text_.size() ? end : end + 1;
    if (!line.empty()) return true;
  }
  return false;
}

std::string_view cursor::expect_line(std::string_view what) {
  std::string_view line;
  if (!next_line(line)) fail("truncated: the file ends before " + std::string(what));
  return line;
}

std::span<const std::string_view> cursor::split(std::string_view line) {
  tokens_.clear();
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !is_space(line[i])) ++i;
    if (i > start) tokens_.push_back(line.substr(start, i - start));
  }
  return tokens_;
}

std::span<const std::string_view> cursor::expect_tokens(std::size_t count, std::string_view what,
                                                        bool at_least) {
  const std::string_view line = expect_line(what);
  const auto tokens = split(line);
  if (tokens.size() < count || (!at_least && tokens.size() > count)) {
    fail_at(offset_of(line), "expected " + std::string(at_least ? "at least " : "") +
                                 std::to_string(count) + " values in " + std::string(what) +
                                 ", found " + std::to_string(tokens.size()) + ": " + quote(line));
  }
  return tokens;
}

std::int64_t cursor::to_int64(std::string_view token, std::string_view what) const {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec == std::errc::result_out_of_range) {
    fail_at(offset_of(token),
            std::string(what) + " " + quote(token) + " is beyond the index width (int64)");
  }
  if (ec != std::errc{} || end != token.data() + token.size()) {
    fail_at(offset_of(token),
            "expected an integer " + std::string(what) + ", found " + quote(token));
  }
  return value;
}

int cursor::to_int(std::string_view token, std::string_view what) const {
  const std::int64_t value = to_int64(token, what);
  if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()) {
    fail_at(offset_of(token), std::string(what) + " " + quote(token) + " does not fit an int");
  }
  return static_cast<int>(value);
}

double cursor::to_real(std::string_view token, std::string_view what) const {
  double value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec == std::errc::invalid_argument || end != token.data() + token.size()) {
    fail_at(offset_of(token), "expected a number " + std::string(what) + ", found " + quote(token));
  }
  if (ec == std::errc::result_out_of_range || !std::isfinite(value)) {
    fail_at(offset_of(token), std::string(what) + " " + quote(token) + " is not a finite number");
  }
  return value;
}

std::int64_t cursor::plausible(std::int64_t count, std::size_t min_bytes, std::string_view what,
                               std::size_t at) const {
  if (count < 0) fail_at(at, std::string(what) + " " + std::to_string(count) + " is negative");
  const std::size_t left = text_.size() - std::min(at, text_.size());
  if (static_cast<std::uint64_t>(count) > left / min_bytes) {
    fail_at(at, std::string(what) + " " + std::to_string(count) + " is implausible for the " +
                    std::to_string(left) + " bytes left in the file");
  }
  return count;
}

std::int64_t cursor::read_size(std::string_view what) {
  const std::size_t at = pos_;
  const auto value = read<std::uint64_t>(what);
  if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    fail_at(at,
            std::string(what) + " " + std::to_string(value) + " is beyond the index width (int64)");
  }
  return static_cast<std::int64_t>(value);
}

double cursor::read_real(std::string_view what) {
  const std::size_t at = pos_;
  const double value = read<double>(what);
  if (!std::isfinite(value)) fail_at(at, std::string(what) + " is not a finite number");
  return value;
}

void cursor::expect_end(std::string_view name) {
  const std::string end = "$End" + std::string(name);
  std::string_view line;
  const std::size_t at = pos_;
  if (!next_line(line)) fail_at(at, "truncated: missing " + end);
  if (line != end) {
    fail_at(offset_of(line),
            "expected " + end + " (more data than its counts announce?), found " + quote(line));
  }
}

void cursor::skip_section(std::string_view name) {
  const std::string end = "$End" + std::string(name);
  std::string_view line;
  const std::size_t at = pos_;
  while (next_line(line)) {
    if (line == end) return;
  }
  fail_at(at, "truncated: missing " + end);
}

std::string cursor::quote(std::string_view text) {
  constexpr std::size_t limit = 40;
  std::string out = "'";
  for (std::size_t i = 0; i < text.size() && i < limit; ++i) {
    const char c = text[i];
    out += (c >= 0x20 && c < 0x7f) ? c : '?';
  }
  if (text.size() > limit) out += "...";
  return out + "'";
}

}  // namespace funcmesh::gmsh
