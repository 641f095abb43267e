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

const char* name_of(limiter_kind kind) {
  switch (kind) {
    case limiter_kind::none:
      return "none";
    case limiter_kind::barth_jespersen:
      return "barth-jespersen";
    case limiter_kind::venkatakrishnan:
      return "venkatakrishnan";
    case limiter_kind::minmod:
      return "minmod";
    case limiter_kind::van_leer:
      return "van-leer";
    case limiter_kind::van_albada:
      return "van-albada";
    case limiter_kind::superbee:
      return "superbee";
    case limiter_kind::mc:
      return "mc";
  }
  return "unknown";
}

}  // namespace funcmesh::fv
