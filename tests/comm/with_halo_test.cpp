// Distributed assignments over owned and halo cells (run(with_halo(), ...)): a cell-local
// expression computed on the halo cells too gives them the owners' bits and leaves the
// target's halo clean (no round when it is read at neighbours next); the halos it reads are
// exchanged once when dirty (its targets' own values, written by an earlier statement of
// the loop, are not); a read at neighbours is refused before any message. On every
// executor, at 1-4 ranks.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <funcmesh/comm.hpp>

#include "../common/executor_params.hpp"

namespace {

namespace fm = funcmesh;

struct flux {
  FUNCMESH_DEVICE double operator()(double l, double r, const fm::face_view& f) const {
    return (r - l) * f.area + 0.25 * f.normal[1] * (l + r) * f.area;
  }
};
struct closed {
  FUNCMESH_DEVICE double operator()(double u, const fm::face_view& f) const {
    return -0.5 * u * f.area;
  }
};
// Reads the area and the normal seen from the cell (a halo cell's outer faces included).
struct oriented {
  FUNCMESH_DEVICE double operator()(double u, const fm::face_view& f) const {
    return u * f.area * (f.normal[0] + 2 * f.normal[1]) + f.area;
  }
};
struct mix {
  FUNCMESH_DEVICE double operator()(double a, double b) const { return a * b + std::sqrt(b); }
};

struct with_halo : ::testing::TestWithParam<fm::executor> {
  fm::scoped_executor chosen{GetParam()};
  fm::distributed_layout layout = fm::distribute_generated(MPI_COMM_WORLD, [] {
    fm::box_options options;
    options.perturbation = 0.12;
    return fm::box2d_quad(23, 17, options);
  });
  fm::dist_function<double> u{layout, "u"}, w{layout, "w"};

  with_halo() {
    auto a = u.write();
    auto b = w.write();
    for (fm::index_t c = 0; c < layout.owned_count(); ++c) {
      const auto& x = layout.faces().cell_centroids()[static_cast<std::size_t>(c)];
      a[c] = std::sin(4 * x[0]) + 0.1;
      b[c] = 1.5 + x[0] * x[1];
    }
  }  // u and w: written, their halos dirty

  std::uint64_t rounds() const { return layout.exchange_plan().exchange_count(); }

  // Every value, owned and halo, of `computed` and of `owners` (assigned over the owned
  // cells, then exchanged), bit for bit.
  static void expect_owners_bits(const fm::dist_function<double>& computed,
                                 fm::dist_function<double>& owners, const std::string& what) {
    owners.exchange();
    const auto a = computed.local_values().to_vector(), b = owners.local_values().to_vector();
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t c = 0; c < a.size(); ++c) {
      ASSERT_EQ(std::memcmp(&a[c], &b[c], sizeof(double)), 0)
          << what << ": cell " << c << " (" << a[c] << " and the owner's " << b[c] << ")";
    }
  }
};

TEST_P(with_halo, a_cell_local_assignment_gives_the_halo_the_owners_bits_and_leaves_it_clean) {
  fm::dist_function<double> v(layout, "v"), owners(layout, "owners");
  const auto expression = [&] {
    return fm::zip_with(mix{}, u, w) + fm::sum_over_cell_faces(layout, oriented{}, u);
  };
  const std::uint64_t before = rounds();
  fm::run(fm::with_halo(), fm::set(v, expression()));
  EXPECT_EQ(rounds(), before + 1) << "u and w, dirty, in one round";
  EXPECT_EQ(u.exchange_count(), 1u);
  EXPECT_EQ(w.exchange_count(), 1u);
  EXPECT_FALSE(v.halo_status().stale()) << "computed on the halo cells: clean";
  owners = expression();
  expect_owners_bits(v, owners, "zip_with + sum_over_cell_faces");

  // Read at neighbours next: no round (its halo, and u's, are clean).
  const std::uint64_t clean = rounds();
  fm::dist_function<double> r(layout, "r");
  r = fm::sum_over_faces(layout, flux{}, v, fm::on_other_groups(closed{}));
  EXPECT_EQ(rounds(), clean);
  EXPECT_EQ(v.exchange_count(), 0u) << "never exchanged";

  // Clean reads: no round at all. The member form alike.
  v.assign(2.0 * u + w, fm::with_halo());
  EXPECT_EQ(rounds(), clean);
  EXPECT_FALSE(v.halo_status().stale());
  owners = 2.0 * u + w;
  expect_owners_bits(v, owners, "v.assign(e, with_halo())");
}

TEST_P(with_halo, a_loop_reads_what_an_earlier_statement_wrote_and_refreshes_what_it_updates) {
  fm::dist_function<double> v(layout, "v"), z(layout, "z"), owners(layout, "owners"),
      owners_z(layout, "owners_z");
  // v's value at each cell comes from the first statement: v's halo is not exchanged.
  v = 1.0;  // dirty
  const std::uint64_t before = rounds();
  fm::run(fm::with_halo(), fm::set(v, 3.0 * u), fm::set(z, v + w));
  EXPECT_EQ(rounds(), before + 1);
  EXPECT_EQ(v.exchange_count(), 0u) << "written by the loop itself before it is read";
  EXPECT_FALSE(v.halo_status().stale());
  EXPECT_FALSE(z.halo_status().stale());
  owners = 3.0 * u;
  owners_z = 3.0 * u + w;
  expect_owners_bits(v, owners, "set(v, 3u)");
  expect_owners_bits(z, owners_z, "set(z, v + w)");

  // add_to reads its target's old values, halo included: a dirty one is exchanged first.
  z += 1.0;  // over the owned cells: z's halo dirty
  fm::run(fm::with_halo(), fm::add_to(z, u));
  EXPECT_EQ(z.exchange_count(), 1u);
  EXPECT_FALSE(z.halo_status().stale());
  owners_z += 1.0;
  owners_z += u;
  expect_owners_bits(z, owners_z, "add_to(z, u)");
}

TEST_P(with_halo, a_read_at_neighbours_is_refused_before_any_message) {
  fm::dist_function<double> v(layout, "v");
  const std::uint64_t before = rounds();
  try {
    fm::run(fm::with_halo(),
            fm::set(v, fm::sum_over_faces(layout, flux{}, u, fm::on_other_groups(closed{}))));
    FAIL() << "a face sum over owned and halo cells was accepted";
  } catch (const fm::error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("grid function 'u' at neighbours"), std::string::npos) << what;
    EXPECT_NE(what.find("assign over the owned cells"), std::string::npos) << what;
  }
  EXPECT_EQ(rounds(), before) << "nothing sent";
  EXPECT_TRUE(v.halo_status().stale());
  // An explicit range is still refused, naming both spaces allowed.
  try {
    v.assign(u + 1.0, fm::run_options{.over = fm::iteration_space::range(0, 1)});
    FAIL() << "an explicit range was accepted";
  } catch (const fm::error& e) {
    EXPECT_NE(std::string(e.what()).find("owned_and_halo()"), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(executors, with_halo,
                         ::testing::ValuesIn(test_support::host_and_simulated_executors()),
                         test_support::executor_name{});

}  // namespace
