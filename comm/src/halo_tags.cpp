// The MPI tags of halo messages: parity, group count, group and size, packed into one int.
#include <funcmesh/comm/detail/halo_tags.hpp>

#include <string>

#include <funcmesh/core/error.hpp>

namespace funcmesh::detail {

namespace {
// tag = ((bytes mod sizes) * slots + slot) * 2 + parity, slot = (groups - 1) * max + group.
std::int64_t slots_of(int max_groups) { return static_cast<std::int64_t>(max_groups) * max_groups; }
}  // namespace

halo_tags::halo_tags(int tag_ub, int max_groups) : max_groups_(max_groups) {
  const std::int64_t slots = slots_of(max_groups);
  const std::int64_t tags = static_cast<std::int64_t>(tag_ub) + 1;
  if (max_groups < 1 || tags < 2 * slots) {
    throw error("funcmesh::halo_plan: MPI_TAG_UB " + std::to_string(tag_ub) +
                " leaves no tags for " + std::to_string(max_groups) +
                " messages per neighbour and round");
  }
  sizes_ = static_cast<std::size_t>(tags / (2 * slots));
}

int halo_tags::encode(const fields& f) const {
  if (f.groups < 1 || f.groups > max_groups_ || f.group < 0 || f.group >= f.groups) {
    throw error("funcmesh::halo_plan: message " + std::to_string(f.group) + " of " +
                std::to_string(f.groups) + " per neighbour (at most " +
                std::to_string(max_groups_) + ")");
  }
  const std::int64_t slot = static_cast<std::int64_t>(f.groups - 1) * max_groups_ + f.group;
  const auto size = static_cast<std::int64_t>(f.bytes_modulo % sizes_);
  return static_cast<int>((size * slots_of(max_groups_) + slot) * 2 + (f.parity & 1u));
}

int halo_tags::encode(unsigned parity, int groups, int group, std::size_t bytes) const {
  return encode(fields{parity, groups, group, bytes});
}

std::optional<halo_tags::fields> halo_tags::decode(int tag) const {
  const std::int64_t slots = slots_of(max_groups_);
  if (tag < 0 || tag >= static_cast<std::int64_t>(sizes_) * slots * 2) return std::nullopt;
  fields f;
  f.parity = static_cast<unsigned>(tag & 1);
  const std::int64_t rest = tag / 2;
  const std::int64_t slot = rest % slots;
  f.groups = static_cast<int>(slot / max_groups_) + 1;
  f.group = static_cast<int>(slot % max_groups_);
  if (f.group >= f.groups) return std::nullopt;
  f.bytes_modulo = static_cast<std::size_t>(rest / slots);
  return f;
}

}  // namespace funcmesh::detail
