// Halo exchange plans: packed buffers and persistent requests.
#include <funcmesh/comm/halo_plan.hpp>

#include <funcmesh/comm/gpu_aware_mpi.hpp>

#include "halo_messages.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <utility>

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/exec/synchronize.hpp>

namespace funcmesh {

namespace {

array<index_t> concatenate(const local_mesh& m, bool send, std::vector<index_t>& offsets) {
  offsets.assign(1, 0);
  for (const auto& n : m.neighbours) {
    const auto& list = send ? n.send : n.receive;
    offsets.push_back(offsets.back() + static_cast<index_t>(list.size()));
  }
  array<index_t> all(offsets.back());
  auto out = all.overwrite();
  index_t k = 0;
  for (const auto& n : m.neighbours) {
    for (index_t c : send ? n.send : n.receive) out[k++] = c;
  }
  return all;
}

// Every entry of a plan's list must be a cell of [first, end): sends are owned cells,
// receives are halo cells.
void check_list(const array<index_t>& list, index_t first, index_t end, const char* what,
                int part) {
  const auto values = list.read();
  for (index_t k = 0; k < list.size(); ++k) {
    if (values[k] < first || values[k] >= end) {
      throw error("funcmesh::halo_plan: part " + std::to_string(part) + " " + what + " cell " +
                  std::to_string(values[k]) + " (entry " + std::to_string(k) +
                  "), outside its cells [" + std::to_string(first) + ", " + std::to_string(end) +
                  ")");
    }
  }
}

// The failure a test asked for (detail::halo_failure as int); 0 on the normal path.
std::atomic<int> injected_failure{0};

// Whether the next `which` call is to fail; the injection is used up by the call it hits.
bool take_injected(detail::halo_failure which) {
  if (injected_failure.load(std::memory_order_relaxed) == 0) return false;
  int expected = static_cast<int>(which);
  return injected_failure.compare_exchange_strong(expected, 0);
}

// A send buffer whose packing failed: all ones on the host (NaN for floating point). If
// even that fails (no host memory), its bytes go as they are: this rank throws anyway.
void poison(buffer& send, token& holder) noexcept {
  try {
    std::memset(send.overwrite_pointer(host_space, holder), 0xff, send.size_bytes());
  } catch (...) {
  }
}

// detail::set_halo_messages_per_field_for_testing's switch.
std::atomic<bool> messages_per_field{false};

}  // namespace

halo_plan::halo_plan(MPI_Comm comm, const local_mesh& m)
    : interior_count_(m.interior_count),
      owned_count_(m.owned_count),
      total_count_(m.cells.cell_count()) {
  // Local failures are agreed before the duplication below, which every rank must enter:
  // a rank that threw alone would leave the others waiting in MPI_Comm_dup.
  std::exception_ptr failure;
  try {
    for (const auto& n : m.neighbours) {
      if (n.send.empty() != n.receive.empty()) {
        throw error("funcmesh::halo_plan: part " + std::to_string(m.part) + " sends " +
                    std::to_string(n.send.size()) + " and receives " +
                    std::to_string(n.receive.size()) + " cells with part " +
                    std::to_string(n.part) + " (halo lists must be symmetric)");
      }
      neighbour_part_.push_back(n.part);
    }
    send_ = concatenate(m, true, send_offset_);
    receive_ = concatenate(m, false, receive_offset_);
    // Checked once here, so that no exchange reads the lists on the host again.
    check_list(send_, 0, owned_count_, "sends", m.part);
    check_list(receive_, owned_count_, total_count_, "receives", m.part);
    (void)mpi::gpu_aware();  // decided now (a bad FUNCMESH_GPU_AWARE_MPI fails here, agreed)
  } catch (...) {
    failure = std::current_exception();
  }
  mpi::agree(mpi::communicator(comm), failure);
  // The plan's own communicator: it outlives a caller that frees `comm`, and its messages
  // cannot meet the caller's. It inherits `comm`'s error handler.
  check_mpi(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup (halo plan)", comm);
  // MPI_TAG_UB is cached on MPI_COMM_WORLD (and, in most MPIs, on its duplicates); it is
  // the same on every rank, so the layouts below fail alike everywhere or nowhere.
  int tag_ub = 32767;  // the least every MPI must accept
  for (MPI_Comm with : {comm_, MPI_COMM_WORLD}) {
    int* value = nullptr;
    int found = 0;
    MPI_Comm_get_attr(with, MPI_TAG_UB, static_cast<void*>(&value), &found);
    if (found != 0 && value != nullptr) {
      tag_ub = *value;
      break;
    }
  }
  for (const bool per_field : {false, true}) {
    tags_.emplace_back(tag_ub - tag_base, detail::halo_message_set::max_groups(per_field));
  }
}

void halo_plan::complete_or_abandon(detail::halo_message_set& s) noexcept {
  std::string mismatch;
  const char* call = nullptr;
  try {
    if (complete_round(s, mismatch, call) != MPI_SUCCESS) abandoned_ = true;
  } catch (...) {
    abandoned_ = true;
  }
}

const detail::halo_tags& halo_plan::tags_of(const detail::halo_message_set& s) const {
  return tags_[s.per_field ? 1 : 0];
}

halo_plan::~halo_plan() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!abandoned_ && finalized == 0 && in_flight_ && messages_pending_) {
    // A round begun on a device whose messages never started: the peers wait for them.
    try {
      start_messages({});
    } catch (...) {
    }
  }
  if (!abandoned_ && finalized == 0 && in_flight_ && current_set_ != nullptr &&
      !current_set_->complete) {
    complete_or_abandon(*current_set_);  // else a round still running writes into freed buffers
  }
  if (abandoned_ || finalized != 0) {
    // After a failed start or wait, requests may still be active and waiting on them may
    // never return: leave their buffers allocated (a deliberate leak) rather than let MPI
    // write into freed memory, and leave the communicator they use alone. After
    // MPI_Finalize no MPI call is allowed at all.
    static std::vector<std::unique_ptr<detail::halo_message_set>> abandoned_sets;
    static std::mutex abandoned_guard;
    const std::lock_guard lock(abandoned_guard);
    for (auto& s : sets_) abandoned_sets.push_back(std::move(s));
    return;
  }
  for (auto& s : sets_) s->free_requests();
  // Collective in principle; every rank drops its last grid function of the plan in the
  // same order, as it built them.
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

std::string halo_field::describe() const {
  return source != nullptr ? source->describe() : std::string("a null function");
}

void halo_plan::check_field(const halo_field& field) const {
  const halo_source* values = field.source;
  if (values == nullptr || values->owned_size() != owned_count_ ||
      values->total_size() != total_count_) {
    throw error(mpi::rank_prefix() + "funcmesh::halo_plan: " + field.describe() +
                " does not match the local mesh (" + std::to_string(owned_count_) + " owned, " +
                std::to_string(total_count_ - owned_count_) + " halo cells)");
  }
  const std::size_t bytes = static_cast<std::size_t>(values->total_size()) * values->element_size();
  if (field.element_size == 0 ||
      bytes != static_cast<std::size_t>(total_count_) * field.element_size) {
    throw error(mpi::rank_prefix() + "funcmesh::halo_plan: element size " +
                std::to_string(field.element_size) + " does not match " + field.describe());
  }
}

detail::halo_message_set& halo_plan::field_set(std::span<const halo_field> fields,
                                               memory_space transfer) {
  const bool per_field = messages_per_field.load(std::memory_order_relaxed);
  auto space_of = [transfer](const halo_field& f) {
    return f.source->packs_on() == pack_site::host ? host_space : transfer;
  };
  auto same = [&](const detail::halo_message_set& s) {
    if (s.per_field != per_field || s.key.size() != fields.size()) return false;
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (s.key[i] != detail::halo_field_key{fields[i].element_size, space_of(fields[i])}) {
        return false;
      }
    }
    return true;
  };
  ++set_uses_;
  for (auto& s : sets_) {
    if (same(*s)) {
      s->last_use = set_uses_;
      return *s;
    }
  }
  if (sets_.size() >= max_field_sets) {
    // No round is in flight (begin refuses to start one over another), so the requests of
    // the set used least recently are inactive: they, its types and buffers can go.
    const auto oldest = std::ranges::min_element(
        sets_, {}, [](const std::unique_ptr<detail::halo_message_set>& s) { return s->last_use; });
    (*oldest)->free_requests();
    sets_.erase(oldest);
  }
  std::vector<detail::halo_field_key> key;
  for (const auto& f : fields) key.push_back({f.element_size, space_of(f)});
  sets_.push_back(std::make_unique<detail::halo_message_set>(std::move(key), per_field,
                                                             send_.size(), receive_.size()));
  sets_.back()->last_use = set_uses_;
  return *sets_.back();
}

