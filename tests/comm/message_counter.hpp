// Counts the point-to-point sends this process starts through persistent requests, per
// destination, through MPI's profiling interface: message_counter.cpp defines
// MPI_Send_init (remembering which requests send, and where), MPI_Start and MPI_Startall
// (counting those), and MPI_Request_free (forgetting them), each calling its PMPI_ twin, so
// the halo plans of the funcmesh libraries linked into the test binary are counted too.
#pragma once

#include <cstdint>
#include <map>

namespace message_counter {

// Sends started since the program started, in total and by destination rank (in the
// communicator of the request: a halo plan's is a duplicate of the world, same ranks).
std::uint64_t total();
std::map<int, std::uint64_t> by_destination();

}  // namespace message_counter
