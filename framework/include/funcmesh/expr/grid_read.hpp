// grid_read: what an expression reports of one of its reads when an assignment or a
// reduction visits it: the values read (or only the extent of the loop they bound), how
// they are read, and the distributed function they are read through, if any.
#pragma once

#include <string>

#include <funcmesh/core/index.hpp>
#include <funcmesh/expr/grid_function_base.hpp>
#include <funcmesh/expr/halo_source.hpp>

namespace funcmesh {

// The halo bookkeeping of a distributed function, as its expressions carry it: the comm
// layer's halo_state is the one class derived from it (comm downcasts); the framework only
// carries the pointer from the expression to the assignment that visits it.
class halo_state_base {
 protected:
  halo_state_base() = default;
  halo_state_base(const halo_state_base&) = default;
  halo_state_base& operator=(const halo_state_base&) = default;
  ~halo_state_base() = default;
};

struct grid_read {
  // The values read; null for a read that only bounds the loop (a face set's cells).
  const grid_function_base* function = nullptr;
  read_mode mode = read_mode::own_index;
  // What the read may index: [0, owned_size) computed here, [owned_size, total_size) halo.
  index_t owned_size = 0;
  index_t total_size = 0;
  // Set when the values are those of a distributed function read through it (u, pr(u)):
  // the assignment finds its halo here, without looking it up.
  halo_state_base* halo = nullptr;
  // Names an extent-only read in messages.
  const char* extent_name = nullptr;
  // Set when the values are a paged grid function's (function is then null: its values
  // are not in a buffer): its storage, which the page-by-page loops find, map and (paged/
  // only) downcast to paged_function_base. Other loops ignore it; their binding refuses it.
  const halo_source* paged = nullptr;
  // Set by a face loop's extent (face_set::extent): the loop runs over a cell's faces,
  // which profiling names ("face loop: assignment to ...").
  bool face_loop = false;

  static grid_read of(const grid_function_base& f, read_mode mode,
                      halo_state_base* halo = nullptr) {
    return {&f, mode, f.owned_size(), f.total_size(), halo, nullptr};
  }
  static grid_read extent(index_t owned, index_t total, const char* name) {
    return {nullptr, read_mode::own_index, owned, total, nullptr, name};
  }
  // The same values read at other indices (a neighbour's value in a face loop).
  grid_read at_neighbours() const {
    grid_read r = *this;
    r.mode = read_mode::proxy;
    return r;
  }
  // "grid function 'u'", or the extent's name.
  std::string describe() const;
};

// Throws aliasing_error when `read` is `target` read through a proxy.
void check_not_aliased(const grid_function_base& target, const grid_read& read);

}  // namespace funcmesh
