// checkpoint_writer: one HDF5 file per checkpoint (format 2, block_file.hpp), written to
// NAME.h5.tmp (rank 0 lays it out, every rank pwrites its block and fsyncs, on a thread
// when asynchronous), renamed by rank 0 once every rank has finished, then the oldest
// beyond `keep` deleted. Every failure is agreed, so every rank throws together.
#include <funcmesh/checkpoint/checkpoint_writer.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <set>
#include <system_error>
#include <thread>

#include <funcmesh/checkpoint/mesh_fingerprint.hpp>
#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/detail/raw_vector.hpp>
#include <funcmesh/comm/mpi_error.hpp>

#include "block_checksum.hpp"
#include "block_file.hpp"
#include "checkpoint_files.hpp"
#include "checkpoint_mesh.hpp"

namespace funcmesh {

namespace {

constexpr const char* who = "funcmesh::checkpoint_writer::write";

// Refused alike on every rank: the fields are the same everywhere.
void check_fields(const std::vector<detail::checkpoint_field>& fields) {
  if (fields.empty()) throw agreed_error(std::string(who) + ": no fields to write");
  std::set<std::string> names;
  for (const auto& f : fields) {
    if (f.name.empty() || f.name.find_first_of("/,") != std::string::npos || f.name[0] == '.') {
      throw agreed_error(std::string(who) + ": field name '" + f.name +
                         "' cannot name a dataset (give every field a name without '/' or ',')");
    }
    if (f.name == "global_id" || f.name == "block_rows" || f.name == "block_checksums") {
      throw agreed_error(std::string(who) + ": field name '" + f.name +
                         "' is taken by the checkpoint's own datasets (global_id, block_rows, "
                         "block_checksums): give the field another name");
    }
    if (!names.insert(f.name).second) {
      throw agreed_error(std::string(who) + ": two fields named '" + f.name + "'");
    }
  }
}

// The file's size: the rows, the block table, the datasets' alignment, and generous room
// for the metadata.
off_t reserved_bytes(std::int64_t global_cells, std::size_t blocks,
                     const std::vector<detail::checkpoint_field>& fields) {
  off_t bytes = (off_t{1} << 20) + static_cast<off_t>(global_cells) * 8 + 4096;
  for (const auto& f : fields) {
    bytes += static_cast<off_t>(global_cells) * f.components * 8 + 4096;
  }
  return bytes + static_cast<off_t>(blocks * (fields.size() + 2) * 8);
}

// Rank 0 reserves the file's size on the disk before HDF5 creates it, so that a disk that
// cannot hold the checkpoint (or a file size limit, ulimit -f) is found here by every rank
// together, before any rank writes. `created`: HDF5 has laid the file out (its create
// truncated the first reservation); the blocks up to the end of its last dataset, `bytes`,
// are allocated again, so that no rank's write of its rows can run out of space and no
// reserved block is left past the end.
void reserve_space(const mpi::communicator& comm, const std::filesystem::path& file, off_t bytes,
                   bool created) {
  std::string failure;
  if (comm.rank() == 0) {
    const int fd = created ? ::open(file.c_str(), O_WRONLY)
                           : ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int code = fd < 0 ? errno : 0;
    if (fd >= 0) {
      if (!created) {
        code = ::posix_fallocate(fd, 0, bytes);
      } else if (::fallocate(fd, 0, 0, bytes) != 0) {
        // A file system without fallocate: glibc's emulation (a write per block) reserves.
        code = errno == EOPNOTSUPP ? ::posix_fallocate(fd, 0, bytes) : errno;
      }
      ::close(fd);
    }
    if (code != 0) {
      failure = std::string(who) + ": " + file.string() + ": cannot reserve " +
                std::to_string(bytes) + " bytes for the checkpoint: " + std::strerror(code);
      if (!created) {
        std::error_code ignored;
        std::filesystem::remove(file, ignored);
      }
    }
  }
  mpi::agree(comm, failure);
}

}  // namespace

namespace detail {

// Everything a writer keeps: what the layout fixes (its block), the staging buffer, and
// the checkpoint in flight.
struct checkpoint_writer_state {
  distributed_layout layout;
  std::filesystem::path dir;
  checkpoint_options options;
  std::uint64_t fingerprint = 0;
  std::vector<std::int64_t> ids;         // the owned cells' global ids, in local order
  std::uint64_t ids_checksum = 0;        // checksum_of(ids)
  std::vector<std::int64_t> block_rows;  // every rank's first row, and the total
  std::vector<setup_detail::raw_vector<double>> staging;
  // In flight: the thread writing (asynchronous), what failed on this rank, the files.
  std::thread thread;
  std::string failure;
  std::filesystem::path temporary, file;
  bool in_flight = false;
  std::filesystem::path completed;  // the last checkpoint named
  // For the XDMF description of the checkpoint in flight (options.xdmf): the mesh file
  // written at construction, the fields' names and components, the time.
  checkpoint_mesh viewer_mesh;
  std::vector<std::string> names;
  std::vector<int> components;
  double t = 0.0;
  // Rank 0's deletion of the checkpoints beyond `keep` after the last one completed: on a
  // thread, since freeing a large file's blocks and cached pages takes as long as writing
  // a good part of it (started after the next file is laid out: the two contend for the
  // file system's locks); joined at the next completion or wait.
  std::thread pruning;
  std::string pruning_failure;
  bool pruning_pending = false;  // on every rank alike: a completion asked for a deletion

