// Counts every collective MPI call this process makes, through MPI's profiling interface:
// collective_counter.cpp defines MPI_Allreduce, MPI_Barrier, ... (each counts, then calls
// PMPI_...), so calls from the funcmesh libraries linked into the test binary count too.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace collective_counter {

// Collective calls since the program started, in total and by name.
std::uint64_t total();
std::map<std::string, std::uint64_t> by_name();

}  // namespace collective_counter
