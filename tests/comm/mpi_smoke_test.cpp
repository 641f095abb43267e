// The MPI smoke test: the job starts on every rank count, collectives agree, and an MPI
// error becomes an exception naming the rank and the call.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>

#include <funcmesh/comm.hpp>
#include <funcmesh/comm/mpi_error.hpp>

namespace funcmesh::testing {

TEST(mpi_smoke, every_rank_sees_the_same_allreduce_of_rank_ids) {
  int rank = -1, size = 0;
  ASSERT_EQ(MPI_Comm_rank(MPI_COMM_WORLD, &rank), MPI_SUCCESS);
  ASSERT_EQ(MPI_Comm_size(MPI_COMM_WORLD, &size), MPI_SUCCESS);
  long sum = 0;
  int largest = -1, smallest = -1;
  const long my_rank = rank;
  check_mpi(MPI_Allreduce(&my_rank, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
  check_mpi(MPI_Allreduce(&rank, &largest, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  check_mpi(MPI_Allreduce(&rank, &smallest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
  EXPECT_EQ(sum, static_cast<long>(size) * (size - 1) / 2);
  EXPECT_EQ(largest, size - 1);
  EXPECT_EQ(smallest, 0);
}

TEST(mpi_smoke, a_ring_of_point_to_point_messages_arrives) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int next = (rank + 1) % size, previous = (rank + size - 1) % size;
  int received = -1;
  check_mpi(MPI_Sendrecv(&rank, 1, MPI_INT, next, 7, &received, 1, MPI_INT, previous, 7,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE),
            "MPI_Sendrecv");
  EXPECT_EQ(received, previous);
}

TEST(mpi_smoke, an_mpi_error_names_the_rank_and_the_call) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm comm = MPI_COMM_NULL;
  ASSERT_EQ(MPI_Comm_dup(MPI_COMM_WORLD, &comm), MPI_SUCCESS);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  int value = 0;
  const int code = MPI_Send(&value, 1, MPI_INT, size + 3, 0, comm);  // no such rank
  EXPECT_NE(code, MPI_SUCCESS);
  try {
    check_mpi(code, "MPI_Send", comm);
    ADD_FAILURE() << "check_mpi accepted a failed call";
  } catch (const mpi_error& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.code(), code);
    EXPECT_NE(message.find("rank " + std::to_string(rank) + ": MPI_Send failed"), std::string::npos)
        << message;
  }
  MPI_Comm_free(&comm);
}

}  // namespace funcmesh::testing
