// METIS status names and the checks around every METIS call.
#include <funcmesh/partition/metis_error.hpp>

#include <metis.h>

#include <string>

namespace funcmesh {

std::string_view metis_status_name(int status) {
  switch (status) {
    case METIS_OK:
      return "METIS_OK";
    case METIS_ERROR_INPUT:
      return "METIS_ERROR_INPUT";
    case METIS_ERROR_MEMORY:
      return "METIS_ERROR_MEMORY";
    case METIS_ERROR:
      return "METIS_ERROR";
    default:
      return "unknown METIS status";
  }
}

void check_metis(int status, std::string_view call) {
  if (status != METIS_OK) {
    throw metis_error(status, std::string(call) + " failed with " +
                                  std::string(metis_status_name(status)) + " (" +
                                  std::to_string(status) +
                                  "); METIS state is unsafe after an error, so this is fatal");
  }
}

int metis_index_bits() { return IDXTYPEWIDTH; }
int metis_real_bits() { return REALTYPEWIDTH; }

}  // namespace funcmesh
