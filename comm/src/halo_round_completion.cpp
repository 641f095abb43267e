// Completing a halo round: every receive matched or, where a peer began other fields (its
// message has another size, hence another tag, and no receive matches it), cancelled and
// the peer's messages taken whole into scratch, so that no receive is ever truncated and
// no rank waits for a message that will not come.
#include <funcmesh/comm/halo_plan.hpp>

#include "halo_messages.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace funcmesh {

namespace {

// Rounds of MPI_Testsome between probes for messages no receive matched: a mismatch is a
// program error, seen a little later at no cost to the rounds that match.
constexpr int probe_every = 16;

struct peer_round {
  int open_receives = 0;  // this rank's receives from the peer, neither complete nor cancelled
  int matched = 0;        // the peer's messages of the round that a receive took
  int due = -1;           // after a mismatch: the peer's messages of the round still to take
};

}  // namespace

int halo_plan::complete_round(detail::halo_message_set& s, std::string& mismatch,
                              const char*& call) {
  const std::span<MPI_Request> requests = s.round_requests();
  const std::size_t all = requests.size();
  const std::size_t receives = all / 2;  // then as many sends
  const std::size_t n = neighbour_part_.size();
  const int groups = static_cast<int>(s.groups.size());
  const detail::halo_tags& tags = tags_of(s);
  std::vector<peer_round> peers(n);
  for (std::size_t r = 0; r < receives; ++r) ++peers[r % n].open_receives;
  std::vector<char> open(all, 1);
  std::size_t open_count = all;
  const auto close = [&](std::size_t r, const MPI_Status& status, bool cancelled) {
    open[r] = 0;
    --open_count;
    if (!cancelled) s.statuses[r] = status;
    if (r < receives) {
      --peers[r % n].open_receives;
      if (!cancelled) ++peers[r % n].matched;
    }
  };
  std::vector<int> done(all);
  std::vector<MPI_Status> statuses(all);
  std::vector<std::byte> scratch;
  const auto failed = [&call](const char* name, int code) {
    call = name;
    return code;
  };
  for (int spin = 1;; ++spin) {
    if (open_count > 0) {
      int count = 0;
      const int code = MPI_Testsome(static_cast<int>(all), requests.data(), &count, done.data(),
                                    statuses.data());
      if (code != MPI_SUCCESS) return failed("MPI_Testsome", code);
      for (int j = 0; count != MPI_UNDEFINED && j < count; ++j) {
        close(static_cast<std::size_t>(done[static_cast<std::size_t>(j)]),
              statuses[static_cast<std::size_t>(j)], false);
      }
    }
    const bool owed = std::ranges::any_of(peers, [](const peer_round& p) { return p.due > 0; });
    if (open_count == 0 && !owed) return MPI_SUCCESS;
    if (open_count > 0 && spin % probe_every != 0) continue;
    for (std::size_t k = 0; k < n; ++k) {
      peer_round& p = peers[k];
      if (p.open_receives == 0 && p.due <= 0) continue;
      const int peer = neighbour_part_[k];
      int found = 0;
      MPI_Status probed;
      int code = MPI_Iprobe(peer, MPI_ANY_TAG, comm_, &found, &probed);
      if (code != MPI_SUCCESS) return failed("MPI_Iprobe", code);
      if (found == 0) continue;
      const auto sent = tags.decode(probed.MPI_TAG - tag_base);
      // A message of the other parity is the peer's next round (it is one ahead): the
      // messages of this one came before it, and took this rank's receives.
      if (sent && sent->parity != s.parity) continue;
      // This round's message, and no receive of this rank matched it: take it whole.
      MPI_Message message = MPI_MESSAGE_NULL;
      code = MPI_Mprobe(peer, probed.MPI_TAG, comm_, &message, &probed);
      if (code != MPI_SUCCESS) return failed("MPI_Mprobe", code);
      int bytes = 0;
      MPI_Get_count(&probed, MPI_BYTE, &bytes);
      scratch.resize(static_cast<std::size_t>(std::max(bytes, 1)));
      code = MPI_Mrecv(scratch.data(), bytes, MPI_BYTE, &message, MPI_STATUS_IGNORE);
      if (code != MPI_SUCCESS) return failed("MPI_Mrecv", code);
      if (p.due < 0) {
        // The first: none of this rank's receives from the peer will match now.
        for (std::size_t r = k; r < receives; r += n) {
          if (open[r] == 0) continue;
          MPI_Status cancelled_status;
          code = MPI_Cancel(&requests[r]);
          if (code == MPI_SUCCESS) code = MPI_Wait(&requests[r], &cancelled_status);
          if (code != MPI_SUCCESS) return failed("MPI_Cancel", code);
          int cancelled = 0;
          MPI_Test_cancelled(&cancelled_status, &cancelled);
          close(r, cancelled_status, cancelled != 0);
        }
        p.due = sent ? std::max(sent->groups - p.matched, 1) : 1;
        if (mismatch.empty()) {
          const std::string who = "rank " + std::to_string(peer) + " sent ";
          if (sent && sent->groups == groups) {
            const auto r = static_cast<std::size_t>(sent->group) * n + k;
            mismatch = who + std::to_string(bytes) + " bytes where this rank's fields take " +
                       std::to_string(s.receive_bytes[r]);
          } else {
            mismatch = who + (sent ? std::to_string(sent->groups) : std::string("other")) +
                       " messages (one of " + std::to_string(bytes) +
                       " bytes) where this rank's fields take " + std::to_string(groups);
          }
        }
      }
      --p.due;
    }
  }
}

}  // namespace funcmesh
