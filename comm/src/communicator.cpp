// communicator and agree(): MPI_Comm handling and collective error agreement.
#include <funcmesh/comm/communicator.hpp>

#include <climits>
#include <string>
#include <vector>

#include <funcmesh/comm/collective_error.hpp>
#include <funcmesh/comm/mpi_error.hpp>

namespace funcmesh::mpi {

communicator communicator::adopt(MPI_Comm comm) {
  communicator result(comm);
  if (comm == MPI_COMM_NULL || comm == MPI_COMM_WORLD || comm == MPI_COMM_SELF) return result;
  // The deleter owns its own copy of the handle: MPI_Comm_free needs an lvalue, and a
  // communicator freed after MPI_Finalize is an error, so that case is skipped.
  result.owner_ = std::shared_ptr<void>(new MPI_Comm(comm), [](void* p) {
    auto* handle = static_cast<MPI_Comm*>(p);
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Comm_free(handle);
    delete handle;
  });
  return result;
}

int communicator::rank() const {
  int r = 0;
  check_mpi(MPI_Comm_rank(comm_, &r), "MPI_Comm_rank", comm_);
  return r;
}

int communicator::size() const {
  int s = 0;
  check_mpi(MPI_Comm_size(comm_, &s), "MPI_Comm_size", comm_);
  return s;
}

void communicator::barrier() const { check_mpi(MPI_Barrier(comm_), "MPI_Barrier", comm_); }

communicator communicator::split_shared() const {
  MPI_Comm node = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank(), MPI_INFO_NULL, &node),
            "MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)", comm_);
  // New communicators inherit the parent's error handler; set it anyway, so a node
  // communicator split from a fatal-handler comm still reports codes to check_mpi.
  check_mpi(MPI_Comm_set_errhandler(node, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler", node);
  return adopt(node);
}

int communicator::local_rank() const { return split_shared().rank(); }

std::string communicator::broadcast(const std::string& text, int root) const {
  const bool sender = rank() == root;
  int length = sender ? static_cast<int>(text.size()) : 0;
  check_mpi(MPI_Bcast(&length, 1, MPI_INT, root, comm_), "MPI_Bcast (length)", comm_);
  std::string result = sender ? text : std::string(static_cast<std::size_t>(length), ' ');
  check_mpi(MPI_Bcast(result.data(), length, MPI_CHAR, root, comm_), "MPI_Bcast", comm_);
  return result;
}

void agree(const communicator& comm, const std::string& local_error) {
  const MPI_Comm c = comm.get();
  const int rank = comm.rank();
  // The lowest failing rank wins, so every rank reports the same one.
  const int mine = local_error.empty() ? INT_MAX : rank;
  int first = INT_MAX;
  check_mpi(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, c), "MPI_Allreduce (agree)", c);
  if (first == INT_MAX) return;
  std::string message = comm.broadcast(local_error, first);
  // A local error that names its rank already (rank_prefix) would name it twice.
  const std::string named = "rank " + std::to_string(first) + ": ";
  if (message.starts_with(named)) message.erase(0, named.size());
  throw collective_error(first, message);
}

void agree(const communicator& comm, std::exception_ptr local_error) {
  std::string message;
  if (local_error) {
    try {
      std::rethrow_exception(local_error);
    } catch (const std::exception& e) {
      message = e.what();
    } catch (...) {
      message = "unknown exception";
    }
    if (message.empty()) message = "error without a message";
  }
  agree(comm, message);
}

}  // namespace funcmesh::mpi
