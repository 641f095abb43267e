# comm/mesh_file sources: the funcmesh mesh file (.h5). With HDF5 (FUNCMESH_ENABLE_HDF5),
# the reader and writer, HDF5 linked privately; without, functions that say so
# (mesh_file_unavailable.cpp). The schema checks and the signature test need neither.
set(dir ${CMAKE_CURRENT_LIST_DIR})
include(${dir}/mesh_file_schema.cmake)
target_sources(funcmesh_comm PRIVATE $<TARGET_OBJECTS:funcmesh_mesh_file_schema>
                                    ${dir}/mesh_file_signature.cpp)
if(FUNCMESH_ENABLE_HDF5)
  target_sources(funcmesh_comm PRIVATE
    ${dir}/hdf5_handle.cpp
    ${dir}/mesh_file_hdf5.cpp
    ${dir}/mesh_file_reader.cpp
    ${dir}/mesh_file_writer.cpp)
  target_link_libraries(funcmesh_comm PRIVATE hdf5::hdf5)
else()
  target_sources(funcmesh_comm PRIVATE ${dir}/mesh_file_unavailable.cpp)
endif()
unset(dir)
