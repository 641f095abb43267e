# Generates the headers and sources that list the enabled backends, so that portable
# code never needs #ifdef: funcmesh/config.hpp, the umbrella funcmesh/funcmesh.hpp and
# the registration of built-in memory managers.
set(FUNCMESH_BACKENDS serial)
set(FUNCMESH_MEMORY_MANAGERS host)
if(FUNCMESH_ENABLE_OPENMP)
  list(APPEND FUNCMESH_BACKENDS openmp)
endif()
if(FUNCMESH_ENABLE_CUDA)
  list(APPEND FUNCMESH_BACKENDS cuda)
  list(APPEND FUNCMESH_MEMORY_MANAGERS cuda)
endif()

foreach(flag OPENMP CUDA MPI)
  if(FUNCMESH_ENABLE_${flag})
    set(FUNCMESH_CONFIG_${flag} 1)
    set(FUNCMESH_CONFIG_${flag}_BOOL true)
  else()
    set(FUNCMESH_CONFIG_${flag} 0)
    set(FUNCMESH_CONFIG_${flag}_BOOL false)
  endif()
endforeach()

list(LENGTH FUNCMESH_BACKENDS FUNCMESH_BACKEND_COUNT)
set(FUNCMESH_CONFIG_BACKEND_NAMES "")
foreach(backend IN LISTS FUNCMESH_BACKENDS)
  string(APPEND FUNCMESH_CONFIG_BACKEND_NAMES "\"${backend}\", ")
endforeach()

set(FUNCMESH_UMBRELLA_INCLUDES "#include <funcmesh/framework.hpp>\n#include <funcmesh/partition.hpp>\n#include <funcmesh/faces.hpp>\n#include <funcmesh/fv.hpp>\n")
if(FUNCMESH_ENABLE_MPI)
  string(APPEND FUNCMESH_UMBRELLA_INCLUDES "#include <funcmesh/comm.hpp>\n")
endif()

set(FUNCMESH_BACKEND_INCLUDES "")
foreach(backend IN LISTS FUNCMESH_BACKENDS)
  string(APPEND FUNCMESH_BACKEND_INCLUDES "#include <funcmesh/exec/${backend}/backend.hpp>\n")
endforeach()

set(FUNCMESH_MANAGER_DECLARATIONS "")
set(FUNCMESH_MANAGER_CALLS "")
foreach(manager IN LISTS FUNCMESH_MEMORY_MANAGERS)
  string(APPEND FUNCMESH_MANAGER_DECLARATIONS "std::unique_ptr<memory_manager> make_${manager}_memory_manager();\n")
  string(APPEND FUNCMESH_MANAGER_CALLS "  managers.push_back(make_${manager}_memory_manager());\n")
endforeach()

set(FUNCMESH_GENERATED_INCLUDE_DIR ${PROJECT_BINARY_DIR}/generated/include)
configure_file(${CMAKE_CURRENT_LIST_DIR}/config.hpp.in
               ${FUNCMESH_GENERATED_INCLUDE_DIR}/funcmesh/config.hpp @ONLY)
configure_file(${CMAKE_CURRENT_LIST_DIR}/funcmesh.hpp.in
               ${FUNCMESH_GENERATED_INCLUDE_DIR}/funcmesh/funcmesh.hpp @ONLY)
configure_file(${CMAKE_CURRENT_LIST_DIR}/backends.hpp.in
               ${FUNCMESH_GENERATED_INCLUDE_DIR}/funcmesh/exec/backends.hpp @ONLY)
configure_file(${CMAKE_CURRENT_LIST_DIR}/builtin_memory_managers.cpp.in
               ${PROJECT_BINARY_DIR}/generated/src/builtin_memory_managers.cpp @ONLY)
