// Halo exchange plans: packed buffers and persistent requests.
#include <funcmesh/comm/halo_plan.hpp>

#include <funcmesh/comm/gpu_aware_mpi.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <mutex>
#include <string>
#include <utility>

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/mpi_error.hpp>

namespace funcmesh {

struct halo_plan::slot {
  buffer send;
  buffer receive;
  std::vector<MPI_Request> requests;  // receives first, then sends
  std::size_t element_size = 0;
  // Persistent requests are bound to addresses: re-created when the host copies move.
  const void* send_host = nullptr;
  const void* receive_host = nullptr;
  token holder;  // keeps both host copies in place while a round is in flight
};

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

int message_count(index_t values, std::size_t element_size, MPI_Comm comm) {
  const std::size_t bytes = static_cast<std::size_t>(values) * element_size;
  if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw mpi_error(
        MPI_ERR_COUNT,
        mpi_failure_message(MPI_ERR_COUNT, "halo message of " + std::to_string(bytes) + " bytes",
                            comm));
  }
  return static_cast<int>(bytes);
}

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
}

halo_plan::~halo_plan() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (abandoned_ || finalized != 0) {
    // After a failed start or wait, requests may still be active and waiting on them may
    // never return: leave their buffers allocated (a deliberate leak) rather than let MPI
    // write into freed memory, and leave the communicator they use alone. After
    // MPI_Finalize no MPI call is allowed at all.
    static std::vector<std::unique_ptr<slot>> abandoned_slots;
    static std::mutex abandoned_guard;
    const std::lock_guard lock(abandoned_guard);
    for (auto& s : slots_) abandoned_slots.push_back(std::move(s));
    return;
  }
  if (in_flight_) {
    // A round still running would write into freed buffers: complete it first.
    for (auto& s : slots_) {
      MPI_Waitall(static_cast<int>(s->requests.size()), s->requests.data(), MPI_STATUSES_IGNORE);
    }
  }
  for (auto& s : slots_) free_requests(*s);
  // Collective in principle; every rank drops its last grid function of the plan in the
  // same order, as it built them.
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void halo_plan::free_requests(slot& s) noexcept {
  for (auto& r : s.requests) {
    if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
  }
  s.requests.clear();
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

void halo_plan::prepare_requests(slot& s, std::size_t element_size, int index,
                                 memory_space transfer) {
  const auto send_bytes = static_cast<std::size_t>(send_.size()) * element_size;
  const auto receive_bytes = static_cast<std::size_t>(receive_.size()) * element_size;
  if (s.send.size_bytes() != send_bytes) s.send.set_size(send_bytes, preserve::no);
  if (s.receive.size_bytes() != receive_bytes) s.receive.set_size(receive_bytes, preserve::no);
  // Pointers for MPI in the transfer space (the host unless MPI takes device memory): the
  // send copy is read after packing, the receive copy is overwritten by MPI (so no stale
  // contents are copied in first).
  auto* send_host = static_cast<const std::byte*>(s.send.read_pointer(transfer, s.holder));
  auto* receive_host = static_cast<std::byte*>(s.receive.overwrite_pointer(transfer, s.holder));
  if (!s.requests.empty() && s.element_size == element_size && s.send_host == send_host &&
      s.receive_host == receive_host) {
    return;
  }
  free_requests(s);
  s.element_size = element_size;
  s.send_host = send_host;
  s.receive_host = receive_host;
  const int tag = tag_base + index;
  const std::size_t n = neighbour_part_.size();
  s.requests.assign(2 * n, MPI_REQUEST_NULL);
  for (std::size_t k = 0; k < n; ++k) {
    const index_t first = receive_offset_[k];
    const int count = message_count(receive_offset_[k + 1] - first, element_size, comm_);
    check_mpi(MPI_Recv_init(receive_host + static_cast<std::size_t>(first) * element_size, count,
                            MPI_BYTE, neighbour_part_[k], tag, comm_, &s.requests[k]),
              "MPI_Recv_init", comm_);
  }
  for (std::size_t k = 0; k < n; ++k) {
    const index_t first = send_offset_[k];
    const int count = message_count(send_offset_[k + 1] - first, element_size, comm_);
    // MPI_Send_init takes a non-const buffer in older MPI headers.
    auto* from = const_cast<std::byte*>(send_host) + static_cast<std::size_t>(first) * element_size;
    check_mpi(
        MPI_Send_init(from, count, MPI_BYTE, neighbour_part_[k], tag, comm_, &s.requests[n + k]),
        "MPI_Send_init", comm_);
  }
}

void halo_plan::begin(std::span<const halo_field> fields, const executor& on) {
  if (fields.size() > 10000) {
    throw error(mpi::rank_prefix() +
                "funcmesh::halo_plan::begin: " + std::to_string(fields.size()) +
                " fields in one round (at most 10000: each takes an MPI tag)");
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
  if (neighbour_part_.empty()) {
    in_flight_ = true;
    return;
  }
  while (slots_.size() < fields.size()) slots_.push_back(std::make_unique<slot>());
  // Packing may fail (a paged field reads its store: an I/O error). The peers wait for
  // this rank's messages all the same, so the round still runs: the failed field's message
  // is all-ones bytes (NaN for floating point), the round is completed here, and only then
  // does this rank throw (its halos stay dirty).
  std::exception_ptr pack_failure;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    slot& s = *slots_[i];
    s.holder.release();
    const auto bytes = static_cast<std::size_t>(send_.size()) * fields[i].element_size;
    if (s.send.size_bytes() != bytes) s.send.set_size(bytes, preserve::no);
    try {
      fields[i].source->pack(on, send_, s.send);
    } catch (...) {
      if (!pack_failure) pack_failure = std::current_exception();
      std::memset(s.send.overwrite_pointer(host_space, s.holder), 0xff, bytes);
    }
  }
  // Device data is staged through the host unless MPI is known to take device pointers.
  // (gpu_aware() was decided when the plan was built: it cannot throw here.) GPU data staged
  // through the host goes through page-locked copies, which DMA at full speed. Bytes packed
  // on the host (pack_site::host) are sent from there.
  const memory_space transfer = on.space().is_host() || !mpi::gpu_aware() ? host_space : on.space();
  if (on.space().kind == space_kind::cuda && transfer.is_host()) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      slots_[i]->send.set_pinned_host(true);
      slots_[i]->receive.set_pinned_host(true);
    }
  }
  try {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      slot& s = *slots_[i];
      const bool on_host = fields[i].source->packs_on() == pack_site::host;
      prepare_requests(s, fields[i].element_size, static_cast<int>(i),
                       on_host ? host_space : transfer);
      const int code = take_injected(detail::halo_failure::start)
                           ? MPI_ERR_OTHER
                           : MPI_Startall(static_cast<int>(s.requests.size()), s.requests.data());
      check_mpi(code, "MPI_Startall", comm_);
    }
  } catch (...) {
    // Earlier fields' requests may be running: their buffers stay with the plan for good.
    abandoned_ = true;
    throw;
  }
  if (pack_failure) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      slot& s = *slots_[i];
      if (MPI_Waitall(static_cast<int>(s.requests.size()), s.requests.data(),
                      MPI_STATUSES_IGNORE) != MPI_SUCCESS) {
        abandoned_ = true;
      }
    }
    current_.clear();
    std::rethrow_exception(pack_failure);
  }
  in_flight_ = true;
}

