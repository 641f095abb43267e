# FindPTScotch: finds PT-Scotch, the MPI half of Scotch (Debian's libptscotch-dev puts its
# headers in include/scotch/ and ships no CMake config; Spack's scotch+mpi, in include/).
#
# Provides the imported target PTScotch::PTScotch (libptscotch, then libscotch and
# libptscotcherr, whose SCOTCH_errorPrint prints to stderr and returns) and sets
#   PTScotch_FOUND, PTScotch_INCLUDE_DIR, PTScotch_LIBRARY, PTScotch_SCOTCH_LIBRARY,
#   PTScotch_ERR_LIBRARY, PTScotch_VERSION,
#   PTScotch_NUM_WIDTH (32 or 64: the width of SCOTCH_Num in the header found).
# Hints: PTScotch_ROOT (CMake's <Package>_ROOT), or CMAKE_PREFIX_PATH; Debian's 64-bit
# build: -DPTScotch_INCLUDE_DIR=/usr/include/scotch-int64 and the three libraries from
# /usr/lib/<arch>/scotch-int64 (header and libraries must match: funcmesh checks at run
# time). Static libraries may need more (zlib, bzip2, lzma): PTScotch_EXTRA_LIBRARIES.
find_path(PTScotch_INCLUDE_DIR NAMES ptscotch.h PATH_SUFFIXES scotch include/scotch)
find_library(PTScotch_LIBRARY NAMES ptscotch)
find_library(PTScotch_SCOTCH_LIBRARY NAMES scotch)
find_library(PTScotch_ERR_LIBRARY NAMES ptscotcherr)

if(PTScotch_INCLUDE_DIR AND EXISTS "${PTScotch_INCLUDE_DIR}/scotch.h")
  file(STRINGS "${PTScotch_INCLUDE_DIR}/scotch.h" ptscotch_header_lines
       REGEX "^(#define[ \t]+SCOTCH_(VERSION|RELEASE|PATCHLEVEL)[ \t]+[0-9]+|typedef[ \t]+[a-z0-9_ \t]+[ \t]SCOTCH_Num;)")
  foreach(line IN LISTS ptscotch_header_lines)
    if(line MATCHES "^#define[ \t]+SCOTCH_([A-Z]+)[ \t]+([0-9]+)")
      set(ptscotch_macro_${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
    elseif(line MATCHES "^typedef[ \t]+([a-z0-9_ \t]+)[ \t]SCOTCH_Num;")
      string(STRIP "${CMAKE_MATCH_1}" ptscotch_num_type)
    endif()
  endforeach()
  if(DEFINED ptscotch_macro_VERSION)
    set(PTScotch_VERSION "${ptscotch_macro_VERSION}.${ptscotch_macro_RELEASE}.${ptscotch_macro_PATCHLEVEL}")
  endif()
  if(ptscotch_num_type MATCHES "^(int|int32_t)$")
    set(PTScotch_NUM_WIDTH 32)
  elseif(ptscotch_num_type MATCHES "64|long")
    set(PTScotch_NUM_WIDTH 64)
  endif()
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(PTScotch
  REQUIRED_VARS PTScotch_LIBRARY PTScotch_SCOTCH_LIBRARY PTScotch_ERR_LIBRARY PTScotch_INCLUDE_DIR
  VERSION_VAR PTScotch_VERSION)

if(PTScotch_FOUND AND NOT TARGET PTScotch::PTScotch)
  # PT-Scotch calls MPI and, in threaded builds, pthreads: a static libptscotch needs them
  # after it on the link line.
  find_package(Threads REQUIRED)
  add_library(PTScotch::PTScotch UNKNOWN IMPORTED)
  set_target_properties(PTScotch::PTScotch PROPERTIES
    IMPORTED_LOCATION "${PTScotch_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${PTScotch_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES
      "${PTScotch_SCOTCH_LIBRARY};${PTScotch_ERR_LIBRARY};${PTScotch_EXTRA_LIBRARIES};Threads::Threads")
endif()
mark_as_advanced(PTScotch_INCLUDE_DIR PTScotch_LIBRARY PTScotch_SCOTCH_LIBRARY PTScotch_ERR_LIBRARY)
