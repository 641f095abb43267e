# The built-in classic Airfoil grid (included from partition/CMakeLists.txt, so paths are
# relative to this file's folder).
target_sources(funcmesh_partition PRIVATE ${CMAKE_CURRENT_LIST_DIR}/airfoil_grid.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/not_a_knot_spline.cpp)
# Alone in a unity build: batched with the local-mesh sources, GCC 12 inlines its vectors'
# growth into a context where -Wfree-nonheap-object misfires (a known false positive).
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/airfoil_grid.cpp
                            PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
