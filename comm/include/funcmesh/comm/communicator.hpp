// communicator: a value wrapping an MPI_Comm (borrowed for MPI_COMM_WORLD, owned for the
// results of splits), plus agree(): collective error agreement, so that a check that
// fails on one rank makes every rank throw the same error instead of leaving peers hung.
#pragma once

#include <mpi.h>

#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include <funcmesh/core/error.hpp>

namespace funcmesh::mpi {

class communicator {
 public:
  // MPI_COMM_WORLD.
  communicator() = default;
  // Borrows `comm`: the caller keeps it alive and frees it.
  explicit communicator(MPI_Comm comm) : comm_(comm) {}
  // Takes ownership: MPI_Comm_free runs when the last copy goes (unless MPI is finalized).
  static communicator adopt(MPI_Comm comm);
  static communicator world() { return communicator(MPI_COMM_WORLD); }

  MPI_Comm get() const { return comm_; }
  int rank() const;
  int size() const;
  void barrier() const;

  // The ranks that share this node's memory (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED),
  // ordered as in this communicator. Collective.
  communicator split_shared() const;
  // This rank's index among the ranks on its node. Collective (it splits).
  int local_rank() const;
  // Collective: `root`'s text on every rank (the others' argument is ignored).
  std::string broadcast(const std::string& text, int root = 0) const;

 private:
  MPI_Comm comm_ = MPI_COMM_WORLD;
  std::shared_ptr<void> owner_;  // set only for adopted communicators
};

// agree() throws mpi::collective_error (funcmesh/core/error.hpp) on every rank.

// Collective: each rank passes "" (all well) or its error message. If any rank failed,
// every rank throws collective_error with the lowest failing rank's message,
// "rank R: <message>"; otherwise every rank returns. All ranks must call it. A message
// that starts with "rank R: " for that same R already (mpi::rank_prefix) keeps one.
void agree(const communicator& comm, const std::string& local_error);
// The same, with a caught exception (nullptr: all well).
void agree(const communicator& comm, std::exception_ptr local_error);

// Runs f on rank 0 only (reading a mesh, say), then agree()s, so that a failure there
// makes every rank throw together. Returns f's result on rank 0 and nullopt elsewhere
// (nothing when f returns void).
template <class F>
auto on_root_agreed(const communicator& comm, F&& f) {
  using result = std::invoke_result_t<F&>;
  std::exception_ptr failure;
  const bool root = comm.rank() == 0;
  if constexpr (std::is_void_v<result>) {
    if (root) {
      try {
        f();
      } catch (...) {
        failure = std::current_exception();
      }
    }
    agree(comm, failure);
  } else {
    std::optional<result> value;
    if (root) {
      try {
        value.emplace(f());
      } catch (...) {
        failure = std::current_exception();
      }
    }
    agree(comm, failure);
    return value;
  }
}

}  // namespace funcmesh::mpi
