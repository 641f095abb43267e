// iteration_space: the indices a loop visits: the owned range (the default), owned + halo
// (redundant halo work that saves an exchange), an explicit [begin, end), or a list of
// indices. run_options bundles it with the executor.
#pragma once

#include <optional>
#include <string>

#include <funcmesh/core/error.hpp>
#include <funcmesh/core/index.hpp>
#include <funcmesh/exec/executor.hpp>
#include <funcmesh/expr/grid_function_base.hpp>
#include <funcmesh/memory/array.hpp>

namespace funcmesh {

struct index_range {
  index_t begin = 0;
  index_t end = 0;
  index_t size() const { return end - begin; }
};

class iteration_space {
 public:
  enum class kind { owned, owned_and_halo, range, list };

  static iteration_space owned() { return iteration_space(kind::owned); }
  static iteration_space owned_and_halo() { return iteration_space(kind::owned_and_halo); }
  static iteration_space range(index_t begin, index_t end) {
    iteration_space space(kind::range);
    space.range_ = {begin, end};
    return space;
  }
  static iteration_space range(index_range r) { return range(r.begin, r.end); }
  // The list is read where the loop runs; it must outlive the call.
  static iteration_space list(const array<index_t>& indices) {
    iteration_space space(kind::list);
    space.indices_ = &indices;
    return space;
  }

  kind what() const { return kind_; }
  const array<index_t>* indices() const { return indices_; }

  // The range of loop counters for a loop writing (or reading) `function`: indices into
  // it, or positions in the list. Throws when the range leaves the function.
  index_range resolve(const grid_function_base& function) const;
  // The same for values of these sizes (`what` names them in messages).
  index_range resolve(index_t owned_size, index_t total_size, const std::string& what) const;
  // An explicit range checked only for begin <= end (for expressions of no grid function).
  index_range resolve_unbounded() const;

 private:
  explicit iteration_space(kind k) : kind_(k) {}
  kind kind_;
  index_range range_;
  const array<index_t>* indices_ = nullptr;
};

struct run_options {
  std::optional<executor> on{};  // default_executor() when empty
  iteration_space over = iteration_space::owned();
};

}  // namespace funcmesh
