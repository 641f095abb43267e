# The mesh file's schema checks (mesh_file_schema.cpp): neither MPI nor HDF5. An object
# library of their own, which funcmesh_comm is made of and fuzz/ links, in a build
# without MPI too (FUNCMESH_FUZZ): one list of sources for both.
if(NOT TARGET funcmesh_mesh_file_schema)
  add_library(funcmesh_mesh_file_schema OBJECT ${CMAKE_CURRENT_LIST_DIR}/mesh_file_schema.cpp)
  target_include_directories(funcmesh_mesh_file_schema PUBLIC ${CMAKE_CURRENT_LIST_DIR})
  target_link_libraries(funcmesh_mesh_file_schema PUBLIC funcmesh_partition)
  funcmesh_target_warnings(funcmesh_mesh_file_schema)
endif()
