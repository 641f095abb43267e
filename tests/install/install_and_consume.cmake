# Run by ctest (cmake -P): install, configure and build the consumer, run it. The
# consumer gets this build's compiler flags (a sanitizer build needs its runtime).
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

include(${CMAKE_CURRENT_LIST_DIR}/run_step.cmake)

run_step("install into ${prefix}"
         ${CMAKE_COMMAND} --install ${FUNCMESH_BUILD_DIR} --prefix ${prefix} --config ${BUILD_TYPE})
run_step("configure the consumer"
         ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
         -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
         "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}"
         -DCMAKE_PREFIX_PATH=${prefix} -DEXPECT_MPI=${EXPECT_MPI} -DEXPECT_CUDA=${EXPECT_CUDA}
         -DEXPECT_OPENMP=${EXPECT_OPENMP} -DEXPECT_HDF5=${EXPECT_HDF5} ${consumer_launcher})
run_step("build the consumer"
         ${consumer_build_env} ${CMAKE_COMMAND} --build ${WORK_DIR}/build --config ${BUILD_TYPE})
run_step("run the consumer" ${WORK_DIR}/build/funcmesh_consumer)
message(STATUS "consumer said: ${step_output}")
if(NOT step_output MATCHES "funcmesh consumer: ok")
  message(FATAL_ERROR "the consumer ran but did not report success:\n${step_output}")
endif()

# What else the install tree holds: the partitioning tool, the documentation and, with the
# MPI examples, their programs and their sources as templates, one of which is built here.
set(expected bin/funcmesh-partition share/doc/funcmesh/README.md
             share/doc/funcmesh/docs/building.md)
if(EXPECT_MPI AND EXPECT_EXAMPLES)
  list(APPEND expected bin/funcmesh-heat bin/funcmesh-euler bin/funcmesh-advection
       share/funcmesh/examples/CMakeLists.txt share/funcmesh/examples/heat/heat.cpp)
endif()
foreach(path IN LISTS expected)
  if(NOT EXISTS ${prefix}/${path})
    message(FATAL_ERROR "the install tree has no ${path}")
  endif()
endforeach()
# Built once, in the plain build: under the sanitizers it is the same source and the same
# package, and its build would take ci/sanitize another minute.
if(EXPECT_MPI AND EXPECT_EXAMPLES AND NOT CXX_FLAGS MATCHES "-fsanitize")
  run_step("configure the installed heat example"
           ${CMAKE_COMMAND} -S ${prefix}/share/funcmesh/examples -B ${WORK_DIR}/examples
           -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
           "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}"
           -DCMAKE_PREFIX_PATH=${prefix} -DFUNCMESH_EXAMPLES=heat ${consumer_launcher})
  run_step("build the installed heat example" ${consumer_build_env}
           ${CMAKE_COMMAND} --build ${WORK_DIR}/examples --config ${BUILD_TYPE})
  run_step("run the installed heat example" ${WORK_DIR}/examples/heat --quiet)
  if(NOT step_output MATCHES "heat: sum of V u at t_end")
    message(FATAL_ERROR "the heat example built from the install tree said:\n${step_output}")
  endif()
endif()
