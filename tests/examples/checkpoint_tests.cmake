# Checkpoint and restart of the examples (issue 16), included from examples/CMakeLists.txt
# inside its MPI test block: a SIGKILLed run restarted on another rank count ends on the
# uninterrupted run's bits; a truncated or bit-flipped newest checkpoint is refused and the
# previous one used; a full disk is one clear error that leaves the previous one latest;
# bad folders, files, meshes and schemes are refused on every rank together.
set(restart_same ${CMAKE_CURRENT_SOURCE_DIR}/../tests/examples/restart_same.sh)
set(checkpoint_faults ${CMAKE_CURRENT_SOURCE_DIR}/../tests/examples/checkpoint_faults.sh)
set(scratch ${CMAKE_CURRENT_BINARY_DIR}/checkpoint_tests)
set(np3 ${mpirun} 3 --oversubscribe ${MPIEXEC_PREFLAGS})
set(np2 ${mpirun} 2 ${MPIEXEC_PREFLAGS})
set(np1 ${mpirun} 1 ${MPIEXEC_PREFLAGS})

# name from-ranks-prefix to-ranks-prefix checkpoints-before-the-kill regex command...
function(funcmesh_restart_test name checkpoints regex)
  cmake_parse_arguments(PARSE_ARGV 3 arg "" "" "FROM;TO;RUN")
  add_test(NAME ${name} COMMAND ${restart_same} "${regex}" ${checkpoints} ${scratch}/${name}
                                -- ${arg_FROM} -- ${arg_TO} -- ${arg_RUN})
  # COST: the longest tests start first (a fresh build has no timings for ctest to order
  # by, and one started last runs alone on the cores the others have left).
  set_tests_properties(${name} PROPERTIES TIMEOUT 300 PROCESSORS 3 LABELS "examples;mpi;checkpoint"
                       ENVIRONMENT "${example_environment}" COST 60)
endfunction()

# Sanitized builds run about 15 times slower: the killed runs there take grids about that
# much smaller, so that they still last past the kill and the test takes seconds, not
# minutes (the same code paths, the same bitwise comparison).
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize")
  set(heat_grid --n 192)
  set(advection_grid --n 128)
  set(euler_grid --i 60 --j 90)
  set(euler_fv_grid --n 48)
else()
  set(heat_grid --n 768)
  # 5 s on 2 ranks, 3.8 s of them after the kill's checkpoint (512^2 took 19 s).
  set(advection_grid --n 256)
  set(euler_grid --i 200 --j 300)
  set(euler_fv_grid --n 160)
endif()

# The acceptance: 2 ranks, a checkpoint every 50 steps of 200, killed after the second,
# restarted with --restart latest on 3 ranks (and the other way round, 3 -> 1).
funcmesh_restart_test(example_heat_killed_np2_restarted_np3 2 "sum of V u" FROM ${np2} TO ${np3}
                      RUN $<TARGET_FILE:heat> ${heat_grid} --steps 200 --checkpoint-every 50)
funcmesh_restart_test(example_heat_killed_np3_restarted_np1 2 "sum of V u" FROM ${np3} TO ${np1}
                      RUN $<TARGET_FILE:heat> ${heat_grid} --steps 200 --checkpoint-every 50)
funcmesh_restart_test(example_advection_killed_np2_restarted_np3 1 "mass .* ->" FROM ${np2}
                      TO ${np3} RUN $<TARGET_FILE:advection> ${advection_grid} --steps 400
                      --checkpoint-every 100)
funcmesh_restart_test(example_euler_fv_killed_np2_restarted_np3 2 "result bits" FROM ${np2}
                      TO ${np3} RUN $<TARGET_FILE:euler_fv> ${euler_fv_grid} --limiter venkat
                      --steps 600 --checkpoint-every 100)
funcmesh_restart_test(example_euler_killed_np3_restarted_np2 2 "final rms bits" FROM ${np3}
                      TO ${np2} RUN $<TARGET_FILE:euler> ${euler_grid} --iterations 400
                      --checkpoint-every 100)

# Sanitized builds take a 4 times smaller grid where the checkpoint's size does not matter
# (disk-full needs files past its 8 KiB limit). truncate and flip start from the same two
# runs (uninterrupted, and with the checkpoints of steps 50 and 100), made once by the
# fixture test example_heat_checkpoint_faults_setup_np2; each damages its own copy.
set(fault_grid 64)
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize")
  set(fault_grid 32)
endif()
foreach(fault setup truncate flip disk-full)
  set(grid ${fault_grid})
  if(fault STREQUAL "disk-full")
    set(grid 64)
  endif()
  set(name example_heat_checkpoint_${fault}_np2)
  if(fault STREQUAL "setup")
    set(name example_heat_checkpoint_faults_setup_np2)
  endif()
  add_test(NAME ${name}
           COMMAND ${checkpoint_faults} ${fault} u ${scratch}/faults "sum of V u"
                   -- ${np2} -- $<TARGET_FILE:heat> --n ${grid} --quiet)
  set_tests_properties(${name} PROPERTIES TIMEOUT 120 PROCESSORS 2
                       LABELS "examples;mpi;checkpoint" ENVIRONMENT "${example_environment}"
                       COST 30)
  if(fault STREQUAL "setup")
    set_tests_properties(${name} PROPERTIES FIXTURES_SETUP heat_checkpoint_faults COST 40)
  elseif(NOT fault STREQUAL "disk-full")
    set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED heat_checkpoint_faults)
  endif()
