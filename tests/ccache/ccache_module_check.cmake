# Run by ctest (cmake -P): cmake/funcmesh_ccache.cmake in a project of one file (probe/),
# configured in WORK_DIR as a user would with and without ccache. Checks the configure
# output says which, that the compile goes through ccache with base_dir set to the source
# tree where it is on, and through nothing where it is off. A stand-in ccache (a script
# that logs its environment and arguments and runs the compiler) takes the real one's
# place, so the check needs no ccache installed and touches no cache; another, that fails
# every compile (an unwritable cache folder), must turn the cache off with a warning.
# Arguments: FUNCMESH_CMAKE_DIR (cmake/), WORK_DIR, GENERATOR, MAKE_PROGRAM, CXX_COMPILER.
cmake_minimum_required(VERSION 3.24)
foreach(language C CXX CUDA)
  unset(ENV{CMAKE_${language}_COMPILER_LAUNCHER})
endforeach()
unset(ENV{FUNCMESH_NO_CCACHE})
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/bin")
set(probe ${CMAKE_CURRENT_LIST_DIR}/probe)
set(log ${WORK_DIR}/stand_in.log)
file(WRITE ${WORK_DIR}/bin/ccache
     "#!/bin/sh\necho \"CCACHE_BASEDIR=$CCACHE_BASEDIR $*\" >>'${log}'\n"
     "[ \"$1\" = --get-config ] && { echo '${WORK_DIR}/cache'; exit 0; }\nexec \"$@\"\n")
file(WRITE ${WORK_DIR}/bin/broken
     "#!/bin/sh\necho 'ccache: error: Failed to create directory /nowhere/tmp' >&2\nexit 1\n")
file(CHMOD ${WORK_DIR}/bin/ccache ${WORK_DIR}/bin/broken
     PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)

# case(NAME EXPECT_REGEX EXPECT_LAUNCHED ARGS...): configures and builds probe/ in
# WORK_DIR/NAME with ARGS; the configure output must match EXPECT_REGEX, and the compile
# must (EXPECT_LAUNCHED true) or must not go through the stand-in.
function(case name expect launched)
  file(REMOVE ${log})
  set(build ${WORK_DIR}/${name})
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${probe} -B ${build} -G ${GENERATOR}
                          -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}
                          -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
                          -DFUNCMESH_CMAKE_DIR=${FUNCMESH_CMAKE_DIR} ${ARGN}
                  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${name}: configure failed:\n${output}")
  endif()
  # CMake wraps a warning's words at its own width: compared with one space between words.
  string(REGEX REPLACE "[ \t\r\n]+" " " flat "${output}")
  if(NOT flat MATCHES "${expect}")
    message(FATAL_ERROR "${name}: the configure output does not say '${expect}':\n${output}")
  endif()
  # --clean-first: Makefiles (Spack's generator) do not rebuild an object whose compiler
  # launcher alone changed, as Ninja does.
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${build} --clean-first
                  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${name}: build failed:\n${output}")
  endif()
  set(compiled "")
  if(EXISTS ${log})
    file(STRINGS ${log} compiled REGEX "probe\\.cpp")
  endif()
  if(launched AND NOT compiled MATCHES "^CCACHE_BASEDIR=${probe} .*probe\\.cpp")
    message(FATAL_ERROR "${name}: probe.cpp was not compiled through ccache with base_dir "
                        "${probe}; the stand-in logged: '${compiled}'")
  elseif(NOT launched AND compiled)
    message(FATAL_ERROR "${name}: probe.cpp went through ccache: '${compiled}'")
  endif()
  message(STATUS "${name}: ok")
endfunction()

set(stand_in -DFUNCMESH_CCACHE_PROGRAM=${WORK_DIR}/bin/ccache)
# Nowhere to find a ccache: neither PATH nor CMake's system folders are searched.
set(none -DCMAKE_FIND_USE_SYSTEM_ENVIRONMENT_PATH=OFF -DCMAKE_FIND_USE_CMAKE_SYSTEM_PATH=OFF)
case(on "compiler cache on: ${WORK_DIR}/bin/ccache for C, CXX, CUDA \\(cache ${WORK_DIR}/cache" TRUE
     ${stand_in})
case(missing "compiler cache off \\(ccache not found" FALSE ${none})
case(broken "compiler cache off: ${WORK_DIR}/bin/broken cannot compile \\(ccache: error: Failed"
     FALSE -DFUNCMESH_CCACHE_PROGRAM=${WORK_DIR}/bin/broken)
case(option_off "compiler cache off \\(-DFUNCMESH_CCACHE=OFF\\)" FALSE ${stand_in}
     -DFUNCMESH_CCACHE=OFF)
case(user_launcher "CXX keeps its compiler launcher \\(/usr/bin/env\\)" FALSE ${stand_in}
     -DCMAKE_CXX_COMPILER_LAUNCHER=/usr/bin/env)
set(ENV{FUNCMESH_NO_CCACHE} 1)
case(environment_off "compiler cache off \\(FUNCMESH_NO_CCACHE=1 in the environment\\)" FALSE
     ${stand_in})
# The same build folder, configured again without the variable: the cache is back.
unset(ENV{FUNCMESH_NO_CCACHE})
case(environment_off "compiler cache on:" TRUE)
