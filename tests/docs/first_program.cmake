# Run by ctest (cmake -P): the tutorial docs/first-program.md, built from its own code
# blocks against this build installed into a temporary prefix, then run on 1 and 2 ranks.
# Every block after a "<!-- file: NAME -->" line goes into NAME, in order. Checks: it
# prints the mass with a round-off change, the same mass on both rank counts, and writes
# its picture.
cmake_minimum_required(VERSION 3.24)
file(REMOVE_RECURSE "${WORK_DIR}")
set(source "${WORK_DIR}/source")
file(MAKE_DIRECTORY "${source}")

file(READ "${DOC}" rest)
set(files "")
while(TRUE)
  string(REGEX MATCH "<!-- file: ([A-Za-z0-9_.]+) -->\n```[a-z]*\n" opening "${rest}")
  if(NOT opening)
    break()
  endif()
  set(name "${CMAKE_MATCH_1}")
  string(FIND "${rest}" "${opening}" at)
  string(LENGTH "${opening}" length)
  math(EXPR start "${at} + ${length}")
  string(SUBSTRING "${rest}" ${start} -1 rest)
  string(FIND "${rest}" "\n```" end)
  if(end EQUAL -1)
    message(FATAL_ERROR "${DOC}: the block for ${name} is not closed")
  endif()
  math(EXPR end "${end} + 1")
  string(SUBSTRING "${rest}" 0 ${end} body)
  string(SUBSTRING "${rest}" ${end} -1 rest)
  file(APPEND "${source}/${name}" "${body}")
  list(APPEND files "${name}")
endwhile()
list(REMOVE_DUPLICATES files)
if(NOT "CMakeLists.txt" IN_LIST files OR NOT "shallow_water.cpp" IN_LIST files)
  message(FATAL_ERROR "${DOC} gave the files '${files}', not CMakeLists.txt and shallow_water.cpp")
endif()
message(STATUS "the tutorial's files: ${files}")

include(${CMAKE_CURRENT_LIST_DIR}/../install/run_step.cmake)

set(prefix "${WORK_DIR}/prefix")
run_step("install into ${prefix}"
         ${CMAKE_COMMAND} --install ${FUNCMESH_BUILD_DIR} --prefix ${prefix} --config ${BUILD_TYPE})
run_step("configure the tutorial"
         ${CMAKE_COMMAND} -S ${source} -B ${WORK_DIR}/build -G ${GENERATOR}
         -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
         "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}"
         -DCMAKE_PREFIX_PATH=${prefix} ${consumer_launcher})
run_step("build the tutorial"
         ${consumer_build_env} ${CMAKE_COMMAND} --build ${WORK_DIR}/build --config ${BUILD_TYPE})

separate_arguments(preflags UNIX_COMMAND "${MPIEXEC_PREFLAGS}")
set(masses "")
foreach(ranks 1 2)
  set(picture "${WORK_DIR}/depth_${ranks}.png")
  run_step("run on ${ranks} rank(s)" ${MPIEXEC} -n ${ranks} ${preflags}
           ${WORK_DIR}/build/shallow_water --n 16 --t-end 0.05 --png ${picture})
  message(STATUS "${step_output}")
  if(NOT step_output MATCHES "shallow_water: mass ([0-9.e+-]+), relative change ([0-9.e+-]+)")
    message(FATAL_ERROR "no mass line in:\n${step_output}")
  endif()
  list(APPEND masses "${CMAKE_MATCH_1}")
  set(change "${CMAKE_MATCH_2}")
  # Round-off: |change| < 1e-13 means its exponent is -14 or below (or it is 0).
  if(NOT change MATCHES "e-1[4-9]$" AND NOT change MATCHES "^-?0\\.0e\\+00$")
    message(FATAL_ERROR "the mass changed by ${change} on ${ranks} rank(s): not round-off")
  endif()
  if(NOT EXISTS "${picture}")
    message(FATAL_ERROR "the tutorial wrote no ${picture}")
  endif()
  file(SIZE "${picture}" bytes)
  if(bytes LESS 1000)
    message(FATAL_ERROR "${picture} has only ${bytes} bytes")
  endif()
endforeach()
list(GET masses 0 one)
list(GET masses 1 two)
if(NOT one STREQUAL two)
  message(FATAL_ERROR "the mass differs between 1 rank (${one}) and 2 ranks (${two})")
endif()
message(STATUS "first program: the same mass ${one} on 1 and 2 ranks")
