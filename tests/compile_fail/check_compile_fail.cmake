# Runs the compiler on SOURCE twice: with -DFUNCMESH_CONTROL it must compile; without it
# it must fail with a message matching EXPECT. Arguments: COMPILER, SOURCE, EXPECT and
# FLAGS (a ;-list of include directories and options).
execute_process(COMMAND ${COMPILER} ${FLAGS} -DFUNCMESH_CONTROL -fsyntax-only ${SOURCE}
                RESULT_VARIABLE control_status OUTPUT_VARIABLE control_output
                ERROR_VARIABLE control_output)
if(NOT control_status EQUAL 0)
  message(FATAL_ERROR "the control version of ${SOURCE} does not compile:\n${control_output}")
endif()
execute_process(COMMAND ${COMPILER} ${FLAGS} -fsyntax-only ${SOURCE}
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(status EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled, but it must not")
endif()
if(NOT output MATCHES "${EXPECT}")
  message(FATAL_ERROR "${SOURCE} failed without the expected message '${EXPECT}':\n${output}")
endif()
message(STATUS "${SOURCE} fails to compile as it should: '${EXPECT}'")
