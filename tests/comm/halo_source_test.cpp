// A storage kind the library does not know joins the halo path through halo_source alone:
// values in a std::vector, packed on the host by the source itself. A plan's round, a
// round shared with a grid function, and the dirty bit of a halo_state all move it, at
// any rank count; its pack and unpack run once per round that needs them.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/distribute.hpp>
#include <funcmesh/comm/halo_plan.hpp>
#include <funcmesh/comm/halo_state.hpp>
#include <funcmesh/expr/halo_source.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>

namespace fm = funcmesh;

namespace {

// Doubles in host memory; counts its packs and unpacks and its writes.
class vector_source final : public fm::halo_source {
 public:
  vector_source(fm::index_t owned, fm::index_t total)
      : values_(static_cast<std::size_t>(total), std::numeric_limits<double>::quiet_NaN()),
        owned_(owned) {}

  const std::string& name() const override { return name_; }
  std::string describe() const override { return "vector source '" + name_ + "'"; }
  fm::index_t owned_size() const override { return owned_; }
  fm::index_t total_size() const override { return static_cast<fm::index_t>(values_.size()); }
  std::size_t element_size() const override { return sizeof(double); }
  std::uint64_t write_count() const override { return writes_; }
  fm::pack_site packs_on() const override { return fm::pack_site::host; }

  void pack(const fm::executor&, const fm::array<fm::index_t>& indices,
            fm::buffer& packed) const override {
    ++packs;
    fm::token holder;
    const auto list = indices.read_view(fm::host_space, holder);
    auto* out = static_cast<double*>(packed.overwrite_pointer(fm::host_space, holder));
    for (fm::index_t k = 0; k < list.size(); ++k) out[k] = values_[at(list[k])];
  }
  void unpack(const fm::executor&, const fm::buffer& packed, const fm::array<fm::index_t>& indices,
              fm::token&) override {
    ++unpacks;
    fm::token holder;
    const auto list = indices.read_view(fm::host_space, holder);
    const auto* in = static_cast<const double*>(packed.read_pointer(fm::host_space, holder));
    for (fm::index_t k = 0; k < list.size(); ++k) values_[at(list[k])] = in[k];
  }

  double& operator[](fm::index_t i) { return values_[at(i)]; }
  void note_write() { ++writes_; }

  mutable int packs = 0;
  int unpacks = 0;

 private:
  static std::size_t at(fm::index_t i) { return static_cast<std::size_t>(i); }

  std::vector<double> values_;
  fm::index_t owned_;
  std::string name_ = "w";
  std::uint64_t writes_ = 0;
};

double value_of(fm::index_t global) { return 1000.0 * static_cast<double>(global) + 0.5; }

struct setup {
  setup()
      : layout(fm::distribute_generated(MPI_COMM_WORLD, [] { return fm::box2d_quad(16, 12); })),
        local(layout.mesh()),
        source(local.owned_count, local.cells.cell_count()) {
    for (fm::index_t i = 0; i < local.owned_count; ++i) source[i] = value_of(global(i));
    source.note_write();
  }
  fm::index_t global(fm::index_t i) const { return local.global_cell[static_cast<std::size_t>(i)]; }
  // Bitwise: every halo value is its owner's.
  void expect_halo_filled() {
    for (fm::index_t i = local.owned_count; i < local.cells.cell_count(); ++i) {
      const double want = value_of(global(i));
      ASSERT_EQ(std::memcmp(&source[i], &want, sizeof want), 0) << "halo cell " << i;
    }
  }
  bool has_neighbours() const { return !local.neighbours.empty(); }

  fm::distributed_layout layout;
  const fm::local_mesh& local;
  vector_source source;
};

TEST(halo_source, a_plan_moves_a_new_storage_kind) {
  setup s;
  fm::halo_plan& plan = s.layout.exchange_plan();
  const fm::halo_field fields[] = {{&s.source, sizeof(double)}};
  plan.exchange(fields);
  s.expect_halo_filled();
  // A plan without neighbours sends nothing: nothing to pack.
  EXPECT_EQ(s.source.packs, s.has_neighbours() ? 1 : 0);
  EXPECT_EQ(s.source.unpacks, s.source.packs);
  const fm::halo_field wrong[] = {{&s.source, sizeof(float)}};
  EXPECT_THROW(plan.exchange(wrong), fm::error)
      << "an element size that is not the source's is refused";
}

TEST(halo_source, shares_a_round_with_a_grid_function) {
  setup s;
  fm::dist_function<double> u(s.layout, "u");
  {
    auto w = u.write();
    for (fm::index_t i = 0; i < s.local.owned_count; ++i) w[i] = -value_of(s.global(i));
  }
  const fm::halo_field fields[] = {{&u.local_values(), sizeof(double)},
                                   {&s.source, sizeof(double)}};
  s.layout.exchange_plan().exchange(fields);
  s.expect_halo_filled();
  const auto ur = u.local_values().read();
  for (fm::index_t i = s.local.owned_count; i < s.local.cells.cell_count(); ++i) {
    ASSERT_EQ(ur[i], -value_of(s.global(i)));
  }
}

TEST(halo_source, a_halo_state_exchanges_it_when_dirty) {
  setup s;
  fm::halo_state state(s.layout, s.source);
  EXPECT_TRUE(state.stale());
  EXPECT_EQ(state.describe(), "vector source 'w'");
  auto exchange = [&] {
    fm::detail::halo_reads reads;
    reads.add(&state);
    fm::detail::exchange_dirty(s.layout, reads, fm::default_executor(), "halo_source_test");
  };
  exchange();
  s.expect_halo_filled();
  EXPECT_FALSE(state.stale());
  EXPECT_EQ(state.exchanges(), 1u);
  const int packs = s.source.packs;
  exchange();  // clean: no round
  EXPECT_EQ(state.exchanges(), 1u);
  EXPECT_EQ(s.source.packs, packs);
  s.source.note_write();  // its own clock: dirty again
  EXPECT_TRUE(state.stale());
  exchange();
  EXPECT_EQ(state.exchanges(), 2u);
  EXPECT_EQ(s.source.unpacks, s.source.packs);
}

}  // namespace
