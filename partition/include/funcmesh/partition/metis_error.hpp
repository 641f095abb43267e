// METIS status codes turned into exceptions. METIS 5.1 does not validate its input and
// is unsafe to call again after an error, so every non-OK status is fatal to the job.
#pragma once

#include <string>
#include <string_view>

#include <funcmesh/core/error.hpp>

namespace funcmesh {

// A METIS call returned a status other than METIS_OK (check_metis makes the message:
// the call, the status's name, why it is fatal).
class metis_error : public error {
 public:
  metis_error(int status, const std::string& message) : error(message), status_(status) {}
  int status() const noexcept { return status_; }

 private:
  int status_;
};

// Throws metis_error naming `call` and the status (METIS_ERROR_INPUT,
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
