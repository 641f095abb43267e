// halo_state: a distributed function's halo bookkeeping (its layout, its values as a
// halo_source, the write count at which its halo was last filled: the dirty bit), and the
// steps an assignment
// takes with it: collect the halos an expression reads at neighbours, keep the dirty ones
// (a local decision, checked across ranks in FUNCMESH_CHECK_SPMD mode), exchange them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/comm/halo_plan.hpp>
#include <funcmesh/exec/executor.hpp>
#include <funcmesh/expr/grid_read.hpp>
#include <funcmesh/expr/halo_source.hpp>

namespace funcmesh {

// The one class derived from halo_state_base: what grid_read::halo points to.
class halo_state final : public halo_state_base {
 public:
  // `layout` and `values` must outlive the state (a dist_function holds all three): a
  // grid function (packed by kernels on the round's executor), a paged function (through
  // its cache, on the host), or any other halo_source. Fresh values: the halo is as stale
  // as the owned values are unset.
  halo_state(const distributed_layout& layout, halo_source& values)
      : layout_(&layout), source_(&values), exchanged_at_(values.write_count() - 1) {}

  // The state a visited read carries (grid_read::halo), or null.
  static halo_state* of(const grid_read& read) { return static_cast<halo_state*>(read.halo); }

  const distributed_layout& layout() const { return *layout_; }
  halo_source& source() const { return *source_; }
  // What an exchange round moves: the values and the bytes per value.
  halo_field field() const { return {source_, source_->element_size()}; }
  std::string describe() const { return source_->describe(); }
  std::size_t element_size() const { return source_->element_size(); }

  // Dirty: written (any assignment, a host write()) since the halo was last filled.
  bool stale() const { return write_count() != exchanged_at_; }
  void mark_stale() { exchanged_at_ = write_count() - 1; }
  // The halo holds the owners' values as of the current write count.
  void mark_exchanged() { exchanged_at_ = write_count(); }
  // Rounds that refreshed this halo.
  std::uint64_t exchanges() const { return exchanges_; }
  void count_exchange() { ++exchanges_; }

 private:
  std::uint64_t write_count() const { return source_->write_count(); }

  const distributed_layout* layout_;
  halo_source* source_;
  std::uint64_t exchanged_at_;
  std::uint64_t exchanges_ = 0;
};

namespace detail {

// The distinct halos one assignment reads at neighbours, in the order the expression
// visits them (the same on every rank). The first few live inline: no allocation.
class halo_reads {
 public:
  void add(halo_state* state);
  std::size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  halo_state* operator[](std::size_t k) const {
    return k < first_.size() ? first_[k] : more_[k - first_.size()];
  }
  // Keeps the dirty ones (stale() on this rank), in order.
  void keep_dirty();

 private:
  halo_state*& slot(std::size_t k) {
    return k < first_.size() ? first_[k] : more_[k - first_.size()];
  }

  std::array<halo_state*, 6> first_{};
  std::vector<halo_state*> more_;
  std::size_t count_ = 0;
};

// Throws: `reader` (on `layout`: an assignment, a reduction) reads `read`, a distributed
// function of another layout; one expression does not mix the functions of two
// partitions. Names both functions and both layouts.
[[noreturn]] void refuse_mixed_layouts(const distributed_layout& layout, const std::string& reader,
                                       const grid_read& read, const char* call);

// One read of an expression being collected for `layout`: a distributed function's of
// another layout is refused (`reader()` names what reads it, built only then), one read at
// neighbours joins `reads`.
template <class Reader>
void note_halo_read(const distributed_layout& layout, const grid_read& read, halo_reads& reads,
                    const Reader& reader, const char* call) {
  halo_state* const halo = halo_state::of(read);
  if (halo == nullptr) return;
  if (!(halo->layout() == layout)) refuse_mixed_layouts(layout, reader(), read, call);
  if (read.mode == read_mode::proxy) reads.add(halo);
}

// Step 3 of an assignment: keeps the reads whose halo is dirty on this rank. Under the SPMD
// contract every rank keeps the same ones, with no message. `local_failure`: what this
// rank found wrong with the assignment before any message (a size of its own part);
// without the check it is rethrown here, on this rank. With the check on
// (spmd_check_enabled()), one MPI_Allreduce on the layout's halo communicator compares
// every rank's decisions and failures (skipped when there is nothing to compare, unless
// `always_check`: an assignment may fail on some ranks only); every rank then throws the
// same mpi::collective_error: the lowest failing rank's error, or the disagreement,
// naming the function and the lowest rank that disagrees with rank 0.
void keep_dirty(const distributed_layout& layout, halo_reads& reads, const char* call,
                std::exception_ptr local_failure = nullptr, bool always_check = false);

// One round for all of `dirty` (their layout's plan) and its end. The packed values are
// those of the current write count: nothing may write them until end_round.
void begin_round(const distributed_layout& layout, const halo_reads& dirty, const executor& on);
// Every round is ended even when one step fails, as the peers end theirs; on failure the
// halos stay dirty. `holder`: the token of the bound loop that reads the halos, on `on`
// (halo_plan::end(on, holder)); null: the round's own.
void end_round(const distributed_layout& layout, const halo_reads& dirty, const executor& on,
               token* holder = nullptr);
// begin_round + end_round of the dirty ones among `reads`, after keep_dirty.
void exchange_dirty(const distributed_layout& layout, halo_reads& reads, const executor& on,
                    const char* call);

}  // namespace detail

}  // namespace funcmesh
