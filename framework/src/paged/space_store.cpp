// Pages in memory spaces (see space_store.hpp).
#include <funcmesh/paged/space_store.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include <funcmesh/core/error.hpp>
#include <funcmesh/memory/memory_error.hpp>
#include <funcmesh/memory/memory_manager.hpp>
#include <funcmesh/memory/simulated_device.hpp>
#include <funcmesh/paged/detail/device_find.hpp>

namespace funcmesh {

namespace {

bool host_addressable(memory_space space) {
  return space.is_host() || space.kind == simulated_kind();
}

// Smooth weighted round robin: each round every space gains its count, the richest is
// picked and pays the total; spaces appear evenly spread, in proportion to their counts.
std::vector<memory_space> order_channels(const std::vector<space_channels>& spaces) {
  const int total =
      std::accumulate(spaces.begin(), spaces.end(), 0,
                      [](int sum, const space_channels& s) { return sum + s.channels; });
  std::vector<long> current(spaces.size(), 0);
  std::vector<memory_space> order;
  for (int round = 0; round < total; ++round) {
    std::size_t best = 0;
    for (std::size_t s = 0; s < spaces.size(); ++s) {
      current[s] += spaces[s].channels;
      if (current[s] > current[best]) best = s;
    }
    current[best] -= total;
    order.push_back(spaces[best].space);
  }
  return order;
}

// A new array reads as zero bytes, as a file reserved with posix_fallocate does: in place
// where the host can write the memory, else from a zeroed host block (one pass of writes;
// the memory_manager interface has no fill).
void zero(memory_space space, std::byte* memory, std::size_t bytes) {
  if (host_addressable(space)) {
    std::memset(memory, 0, bytes);
    return;
  }
  const std::vector<std::byte> zeros(std::min<std::size_t>(bytes, std::size_t{1} << 22));
  for (std::size_t done = 0; done < bytes; done += zeros.size())
    copy_bytes(space, memory + done, host_space, zeros.data(),
               std::min(zeros.size(), bytes - done));
}

}  // namespace

std::vector<int> apportion_channels(const std::vector<double>& weights, int total) {
  double sum = 0;
  int enabled = 0;
  for (double w : weights) {
    if (!(w >= 0) || !std::isfinite(w))
      throw paged_error("space_store: a weight of " + std::to_string(w) +
                        "; weights must be finite and >= 0");
    sum += w;
    enabled += w > 0 ? 1 : 0;
  }
  if (enabled == 0) throw paged_error("space_store: every space is disabled (all weights 0)");
  if (total < enabled)
    throw paged_error("space_store: " + std::to_string(total) + " channels cannot serve " +
                      std::to_string(enabled) + " enabled spaces (one each at least)");
  std::vector<int> shares(weights.size(), 0);
  std::vector<double> remainders(weights.size(), -1);
  int given = 0;
  for (std::size_t s = 0; s < weights.size(); ++s) {
    const double quota = total * (weights[s] / sum);
    shares[s] = static_cast<int>(std::floor(quota));
    if (weights[s] > 0) remainders[s] = quota - shares[s];
    given += shares[s];
  }
  while (given < total) {  // largest remainders first, the earlier space on ties
    const auto s = static_cast<std::size_t>(std::max_element(remainders.begin(), remainders.end()) -
                                            remainders.begin());
    ++shares[s];
    remainders[s] = -1;
    ++given;
  }
  for (std::size_t s = 0; s < weights.size(); ++s) {
    if (weights[s] <= 0 || shares[s] > 0) continue;
    const auto richest =
        static_cast<std::size_t>(std::max_element(shares.begin(), shares.end()) - shares.begin());
    --shares[richest];  // >= 2, since total >= enabled
    shares[s] = 1;
  }
  return shares;
}

space_store::space_store(memory_space space, int channels)
    : space_store(std::vector<space_channels>{{space, channels}}) {}

space_store::space_store(std::vector<space_channels> spaces) {
  for (std::size_t s = 0; s < spaces.size(); ++s) {
    const auto& entry = spaces[s];
    if (entry.channels < 0)
      throw paged_error("space_store: " + std::to_string(entry.channels) + " channels for " +
                        to_string(entry.space) + "; counts must be >= 0 (0 disables a space)");
    for (std::size_t t = 0; t < s; ++t)
      if (spaces[t].space == entry.space)
        throw paged_error("space_store: " + to_string(entry.space) + " is listed twice");
    if (entry.channels == 0) continue;
    require_space(entry.space);
    spaces_.push_back(entry);
  }
  if (spaces_.empty()) throw paged_error("space_store: no channels (every space is disabled)");
  channel_space_ = order_channels(spaces_);
}

space_store space_store::by_ratio(const std::vector<space_weight>& spaces, int total_channels) {
  std::vector<double> weights;
  for (const auto& s : spaces) weights.push_back(s.weight);
  const std::vector<int> shares = apportion_channels(weights, total_channels);
  std::vector<space_channels> counts;
  for (std::size_t s = 0; s < spaces.size(); ++s) counts.push_back({spaces[s].space, shares[s]});
  return space_store(std::move(counts));
}

space_store space_store::by_free_memory(const std::vector<space_channels>& spaces) {
  std::vector<double> weights;
  int total = 0;
  for (const auto& s : spaces) {
    if (s.channels < 0)
      throw paged_error("space_store: " + std::to_string(s.channels) + " channels for " +
                        to_string(s.space) + "; counts must be >= 0 (0 disables a space)");
    total += s.channels;
    if (s.channels == 0) {
      weights.push_back(0);
      continue;
    }
    const std::size_t room = free_bytes(s.space);
    if (room == memory_manager::unknown_free_bytes)
      throw paged_error("space_store::by_free_memory: " + to_string(s.space) +
                        " cannot tell its free memory; give its channels explicitly");
    // A full space keeps a tiny weight: it is enabled, so it gets one channel, and opening
    // then reports that it has no room.
    weights.push_back(std::max(static_cast<double>(room), 1.0));
  }
  return by_ratio(
      [&] {
        std::vector<space_weight> w;
        for (std::size_t s = 0; s < spaces.size(); ++s) w.push_back({spaces[s].space, weights[s]});
        return w;
      }(),
      total);
}

space_store::~space_store() { release(); }

void space_store::release() noexcept {
  for (std::size_t c = 0; c < memory_.size(); ++c)
    if (memory_[c] != nullptr)
      memory_manager_for(channel_space_[c].kind).deallocate(channel_space_[c].device, memory_[c]);
  memory_.clear();
}

memory_space space_store::space_of(int channel) const {
  if (channel < 0 || channel >= channels()) throw index_error(channel, channels());
  return channel_space_[static_cast<std::size_t>(channel)];
}

std::unique_ptr<page_store> space_store::clone_unopened() const {
  return std::make_unique<space_store>(spaces_);
}

std::string space_store::describe() const {
  std::string text = "space_store(";
  for (std::size_t s = 0; s < spaces_.size(); ++s)
    text +=
        (s ? ", " : "") + to_string(spaces_[s].space) + " x" + std::to_string(spaces_[s].channels);
  return text + ")";
}

std::string space_store::channel_name(int channel) const { return to_string(space_of(channel)); }

void space_store::do_open(const page_layout& layout) {
  page_bytes_ = layout.page_bytes();
  for (const auto& s : spaces_) {  // every space checked before anything is allocated
    std::size_t needed = 0;
    for (int c = 0; c < channels(); ++c)
      if (channel_space_[static_cast<std::size_t>(c)] == s.space) needed += layout.channel_bytes(c);
    const std::size_t room = free_bytes(s.space);
    if (room != memory_manager::unknown_free_bytes && needed > room)
      throw allocation_error(needed, s.space,
                             "the space has only " + std::to_string(room) + " bytes free (" +
                                 describe() + " puts " + std::to_string(s.channels) +
                                 " channels there)");
  }
  memory_.assign(channel_space_.size(), nullptr);
  try {
    for (int c = 0; c < channels(); ++c) {
      const memory_space space = channel_space_[static_cast<std::size_t>(c)];
      auto* memory = static_cast<std::byte*>(
          memory_manager_for(space.kind).allocate(space.device, layout.channel_bytes(c)));
      memory_[static_cast<std::size_t>(c)] = memory;
      zero(space, memory, layout.channel_bytes(c));
    }
  } catch (...) {
    release();
    throw;
  }
}

std::byte* space_store::at(int channel, index_t local_page, std::size_t offset) const {
  return memory_[static_cast<std::size_t>(channel)] +
         static_cast<std::size_t>(local_page) * page_bytes_ + offset;
}

void space_store::read(int channel, index_t local_page, std::size_t offset, std::size_t bytes,
                       void* destination) {
  copy_bytes(host_space, destination, channel_space_[static_cast<std::size_t>(channel)],
             at(channel, local_page, offset), bytes);
}

void space_store::write(int channel, index_t local_page, std::size_t offset, std::size_t bytes,
                        const void* source) {
  copy_bytes(channel_space_[static_cast<std::size_t>(channel)], at(channel, local_page, offset),
             host_space, source, bytes);
}

const std::byte* space_store::host_address(int channel) const {
  if (memory_.empty() || !host_addressable(channel_space_[static_cast<std::size_t>(channel)]))
    return nullptr;
  return memory_[static_cast<std::size_t>(channel)];
}

std::optional<std::vector<index_t>> space_store::scan_where_stored(int channel,
                                                                   const find_request& request,
                                                                   index_t cap) const {
  const memory_space space = channel_space_[static_cast<std::size_t>(channel)];
  if (memory_.empty() || space.is_host()) return std::nullopt;
  const page_layout& l = layout();
  if (space.kind == simulated_kind()) {
    // As on a device: every slot of the channel, a short last page's unused ones too, in
    // place (a simulated device's kernels run on the host), so that find()'s handling of
    // device scans is tested without a GPU.
    std::vector<index_t> slots;
    detail::scan_elements(memory_[static_cast<std::size_t>(channel)],
                          l.pages_on(channel) * l.page_elements, l.element_bytes, request, 0, cap,
                          slots);
    return slots;
  }
  if (space.kind != space_kind::cuda) return std::nullopt;
  return detail::cuda_find_slots(space.device, memory_[static_cast<std::size_t>(channel)],
                                 l.pages_on(channel) * l.page_elements, l.element_bytes, request,
                                 cap);
}

}  // namespace funcmesh
