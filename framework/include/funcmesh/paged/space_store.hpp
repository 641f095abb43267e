// space_store: pages in the memory of one or more memory_spaces (CUDA devices, the
// simulated devices sim:0/sim:1, the host) through the memory_manager interface, each
// space serving some of the array's channels.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <funcmesh/memory/memory_space.hpp>
#include <funcmesh/paged/page_store.hpp>

namespace funcmesh {

struct space_channels {
  memory_space space;
  int channels = 1;  // 0 disables the space
};

struct space_weight {
  memory_space space;
  double weight = 1;  // 0 disables the space
};

// Each channel owns one allocation of its pages in its space. Channels are ordered so
// that consecutive pages alternate between spaces in proportion to their channel counts
// (smooth weighted round robin), so a sequential scan draws on every space at once.
class space_store final : public page_store {
 public:
  explicit space_store(memory_space space, int channels = 1);
  // Explicit channel counts; throws paged_error for a negative count, a space listed twice
  // or no channel at all, device_error for a space that is not available.
  explicit space_store(std::vector<space_channels> spaces);
  // `total_channels` shared in proportion to the weights (largest remainders; every
  // enabled space gets at least one).
  static space_store by_ratio(const std::vector<space_weight>& spaces, int total_channels);
  // The channels given (their sum), redistributed over the spaces with a nonzero count in
  // proportion to each space's free memory now (memory_manager::free_bytes): a small device
  // gets fewer channels, so each space fills about equally. Throws paged_error for a
  // space whose free memory is unknown.
  static space_store by_free_memory(const std::vector<space_channels>& spaces);
  ~space_store() override;

  // Channels per enabled space, as resolved.
  const std::vector<space_channels>& spaces() const { return spaces_; }
  memory_space space_of(int channel) const;

  std::unique_ptr<page_store> clone_unopened() const override;
  int channels() const override { return static_cast<int>(channel_space_.size()); }
  std::string describe() const override;
  std::string channel_name(int channel) const override;
  void read(int channel, index_t local_page, std::size_t offset, std::size_t bytes,
            void* destination) override;
  void write(int channel, index_t local_page, std::size_t offset, std::size_t bytes,
             const void* source) override;
  // Host and simulated memory in place (the host can read both without a copy).
  const std::byte* host_address(int channel) const override;
  // A CUDA space's channel is scanned by a kernel on its device (only the matches come
  // back), a simulated device's as that kernel would, on the host; nullopt for host
  // memory (scanned in place by find()'s parallel tasks).
  std::optional<std::vector<index_t>> scan_where_stored(int channel, const find_request& request,
                                                        index_t cap) const override;

 protected:
  // Throws allocation_error naming the space and the bytes when a space has not the
  // room for its channels (checked against free_bytes before anything is allocated).
  void do_open(const page_layout& layout) override;

 private:
  void release() noexcept;
  std::byte* at(int channel, index_t local_page, std::size_t offset) const;

  std::vector<space_channels> spaces_;
  std::vector<memory_space> channel_space_;
  std::vector<std::byte*> memory_;  // per channel, once open
  std::size_t page_bytes_ = 0;
};

// The largest-remainder share of `total` in proportion to `weights` (>= 0), with every
// positive weight given at least 1 (taken from the largest shares). Throws paged_error
// when total is smaller than the number of positive weights, or no weight is positive.
std::vector<int> apportion_channels(const std::vector<double>& weights, int total);

}  // namespace funcmesh
