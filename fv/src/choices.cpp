// The runtime names of funcmesh::fv's choices (limiters): parsing and printing.
#include <stdexcept>
#include <string>
#include <string_view>

#include <funcmesh/fv/limiters.hpp>

namespace funcmesh::fv {

namespace {

struct limiter_name {
  std::string_view name;
  limiter_kind kind;
};

// Every accepted spelling; the first one of each kind is its canonical name.
constexpr limiter_name limiter_names[] = {
    {"none", limiter_kind::none},
    {"barth-jespersen", limiter_kind::barth_jespersen},
    {"barth", limiter_kind::barth_jespersen},
    {"venkatakrishnan", limiter_kind::venkatakrishnan},
    {"venkat", limiter_kind::venkatakrishnan},
    {"minmod", limiter_kind::minmod},
    {"van-leer", limiter_kind::van_leer},
    {"van-albada", limiter_kind::van_albada},
    {"superbee", limiter_kind::superbee},
    {"mc", limiter_kind::mc},
};

}  // namespace

limiter_kind parse_limiter(std::string_view name) {
  for (const limiter_name& entry : limiter_names) {
    if (entry.name == name) return entry.kind;
  }
  std::string message = "unknown limiter '";
  message.append(name);
  message += "'; valid names:";
  for (const limiter_name& entry : limiter_names) {
    message += ' ';
    message.append(entry.name);
  }
  throw std::invalid_argument(message);
}

// The table's first spelling of the kind (written once, so that parsing and printing
// cannot disagree).
const char* name_of(limiter_kind kind) {
  for (const limiter_name& entry : limiter_names) {
    if (entry.kind == kind) return entry.name.data();  // a literal: null-terminated
  }
  return "unknown";
}

}  // namespace funcmesh::fv
