// A tiny program against an installed funcmesh: the umbrella header, a buffer round
// trip, an expression assignment and a reduction on the default executor, and the
// configuration it was built with.
#include <funcmesh/funcmesh.hpp>

#include <cstdio>

int main() {
  funcmesh::array<double> values{1.0, 2.0, 3.0};
  funcmesh::array<double> copy = values.clone();
  copy.write()[1] = 20.0;
  double sum = 0;
  for (double v : copy.read()) sum += v;
  funcmesh::grid_function<double> x(1000, "x"), y(1000, "y");
  x = funcmesh::index() * 1.0;
  y = 2.0 * x + 1.0;
  const double expression_sum = funcmesh::sum(y, {.reproducible = true});
  if (expression_sum != 1000.0 * 1000.0) {
    std::printf("funcmesh consumer: expression sum %g, expected 1e6\n", expression_sum);
    return 1;
  }
  std::printf("funcmesh %s, backends:", funcmesh::config::version.data());
  for (auto backend : funcmesh::config::backends) std::printf(" %s", backend.data());
  std::printf(", MPI %s\n", funcmesh::config::mpi ? "on" : "off");
  if (sum != 24.0 || values.read()[1] != 2.0) {
    std::printf("funcmesh consumer: wrong sum %g\n", sum);
    return 1;
  }
  std::printf("funcmesh consumer: ok\n");
  return 0;
}
