// The MPI tags of halo messages: each says the round's parity, how many messages the sender's
// round sends each neighbour and which of them it is, and the message's size in bytes, so
// that a receive never matches a message of another size (a truncated receive can corrupt
// memory in some MPIs). Internal to halo_plan; public only so that tests reach it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

namespace funcmesh::detail {

class halo_tags {
 public:
  // tag_ub: the communicator's MPI_TAG_UB (at least 32767); max_groups: the most messages
  // one round sends each neighbour. Tags run from 0 to 2 * size_modulus() * max_groups^2 - 1.
  halo_tags(int tag_ub, int max_groups);

  struct fields {
    unsigned parity = 0;           // of the sender's round count
    int groups = 1;                // messages the sender's round sends this neighbour
    int group = 0;                 // which of them, 0 <= group < groups
    std::size_t bytes_modulo = 0;  // the message's bytes modulo size_modulus()
    friend bool operator==(const fields&, const fields&) = default;
  };
  // Throws error when groups or group are out of range.
  int encode(const fields& f) const;
  int encode(unsigned parity, int groups, int group, std::size_t bytes) const;
  // nullopt for a tag this layout never makes (a peer using another layout).
  std::optional<fields> decode(int tag) const;
  // Sizes that differ by a multiple of this share a tag: 2^28 bytes under Open MPI's
  // MPI_TAG_UB with two groups at most; below it a size has a tag of its own.
  std::size_t size_modulus() const { return sizes_; }
  int max_groups() const { return max_groups_; }

 private:
  int max_groups_ = 1;
  std::size_t sizes_ = 1;
};

}  // namespace funcmesh::detail
