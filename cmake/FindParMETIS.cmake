# FindParMETIS: finds ParMETIS 4 (parmetis.h and libparmetis), as Spack's parmetis installs
# it. Debian has none (its PT-Scotch's libptscotchparmetisv3 ships no parmetis.h).
#
# Provides the imported target ParMETIS::ParMETIS (linking METIS::METIS, which ParMETIS
# calls and whose metis.h its header includes) and sets
#   ParMETIS_FOUND, ParMETIS_INCLUDE_DIR, ParMETIS_LIBRARY, ParMETIS_VERSION.
# Hints: ParMETIS_ROOT (CMake's <Package>_ROOT), or CMAKE_PREFIX_PATH.
find_path(ParMETIS_INCLUDE_DIR NAMES parmetis.h PATH_SUFFIXES parmetis include/parmetis)
find_library(ParMETIS_LIBRARY NAMES parmetis)
if(NOT TARGET METIS::METIS)
  find_package(METIS QUIET)
endif()

if(ParMETIS_INCLUDE_DIR AND EXISTS "${ParMETIS_INCLUDE_DIR}/parmetis.h")
  file(STRINGS "${ParMETIS_INCLUDE_DIR}/parmetis.h" parmetis_header_lines
       REGEX "^#define[ \t]+PARMETIS_(MAJOR|MINOR|SUBMINOR)_VERSION[ \t]+[0-9]+")
  foreach(line IN LISTS parmetis_header_lines)
    if(line MATCHES "^#define[ \t]+PARMETIS_([A-Z]+)_VERSION[ \t]+([0-9]+)")
      set(parmetis_macro_${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
    endif()
  endforeach()
  if(DEFINED parmetis_macro_MAJOR)
    set(ParMETIS_VERSION "${parmetis_macro_MAJOR}.${parmetis_macro_MINOR}.${parmetis_macro_SUBMINOR}")
  endif()
endif()

set(parmetis_metis_target "")
if(TARGET METIS::METIS)
  set(parmetis_metis_target METIS::METIS)
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(ParMETIS
  REQUIRED_VARS ParMETIS_LIBRARY ParMETIS_INCLUDE_DIR parmetis_metis_target
  VERSION_VAR ParMETIS_VERSION)

if(ParMETIS_FOUND AND NOT TARGET ParMETIS::ParMETIS)
  add_library(ParMETIS::ParMETIS UNKNOWN IMPORTED)
  set_target_properties(ParMETIS::ParMETIS PROPERTIES
    IMPORTED_LOCATION "${ParMETIS_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${ParMETIS_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES METIS::METIS)
endif()
mark_as_advanced(ParMETIS_INCLUDE_DIR ParMETIS_LIBRARY)