void halo_plan::end(const executor& on) {
  token holder;  // the round's own: every hold ends with the round
  end(on, holder);
}

void halo_plan::end(const executor& on, token& holder) {
  if (!in_flight_) {
    throw error(mpi::rank_prefix() + "funcmesh::halo_plan::end: no exchange was begun");
  }
  in_flight_ = false;
  if (!neighbour_part_.empty()) {
    for (std::size_t i = 0; i < current_.size(); ++i) {
      slot& s = *slots_[i];
      int code =
          MPI_Waitall(static_cast<int>(s.requests.size()), s.requests.data(), MPI_STATUSES_IGNORE);
      if (code == MPI_SUCCESS && take_injected(detail::halo_failure::wait)) code = MPI_ERR_OTHER;
      if (code != MPI_SUCCESS) {
        abandoned_ = true;  // some requests may still be active
        check_mpi(code, "MPI_Waitall", comm_);
      }
    }
    for (std::size_t i = 0; i < current_.size(); ++i) {
      slot& s = *slots_[i];
      s.holder.release();  // the received host bytes may now move to where they are unpacked
      current_[i].source->unpack(on, s.receive, receive_, holder);
    }
  }
  current_.clear();
  ++exchange_count_;
}

void halo_plan::progress() {
  if (!in_flight_ || neighbour_part_.empty()) return;
  for (std::size_t i = 0; i < current_.size(); ++i) {
    slot& s = *slots_[i];
    int done = 0;
    const int code = MPI_Testall(static_cast<int>(s.requests.size()), s.requests.data(), &done,
                                 MPI_STATUSES_IGNORE);
    if (code != MPI_SUCCESS) {
      abandoned_ = true;
      check_mpi(code, "MPI_Testall", comm_);
    }
  }
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

}  // namespace funcmesh::detail
