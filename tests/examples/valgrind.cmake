# A 2-rank heat run under valgrind (label `valgrind`): no memory error from our code.
# Open MPI's own noise is suppressed by its shipped openmpi-valgrind.supp and, for frames
# inside Open MPI and its libraries only, ci/valgrind.supp. Included from
# examples/CMakeLists.txt, where mpirun, MPIEXEC_PREFLAGS and example_environment are set.
# Not in sanitized builds (valgrind cannot run an ASan binary), nor where the compiler
# targets AVX-512: valgrind 3.19 stops at the first AVX-512 instruction, and both
# -march=native on this CPU and Spack's compiler wrapper on an x86_64_v4 target (flags
# CMake never sees) emit them. FUNCMESH_NATIVE counts as AVX-512 whatever the CPU.
include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_QUIET ON)
check_cxx_source_compiles("
#ifdef __AVX512F__
#error AVX-512
#endif
int main() { return 0; }" FUNCMESH_COMPILER_TARGET_WITHOUT_AVX512)
unset(CMAKE_REQUIRED_QUIET)
find_program(FUNCMESH_VALGRIND valgrind)
find_file(FUNCMESH_OPENMPI_VALGRIND_SUPP openmpi-valgrind.supp
          PATHS /usr/share/openmpi ${MPI_HOME}/share/openmpi NO_DEFAULT_PATH)
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize")
  message(STATUS "valgrind test: not registered in a sanitized build")
elseif(FUNCMESH_NATIVE)
  message(STATUS "valgrind test: needs -DFUNCMESH_NATIVE=OFF (valgrind lacks AVX-512)")
elseif(NOT FUNCMESH_COMPILER_TARGET_WITHOUT_AVX512)
  message(STATUS "valgrind test: not registered, the compiler targets AVX-512, which "
                 "valgrind lacks")
elseif(NOT FUNCMESH_VALGRIND OR NOT FUNCMESH_OPENMPI_VALGRIND_SUPP)
  message(WARNING "valgrind test: valgrind or openmpi-valgrind.supp missing (ci/install-deps)")
else()
  add_test(NAME example_heat_valgrind_np2
           COMMAND ${mpirun} 2 ${MPIEXEC_PREFLAGS} ${FUNCMESH_VALGRIND} --error-exitcode=1
                   --suppressions=${FUNCMESH_OPENMPI_VALGRIND_SUPP}
                   --suppressions=${CMAKE_CURRENT_LIST_DIR}/../../ci/valgrind.supp
                   $<TARGET_FILE:heat> --n 8 --t-end 0.001 --quiet)
  set_tests_properties(example_heat_valgrind_np2 PROPERTIES TIMEOUT 240 PROCESSORS 2
                       LABELS "examples;mpi;valgrind" ENVIRONMENT "${example_environment}")
endif()
