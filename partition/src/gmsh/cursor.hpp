// Position-aware reading over the bytes of a .msh file, shared by the MSH 2 and MSH 4
// parsers: text lines and tokens, binary values, plausibility checks on counts, and
// errors that carry the file, the position (line in ASCII, byte in binary) and section.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace funcmesh::gmsh {

class cursor {
 public:
  cursor(std::span<const std::byte> bytes, std::string_view file);

  void set_section(std::string_view name) { section_ = name; }
  const std::string& section() const { return section_; }
  void set_binary(bool binary) { binary_ = binary; }
  bool binary() const { return binary_; }
  std::size_t offset() const { return pos_; }
  std::size_t remaining() const { return text_.size() - pos_; }
  bool at_end();  // true when only whitespace is left

  [[noreturn]] void fail(const std::string& reason) const { fail_at(pos_, reason); }
  [[noreturn]] void fail_at(std::size_t offset, const std::string& reason) const;
  [[noreturn]] void fail_in(std::string_view section, std::size_t offset,
                            const std::string& reason) const;

  // Text. The next non-blank line, trimmed, without its "\n" or "\r\n"; false at the end.
  bool next_line(std::string_view& line);
  // As next_line, but the end of the file is an error ("truncated").
  std::string_view expect_line(std::string_view what);
  // The whitespace-separated tokens of a line (valid until the next call).
  std::span<const std::string_view> split(std::string_view line);
  // Splits the next line and checks it holds `count` tokens (or at least `count`).
  std::span<const std::string_view> expect_tokens(std::size_t count, std::string_view what,
                                                  bool at_least = false);
  std::size_t offset_of(std::string_view token) const {
    return static_cast<std::size_t>(token.data() - text_.data());
  }
  std::int64_t to_int64(std::string_view token, std::string_view what) const;
  int to_int(std::string_view token, std::string_view what) const;
  double to_real(std::string_view token, std::string_view what) const;  // finite only

  // A count of records of at least `min_bytes` each: non-negative and no larger than the
  // bytes left in the file allow, so that reserving for it is safe.
  std::int64_t plausible(std::int64_t count, std::size_t min_bytes, std::string_view what,
                         std::size_t at) const;

  // Binary: values in native byte order (the endianness marker was checked).
  template <class T>
  T read(std::string_view what) {
    if (remaining() < sizeof(T)) fail("truncated: the file ends inside " + std::string(what));
    T value;
    std::memcpy(&value, text_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return value;
  }
  std::int64_t read_size(std::string_view what);  // an 8-byte size_t, within int64
  double read_real(std::string_view what);        // finite only

  // The next line must be "$End<name>" (name without its '$').
  void expect_end(std::string_view name);
  // Skips to just after the line "$End<name>".
  void skip_section(std::string_view name);

  // Printable, shortened text of what was found, for error messages.
  static std::string quote(std::string_view text);

 private:
  std::string_view text_;
  std::string file_;
  std::string section_;
  std::size_t pos_ = 0;
  bool binary_ = false;
  std::vector<std::string_view> tokens_;
};

}  // namespace funcmesh::gmsh
