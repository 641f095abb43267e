// page_binding: the reads of one page-by-page loop, their checks, and the windows of the
// page being computed (copies of the range, or the target's page in place).
#include <funcmesh/paged/detail/page_binding.hpp>

#include <algorithm>
#include <string>
#include <utility>

#include <funcmesh/core/error.hpp>
#include <funcmesh/exec/dispatch.hpp>
#include <funcmesh/expr/grid_function_base.hpp>
#include <funcmesh/paged/paged_function_base.hpp>

namespace funcmesh::detail {

page_binding::page_binding(const paged_function_base* target, std::string what)
    : target_(target), what_(std::move(what)) {}

void page_binding::operator()(const grid_read& read) {
  if (read.mode == read_mode::own_index) at_own_index_.push_back(read);
  const paged_function_base* paged = paged_function_base::of(read);
  if (paged == nullptr) return;
  if (paged == target_ && read.mode == read_mode::proxy) target_by_proxy_ = true;
  auto found = std::find_if(paged_.begin(), paged_.end(),
                            [&](const entry& e) { return e.function == paged; });
  if (found == paged_.end()) {
    paged_.push_back(entry{paged, false, {}, {}});
    found = paged_.end() - 1;
  }
  found->proxy = found->proxy || read.mode == read_mode::proxy;
}

void page_binding::check(index_t needed) const {
  if (target_by_proxy_) {
    throw aliasing_error("funcmesh: " + what_ + " reads " + target_->describe() +
                         " through a proxy (at other indices): iterations would read values "
                         "the same loop overwrites. Write into a second paged grid function "
                         "and swap (funcmesh::swap(u, u_new)).");
  }
  for (const grid_read& read : at_own_index_) {
    if (read.total_size >= needed) continue;
    throw error("funcmesh: " + what_ + " reads " + read.describe() + " at indices up to " +
                std::to_string(needed - 1) + ", but it has only " +
                std::to_string(read.total_size) + " values");
  }
}

bool page_binding::reads_target() const {
  return std::any_of(paged_.begin(), paged_.end(),
                     [&](const entry& e) { return e.function == target_; });
}

const paged_function_base& page_binding::walked() const {
  if (target_ != nullptr) return *target_;
  if (paged_.empty()) {
    throw paged_error("funcmesh: " + what_ +
                      " binds a paged leaf but reports no paged read to its visitor: a "
                      "node that does not forward visit() to its operands?");
  }
  return *paged_.front().function;
}

executor page_binding::host_executor(const std::optional<executor>& on, bool serial_only) const {
  const executor chosen =
      exec::effective_executor(on.value_or(default_executor<exec::host_compiler>()), serial_only);
  if (chosen.kind() != executor_kind::cuda && chosen.space() == host_space) return chosen;
  throw paged_error("funcmesh: " + what_ + " asks for executor '" + chosen.name() +
                    "', but paged grid functions are computed where their pages are mapped, "
                    "in host memory: use a host executor (serial or openmp)");
}

index_range page_binding::resolve(const iteration_space& over,
                                  const paged_function_base& function) const {
  if (over.what() == iteration_space::kind::list) {
    throw paged_error("funcmesh: " + what_ +
                      " is given a list of indices: loops over paged grid functions run page "
                      "by page over ranges (iteration_space::owned() or range(begin, end))");
  }
  return over.resolve(function.owned_size(), function.size(), what_);
}

void page_binding::map(index_range range, const void* target_data, index_t target_begin,
                       index_t target_end) {
  for (entry& e : paged_) {
    if (e.function == target_) {
      e.window = {target_data, target_begin, target_end, true};  // proxies were refused
      continue;
    }
    // Only the part of the range the function has: a proxy read of a shorter function
    // (another kind of entity) reads the rest through its cache, bounds-checked there.
    const index_t begin = std::min(range.begin, e.function->size());
    const index_t end = std::min(range.end, e.function->size());
    e.copy.resize(static_cast<std::size_t>(end - begin) * e.function->element_size());
    if (end > begin) e.function->read_values(begin, end - begin, e.copy.data());
    e.window = {e.copy.data(), begin, end, !e.proxy};
  }
}

void page_binding::map_target(const void* data, index_t begin, index_t end) {
  for (entry& e : paged_) {
    if (e.function == target_) e.window = {data, begin, end, true};  // proxies were refused
  }
}

page_window page_binding::window(const paged_function_base& function) const {
  for (const entry& e : paged_) {
    if (e.function == &function) return e.window;
  }
  throw paged_error("funcmesh: " + what_ + " binds " + function.describe() +
                    ", which its expression did not report when visited: a node that does "
                    "not forward visit() to its operands?");
}

page_window bind_paged(const binder& b, const paged_function_base& function) {
  if (b.pages() == nullptr) {
    throw paged_error("funcmesh: " + function.describe() +
                      " is read by a loop that is not paged (an assignment to an in-memory "
                      "grid function or a distributed function?): its values are not in "
                      "memory. Assign the expression to a paged_grid_function, or reduce it "
                      "(funcmesh::sum, min, max, ... run page by page)");
  }
  return b.pages()->window(function);
}

std::string paged_assignment_name(const paged_function_base& target) {
  return "an assignment to " + target.describe();
}

}  // namespace funcmesh::detail
