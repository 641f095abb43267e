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
