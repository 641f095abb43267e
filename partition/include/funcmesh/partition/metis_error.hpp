// METIS status codes turned into exceptions. METIS 5.1 does not validate its input and
// is unsafe to call again after an error, so every non-OK status is fatal to the job.
#pragma once

#include <string_view>

#include <funcmesh/core/error.hpp>

namespace funcmesh {

// Throws metis_error (funcmesh/core/error.hpp) naming `call` and the status (METIS_ERROR_INPUT,
// ...) unless it is METIS_OK.
void check_metis(int status, std::string_view call);

// The name of a METIS status code ("METIS_OK", "METIS_ERROR_MEMORY", ...).
std::string_view metis_status_name(int status);

// Bits in METIS's idx_t and real_t in the METIS this funcmesh was built with (32 in
// Debian's): a mesh with more cells or dual-graph edges than idx_t holds cannot be
// partitioned by it.
int metis_index_bits();
int metis_real_bits();

}  // namespace funcmesh
