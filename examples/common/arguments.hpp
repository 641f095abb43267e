// A small command-line parser shared by the example programs: --name value options with
// defaults shown in --help, flags, and errors that name the option and the bad value.
#pragma once

#include <charconv>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace example {

class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class arguments {
 public:
  arguments(std::string program, std::string summary)
      : program_(std::move(program)), summary_(std::move(summary)) {}

  template <class T>
  void option(std::string name, T& target, std::string help) {
    std::string shown = describe(target);
    entries_.push_back({std::move(name), std::move(help), std::move(shown), false,
                        [&target, this](const std::string& flag, const std::string& text) {
                          convert(flag, text, target);
                        }});
  }
  void flag(std::string name, bool& target, std::string help) {
    entries_.push_back({std::move(name), std::move(help), "", true,
                        [&target](const std::string&, const std::string&) { target = true; }});
  }

  // False when --help was asked (usage printed when `print` is set); throws usage_error.
  bool parse(int argc, char** argv, bool print) {
    for (int k = 1; k < argc; ++k) {
      const std::string flag = argv[k];
      if (flag == "--help" || flag == "-h") {
        if (print) std::fputs(usage().c_str(), stdout);
        return false;
      }
      if (flag == "--verbose") {  // also read by the MPI environment at start-up
        verbose_ = true;
        continue;
      }
      const entry* found = nullptr;
      for (const entry& e : entries_) {
        if ("--" + e.name == flag) found = &e;
      }
      if (found == nullptr) {
        throw usage_error(program_ + ": unknown option '" + flag + "' (see --help)");
      }
      if (found->is_flag) {
        found->set(flag, "");
        continue;
      }
      if (k + 1 >= argc) throw usage_error(program_ + ": " + flag + " needs a value (see --help)");
      found->set(flag, argv[++k]);
    }
    return true;
  }

  // Whether parse() saw --verbose (the MPI environment reads it too: it prints every
  // rank's binding); a program that prints more for it says so in its --help.
  bool verbose() const { return verbose_; }
  void verbose_help(std::string help) { verbose_help_ = std::move(help); }

  std::string usage() const {
    std::string text = "usage: " + program_ + " [options]\n" + summary_ + "\n\noptions:\n";
    for (const entry& e : entries_) {
      std::string left = "  --" + e.name + (e.is_flag ? "" : " <value>");
      if (left.size() < 28) left.resize(28, ' ');
      text += left + " " + e.help + (e.shown.empty() ? "" : " (default " + e.shown + ")") + "\n";
    }
    text += "  --verbose                   " + verbose_help_ + "\n";
    text += "  --help                      this text\n";
    return text;
  }

 private:
  struct entry {
    std::string name, help, shown;
    bool is_flag;
    std::function<void(const std::string&, const std::string&)> set;
  };

  static std::string describe(const std::string& value) { return value.empty() ? "" : value; }
  template <class T>
  static std::string describe(const T& value) {
    if constexpr (std::is_floating_point_v<T>) {
      char text[32];
      std::snprintf(text, sizeof text, "%g", static_cast<double>(value));
      return text;
    } else {
      return std::to_string(value);
    }
  }

  void convert(const std::string& flag, const std::string& text, std::string& target) const {
    if (text.empty()) throw usage_error(program_ + ": " + flag + " needs a non-empty value");
    target = text;
  }
  template <class T>
  void convert(const std::string& flag, const std::string& text, T& target) const {
    T value{};
    const char* end = text.data() + text.size();
    const auto [stop, code] = std::from_chars(text.data(), end, value);
    if (code != std::errc() || stop != end) {
      throw usage_error(program_ + ": " + flag + " '" + text + "' is not a valid " +
                        (std::is_floating_point_v<T> ? "number" : "integer"));
    }
    target = value;
  }

  std::string program_, summary_;
  std::vector<entry> entries_;
  std::string verbose_help_ = "print each rank's host, rank and GPU at start-up";
  bool verbose_ = false;
};

}  // namespace example
