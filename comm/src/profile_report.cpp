// The profile table of an MPI job: every rank's entries, gathered to rank 0 as bytes.
#include <funcmesh/comm/profile_report.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include <funcmesh/profile/table.hpp>

namespace funcmesh::mpi {

namespace {

// The ranks' encoded entries on rank 0 (empty elsewhere); false when an MPI call failed.
bool gather_entries(MPI_Comm comm, const std::string& mine, int rank, int ranks,
                    std::vector<std::string>& out) {
  const int my_size = static_cast<int>(mine.size());
  std::vector<int> sizes(rank == 0 ? static_cast<std::size_t>(ranks) : 0);
  if (MPI_Gather(&my_size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, comm) != MPI_SUCCESS) {
    return false;
  }
  std::vector<int> offsets(sizes.size());
  int total = 0;
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    offsets[r] = total;
    total += sizes[r];
  }
  std::vector<char> all(static_cast<std::size_t>(total));
  if (MPI_Gatherv(mine.data(), my_size, MPI_CHAR, all.data(), sizes.data(), offsets.data(),
                  MPI_CHAR, 0, comm) != MPI_SUCCESS) {
    return false;
  }
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    out.emplace_back(all.data() + offsets[r], static_cast<std::size_t>(sizes[r]));
  }
  return true;
}

}  // namespace

void report_profile(const communicator& comm) noexcept {
  if (!profile::table_requested()) return;
  profile::table_taken();
  try {
    int rank = 0, ranks = 1;
    MPI_Comm_rank(comm.get(), &rank);
    MPI_Comm_size(comm.get(), &ranks);
    std::vector<std::string> encoded;
    if (!gather_entries(comm.get(), profile::encode_entries(profile::table_entries()), rank, ranks,
                        encoded)) {
      std::fprintf(stderr,
                   "funcmesh: FUNCMESH_PROFILE: gathering the ranks' entries failed; "
                   "no profile table\n");
      return;
    }
    if (rank != 0) return;
    std::vector<std::vector<profile::table_entry>> per_rank;
    for (const std::string& bytes : encoded) per_rank.push_back(profile::decode_entries(bytes));
    const std::string table = profile::format_table(per_rank);
    std::fflush(stdout);
    std::fputs(table.c_str(), stdout);
    std::fflush(stdout);
  } catch (const std::exception& failure) {
    std::fprintf(stderr, "funcmesh: FUNCMESH_PROFILE: no profile table: %s\n", failure.what());
  }
}

}  // namespace funcmesh::mpi
