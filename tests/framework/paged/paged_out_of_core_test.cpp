// The worked example of docs/paged.md: an axpy over file-backed arrays 4x larger than
// their caches, page by page in place (map_page), on parallel threads, bitwise equal to
// the same loop over std::vectors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "paged_test_support.hpp"

namespace funcmesh::testing {

TEST(paged_out_of_core, axpy_over_a_file_four_times_the_cache) {
  temporary_directory dir;
  constexpr index_t page = 4096, pages = 32, n = page * pages - 100;  // short last page
  const file_store disk(dir.path(), {.channels = 2});
  // 2 channels x 4 cached pages = 8 of 32 pages in memory: a quarter of each array.
  paged_array<double> x(n, disk, {.page = page, .cached = 4});
  paged_array<double> y(n, disk, {.page = page, .cached = 4});
  std::vector<double> xs(static_cast<std::size_t>(n)), ys(xs.size());
  for (index_t i = 0; i < n; ++i) {
    xs[static_cast<std::size_t>(i)] = std::sin(0.001 * static_cast<double>(i));
    ys[static_cast<std::size_t>(i)] = 1.0 / (1.0 + static_cast<double>(i));
  }

  // Fill: every page written whole in the cache, never read from the file first.
#if defined(_OPENMP)
#pragma omp parallel for schedule(dynamic, 1) num_threads(2)
#endif
  for (index_t p = 0; p < pages; ++p) {
    x.map_page(p, page_access::overwrite, [&](double* v, index_t count) {
      for (index_t k = 0; k < count; ++k) v[k] = xs[static_cast<std::size_t>(p * page + k)];
    });
    y.map_page(p, page_access::overwrite, [&](double* v, index_t count) {
      for (index_t k = 0; k < count; ++k) v[k] = ys[static_cast<std::size_t>(p * page + k)];
    });
  }

  // y = a x + y, each page of x read in place and the same page of y updated in place
  // (always x's lock before y's, so threads cannot deadlock).
  const double a = 2.5;
#if defined(_OPENMP)
#pragma omp parallel for schedule(dynamic, 1) num_threads(2)
#endif
  for (index_t p = 0; p < pages; ++p)
    x.map_page(p, page_access::read, [&](double* xv, index_t count) {
      y.map_page(p, page_access::write, [&](double* yv, index_t) {
        for (index_t k = 0; k < count; ++k) yv[k] = a * xv[k] + yv[k];
      });
    });
  for (std::size_t i = 0; i < ys.size(); ++i) ys[i] = a * xs[i] + ys[i];
  // The fill read nothing from the file; the axpy read each page of y at most once, with
  // a quarter of the pages cached.
  EXPECT_EQ(y.channels() * y.cached_pages_per_channel() * 4, y.pages());
  EXPECT_LE(y.statistics().bytes_from_store, static_cast<std::uint64_t>(n) * sizeof(double));
  EXPECT_GT(y.statistics().write_backs, 0u);

  y.flush();
  const std::vector<double> result = y.read(0, n);
  for (std::size_t i = 0; i < ys.size(); ++i)
    ASSERT_EQ(std::memcmp(&result[i], &ys[i], sizeof(double)), 0) << "element " << i;
}

}  // namespace funcmesh::testing
