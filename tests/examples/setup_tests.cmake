# The parallel set-up in the examples (issue 39), included from examples/CMakeLists.txt
# inside its MPI block where HDF5 is built: a built-in grid saved as a funcmesh .h5 mesh
# file and read in parallel gives the rank-0 path's bits; a run on the .h5 mesh killed on
# 2 ranks restarts on 3; built-in boxes give the same bits on both paths; partitioners a
# mesh's path cannot take are refused once, with what to choose.
set(setup_scratch ${CMAKE_CURRENT_BINARY_DIR}/setup_tests)
file(MAKE_DIRECTORY ${setup_scratch})
set(small_h5 ${setup_scratch}/airfoil_20x30.h5)
set(killed_h5 ${setup_scratch}/airfoil_killed.h5)

# The mesh files: euler writes its built-in grid (--save-mesh) and runs no iteration.
add_test(NAME example_euler_save_mesh
         COMMAND ${np1} $<TARGET_FILE:euler> --i 20 --j 30 --iterations 0 --quiet
                 --save-mesh ${small_h5})
add_test(NAME example_euler_save_mesh_for_restart
         COMMAND ${np1} $<TARGET_FILE:euler> ${euler_grid} --iterations 0 --quiet
                 --save-mesh ${killed_h5})
set_tests_properties(example_euler_save_mesh example_euler_save_mesh_for_restart PROPERTIES
                     TIMEOUT 120 FIXTURES_SETUP euler_h5 LABELS "examples;mpi;setup"
                     ENVIRONMENT "${example_environment}")

# The .h5 grid on 3 ranks (PT-Scotch, in parallel) against the built-in grid on 1 (METIS).
add_test(NAME example_euler_h5_np3_same_as_builtin_np1
         COMMAND ${same} "final rms bits"
                 -- ${np1} $<TARGET_FILE:euler> --i 20 --j 30 --iterations 200 --quiet
                 -- ${np3} $<TARGET_FILE:euler> --mesh ${small_h5} --iterations 200 --quiet)
add_test(NAME example_euler_h5_hilbert_np2_same_as_builtin_np1
         COMMAND ${same} "final rms bits"
                 -- ${np1} $<TARGET_FILE:euler> --i 20 --j 30 --iterations 200 --quiet
                 -- ${np2} $<TARGET_FILE:euler> --mesh ${small_h5} --iterations 200 --quiet
                 --partitioner hilbert)
set_tests_properties(example_euler_h5_np3_same_as_builtin_np1
                     example_euler_h5_hilbert_np2_same_as_builtin_np1 PROPERTIES
                     TIMEOUT 300 PROCESSORS 3 FIXTURES_REQUIRED euler_h5
                     LABELS "examples;mpi;setup" ENVIRONMENT "${example_environment}")

funcmesh_restart_test(example_euler_h5_killed_np2_restarted_np3 2 "final rms bits" FROM ${np2}
                      TO ${np3} RUN $<TARGET_FILE:euler> --mesh ${killed_h5} --iterations 400
                      --checkpoint-every 100)
set_tests_properties(example_euler_h5_killed_np2_restarted_np3 PROPERTIES
                     FIXTURES_REQUIRED euler_h5 LABELS "examples;mpi;checkpoint;setup")

# A built-in box: whole on every rank with METIS, and in slabs in parallel.
add_test(NAME example_heat_metis_np3_same_as_parallel_np2
         COMMAND ${same} "sum of V u"
                 -- ${np3} $<TARGET_FILE:heat> --n 24 --quiet --t-end 0.01 --perturbation 0.1
                 --partitioner metis
                 -- ${np2} $<TARGET_FILE:heat> --n 24 --quiet --t-end 0.01 --perturbation 0.1
                 --partitioner ptscotch)
set_tests_properties(example_heat_metis_np3_same_as_parallel_np2 PROPERTIES TIMEOUT 300
                     PROCESSORS 3 LABELS "examples;mpi;setup" ENVIRONMENT "${example_environment}")

# Refused, said once: a parallel partitioner for a .msh file, METIS for an .h5 file.
funcmesh_refusal_test(example_heat_msh_with_ptscotch_np2 2 "funcmesh-partition --convert"
                      $<TARGET_FILE:heat>
                      --mesh ${PROJECT_SOURCE_DIR}/tests/partition/data/gmsh/tiny_msh41_bin.msh
                      --partitioner ptscotch)
funcmesh_refusal_test(example_euler_h5_with_metis_np2 2 "choose auto, ptscotch, parmetis or hilbert"
                      $<TARGET_FILE:euler> --mesh ${small_h5} --partitioner metis)
set_tests_properties(example_euler_h5_with_metis_np2 PROPERTIES FIXTURES_REQUIRED euler_h5)
