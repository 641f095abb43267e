# The compiler cache: where ccache is installed, every C, C++ and CUDA compile of this
# build goes through it, so that a rebuild, or a fresh clone in another folder, compiles
# only what changed (docs/building.md, "Compiler cache"; docs/testing.md for CI's cache).
#
# - Off with -DFUNCMESH_CCACHE=OFF (declared in the top-level CMakeLists.txt), or with
#   FUNCMESH_NO_CCACHE=1 in the environment at configure time; a launcher the user chose
#   (CMAKE_<LANG>_COMPILER_LAUNCHER, as a variable or in the environment) is kept.
# - ccache's base_dir is set to this source tree for funcmesh's compiles (paths under it
#   are hashed and passed relative to the build folder): a clone in another folder hits.
#   Everything else (cache folder, size, hash_dir) is ccache's own configuration:
#   ccache.conf or CCACHE_* variables, which ci/env.sh sets for CI.
# - The compiler and every flag are the same with and without the cache: ccache runs the
#   real compiler on a miss and replays its output, warnings included, on a hit.
set(FUNCMESH_CCACHE_LAUNCHER "")
set(FUNCMESH_CCACHE_CXX "")  # the program, where C++ compiles through it (the install tests)
if(NOT FUNCMESH_CCACHE)
  message(STATUS "funcmesh: compiler cache off (-DFUNCMESH_CCACHE=OFF)")
  return()
endif()
# Read at each configure, never cached: unset again, the cache is back.
if(NOT "$ENV{FUNCMESH_NO_CCACHE}" MATCHES "^(|0|OFF|off|NO|no|FALSE|false)$")
  message(STATUS "funcmesh: compiler cache off (FUNCMESH_NO_CCACHE=$ENV{FUNCMESH_NO_CCACHE} "
                 "in the environment)")
  return()
endif()
# Looked for again where the program found before is gone (uninstalled since).
if(FUNCMESH_CCACHE_PROGRAM AND NOT EXISTS "${FUNCMESH_CCACHE_PROGRAM}")
  unset(FUNCMESH_CCACHE_PROGRAM CACHE)
endif()
find_program(FUNCMESH_CCACHE_PROGRAM ccache)
mark_as_advanced(FUNCMESH_CCACHE_PROGRAM)
if(NOT FUNCMESH_CCACHE_PROGRAM)
  message(STATUS "funcmesh: compiler cache off (ccache not found; install it to cache "
                 "compiles, e.g. apt-get install ccache)")
  return()
endif()

# One compile through it first: a cache folder it cannot write (a read-only or full home)
# would fail every compile of the build; it is turned off instead, with ccache's reason.
set(funcmesh_ccache_check ${CMAKE_BINARY_DIR}/CMakeFiles/funcmesh_ccache_check)
file(WRITE ${funcmesh_ccache_check}.cpp "int funcmesh_ccache_check() { return 0; }\n")
execute_process(COMMAND ${FUNCMESH_CCACHE_PROGRAM} ${CMAKE_CXX_COMPILER} -c
                        ${funcmesh_ccache_check}.cpp -o ${funcmesh_ccache_check}.o
                RESULT_VARIABLE funcmesh_ccache_status OUTPUT_VARIABLE funcmesh_ccache_output
                ERROR_VARIABLE funcmesh_ccache_output)
if(NOT funcmesh_ccache_status EQUAL 0)
  string(STRIP "${funcmesh_ccache_output}" funcmesh_ccache_output)
  message(WARNING "funcmesh: compiler cache off: ${FUNCMESH_CCACHE_PROGRAM} cannot compile "
                  "(${funcmesh_ccache_output}); fix it (ccache -p shows its configuration) or "
                  "configure with -DFUNCMESH_CCACHE=OFF to silence this")
  return()
endif()

# `cmake -E env` passes base_dir for this tree alone: a launcher is one command line, and
# ccache 4.7 (Debian 12) takes no settings on its own command line.
set(FUNCMESH_CCACHE_LAUNCHER
    ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR} ${FUNCMESH_CCACHE_PROGRAM})
set(funcmesh_ccache_languages "")
foreach(language IN ITEMS C CXX CUDA)
  if(DEFINED CMAKE_${language}_COMPILER_LAUNCHER OR DEFINED ENV{CMAKE_${language}_COMPILER_LAUNCHER})
    message(STATUS "funcmesh: ${language} keeps its compiler launcher "
                   "(${CMAKE_${language}_COMPILER_LAUNCHER}$ENV{CMAKE_${language}_COMPILER_LAUNCHER})")
  else()
    set(CMAKE_${language}_COMPILER_LAUNCHER ${FUNCMESH_CCACHE_LAUNCHER})
    if(language STREQUAL "CXX")
      set(FUNCMESH_CCACHE_CXX ${FUNCMESH_CCACHE_PROGRAM})
    endif()
    list(APPEND funcmesh_ccache_languages ${language})
  endif()
endforeach()
if(funcmesh_ccache_languages)
  execute_process(COMMAND ${FUNCMESH_CCACHE_PROGRAM} --get-config cache_dir
                  OUTPUT_VARIABLE funcmesh_ccache_dir OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET)
  string(REPLACE ";" ", " funcmesh_ccache_languages "${funcmesh_ccache_languages}")
  message(STATUS "funcmesh: compiler cache on: ${FUNCMESH_CCACHE_PROGRAM} for "
                 "${funcmesh_ccache_languages} (cache ${funcmesh_ccache_dir}; "
                 "-DFUNCMESH_CCACHE=OFF or FUNCMESH_NO_CCACHE=1 turns it off)")
endif()
