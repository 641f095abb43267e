// main() for GoogleTest programs run under mpirun: every rank runs every test, and the
// program fails when any rank failed, so that ctest sees one verdict for the job.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  ::testing::InitGoogleTest(&argc, argv);
  if (rank != 0) {
    // Other ranks report failures only, each line prefixed by the failing test's name.
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int local_failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  int failed_ranks = 0;
  MPI_Allreduce(&local_failed, &failed_ranks, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (local_failed) std::fprintf(stderr, "[rank %d] tests FAILED\n", rank);
  if (rank == 0 && failed_ranks > 0) std::fprintf(stderr, "%d rank(s) failed\n", failed_ranks);
  MPI_Finalize();
  return failed_ranks > 0 ? 1 : 0;
}
