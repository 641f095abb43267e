// page_binding: what one page-by-page loop over paged grid functions reads (collected by
// visiting its expression once), and, for the page being computed, the window of values
// each paged read binds to: the target's page in place, a copy of the range for the rest.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/exec/executor.hpp>
#include <funcmesh/expr/grid_read.hpp>
#include <funcmesh/expr/iteration_space.hpp>

namespace funcmesh {
class paged_function_base;
}

namespace funcmesh::detail {

// Values [begin, end) of one paged function, element i at data[i - begin]. `complete`:
// the loop reads the function only at its own indices, so every read is in the window
// (this rests on the contract every node keeps for the aliasing checks: one that reads
// an operand at other indices reports it at_neighbours, as the face loops do).
struct page_window {
  const void* data = nullptr;
  index_t begin = 0;
  index_t end = 0;
  bool complete = false;
};

class page_binding {
 public:
  // `target`: the paged function an assignment writes (null for a reduction); `what`
  // names the loop in messages ("an assignment to paged grid function 'u'").
  page_binding(const paged_function_base* target, std::string what);
  page_binding(const page_binding&) = delete;
  page_binding& operator=(const page_binding&) = delete;

  // The visitor: records every read of the expression.
  void operator()(const grid_read& read);

  // Throws aliasing_error when the target is read through a proxy, and error when a read
  // at the loop's own indices has fewer than `needed` values.
  void check(index_t needed) const;
  // Whether the expression reads the target (at its own index: proxies were refused).
  bool reads_target() const;
  // The function whose pages the loop walks: the target, else the first paged function
  // read. Throws when there is none.
  const paged_function_base& walked() const;
  // The host executor the loop runs on: `on` or the default; serial_only forces serial.
  // Throws paged_error for an executor whose data live elsewhere (CUDA, a simulated
  // device): the mapped pages are host memory.
  executor host_executor(const std::optional<executor>& on, bool serial_only) const;
  // Throws paged_error for a list iteration space (its indices may fall on any page);
  // else the loop's range resolved against `function`'s owned and total sizes.
  index_range resolve(const iteration_space& over, const paged_function_base& function) const;

  // Maps `range` (within one page of walked()): every paged function read except the
  // target is copied; the target's window is its page in place, `target_data` holding
  // its elements from `target_begin` to `target_end`.
  void map(index_range range, const void* target_data = nullptr, index_t target_begin = 0,
           index_t target_end = 0);
  // The target's window alone (after map(range) of the others): its page in place.
  void map_target(const void* data, index_t begin, index_t end);
  // The window of `function` for the page being computed: throws if it was not visited.
  page_window window(const paged_function_base& function) const;
  const std::string& what() const { return what_; }

 private:
  struct entry {
    const paged_function_base* function;
    bool proxy = false;
    std::vector<std::byte> copy;
    page_window window;
  };

  const paged_function_base* target_;
  std::string what_;
  std::vector<entry> paged_;
  std::vector<grid_read> at_own_index_;  // every read at the loop's indices, for check()
  bool target_by_proxy_ = false;
};

}  // namespace funcmesh::detail
