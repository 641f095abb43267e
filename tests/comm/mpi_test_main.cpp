// main() for GoogleTest programs run under mpirun: every rank runs every test, and the
// program fails when any rank failed, so that ctest sees one verdict for the job. Rank 0
// prints as usual; the other ranks print their failures only, each line prefixed by the
// rank and the failing test's name. MPI starts as in programs (mpi::environment: cores
// shared, each rank bound to its GPU), so the tests see what users see.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <optional>
#include <string>

#include <funcmesh/comm/collective_error.hpp>
#include <funcmesh/comm/environment.hpp>

namespace {

class failures_only : public ::testing::EmptyTestEventListener {
 public:
  explicit failures_only(int rank) : rank_(rank) {}
  // The name is kept here: asking the UnitTest for it while a result is being added would
  // wait on the lock its caller holds.
  void OnTestStart(const ::testing::TestInfo& test) override {
    name_ = std::string(test.test_suite_name()) + "." + test.name();
  }
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::fprintf(stderr, "[rank %d] %s: %s:%d: %s\n", rank_, name_.c_str(),
                 result.file_name() != nullptr ? result.file_name() : "?", result.line_number(),
                 result.message());
  }

 private:
  int rank_;
  std::string name_ = "?";
};

}  // namespace

int main(int argc, char** argv) {
  std::optional<funcmesh::mpi::environment> env;
  try {
    env.emplace(argc, argv);
  } catch (const funcmesh::mpi::start_error&) {
    return 1;  // rank 0 said why; MPI is finalized
  }
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  ::testing::InitGoogleTest(&argc, argv);
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new failures_only(rank));
  }
  const int local_failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  int failed_ranks = 0;
  MPI_Allreduce(&local_failed, &failed_ranks, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (local_failed) std::fprintf(stderr, "[rank %d] tests FAILED\n", rank);
  if (rank == 0 && failed_ranks > 0) std::fprintf(stderr, "%d rank(s) failed\n", failed_ranks);
  env.reset();  // MPI_Finalize
  return failed_ranks > 0 ? 1 : 0;
}