  checkpoint_writer_state(const distributed_layout& l, std::filesystem::path d,
                          checkpoint_options o)
      : layout(l), dir(std::move(d)), options(std::move(o)) {}

  std::filesystem::path complete(bool prune_now = true);
  void prune();
  void start_pruning();
  void join_pruning();
};

// Rank 0: deletes the checkpoints beyond `keep`, newest first kept.
void checkpoint_writer_state::prune() {
  std::vector<std::filesystem::path> all = checkpoints_in(dir);
  for (std::size_t k = static_cast<std::size_t>(options.keep); k < all.size(); ++k) {
    std::error_code code;
    if (!std::filesystem::remove(all[k], code) && code) {
      if (pruning_failure.empty()) {
        pruning_failure = std::string(who) + ": cannot delete the old checkpoint " +
                          all[k].string() + ": " + code.message();
      }
      continue;  // its description stays with it
    }
    std::filesystem::path description = all[k];
    std::filesystem::remove(description.replace_extension(".xdmf"), code);  // if there is one
  }
}

void checkpoint_writer_state::start_pruning() {
  if (!pruning_pending || layout.rank() != 0 || pruning.joinable()) return;
  try {
    pruning = std::thread([this] {
      try {
        prune();
      } catch (const std::exception& e) {  // a directory that cannot be listed, memory
        pruning_failure = std::string(who) + ": deleting old checkpoints: " + e.what();
      }
    });
  } catch (const std::system_error&) {
    prune();  // no thread to be had: now
  }
}

// Collective: the deletion the last completion asked for is done (its failure agreed).
void checkpoint_writer_state::join_pruning() {
  if (!pruning_pending) return;
  if (layout.rank() == 0) {
    if (pruning.joinable()) {
      pruning.join();
    } else {
      prune();  // never started (the write after the completion failed first)
    }
  }
  pruning_pending = false;
  mpi::agree(mpi::communicator(layout.comm()), std::exchange(pruning_failure, {}));
}

// Collective: joins the writing, agrees, and names the file (or deletes it everywhere);
// then the deletion of the oldest, on a thread now or at start_pruning.
std::filesystem::path checkpoint_writer_state::complete(bool prune_now) {
  if (thread.joinable()) thread.join();
  in_flight = false;
  const mpi::communicator comm(layout.comm());
  const std::string local = std::exchange(failure, {});
  try {
    mpi::agree(comm, local);
  } catch (...) {
    std::error_code ignored;
    if (comm.rank() == 0) std::filesystem::remove(temporary, ignored);
    throw;
  }
  std::string finishing;
  std::filesystem::path description = file;
  description.replace_extension(".xdmf");
  if (comm.rank() == 0) {
    bool named = false;
    try {
      // A description of this step left by an earlier run (another layout's mesh, or
      // none wanted now) must not describe the new file.
      std::error_code ignored;
      std::filesystem::remove(description, ignored);
      // Every rank fsync'ed the file after its rows, rank 0 after the metadata it wrote
      // before them: only the name is left to make durable.
      std::filesystem::rename(temporary, file);
      named = true;
      detail::sync_path(dir, who);
    } catch (const std::exception& e) {
      std::error_code ignored;
      std::filesystem::remove(named ? file : temporary, ignored);  // not a checkpoint then
      finishing = e.what();
    }
  }
  // The checkpoint is complete: a description that cannot be written (a full disk) is said
  // on rank 0's stderr, and the run goes on (the next write() reports a full disk anyway).
  if (comm.rank() == 0 && finishing.empty() && options.xdmf) {
    try {
      write_xdmf(description,
                 checkpoint_xdmf(viewer_mesh, file.filename().string(), t, names, components), who);
    } catch (const std::exception& e) {
      std::fprintf(stderr,
                   "%s: warning: the checkpoint %s is complete, but its XDMF description "
                   "is not: %s\n",
                   who, file.c_str(), e.what());
    }
  }
  mpi::agree(comm, finishing);
  completed = file;
  // The deletion the completion before asked for (long done, usually): its failure is
  // reported now, with this checkpoint named.
  join_pruning();
  // Only now, with the new one complete and named: the oldest beyond `keep`.
  pruning_pending = true;
  if (prune_now) start_pruning();
  return file;
}

}  // namespace detail

checkpoint_writer::checkpoint_writer(const distributed_layout& layout, std::filesystem::path dir,
                                     checkpoint_options options)
    : state_(std::make_unique<detail::checkpoint_writer_state>(layout, std::move(dir),
                                                               std::move(options))) {
  auto& s = *state_;
  const mpi::communicator comm(layout.comm());
  std::string failure;
  if (s.options.keep < 1) {
    failure = "funcmesh::checkpoint_writer: keep " + std::to_string(s.options.keep) +
              " (keep at least the newest checkpoint)";
  } else if (comm.rank() == 0) {
    std::error_code code;
    std::filesystem::create_directories(s.dir, code);
    if (code || !std::filesystem::is_directory(s.dir)) {
      failure = "funcmesh::checkpoint_writer: cannot create the checkpoint directory " +
                s.dir.string() + (code ? ": " + code.message() : "");
    }
    // A run stopped while writing left its .tmp (never taken for a checkpoint).
    for (const auto& entry : std::filesystem::directory_iterator(s.dir, code)) {
      const std::string name = entry.path().filename().string();
      if ((name.starts_with("checkpoint_") || name.starts_with("mesh_")) &&
          (name.ends_with(".h5.tmp") || name.ends_with(".xdmf.part"))) {
        std::error_code ignored;
        std::filesystem::remove(entry.path(), ignored);
      }
    }
  }
  mpi::agree(comm, failure);
  s.fingerprint = mesh_fingerprint(layout);
  const auto owned = static_cast<std::size_t>(layout.owned_count());
  s.ids.assign(layout.mesh().global_cell.begin(),
               layout.mesh().global_cell.begin() + static_cast<std::ptrdiff_t>(owned));
  s.ids_checksum = detail::checksum_of(s.ids.data(), owned * sizeof(std::int64_t));
  std::int64_t mine = layout.owned_count();
  std::vector<std::int64_t> counts(static_cast<std::size_t>(comm.size()));
  check_mpi(MPI_Allgather(&mine, 1, MPI_INT64_T, counts.data(), 1, MPI_INT64_T, layout.comm()),
            "MPI_Allgather (checkpoint blocks)", layout.comm());
  s.block_rows.assign(1, 0);
  for (const std::int64_t n : counts) s.block_rows.push_back(s.block_rows.back() + n);
  if (s.options.xdmf) {
    s.viewer_mesh = detail::write_checkpoint_mesh(layout, s.dir, s.fingerprint, s.ids_checksum,
                                                  "funcmesh::checkpoint_writer");
  }
}

checkpoint_writer::checkpoint_writer(checkpoint_writer&&) noexcept = default;

checkpoint_writer::~checkpoint_writer() {
  if (!state_ || !(state_->in_flight || state_->pruning_pending)) return;
  if (std::uncaught_exceptions() > 0) {
    if (state_->thread.joinable()) state_->thread.join();
    if (state_->pruning.joinable()) state_->pruning.join();
    return;
  }
  try {
    wait();
  } catch (const std::exception& e) {
    if (state_->layout.rank() == 0) std::fprintf(stderr, "%s\n", e.what());
  }
  if (state_->thread.joinable()) state_->thread.join();
  if (state_->pruning.joinable()) state_->pruning.join();
}

std::filesystem::path checkpoint_writer::wait() {
  std::filesystem::path file;
  if (state_->in_flight) file = state_->complete();
  state_->join_pruning();
  return file;
}

bool checkpoint_writer::in_flight() const { return state_->in_flight; }
const std::filesystem::path& checkpoint_writer::completed() const { return state_->completed; }
const std::filesystem::path& checkpoint_writer::directory() const { return state_->dir; }
std::uint64_t checkpoint_writer::fingerprint() const { return state_->fingerprint; }
std::size_t checkpoint_writer::staging_bytes() const {
  std::size_t bytes = 0;
  for (const auto& buffer : state_->staging) bytes += buffer.size() * sizeof(double);
  return bytes;
}

std::filesystem::path checkpoint_writer::write_records(
    const time::step_info& step, const std::vector<detail::checkpoint_field>& fields) {
  check_fields(fields);
  auto& s = *state_;
  // The previous one first (its failure is reported here); the deletion of older ones
  // that its completion starts goes on while this one is written.
  if (s.in_flight) s.complete(false);
  const mpi::communicator comm(s.layout.comm());
  const MPI_Comm raw = s.layout.comm();
  const auto owned = static_cast<std::size_t>(s.layout.owned_count());
  s.file = s.dir / detail::checkpoint_name(step.step);
  s.t = step.t;
  s.names.clear();
  s.components.clear();
  for (const auto& f : fields) {
    s.names.push_back(f.name);
    s.components.push_back(f.components);
  }
  s.temporary = s.file;
  s.temporary += ".tmp";

  // This rank's block of each dataset (global ids, then the fields) and its checksum; the
  // staging copy, asynchronous, is taken and checksummed in one pass.
  const std::size_t columns = fields.size() + 1;
  std::vector<const void*> source{s.ids.data()};
  std::vector<std::size_t> bytes{owned * sizeof(std::int64_t)};
  std::vector<std::uint64_t> sums{s.ids_checksum};
  if (s.options.asynchronous) s.staging.resize(fields.size());
  for (std::size_t f = 0; f < fields.size(); ++f) {
    const std::size_t n = owned * static_cast<std::size_t>(fields[f].components);
    bytes.push_back(n * sizeof(double));
    if (s.options.asynchronous) {
      s.staging[f].resize(n);
      sums.push_back(detail::copy_with_checksum(s.staging[f].data(), fields[f].read, bytes.back()));
      source.push_back(s.staging[f].data());
    } else {
      sums.push_back(detail::checksum_of(fields[f].read, bytes.back()));
      source.push_back(fields[f].read);
    }
  }
  std::vector<std::uint64_t> all_sums(comm.rank() == 0 ? columns * (s.block_rows.size() - 1) : 0);
  check_mpi(MPI_Gather(sums.data(), static_cast<int>(columns), MPI_UINT64_T, all_sums.data(),
                       static_cast<int>(columns), MPI_UINT64_T, 0, raw),
            "MPI_Gather (checkpoint checksums)", raw);

  // Rank 0 reserves the space and lays the file out; every rank learns where its rows go.
  const off_t size = reserved_bytes(s.layout.global_cells(), s.block_rows.size(), fields);
  reserve_space(comm, s.temporary, size, false);
  std::vector<std::uint64_t> offsets(columns);
  try {
    const auto laid_out = mpi::on_root_agreed(comm, [&] {
      detail::block_file_contents contents{step.step,
                                           step.t,
                                           step.dt,
                                           s.options.scheme,
                                           s.fingerprint,
                                           s.layout.global_cells(),
                                           {},
                                           {},
                                           s.block_rows,
                                           std::move(all_sums)};
      for (const auto& f : fields) {
        contents.names.push_back(f.name);
        contents.components.push_back(f.components);
      }
      return detail::create_block_file(s.temporary, contents, who);
    });
    if (laid_out) offsets = *laid_out;
    off_t end = 0;  // of the last dataset (rank 0's offsets; the others' reserve nothing)
    for (std::size_t c = 0; c < columns; ++c) {
      const off_t width = c == 0 ? 1 : fields[c - 1].components;
      end = std::max(end, static_cast<off_t>(offsets[c]) + s.layout.global_cells() * width * 8);
    }
    reserve_space(comm, s.temporary, end, true);
  } catch (...) {
    std::error_code ignored;
    if (comm.rank() == 0) std::filesystem::remove(s.temporary, ignored);
    throw;
  }
  check_mpi(MPI_Bcast(offsets.data(), static_cast<int>(columns), MPI_UINT64_T, 0, raw),
            "MPI_Bcast (checkpoint offsets)", raw);
  const auto first =
      static_cast<std::uint64_t>(s.block_rows[static_cast<std::size_t>(comm.rank())]);
  std::vector<detail::block_piece> pieces;
  for (std::size_t c = 0; c < columns; ++c) {
    const std::uint64_t row_bytes =
        c == 0 ? 8 : 8 * static_cast<std::uint64_t>(fields[c - 1].components);
    pieces.push_back({source[c], bytes[c], offsets[c] + first * row_bytes});
  }
  s.in_flight = true;
  s.start_pruning();  // the deletion the last completion asked for, now that this is laid out
  if (s.options.asynchronous) {
    try {
      s.thread = std::thread([&s, pieces] {
        try {
          s.failure = detail::write_block_pieces(s.temporary, pieces, who);
        } catch (const std::exception& e) {
          s.failure = std::string(who) + ": " + e.what();
        }
      });
    } catch (const std::system_error&) {
      // No thread to be had on this rank: it writes now, and the checkpoint completes as
      // the others' do (a completion here would be a collective call the others skip).
      s.failure = detail::write_block_pieces(s.temporary, pieces, who);
    }
    return s.file;
  }
  s.failure = detail::write_block_pieces(s.temporary, pieces, who);
  return s.complete();
}

}  // namespace funcmesh
