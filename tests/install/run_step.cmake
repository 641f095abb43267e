# run_step(DESCRIPTION COMMAND...): runs the command, fails with its output unless it exits
# 0, and leaves the output in step_output. For the cmake -P scripts that install this
# build and build a program against it (install_and_consume.cmake, first_program.cmake).
function(run_step description)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE output
                  ERROR_VARIABLE output)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${description} failed (${status}):\n${output}")
  endif()
  message(STATUS "${description}: ok")
  set(step_output "${output}" PARENT_SCOPE)
endfunction()

# The compiler cache of the build under test (-DCCACHE=PROGRAM -DCCACHE_BASEDIR=DIR, from
# cmake/funcmesh_ccache.cmake), for the programs these scripts build as a user would:
# ${consumer_launcher} goes on their configure line, ${consumer_build_env} before their
# build command. Empty where the build has no cache.
set(consumer_launcher "")
set(consumer_build_env "")
if(CCACHE)
  set(consumer_launcher -DCMAKE_CXX_COMPILER_LAUNCHER=${CCACHE})
  set(consumer_build_env ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${CCACHE_BASEDIR})
endif()
