# Test helpers.
#   funcmesh_add_gtest(NAME SOURCES ... [LIBRARIES ...] [TIMEOUT s] [LABELS ...])
#     a GoogleTest executable; each TEST becomes a ctest test (discovered at test time,
#     so a CUDA build can be compiled where no GPU is present).
#   funcmesh_add_mpi_test(NAME TARGET RANKS 1 2 4 [TIMEOUT s] [ARGS ...] [THREADS n]
#                         [TCP_RANKS 2 4] [ENVIRONMENT VAR=value ...])
#     one ctest test per rank count, NAME_np<N>, run through MPIEXEC_EXECUTABLE with
#     the environment every MPI run here needs (root allowed, loopback only); TCP_RANKS
#     adds NAME_tcp_np<N> over the TCP transport (still on loopback). THREADS is
#     OMP_NUM_THREADS (1 by default); THREADS unset removes OMP_NUM_THREADS and
#     FUNCMESH_THREADS_TARGET from the test's environment, as a new user would run.
#     The counts strictly between the fewest and the most of RANKS also get the label
#     middle_ranks (ci/sanitize leaves them to the default build).
#     With FUNCMESH_CLUSTER_TESTS, the rank counts 2 and 4 of RANKS also run across the
#     two hosts of the rehearsal cluster (ci/cluster), NAME_cluster_np<N>, label cluster.
include(GoogleTest)

set(FUNCMESH_TEST_TIMEOUT 300 CACHE STRING "Default ctest TIMEOUT (seconds) for funcmesh tests")

# Every mpirun from a test: allowed as root (CI runs as root), traffic on loopback only.
set(FUNCMESH_MPI_TEST_ENVIRONMENT
    OMPI_ALLOW_RUN_AS_ROOT=1
    OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    OMPI_MCA_btl_tcp_if_include=lo
    OMPI_MCA_oob_tcp_if_include=lo)

set(mpiexec_version "")
if(FUNCMESH_ENABLE_MPI)
  execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE mpiexec_version
                  ERROR_QUIET)
endif()
if(NOT MPIEXEC_PREFLAGS AND mpiexec_version MATCHES "Open MPI|OpenRTE")
  # Open MPI refuses more ranks than cores without --oversubscribe; binding every rank
  # to a core then makes oversubscribed ranks fight over one.
  set(MPIEXEC_PREFLAGS --oversubscribe --bind-to none CACHE STRING "Flags before the executable" FORCE)
endif()

# ci/cluster needs root, Linux network namespaces and Open MPI's rsh launcher; its tests
# skip (exit 77, with the reason) where namespaces cannot be made. Off by default:
# a user's ctest should not make network namespaces unasked; ci/test turns them on.
option(FUNCMESH_CLUSTER_TESTS
       "Run the MPI tests at 2 and 4 ranks across ci/cluster's two rehearsal hosts too (label cluster)"
       OFF)
if(FUNCMESH_CLUSTER_TESTS AND NOT mpiexec_version MATCHES "Open MPI|OpenRTE")
  message(FATAL_ERROR "FUNCMESH_CLUSTER_TESTS needs Open MPI (ci/cluster launches its daemons)")
endif()

# funcmesh_test_path(TARGET NAME PATH): defines NAME in TARGET's sources as PATH relative to
# the folder of TARGET's executable; the test makes it absolute with
# funcmesh::testing::beside_executable (tests/common/test_paths.hpp). An absolute path
# would differ between clones, and so would the object: the compiler cache would miss it in
# every fresh clone.
function(funcmesh_test_path target name path)
  get_target_property(folder ${target} RUNTIME_OUTPUT_DIRECTORY)
  if(NOT folder)
    get_target_property(folder ${target} BINARY_DIR)
  endif()
  file(RELATIVE_PATH relative ${folder} ${path})
  if(relative STREQUAL "")
    set(relative .)
  endif()
  target_compile_definitions(${target} PRIVATE ${name}="${relative}")
endfunction()

function(funcmesh_add_gtest name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "TIMEOUT;ENVIRONMENT" "SOURCES;LIBRARIES;LABELS")
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT ${FUNCMESH_TEST_TIMEOUT})
  endif()
  add_executable(${name} ${arg_SOURCES})
  target_link_libraries(${name} PRIVATE ${arg_LIBRARIES} GTest::gtest GTest::gtest_main)
  funcmesh_target_warnings(${name})
  # Escaped: gtest_discover_tests would keep only the first of several labels.
  string(REPLACE ";" "\\;" labels "${arg_LABELS}")
  set(environment)
  if(arg_ENVIRONMENT)
    set(environment ENVIRONMENT "${arg_ENVIRONMENT}")
  endif()
  # Under ASan, a test with no MPI collects allocation stacks with the fast unwinder
  # (5 times quicker on the allocating tests): only Open MPI's libraries, built without
  # frame pointers, need the slow one that the asan test preset sets for their leak
  # suppressions, and these tests never start MPI.
  if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=[^ ]*address")
    # (The preset leaves it out of LSAN_OPTIONS, which ASan reads last.)
    list(APPEND environment ENVIRONMENT_MODIFICATION
         "ASAN_OPTIONS=string_append::fast_unwind_on_malloc=1")
  endif()
  gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60
                       PROPERTIES TIMEOUT ${arg_TIMEOUT} LABELS "${labels}" ${environment})