void halo_plan::begin(std::span<const halo_field> fields, const executor& on) {
  const auto most = static_cast<std::size_t>(detail::halo_message_set::max_groups(true));
  if (messages_per_field.load(std::memory_order_relaxed) && fields.size() > most) {
    throw error(mpi::rank_prefix() +
                "funcmesh::halo_plan::begin: " + std::to_string(fields.size()) +
                " fields in one round with one message per field (at most " + std::to_string(most) +
                ": the message count is in each tag)");
  }
  if (in_flight_) {
    throw error(mpi::rank_prefix() +
                "funcmesh::halo_plan::begin: the previous exchange has not ended");
  }
  if (abandoned_) {
    throw error(mpi::rank_prefix() +
                "funcmesh::halo_plan::begin: an earlier MPI failure left this plan's requests "
                "in an unknown state; it cannot exchange again");
  }
  for (const auto& f : fields) check_field(f);
  current_.assign(fields.begin(), fields.end());
  if (neighbour_part_.empty() || fields.empty()) {  // nothing to send: no MPI call
    in_flight_ = true;
    return;
  }
  // Device data is staged through the host unless MPI is known to take device pointers.
  // (gpu_aware() was decided when the plan was built: it cannot throw here.) Bytes packed
  // on the host (pack_site::host) are sent from there.
  const memory_space transfer = on.space().is_host() || !mpi::gpu_aware() ? host_space : on.space();
  detail::halo_message_set& s = field_set(fields, transfer);
  s.holder.release();  // packing writes the send buffers where it packs
  // Device data staged through the host goes through page-locked copies, which DMA at full
  // speed (the simulated device takes the same path, with mlock'ed pages).
  const bool staged = on.on_device() && transfer.is_host();
  if (staged) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      s.send[i].set_pinned_host(true);
      s.receive[i].set_pinned_host(true);
    }
  }
  // Packing may fail (a paged field reads its store: an I/O error; a device fault). The
  // peers wait for this rank's messages all the same, so the round still runs: the failed
  // field's bytes are all ones (NaN for floating point), the round is completed here, and
  // only then does this rank throw (its halos stay dirty).
  std::exception_ptr pack_failure;
  // The packing runs on `on`, in order with the loops before it and before the loop the
  // caller launches next: over owned and halo cells that loop may write a field this round
  // sends (add_to(z, u) exchanges z), so it must not start before z is packed.
  for (std::size_t i = 0; i < fields.size(); ++i) {
    try {
      s.packed[i] = 0;
      fields[i].source->pack(on, send_, s.send[i]);
      s.packed[i] = 1;
    } catch (...) {
      if (!pack_failure) pack_failure = std::current_exception();
      poison(s.send[i], s.holder);
    }
  }
  // On a device, the copies of the packed bytes to the host go on the device's side queue,
  // after everything issued on `on`'s stream so far (the packing included); begin returns
  // without waiting, and the loop the caller launches next (the interior) runs beside the
  // copies and the messages. The messages start once the host has joined the queue (which
  // also makes the packing done, as a GPU-aware MPI needs): at the round's first
  // progress() or at end().
  const auto packs_on_device = [](const halo_field& f) {
    return f.source->packs_on() != pack_site::host;
  };
  bool deferred = on.on_device() && std::ranges::any_of(fields, packs_on_device);
  if (deferred) {
    try {
      s.staging.emplace(on.space(), on.stream());
    } catch (...) {
      if (!pack_failure) pack_failure = std::current_exception();
      deferred = false;
    }
  }
  if (deferred && staged) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (s.packed[i] == 0 || !packs_on_device(fields[i])) continue;
      try {
        const void* bytes = s.send[i].read_pointer(on.space(), s.holder);
        // The host copy is taken as the contents now; its bytes arrive at the join.
        void* staged_bytes = s.send[i].overwrite_pointer(host_space, s.holder);
        s.staging->copy_to_host(staged_bytes, bytes, s.send[i].size_bytes());
      } catch (...) {
        if (!pack_failure) pack_failure = std::current_exception();
        poison(s.send[i], s.holder);
      }
    }
  }
  round_on_ = on;
  current_set_ = &s;
  in_flight_ = true;
  messages_pending_ = true;
  if (!deferred || pack_failure) start_messages(pack_failure);
}

