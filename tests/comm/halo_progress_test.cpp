// The overlapped interior loop in chunks with progress calls between them: the chunks cover
// the interior once, the setting refuses nonsense, and an assignment gives the same bits
// in chunks as in one loop, with one exchange each.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#include <funcmesh/comm.hpp>
#include <funcmesh/func/function.hpp>
#include <funcmesh/profile/device_activity.hpp>

namespace {

namespace fm = funcmesh;

// A face sum reads u at the cells' neighbours: the halo takes part.
struct difference {
  FUNCMESH_DEVICE double operator()(double l, double r, const fm::face_view& f) const {
    return (r - l) * f.area;
  }
};
struct closed {
  FUNCMESH_DEVICE double operator()(double, const fm::face_view&) const { return 0.0; }
};

TEST(halo_progress, chunks_cover_the_interior_once_in_order) {
  const int before = fm::halo_progress_chunks();
  fm::set_halo_progress_chunks(8);
  for (const fm::index_t interior : {0, 1, 4095, 4096, 8191, 8192, 40000, 1000003}) {
    const fm::index_t chunks = fm::detail::progress_chunk_count(interior);
    ASSERT_GE(chunks, 1);
    EXPECT_LE(chunks, fm::halo_progress_chunks());
    if (chunks > 1) {
      EXPECT_GE(interior / chunks, fm::halo_progress_min_chunk);
    }
    EXPECT_EQ(fm::detail::chunk_begin(interior, chunks, 0), 0);
    EXPECT_EQ(fm::detail::chunk_begin(interior, chunks, chunks), interior);
    for (fm::index_t k = 0; k < chunks; ++k) {
      const fm::index_t size = fm::detail::chunk_begin(interior, chunks, k + 1) -
                               fm::detail::chunk_begin(interior, chunks, k);
      EXPECT_GE(size, interior / chunks) << interior << " chunk " << k;
      EXPECT_LE(size, interior / chunks + 1) << interior << " chunk " << k;
    }
  }
  EXPECT_EQ(fm::detail::progress_chunk_count(1000003), 8);
  fm::set_halo_progress_chunks(before);
}

// No chunks where they cannot help: a plan without neighbours (one rank) has no message
// to progress, and a device loop's launch returns at once (the host then waits in the
// round's end while the device computes). Counted: a round's interior is one launch there.
TEST(halo_progress, no_chunks_without_neighbours_or_on_a_device) {
  const int before = fm::halo_progress_chunks();
  fm::set_halo_progress_chunks(8);
  const fm::distributed_layout layout =
      fm::distribute_generated(MPI_COMM_WORLD, [] { return fm::box2d_quad(400, 400); });
  const fm::index_t interior = layout.interior_count();
  ASSERT_GT(fm::detail::progress_chunk_count(interior), 1) << "an interior worth cutting";
  const bool alone = layout.exchange_plan().neighbour_count() == 0;
  EXPECT_EQ(fm::detail::progress_chunk_count(layout, fm::executor::serial(), interior),
            alone ? 1 : fm::detail::progress_chunk_count(interior));
  const fm::executor device = fm::executor::simulated_device(0);
  EXPECT_EQ(fm::detail::progress_chunk_count(layout, device, interior), 1);

  fm::dist_function<double> u(layout, "u"), v(layout, "v");
  u.assign(fm::index<fm::cells>() * 0.5, {.on = device});  // on the device, halo stale
  fm::reset_device_activity();
  v.assign(fm::sum_over_faces(layout, difference{}, u, fm::on_other_groups(closed{})),
           {.on = device});
  // The interior in one launch; where there are neighbours, the cells beside the halo in
  // one more, and the pack and the unpack.
  EXPECT_EQ(fm::device_activity().launches, alone ? 1u : 4u);
  fm::set_halo_progress_chunks(before);
}

TEST(halo_progress, the_setting_is_the_environment_or_the_default_and_refuses_zero) {
  const char* text = std::getenv("FUNCMESH_HALO_PROGRESS_CHUNKS");
  EXPECT_EQ(fm::halo_progress_chunks(),
            text != nullptr ? std::atoi(text) : fm::default_halo_progress_chunks);
  const int before = fm::halo_progress_chunks();
  EXPECT_THROW(fm::set_halo_progress_chunks(0), fm::error);
  EXPECT_THROW(fm::set_halo_progress_chunks(-3), fm::error);
  EXPECT_EQ(fm::halo_progress_chunks(), before);
  fm::set_halo_progress_chunks(5);
  EXPECT_EQ(fm::halo_progress_chunks(), 5);
  fm::set_halo_progress_chunks(before);
}

struct left_neighbour {
  FUNCMESH_DEVICE double operator()(fm::proxy<const double> u, fm::index_t i) const {
    return i > 0 ? u[i - 1] + 0.5 * u[i] : u[i];
  }
};

// Over the owned cells read through a proxy, so the halo takes part; the interior is large
// enough for several chunks on every rank count this test runs at.
TEST(halo_progress, chunked_and_single_loops_give_the_same_bits) {
  const fm::distributed_layout layout =
      fm::distribute_generated(MPI_COMM_WORLD, [] { return fm::box2d_quad(260, 260); });
  const int before = fm::halo_progress_chunks();
  fm::dist_function<double> u(layout, "u"), v(layout, "v");
  std::vector<std::vector<double>> results;
  fm::index_t most_chunks = 0;
  for (const int chunks : {1, 8, 64}) {
    fm::set_halo_progress_chunks(chunks);
    most_chunks = std::max(most_chunks, fm::detail::progress_chunk_count(layout.interior_count()));
    u = fm::sin(1e-3 * fm::index<fm::cells>()) + 0.25;
    const auto exchanges = u.exchange_count();
    v = fm::_(left_neighbour{}) / fm::pure(fm::pr(u)) * fm::index();
    EXPECT_EQ(u.exchange_count(), exchanges + 1) << chunks;
    results.push_back(v.local_values().to_vector());
    results.back().resize(static_cast<std::size_t>(layout.owned_count()));
  }
  fm::set_halo_progress_chunks(before);
  EXPECT_GT(most_chunks, 1) << "the interior of " << layout.interior_count()
                            << " cells is not cut at all";
  EXPECT_EQ(results[0], results[1]);
  EXPECT_EQ(results[0], results[2]);
}

}  // namespace