endfunction()

# The properties every MPI test shares; the thread setting as funcmesh_add_mpi_test says.
function(funcmesh_set_mpi_test_properties test_name ranks threads timeout labels environment)
  if(threads STREQUAL "unset")
    set(threads_environment "")
    set_tests_properties(${test_name} PROPERTIES ENVIRONMENT_MODIFICATION
      "OMP_NUM_THREADS=unset:;FUNCMESH_THREADS_TARGET=unset:")
  else()
    set(threads_environment ";OMP_NUM_THREADS=${threads}")
  endif()
  set_tests_properties(${test_name} PROPERTIES
    TIMEOUT ${timeout}
    PROCESSORS ${ranks}
    LABELS "${labels}"
    ENVIRONMENT "${FUNCMESH_MPI_TEST_ENVIRONMENT}${threads_environment};${environment}")
endfunction()

function(funcmesh_add_mpi_test name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "TARGET;TIMEOUT;THREADS"
                        "RANKS;ARGS;LABELS;TCP_RANKS;ENVIRONMENT")
  if(NOT arg_TARGET OR NOT arg_RANKS)
    message(FATAL_ERROR "funcmesh_add_mpi_test(${name}): TARGET and RANKS are required")
  endif()
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 120)
  endif()
  if(NOT arg_THREADS)
    set(arg_THREADS 1)
  endif()
  # The fewest and the most ranks of RANKS differ most in their code paths (one rank has
  # no halo at all); the counts between them are labelled middle_ranks, which the
  # sanitized run leaves to the default build (ci/sanitize).
  set(sorted_ranks ${arg_RANKS})
  list(SORT sorted_ranks COMPARE NATURAL)
  list(GET sorted_ranks 0 fewest_ranks)
  list(GET sorted_ranks -1 most_ranks)
  # Shared memory between ranks (NAME_np<N>), and for TCP_RANKS the transport a
  # multi-node run uses, TCP kept on loopback here (NAME_tcp_np<N>).
  foreach(transport default tcp)
    if(transport STREQUAL "tcp")
      set(rank_counts ${arg_TCP_RANKS})
      set(prefix ${name}_tcp)
      set(labels "mpi;tcp;${arg_LABELS}")
      set(environment "OMPI_MCA_btl=tcp,self;${arg_ENVIRONMENT}")
    else()
      set(rank_counts ${arg_RANKS})
      set(prefix ${name})
      set(labels "mpi;${arg_LABELS}")
      set(environment "${arg_ENVIRONMENT}")
    endif()
    foreach(ranks IN LISTS rank_counts)
      set(test_name ${prefix}_np${ranks})
      add_test(NAME ${test_name}
               COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${MPIEXEC_PREFLAGS}
                       $<TARGET_FILE:${arg_TARGET}> ${MPIEXEC_POSTFLAGS} ${arg_ARGS})
      set(test_labels "${labels}")
      if(transport STREQUAL "default" AND ranks GREATER fewest_ranks AND ranks LESS most_ranks)
        list(APPEND test_labels middle_ranks)
      endif()
      funcmesh_set_mpi_test_properties(${test_name} ${ranks} ${arg_THREADS} ${arg_TIMEOUT}
                                       "${test_labels}" "${environment}")
    endforeach()
  endforeach()
  # Across the rehearsal cluster (ci/cluster mpirun, TCP between namespaces over
  # rate-limited links), one such test at a time, the cluster a fixture (tests/CMakeLists.txt).
  if(FUNCMESH_CLUSTER_TESTS)
    foreach(ranks IN ITEMS 2 4)
      if(NOT ranks IN_LIST arg_RANKS)
        continue()
      endif()
      set(test_name ${name}_cluster_np${ranks})
      add_test(NAME ${test_name}
               COMMAND ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../tests/cluster/on_cluster.sh ${ranks}
                       $<TARGET_FILE:${arg_TARGET}> ${arg_ARGS})
      funcmesh_set_mpi_test_properties(${test_name} ${ranks} ${arg_THREADS} ${arg_TIMEOUT}
                                       "mpi;cluster;${arg_LABELS}" "${arg_ENVIRONMENT}")
      set_tests_properties(${test_name} PROPERTIES
        SKIP_RETURN_CODE 77
        FIXTURES_REQUIRED funcmesh_cluster
        RESOURCE_LOCK funcmesh_cluster)
    endforeach()
  endif()
endfunction()
