# funcmesh_add_module(NAME SOURCES ...): the library funcmesh_<NAME>, aliased and
# exported as funcmesh::<NAME>, with its headers under <module>/include (installed to
# include/) and funcmesh's warning flags.
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
endfunction()
