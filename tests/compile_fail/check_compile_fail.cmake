# Runs the compiler (-fsyntax-only) on SOURCE. With CONTROLS=ON, SOURCE is the generated
# file of a group's control versions (every case with -DFUNCMESH_CONTROL, what the mistake
# should have been) and must compile; otherwise SOURCE must fail with a message matching
# EXPECT. Arguments: COMPILER, SOURCE, EXPECT or CONTROLS, and FLAGS (a ;-list of include
# directories and options).
if(CONTROLS)
  execute_process(COMMAND ${COMPILER} ${FLAGS} -fsyntax-only ${SOURCE}
                  RESULT_VARIABLE control_status OUTPUT_VARIABLE control_output
                  ERROR_VARIABLE control_output)
  if(NOT control_status EQUAL 0)
    message(FATAL_ERROR "the control versions in ${SOURCE} do not compile:\n${control_output}")
  endif()
  file(STRINGS ${SOURCE} cases REGEX "^namespace control_")
  list(LENGTH cases count)
  if(count EQUAL 0)
    message(FATAL_ERROR "${SOURCE} holds no control version")
  endif()
  message(STATUS "the ${count} control versions in ${SOURCE} compile")
  return()
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
