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
         -DCMAKE_PREFIX_PATH=${prefix} -DEXPECT_MPI=${EXPECT_MPI} -DEXPECT_CUDA=${EXPECT_CUDA})
run_step("build the consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/build --config ${BUILD_TYPE})
run_step("run the consumer" ${WORK_DIR}/build/funcmesh_consumer)
message(STATUS "consumer said: ${step_output}")
if(NOT step_output MATCHES "funcmesh consumer: ok")
  message(FATAL_ERROR "the consumer ran but did not report success:\n${step_output}")
endif()
