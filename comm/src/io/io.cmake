# comm/io sources (parallel index files, gathered PNG pictures).
target_sources(funcmesh_comm PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/png_output.cpp
  ${CMAKE_CURRENT_LIST_DIR}/vtk_series.cpp)
