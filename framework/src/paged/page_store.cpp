// What every store shares: opening once, and the default find, a parallel scan of every
// page in place or through host memory.
#include <funcmesh/paged/page_store.hpp>

#include <algorithm>
#include <cstring>
#include <exception>
#include <numeric>

#include <funcmesh/core/error.hpp>
#include <funcmesh/exec/thread_policy.hpp>

namespace funcmesh {

void page_store::open(const page_layout& layout) {
  if (layout_) throw paged_error(describe() + " is already open");
  if (layout.channels != channels())
    throw paged_error(describe() + " has " + std::to_string(channels()) + " channels, the layout " +
                      std::to_string(layout.channels));
  do_open(layout);
  layout_ = layout;
}

const page_layout& page_store::layout() const {
  if (!layout_) throw paged_error(describe() + " is not open");
  return *layout_;
}

namespace detail {

void scan_elements(const std::byte* data, index_t count, std::size_t element_bytes,
                   const find_request& request, index_t first_index, index_t cap,
                   std::vector<index_t>& matches) {
  const auto* value = static_cast<const std::byte*>(request.value);
  const std::byte* field = data + request.offset;
  for (index_t k = 0; k < count; ++k, field += element_bytes) {
    if (static_cast<index_t>(matches.size()) >= cap) return;
    if (std::memcmp(field, value, request.value_bytes) == 0) matches.push_back(first_index + k);
  }
}

void cap_per_channel(std::vector<index_t>& sorted, const page_layout& layout,
                     index_t max_per_channel) {
  std::vector<index_t> kept(static_cast<std::size_t>(layout.channels), 0);
  auto end = std::remove_if(sorted.begin(), sorted.end(), [&](index_t i) {
    auto& n = kept[static_cast<std::size_t>(layout.channel_of(layout.page_of_element(i)))];
    return n++ >= max_per_channel;
  });
  sorted.erase(end, sorted.end());
}

void for_each_task(index_t count, int threads, const std::function<void(index_t)>& task) {
  std::exception_ptr failure;
#if defined(_OPENMP)
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (threads > 1)
#endif
  for (index_t t = 0; t < count; ++t) {
    try {
      task(t);
    } catch (...) {
#if defined(_OPENMP)
#pragma omp critical(funcmesh_paged_task_failure)
#endif
      if (!failure) failure = std::current_exception();
    }
  }
  static_cast<void>(threads);
  if (failure) std::rethrow_exception(failure);
}

}  // namespace detail

// Channels scanned where they are stored first (each slot mapped to its global index,
// a short last page's unused slots dropped); the rest in tasks of about a MiB of
// consecutive local pages of one channel: each keeps its own matches in increasing order,
// so concatenating a channel's tasks in order and cutting at the cap keeps that channel's
// lowest indices.
std::vector<index_t> page_store::find(const find_request& request) {
  const page_layout& l = layout();
  std::vector<index_t> result;
  std::vector<bool> scanned(static_cast<std::size_t>(l.channels), false);
  for (int c = 0; c < l.channels; ++c) {
    const auto slots = scan_where_stored(c, request, request.max_per_channel);
    if (!slots) continue;
    scanned[static_cast<std::size_t>(c)] = true;
    for (const index_t slot : *slots) {
      const index_t page = l.page_of(c, slot / l.page_elements);
      const index_t k = slot % l.page_elements;
      if (k < l.elements_in(page)) result.push_back(page * l.page_elements + k);
    }
  }
  const index_t pages_per_task =
      std::max<index_t>(1, static_cast<index_t>((std::size_t{1} << 20) / l.page_bytes()));
  struct task {
    int channel;
    index_t first_local, end_local;
  };
  std::vector<task> tasks;
  for (int c = 0; c < l.channels; ++c) {
    if (scanned[static_cast<std::size_t>(c)]) continue;
    for (index_t local = 0; local < l.pages_on(c); local += pages_per_task)
      tasks.push_back({c, local, std::min(l.pages_on(c), local + pages_per_task)});
  }

  std::vector<std::vector<index_t>> found(tasks.size());
  detail::for_each_task(
      static_cast<index_t>(tasks.size()), exec::threads_for(l.size), [&](index_t t) {
        const task& work = tasks[static_cast<std::size_t>(t)];
        std::vector<std::byte> staging;
        const std::byte* base = host_address(work.channel);
        for (index_t local = work.first_local; local < work.end_local; ++local) {
          const index_t page = l.page_of(work.channel, local);
          const std::byte* data = nullptr;
          if (base != nullptr) {
            data = base + static_cast<std::size_t>(local) * l.page_bytes();
          } else {
            staging.resize(l.page_bytes());
            read(work.channel, local, 0, l.bytes_in(page), staging.data());
            data = staging.data();
          }
          detail::scan_elements(data, l.elements_in(page), l.element_bytes, request,
                                page * l.page_elements, request.max_per_channel,
                                found[static_cast<std::size_t>(t)]);
        }
      });

  for (auto& part : found) result.insert(result.end(), part.begin(), part.end());
  std::sort(result.begin(), result.end());
  detail::cap_per_channel(result, l, request.max_per_channel);
  return result;
}

}  // namespace funcmesh
