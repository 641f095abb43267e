# The built-in classic Airfoil grid (included from partition/CMakeLists.txt, so paths are
# relative to this file's folder).
target_sources(funcmesh_partition PRIVATE ${CMAKE_CURRENT_LIST_DIR}/airfoil_grid.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/not_a_knot_spline.cpp)
