# FindMETIS: finds METIS 5 (Debian's libmetis-dev ships no CMake config).
#
# Provides the imported target METIS::METIS and sets
#   METIS_FOUND, METIS_INCLUDE_DIR, METIS_LIBRARY, METIS_VERSION,
#   METIS_INDEX_WIDTH (32 or 64: the width of idx_t), METIS_REAL_WIDTH.
# Hints: METIS_ROOT (CMake's <Package>_ROOT), or CMAKE_PREFIX_PATH.
find_path(METIS_INCLUDE_DIR NAMES metis.h PATH_SUFFIXES metis include/metis)
find_library(METIS_LIBRARY NAMES metis)

if(METIS_INCLUDE_DIR AND EXISTS "${METIS_INCLUDE_DIR}/metis.h")
  file(STRINGS "${METIS_INCLUDE_DIR}/metis.h" metis_header_lines
       REGEX "^#define[ \t]+(METIS_VER_(MAJOR|MINOR|SUBMINOR)|IDXTYPEWIDTH|REALTYPEWIDTH)[ \t]+[0-9]+")
  foreach(line IN LISTS metis_header_lines)
    if(line MATCHES "^#define[ \t]+([A-Z_]+)[ \t]+([0-9]+)")
      set(metis_macro_${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
    endif()
  endforeach()
  set(METIS_VERSION "${metis_macro_METIS_VER_MAJOR}.${metis_macro_METIS_VER_MINOR}.${metis_macro_METIS_VER_SUBMINOR}")
  set(METIS_INDEX_WIDTH ${metis_macro_IDXTYPEWIDTH})
  set(METIS_REAL_WIDTH ${metis_macro_REALTYPEWIDTH})
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(METIS
  REQUIRED_VARS METIS_LIBRARY METIS_INCLUDE_DIR
  VERSION_VAR METIS_VERSION)

if(METIS_FOUND AND NOT TARGET METIS::METIS)
  add_library(METIS::METIS UNKNOWN IMPORTED)
  set_target_properties(METIS::METIS PROPERTIES
    IMPORTED_LOCATION "${METIS_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${METIS_INCLUDE_DIR}")
endif()
mark_as_advanced(METIS_INCLUDE_DIR METIS_LIBRARY)
