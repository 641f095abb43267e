# FUNCMESH_NATIVE: funcmesh's own targets (the library, examples, benchmarks and tests)
# compiled for the instruction set of the machine that builds them. Binaries built with
# it run only on CPUs like the build machine's, so packages (Spack, distributions) and
# builds whose binaries travel (the cuda and gpu-check presets) turn it OFF and set their
# own target flags.
# Floating-point contraction is off in every build, not only native ones: a target with
# FMA (-march=native here, Spack's -march=x86-64-v3/v4 through its compiler wrapper)
# would otherwise fuse a*b+c in one inlined code path and not in another, and the paged
# and in-memory paths, or the executors, would differ in the last bit. Without
# contraction the arithmetic is the IEEE arithmetic of a portable build, bit for bit (the
# Airfoil's published residuals, equal bits on the host and on the GPU with --fmad=false),
# and a target option changes speed, never results.
# PRIVATE flags only: nothing reaches consumers of the installed package.
#
# The flag text is kept out of the cache (ci/gpu-check looks for it in CMakeCache.txt).
include(CheckCXXCompilerFlag)

set(funcmesh_native_cxx_flags "")
if(FUNCMESH_NATIVE)
  set(funcmesh_native_candidate -march=native)
  check_cxx_compiler_flag(${funcmesh_native_candidate} FUNCMESH_COMPILER_HAS_NATIVE_ARCH)
  if(FUNCMESH_COMPILER_HAS_NATIVE_ARCH)
    list(APPEND funcmesh_native_cxx_flags ${funcmesh_native_candidate})
    message(STATUS "FUNCMESH_NATIVE: funcmesh's own targets built for this CPU "
                   "(${funcmesh_native_candidate})")
  else()
    message(WARNING "FUNCMESH_NATIVE is ON but ${CMAKE_CXX_COMPILER_ID} does not accept "
                    "${funcmesh_native_candidate}: building for the default target")
  endif()
endif()
check_cxx_compiler_flag(-ffp-contract=off FUNCMESH_COMPILER_HAS_FP_CONTRACT_OFF)
if(FUNCMESH_COMPILER_HAS_FP_CONTRACT_OFF)
  list(APPEND funcmesh_native_cxx_flags -ffp-contract=off)
endif()

# Adds the flags to one of funcmesh's own targets (funcmesh_target_warnings calls it, so
# every target that gets funcmesh's warnings gets exactly the same instruction set,
# the plain-loop baselines of the benchmarks included).
function(funcmesh_target_native target)
  if(NOT funcmesh_native_cxx_flags)
    return()
  endif()
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${funcmesh_native_cxx_flags}>)
  # nvcc: the host compiler's share of .cu files (the device code is unaffected).
  foreach(flag IN LISTS funcmesh_native_cxx_flags)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=${flag}>)
  endforeach()
endfunction()
