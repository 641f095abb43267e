// halo_plan: the halo exchange of one local mesh — per neighbour rank the cells to send
// and receive, packed byte buffers and persistent MPI requests — owned by its
// distributed_layout and shared by every function on it. Split phase: begin() packs and
// starts, end() waits and unpacks. A round sends one message to each neighbour, whatever
// the number of fields it moves.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <funcmesh/comm/detail/halo_tags.hpp>
#include <funcmesh/core/index.hpp>
#include <funcmesh/exec/executor.hpp>
#include <funcmesh/expr/grid_function_base.hpp>
#include <funcmesh/expr/halo_source.hpp>
#include <funcmesh/memory/array.hpp>
#include <funcmesh/memory/buffer.hpp>
#include <funcmesh/memory/token.hpp>
#include <funcmesh/partition/local_mesh.hpp>

namespace funcmesh {

namespace detail {
struct halo_message_set;  // comm/src/halo_messages.hpp
}

// One field of an exchange round: its values (owned + halo), packed and unpacked where
// the source says (a grid function's by kernels on the round's executor, a paged
// function's through its cache on the host), and the bytes per value the caller means to
// move, checked against the source's: {&u.local_values(), sizeof(double)}.
struct halo_field {
  halo_source* source;
  std::size_t element_size;
  std::string describe() const;
};

class halo_plan {
 public:
  // Copies the send/receive lists of `m` and duplicates `comm` for the plan's messages.
  // Collective over `comm` (an agreement on the lists, then MPI_Comm_dup): every rank of
  // `comm` builds its plans in the same order, from the same partition (a layout builds
  // its one plan when it is made). A list error on any rank throws on every rank. The plan
  // keeps working after the caller frees `comm`.
  halo_plan(MPI_Comm comm, const local_mesh& m);
  ~halo_plan();
  halo_plan(const halo_plan&) = delete;
  halo_plan& operator=(const halo_plan&) = delete;

  // Several fields in one round: each is gathered into its own packed buffer, and ONE
  // message per neighbour carries them all (an MPI derived datatype over the buffers; one
  // field: plain bytes): the per-message latency is paid once per round, not once per
  // field. Packing runs where each source packs (pack_site): on `on` (a kernel
  // for device data) or on the host; the packed bytes go through host memory unless MPI
  // takes device memory (Debian's Open MPI is not CUDA-aware). Only there, a round that
  // mixes device and host-packed fields sends one message per neighbour and memory space:
  // a message cannot span both kinds of memory.
  // Buffers, persistent requests and datatypes are kept per distinct field set (the
  // fields' element sizes and transfer spaces, in order), for the 8 sets used last:
  // rounds that alternate {q} and {q, adt} rebuild nothing.
  //
  // On a device executor (CUDA, the simulated device), begin launches the packing on `on`
  // and issues the copies of the packed bytes to the host on the device's side queue
  // (CUDA: the rank's second stream, after the packing) and returns without waiting: the
  // loops launched before end() (a distributed assignment's interior) run on the device
  // beside the copies and the messages. The messages (receives included) start when the
  // host has joined the queue: at the round's first progress() or at its end(). So with
  // rounds of several plans in flight at once, every rank must end them in the same order,
  // or call progress() on each once its own loops are launched.
  void begin(std::span<const halo_field> fields, const executor& on = default_executor());
  // Waits for the round begun last and scatters the received values into each halo. A
  // message of another size than this rank's fields expect (ranks began different field
  // sets) throws an error naming the peer and both sizes once the round is complete, on
  // each rank that sees one; such a message is never received into the halo buffers (see
  // tag_base), and the plan stays usable.
  void end(const executor& on = default_executor());
  // The same, each halo written through `holder` (halo_source::unpack), which keeps its
  // holds: a loop bound with it, on `on`, reads the halo without binding again.
  void end(const executor& on, token& holder);
  void exchange(std::span<const halo_field> fields, const executor& on = default_executor());

  void begin(grid_function_base& f, std::size_t element_size,
             const executor& on = default_executor());
  void end(grid_function_base& f, std::size_t element_size,
           const executor& on = default_executor());
  void exchange(grid_function_base& f, std::size_t element_size,
                const executor& on = default_executor());

  // Lets the round in flight advance (MPI_Testall on its requests) without waiting: Open
  // MPI's TCP transport moves a message past its eager limit only inside MPI calls, so a
  // long interior loop calls this between chunks (halo_progress_chunks). No round in
  // flight, no neighbours: nothing. Completes nothing end() would not; end() still waits.
  void progress();
  bool in_flight() const { return in_flight_; }
  // Rounds completed (a round of several fields counts once).
  std::uint64_t exchange_count() const { return exchange_count_; }
  // Point-to-point messages this plan has started, sends only: neighbour_count() per round
  // begun with fields, whatever their number (twice that where a GPU-aware MPI moves device
  // and host-packed fields in one round; one per field and neighbour under
  // detail::set_halo_messages_per_field_for_testing). Tests and benchmarks check by it.
  std::uint64_t messages_sent() const { return messages_sent_; }
  // The bytes of those messages (every field's packed values, to every neighbour).
  std::uint64_t bytes_sent() const { return bytes_sent_; }