void halo_plan::start_messages(std::exception_ptr failure) {
  detail::halo_message_set& s = *current_set_;
  messages_pending_ = false;
  // Ends the round on a failure: it will not be waited for again.
  const auto close_round = [&] {
    in_flight_ = false;
    current_set_ = nullptr;
    current_.clear();
  };
  // Joining the side queue also makes the packing kernels done, which a GPU-aware MPI
  // needs before it reads device send buffers itself. (A round with no field packed on a
  // device has nothing on a device to wait for: its transfer space is the host's.)
  if (s.staging) {
    try {
      s.staging->join("halo send buffers before MPI_Startall");
    } catch (...) {
      // The device failed: the peers still get their messages (all ones), as for a failed
      // packing, and the failure is reported once the round is complete.
      if (!failure) failure = std::current_exception();
      for (std::size_t i = 0; i < s.key.size(); ++i) {
        if (s.key[i].transfer.is_host()) poison(s.send[i], s.holder);
      }
    }
    s.staging.reset();
  } else if (std::ranges::any_of(
                 s.key, [](const detail::halo_field_key& k) { return !k.transfer.is_host(); })) {
    // A GPU-aware MPI reads and writes device buffers itself, and no join made the
    // packing (and the previous round's unpacking of the receive buffers) done: wait here.
    try {
      exec::synchronize(round_on_, exec::loop_label{"halo buffers before MPI_Startall"});
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
  }
  try {
    s.prepare({comm_, neighbour_part_, send_offset_, receive_offset_}, tags_of(s));
    s.parity = next_parity_;
    const std::span<MPI_Request> round = s.round_requests();
    const int code = take_injected(detail::halo_failure::start)
                         ? MPI_ERR_OTHER
                         : MPI_Startall(static_cast<int>(round.size()), round.data());
    check_mpi(code, "MPI_Startall", comm_);
  } catch (...) {
    // Requests may be running (a failed start may have started some): their buffers stay
    // with the plan for good.
    abandoned_ = true;
    close_round();
    throw;
  }
  s.complete = false;
  next_parity_ ^= 1u;
  messages_sent_ += s.sends();
  for (const buffer& packed : s.send) bytes_sent_ += packed.size_bytes();
  if (failure) {
    complete_or_abandon(s);  // the failure is what this rank reports
    close_round();
    std::rethrow_exception(failure);
  }
}

void halo_plan::end(const executor& on) {
  token holder;  // the round's own: every hold ends with the round
  end(on, holder);
}

void halo_plan::end(const executor& on, token& holder) {
  if (!in_flight_) {
    throw error(mpi::rank_prefix() + "funcmesh::halo_plan::end: no exchange was begun");
  }
  if (messages_pending_) start_messages({});  // a failure ends the round there
  in_flight_ = false;
  detail::halo_message_set* s = std::exchange(current_set_, nullptr);
  if (s != nullptr) {
    std::string mismatch;
    const char* call = "MPI_Testsome";
    int code = MPI_SUCCESS;
    try {
      if (!s->complete) code = complete_round(*s, mismatch, call);
    } catch (...) {
      abandoned_ = true;  // some requests may still be active
      throw;
    }
    if (code == MPI_SUCCESS && take_injected(detail::halo_failure::wait)) code = MPI_ERR_OTHER;
    if (code != MPI_SUCCESS) {
      abandoned_ = true;  // some requests may still be active
      check_mpi(code, call, comm_);
    }
    if (!mismatch.empty()) {
      throw error(mpi::rank_prefix() + "funcmesh::halo_plan::end: " + mismatch +
                  " (every rank must exchange the same fields in the same round)");
    }
    check_received(*s);
    s->holder.release();  // the received host bytes may now move to where they are unpacked
    for (std::size_t i = 0; i < current_.size(); ++i) {
      current_[i].source->unpack(on, s->receive[i], receive_, holder);
    }
  }
  current_.clear();
  ++exchange_count_;
}

void halo_plan::check_received(const detail::halo_message_set& s) const {
  // The size is in each message's tag, modulo halo_tags::size_modulus(): a peer's message
  // whose size differs by a multiple of it matches a receive all the same. Larger then
  // fails the receive (MPI_ERR_TRUNCATE); smaller would leave halo bytes unwritten without
  // a word.
  for (std::size_t r = 0; r < s.receive_bytes.size(); ++r) {
    int bytes = 0;
    MPI_Get_count(&s.statuses[r], MPI_BYTE, &bytes);
    if (bytes != s.receive_bytes[r]) {
      const int peer = neighbour_part_[r % neighbour_part_.size()];
      throw error(mpi::rank_prefix() + "funcmesh::halo_plan::end: rank " + std::to_string(peer) +
                  " sent " + std::to_string(bytes) + " bytes where this rank's fields take " +
                  std::to_string(s.receive_bytes[r]) +
                  " (every rank must exchange the same fields in the same round)");
    }
  }
}

void halo_plan::progress() {
  if (!in_flight_ || current_set_ == nullptr) return;
  if (messages_pending_) start_messages({});
  if (current_set_->complete) return;
  detail::halo_message_set& s = *current_set_;
  int done = 0;
  const std::span<MPI_Request> round = s.round_requests();
  const int code =
      MPI_Testall(static_cast<int>(round.size()), round.data(), &done, s.statuses.data());
  if (code != MPI_SUCCESS) {
    abandoned_ = true;
    check_mpi(code, "MPI_Testall", comm_);
  }
  s.complete = done != 0;
}

void halo_plan::exchange(std::span<const halo_field> fields, const executor& on) {
  begin(fields, on);
  end(on);
}

void halo_plan::begin(grid_function_base& f, std::size_t element_size, const executor& on) {
  const halo_field field{&f, element_size};
  begin(std::span<const halo_field>(&field, 1), on);
}

void halo_plan::end(grid_function_base& f, std::size_t element_size, const executor& on) {
  if (in_flight_ && (current_.size() != 1 || current_[0].source != &f ||
                     current_[0].element_size != element_size)) {
    throw error(mpi::rank_prefix() +
                "funcmesh::halo_plan::end: the exchange in flight is not that of " + f.describe());
  }
  end(on);
}

void halo_plan::exchange(grid_function_base& f, std::size_t element_size, const executor& on) {
  begin(f, element_size, on);
  end(on);
}

}  // namespace funcmesh

namespace funcmesh::detail {

void inject_halo_failure_for_testing(halo_failure which) {
  injected_failure.store(static_cast<int>(which));
}

void set_halo_messages_per_field_for_testing(bool per_field) {
  messages_per_field.store(per_field);
}

}  // namespace funcmesh::detail
