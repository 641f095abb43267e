// page_store: where a paged array's pages live when they are not cached (device memory,
// host memory, a file). A store object is a recipe: each paged array opens its own
// instance (clone_unopened + open), so one recipe can serve many arrays.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/paged/page_layout.hpp>

namespace funcmesh {

// find(): elements whose bytes [offset, offset + value_bytes) equal value's bytes.
struct find_request {
  std::size_t offset = 0;
  const void* value = nullptr;
  std::size_t value_bytes = 0;
  index_t max_per_channel = 0;  // matches kept per channel (the lowest indices)
};

// Calls for one channel are serialized by the array (one lock per channel); calls for
// different channels may run concurrently, so a store keeps no shared mutable state
// between channels.
class page_store {
 public:
  virtual ~page_store() = default;
  page_store(const page_store&) = delete;
  page_store& operator=(const page_store&) = delete;

  // A new, unopened store with this one's configuration (channel counts as resolved).
  virtual std::unique_ptr<page_store> clone_unopened() const = 0;
  virtual int channels() const = 0;
  // For messages: "space_store(sim:0 x1, sim:1 x3)", "file_store(/tmp/a.bin)".
  virtual std::string describe() const = 0;
  // Where channel c lives: "sim:1", "host", "/tmp/a.bin".
  virtual std::string channel_name(int channel) const = 0;

  // Reserves room for every channel's pages; throws allocation_error (a space without
  // room) or store_error (a file), leaving the store unopened. Opens once.
  void open(const page_layout& layout);
  bool is_open() const { return layout_.has_value(); }
  const page_layout& layout() const;

  // Bytes [offset, offset + bytes) of local page `local_page` of `channel`, within one page.
  virtual void read(int channel, index_t local_page, std::size_t offset, std::size_t bytes,
                    void* destination) = 0;
  virtual void write(int channel, index_t local_page, std::size_t offset, std::size_t bytes,
                     const void* source) = 0;

  // The channel's pages in place, when the host can read them without a copy (host and
  // simulated memory): channel_bytes(c) bytes, local page l at l * page_bytes(). nullptr
  // otherwise.
  virtual const std::byte* host_address(int /*channel*/) const { return nullptr; }

  // Sorted global indices of the matching elements, at most max_per_channel per channel
  // (the lowest). Each channel is scanned where its pages live when the store can
  // (scan_where_stored: a kernel on a CUDA device); the others in parallel on the host: in
  // place where host_address is set, else through read() one page at a time.
  virtual std::vector<index_t> find(const find_request& request);

  // For find(): channel `channel`'s matching element slots k (local page k / page
  // elements, element k % page elements; a short last page's unused slots included),
  // ascending, at most `cap`, scanned where the pages live; nullopt where the store has
  // no such scan (the default), and find() then scans the channel on the host.
  virtual std::optional<std::vector<index_t>> scan_where_stored(int /*channel*/,
                                                                const find_request& /*request*/,
                                                                index_t /*cap*/) const {
    return std::nullopt;
  }

  // True when the data outlive the array (a kept file): the array then writes its dirty
  // pages back when it is destroyed.
  virtual bool keeps_data() const { return false; }

 protected:
  page_store() = default;
  virtual void do_open(const page_layout& layout) = 0;

 private:
  std::optional<page_layout> layout_;
};

namespace detail {
// Appends to `matches` the indices first_index + k of the elements k < count of `data`
// (element_bytes apart) that match `request`, stopping after `cap` entries in total.
void scan_elements(const std::byte* data, index_t count, std::size_t element_bytes,
                   const find_request& request, index_t first_index, index_t cap,
                   std::vector<index_t>& matches);
// Keeps the first max_per_channel matches of each channel of `sorted` (global indices).
void cap_per_channel(std::vector<index_t>& sorted, const page_layout& layout,
                     index_t max_per_channel);
// Runs task(t) for every t < count on up to `threads` OpenMP threads, one task at a time
// each, and rethrows the first failure once all have stopped (an exception must not leave
// an OpenMP region): the stores' parallel scans.
void for_each_task(index_t count, int threads, const std::function<void(index_t)>& task);
}  // namespace detail

}  // namespace funcmesh
