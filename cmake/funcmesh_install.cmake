# Install rules and the exported package: find_package(funcmesh CONFIG) gives
# funcmesh::funcmesh (and the modules) and re-finds MPI, METIS, OpenMP and CUDA, and
# PT-Scotch and ParMETIS where comm links them.
include(CMakePackageConfigHelpers)

# Set by comm/src/partitioners/partitioners.cmake; a build without MPI has neither.
foreach(partitioner PTSCOTCH PARMETIS)
  if(NOT FUNCMESH_HAVE_${partitioner})
    set(FUNCMESH_HAVE_${partitioner} OFF)
  endif()
endforeach()

set(funcmesh_targets funcmesh funcmesh_framework funcmesh_partition funcmesh_faces funcmesh_fv)
if(FUNCMESH_ENABLE_MPI)
  list(APPEND funcmesh_targets funcmesh_comm funcmesh_checkpoint)
endif()
set(FUNCMESH_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/funcmesh)

install(TARGETS ${funcmesh_targets} EXPORT funcmeshTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY framework/include/ partition/include/ faces/include/ fv/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(FUNCMESH_ENABLE_MPI)
  install(DIRECTORY comm/include/ checkpoint/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endif()
install(DIRECTORY ${FUNCMESH_GENERATED_INCLUDE_DIR}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT funcmeshTargets NAMESPACE funcmesh:: DESTINATION ${FUNCMESH_INSTALL_CMAKEDIR})

configure_package_config_file(cmake/funcmeshConfig.cmake.in
  ${PROJECT_BINARY_DIR}/funcmeshConfig.cmake
  INSTALL_DESTINATION ${FUNCMESH_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/funcmeshConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
# The documentation, as in the source tree (its links between pages keep working).
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
install(FILES ${PROJECT_BINARY_DIR}/funcmeshConfig.cmake
              ${PROJECT_BINARY_DIR}/funcmeshConfigVersion.cmake
              cmake/FindMETIS.cmake
              cmake/FindPTScotch.cmake
              cmake/FindParMETIS.cmake
        DESTINATION ${FUNCMESH_INSTALL_CMAKEDIR})