endforeach()

# Refusals: said once, a clean non-zero exit, within seconds.
function(funcmesh_refusal_test name ranks regex)
  add_test(NAME ${name} COMMAND ${fails_once} "${regex}" -- ${mpirun} ${ranks} ${MPIEXEC_PREFLAGS}
                                ${ARGN})
  set_tests_properties(${name} PROPERTIES TIMEOUT 60 PROCESSORS ${ranks}
                       LABELS "examples;mpi;checkpoint" ENVIRONMENT "${example_environment}")
endfunction()
funcmesh_refusal_test(example_heat_checkpoint_dir_uncreatable_np2 2
                      "cannot create the checkpoint directory /proc/no-such/folder"
                      $<TARGET_FILE:heat> --n 8 --steps 4 --checkpoint-every 2
                      --checkpoint-dir /proc/no-such/folder)
funcmesh_refusal_test(example_heat_restart_missing_np2 2 "/nonexistent/c.h5 does not exist"
                      $<TARGET_FILE:heat> --n 8 --steps 4 --restart /nonexistent/c.h5)
funcmesh_refusal_test(example_advection_restart_missing_np3 3 "no checkpoint in"
                      $<TARGET_FILE:advection> --n 8 --steps 4 --restart latest
                      --checkpoint-dir ${CMAKE_CURRENT_BINARY_DIR})

# A checkpoint of another mesh, and of another scheme: refused. The writing run is a
# fixture, so the refusals read a checkpoint that exists.
add_test(NAME example_heat_checkpoint_for_refusals
         COMMAND ${np2} $<TARGET_FILE:heat> --n 16 --steps 10 --checkpoint-every 10 --quiet
                 --checkpoint-dir ${scratch}/refusals)
set_tests_properties(example_heat_checkpoint_for_refusals PROPERTIES TIMEOUT 60 PROCESSORS 2
                     FIXTURES_SETUP heat_checkpoint LABELS "examples;mpi;checkpoint"
                     ENVIRONMENT "${example_environment}")
funcmesh_refusal_test(example_heat_restart_other_mesh_np2 2 "written for another mesh"
                      $<TARGET_FILE:heat> --n 24 --steps 20 --restart latest
                      --checkpoint-dir ${scratch}/refusals)
funcmesh_refusal_test(example_heat_restart_other_scheme_np3 3 "written by the scheme 'ssp-rk3'"
                      $<TARGET_FILE:heat> --n 16 --steps 20 --scheme rk4 --restart latest
                      --checkpoint-dir ${scratch}/refusals)
set_tests_properties(example_heat_restart_other_mesh_np2 example_heat_restart_other_scheme_np3
                     PROPERTIES FIXTURES_REQUIRED heat_checkpoint)
foreach(example heat advection euler)
  funcmesh_example_test(example_${example}_help_checkpoints 1 60 "--restart TEXT"
                        $<TARGET_FILE:${example}> --help)
endforeach()

# Checkpoints and mesh files read back through their XDMF descriptions by a real client:
# meshio (Debian's python3-meshio, for /usr/bin/python3) everywhere; ParaView (pvpython)
# where it is installed (ci/install-deps does not: its python3-paraview replaces
# python3-vtk9, and its 440 MB do not fit CI's time; docs/checkpoint.md has the run).
if(FUNCMESH_ENABLE_HDF5)
  # meshio where /usr/bin/python3 has it (Debian; ci/test fails if the test is missing, so
  # CI never loses it); elsewhere (a Spack build on another system) the test is not made.
  set(xdmf_clients "")
  execute_process(COMMAND /usr/bin/python3 -c "import meshio" RESULT_VARIABLE no_meshio
                  OUTPUT_QUIET ERROR_QUIET)
  if(no_meshio EQUAL 0)
    list(APPEND xdmf_clients meshio)
  endif()
  find_program(FUNCMESH_PVPYTHON pvpython)
  if(FUNCMESH_PVPYTHON AND EXISTS "${FUNCMESH_PVPYTHON}")
    list(APPEND xdmf_clients paraview)
  endif()
  foreach(client IN LISTS xdmf_clients)
    add_test(NAME example_heat_checkpoint_xdmf_${client}
             COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/../tests/examples/checkpoint_xdmf.sh ${client}
                     ${CMAKE_CURRENT_SOURCE_DIR}/../tests/checkpoint/read_xdmf.py
                     $<TARGET_FILE:heat>
                     ${CMAKE_CURRENT_SOURCE_DIR}/../tests/partition/data/gmsh/prisms.geo
                     ${scratch}/xdmf_${client} -- ${mpirun} --oversubscribe
                     ${MPIEXEC_PREFLAGS})
    set_tests_properties(example_heat_checkpoint_xdmf_${client} PROPERTIES TIMEOUT 300
                         PROCESSORS 3 LABELS "examples;mpi;checkpoint"
                         ENVIRONMENT "${example_environment}")
  endforeach()
endif()
