// app::run's one message.
#include <funcmesh/comm/app_run.hpp>

#include <cstdio>

namespace funcmesh::app::detail {

void print_agreed(const std::string& name, const std::string& what, int rank) {
  if (rank != 0) return;
  const std::string prefix = name + ":";
  std::fprintf(stderr, "%s%s\n", what.starts_with(prefix) ? "" : (prefix + " ").c_str(),
               what.c_str());
  std::fflush(stderr);
}

}  // namespace funcmesh::app::detail
