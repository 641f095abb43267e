// MPI profiling wrappers for every collective operation (and the communicator calls that
// are collective): each one counts, then calls its PMPI_ twin. Linked into a test binary,
// they replace MPI's entry points for the whole program, funcmesh's libraries included.
#include "collective_counter.hpp"

#include <mpi.h>

#include <atomic>
#include <mutex>

namespace collective_counter {
namespace {
std::atomic<std::uint64_t> count{0};
std::mutex names_guard;
std::map<std::string, std::uint64_t>& names() {
  static std::map<std::string, std::uint64_t> map;
  return map;
}
void note(const char* name) {
  ++count;
  const std::lock_guard lock(names_guard);
  ++names()[name];
}
}  // namespace

std::uint64_t total() { return count.load(); }
std::map<std::string, std::uint64_t> by_name() {
  const std::lock_guard lock(names_guard);
  return names();
}

}  // namespace collective_counter

using collective_counter::note;

// The signatures are mpi.h's (Open MPI 4.1, MPI-3 const-correct); C linkage comes from
// its declarations.
int MPI_Allreduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c) {
  note("MPI_Allreduce");
  return PMPI_Allreduce(s, r, n, t, o, c);
}
int MPI_Iallreduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c,
                   MPI_Request* q) {
  note("MPI_Iallreduce");
  return PMPI_Iallreduce(s, r, n, t, o, c, q);
}
int MPI_Reduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op o, int root, MPI_Comm c) {
  note("MPI_Reduce");
  return PMPI_Reduce(s, r, n, t, o, root, c);
}
int MPI_Ireduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op o, int root, MPI_Comm c,
                MPI_Request* q) {
  note("MPI_Ireduce");
  return PMPI_Ireduce(s, r, n, t, o, root, c, q);
}
int MPI_Barrier(MPI_Comm c) {
  note("MPI_Barrier");
  return PMPI_Barrier(c);
}
int MPI_Ibarrier(MPI_Comm c, MPI_Request* q) {
  note("MPI_Ibarrier");
  return PMPI_Ibarrier(c, q);
}
int MPI_Bcast(void* b, int n, MPI_Datatype t, int root, MPI_Comm c) {
  note("MPI_Bcast");
  return PMPI_Bcast(b, n, t, root, c);
}
int MPI_Ibcast(void* b, int n, MPI_Datatype t, int root, MPI_Comm c, MPI_Request* q) {
  note("MPI_Ibcast");
  return PMPI_Ibcast(b, n, t, root, c, q);
}
int MPI_Allgather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                  MPI_Comm c) {
  note("MPI_Allgather");
  return PMPI_Allgather(s, sn, st, r, rn, rt, c);
}
int MPI_Iallgather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                   MPI_Comm c, MPI_Request* q) {
  note("MPI_Iallgather");
  return PMPI_Iallgather(s, sn, st, r, rn, rt, c, q);
}
int MPI_Allgatherv(const void* s, int sn, MPI_Datatype st, void* r, const int rn[], const int d[],
                   MPI_Datatype rt, MPI_Comm c) {
  note("MPI_Allgatherv");
  return PMPI_Allgatherv(s, sn, st, r, rn, d, rt, c);
}
int MPI_Gather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, int root,
               MPI_Comm c) {
  note("MPI_Gather");
  return PMPI_Gather(s, sn, st, r, rn, rt, root, c);
}
int MPI_Gatherv(const void* s, int sn, MPI_Datatype st, void* r, const int rn[], const int d[],
                MPI_Datatype rt, int root, MPI_Comm c) {
  note("MPI_Gatherv");
  return PMPI_Gatherv(s, sn, st, r, rn, d, rt, root, c);
}
int MPI_Scatter(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, int root,
                MPI_Comm c) {
  note("MPI_Scatter");
  return PMPI_Scatter(s, sn, st, r, rn, rt, root, c);
}
int MPI_Scatterv(const void* s, const int sn[], const int d[], MPI_Datatype st, void* r, int rn,
                 MPI_Datatype rt, int root, MPI_Comm c) {
  note("MPI_Scatterv");
  return PMPI_Scatterv(s, sn, d, st, r, rn, rt, root, c);
}
int MPI_Alltoall(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                 MPI_Comm c) {
  note("MPI_Alltoall");
  return PMPI_Alltoall(s, sn, st, r, rn, rt, c);
}
int MPI_Alltoallv(const void* s, const int sn[], const int sd[], MPI_Datatype st, void* r,
                  const int rn[], const int rd[], MPI_Datatype rt, MPI_Comm c) {
  note("MPI_Alltoallv");
  return PMPI_Alltoallv(s, sn, sd, st, r, rn, rd, rt, c);
}
int MPI_Reduce_scatter(const void* s, void* r, const int n[], MPI_Datatype t, MPI_Op o,
                       MPI_Comm c) {
  note("MPI_Reduce_scatter");
  return PMPI_Reduce_scatter(s, r, n, t, o, c);
}
int MPI_Reduce_scatter_block(const void* s, void* r, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c) {
  note("MPI_Reduce_scatter_block");
  return PMPI_Reduce_scatter_block(s, r, n, t, o, c);
}
int MPI_Scan(const void* s, void* r, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c) {
  note("MPI_Scan");
  return PMPI_Scan(s, r, n, t, o, c);
}
int MPI_Exscan(const void* s, void* r, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c) {
  note("MPI_Exscan");
  return PMPI_Exscan(s, r, n, t, o, c);
}
int MPI_Neighbor_allgather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                           MPI_Comm c) {
  note("MPI_Neighbor_allgather");
  return PMPI_Neighbor_allgather(s, sn, st, r, rn, rt, c);
}
int MPI_Neighbor_alltoall(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                          MPI_Comm c) {
  note("MPI_Neighbor_alltoall");
  return PMPI_Neighbor_alltoall(s, sn, st, r, rn, rt, c);
}
int MPI_Neighbor_alltoallv(const void* s, const int sn[], const int sd[], MPI_Datatype st, void* r,
                           const int rn[], const int rd[], MPI_Datatype rt, MPI_Comm c) {
  note("MPI_Neighbor_alltoallv");
  return PMPI_Neighbor_alltoallv(s, sn, sd, st, r, rn, rd, rt, c);
}
// Communicator construction and freeing are collective over the communicator too.
int MPI_Comm_dup(MPI_Comm c, MPI_Comm* out) {
  note("MPI_Comm_dup");
  return PMPI_Comm_dup(c, out);
}
int MPI_Comm_split(MPI_Comm c, int colour, int key, MPI_Comm* out) {
  note("MPI_Comm_split");
  return PMPI_Comm_split(c, colour, key, out);
}
int MPI_Comm_split_type(MPI_Comm c, int type, int key, MPI_Info info, MPI_Comm* out) {
  note("MPI_Comm_split_type");
  return PMPI_Comm_split_type(c, type, key, info, out);
}
int MPI_Comm_create(MPI_Comm c, MPI_Group g, MPI_Comm* out) {
  note("MPI_Comm_create");
  return PMPI_Comm_create(c, g, out);
}
int MPI_Comm_free(MPI_Comm* c) {
  note("MPI_Comm_free");
  return PMPI_Comm_free(c);
}
