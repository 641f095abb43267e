# restart's checks on a checkpoint's attributes (checkpoint_attributes.cpp): neither MPI
# nor HDF5. An object library of their own, which funcmesh_checkpoint is made of and fuzz/
# links, in a build without MPI too (FUNCMESH_FUZZ): one list of sources for both.
if(NOT TARGET funcmesh_checkpoint_attributes)
  add_library(funcmesh_checkpoint_attributes OBJECT
              ${CMAKE_CURRENT_LIST_DIR}/checkpoint_attributes.cpp)
  target_include_directories(funcmesh_checkpoint_attributes PUBLIC ${CMAKE_CURRENT_LIST_DIR})
  target_link_libraries(funcmesh_checkpoint_attributes PUBLIC funcmesh_framework)
  funcmesh_target_warnings(funcmesh_checkpoint_attributes)
endif()
