# comm's parallel graph partitioners (distributed_graph.hpp): PT-Scotch and ParMETIS, each
# FUNCMESH_ENABLE_<NAME> = AUTO (the default: used where found), ON (required) or OFF.
# Without one, its stub (no_<name>/) throws "built without ...": no #ifdef forests in the sources.
target_sources(funcmesh_comm PRIVATE ${CMAKE_CURRENT_LIST_DIR}/graph_checks.cpp)

set(FUNCMESH_ENABLE_PTSCOTCH AUTO CACHE STRING
    "partition_ptscotch with PT-Scotch: AUTO (where found), ON (required) or OFF")
set(FUNCMESH_ENABLE_PARMETIS AUTO CACHE STRING
    "partition_parmetis with ParMETIS: AUTO (where found), ON (required) or OFF")
set_property(CACHE FUNCMESH_ENABLE_PTSCOTCH FUNCMESH_ENABLE_PARMETIS PROPERTY STRINGS AUTO ON OFF)

# funcmesh_partitioner(NAME PACKAGE SOURCE), after FUNCMESH_ENABLE_<NAME>: picks SOURCE or
# no_<name>/SOURCE, links <PACKAGE>::<PACKAGE> PRIVATE and sets FUNCMESH_HAVE_<NAME>
# (ON/OFF) here and in the parent scope (the package config records it).
macro(funcmesh_partitioner name package source)
  string(TOUPPER ${name} upper)
  set(FUNCMESH_HAVE_${upper} OFF)
  if(FUNCMESH_ENABLE_${upper} STREQUAL "AUTO")
    find_package(${package} QUIET)
    set(FUNCMESH_HAVE_${upper} ${${package}_FOUND})
  elseif(FUNCMESH_ENABLE_${upper})
    find_package(${package} REQUIRED)
    set(FUNCMESH_HAVE_${upper} ON)
  endif()
  if(FUNCMESH_HAVE_${upper})
    set(FUNCMESH_HAVE_${upper} ON)
    target_sources(funcmesh_comm PRIVATE ${CMAKE_CURRENT_LIST_DIR}/${source})
    target_link_libraries(funcmesh_comm PRIVATE ${package}::${package})
    message(STATUS "funcmesh: partition_${name} with ${package} ${${package}_VERSION}")
  else()
    target_sources(funcmesh_comm PRIVATE ${CMAKE_CURRENT_LIST_DIR}/no_${name}/${source})
    if(FUNCMESH_ENABLE_${upper} STREQUAL "AUTO")
      set(reason "${package} not found")
    else()
      set(reason "FUNCMESH_ENABLE_${upper}=${FUNCMESH_ENABLE_${upper}}")
    endif()
    message(STATUS "funcmesh: partition_${name} not built (${reason}): it throws")
  endif()
  set(FUNCMESH_HAVE_${upper} ${FUNCMESH_HAVE_${upper}} PARENT_SCOPE)
endmacro()

funcmesh_partitioner(ptscotch PTScotch ptscotch_partition.cpp)
funcmesh_partitioner(parmetis ParMETIS parmetis_partition.cpp)
if(FUNCMESH_HAVE_PTSCOTCH AND NOT PTScotch_NUM_WIDTH STREQUAL "")
  message(STATUS "funcmesh: PT-Scotch's SCOTCH_Num has ${PTScotch_NUM_WIDTH} bits")
endif()