  // The plan's own duplicate of the communicator it was built on: the same ranks in the
  // same order (MPI_CONGRUENT), a separate message context. Lives as long as the plan.
  MPI_Comm comm() const { return comm_; }
  index_t interior_count() const { return interior_count_; }
  index_t owned_count() const { return owned_count_; }
  index_t total_count() const { return total_count_; }
  std::size_t neighbour_count() const { return neighbour_part_.size(); }
  // A message's tag, from tag_base up to the communicator's MPI_TAG_UB, carries the parity
  // of the plan's round count, how many messages the round sends each neighbour and which
  // one it is, and the message's size in bytes (detail::halo_tags; modulo 2^28 under Open
  // MPI, modulo a few thousand where MPI_TAG_UB is the 32767 every MPI must accept). So a
  // peer that began other fields sends a message no receive matches: end() finds it by
  // probing, receives it whole into a scratch buffer and throws, rather than let MPI
  // truncate a receive (Open MPI 4.1 then writes past the receive buffer of a message
  // beyond its eager limit, and its TCP transport may never complete a small one). Rounds
  // of a plan are sequential and MPI does not let messages of one sender and tag overtake
  // each other, so round r's receives match round r's sends; a peer at most one round
  // ahead sends with the other parity. The messages travel on the plan's own communicator,
  // so they cannot match the caller's messages whatever their tags.
  static constexpr int tag_base = 0;
  // Distinct field sets whose messages a plan keeps; the least recently used goes first.
  static constexpr std::size_t max_field_sets = 8;

 private:
  void check_field(const halo_field& field) const;
  detail::halo_message_set& field_set(std::span<const halo_field> fields, memory_space transfer);
  void check_received(const detail::halo_message_set& s) const;
  // Completes the round in flight of `s` (halo_round_completion.cpp): every receive matched
  // or, where the peer's message has another tag (other fields), cancelled and that message
  // received into scratch; every send done. Returns the first failing MPI call's code (and
  // its name in `call`); `mismatch` says what the first mismatched peer sent.
  int complete_round(detail::halo_message_set& s, std::string& mismatch, const char*& call);
  // The same where only the completion matters (a failure already reported, the
  // destructor): an MPI failure or an exception abandons the plan.
  void complete_or_abandon(detail::halo_message_set& s) noexcept;
  const detail::halo_tags& tags_of(const detail::halo_message_set& s) const;
  // Joins the round's staging, then starts its messages. With `failure` (or when the
  // staging or the start fails) the round is completed and closed here and this throws.
  void start_messages(std::exception_ptr failure);

  MPI_Comm comm_ = MPI_COMM_NULL;  // owned: MPI_Comm_dup of the caller's communicator
  index_t interior_count_ = 0;
  index_t owned_count_ = 0;
  index_t total_count_ = 0;
  std::vector<int> neighbour_part_;
  // All neighbours' lists concatenated; neighbour n's part is [offset[n], offset[n + 1]).
  array<index_t> send_;
  array<index_t> receive_;
  std::vector<index_t> send_offset_;
  std::vector<index_t> receive_offset_;
  std::vector<std::unique_ptr<detail::halo_message_set>> sets_;  // at most max_field_sets
  detail::halo_message_set* current_set_ = nullptr;              // the round in flight's
  std::uint64_t set_uses_ = 0;  // the clock of halo_message_set::last_use
  std::vector<halo_field> current_;
  bool in_flight_ = false;
  bool messages_pending_ = false;  // begun on a device, the messages not started yet
  executor round_on_;              // the executor the round in flight was begun on
  // An MPI call failed while requests may be active: their buffers must never be freed.
  bool abandoned_ = false;
  unsigned next_parity_ = 0;             // of the count of rounds whose messages started
  std::vector<detail::halo_tags> tags_;  // aggregated, then one message per field
  std::uint64_t exchange_count_ = 0;
  std::uint64_t messages_sent_ = 0;
  std::uint64_t bytes_sent_ = 0;
};

namespace detail {
// Tests only: the next MPI_Startall (start) or round completion (wait, reported as
// MPI_Testsome) of any halo plan in this process reports MPI_ERR_OTHER, once. An injected start
// starts nothing; an injected wait completes the round first, so peers that injected nothing are
// not left hanging. A plan without neighbours calls neither, and leaves the injection pending. The
// normal path pays one relaxed atomic load per call.
enum class halo_failure { none, start, wait };
void inject_halo_failure_for_testing(halo_failure which);
// Tests and benchmarks only: from the next round on, every halo plan of this process sends
// one message per field and neighbour, as before rounds were aggregated, so that a
// benchmark compares both in one process. Every rank must set the same value between the
// same rounds. At most 64 fields a round then.
void set_halo_messages_per_field_for_testing(bool per_field);
}  // namespace detail

}  // namespace funcmesh
