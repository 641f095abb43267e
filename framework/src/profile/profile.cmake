# framework/profile sources: the hooks every loop tests, the device activity counters, the
# FUNCMESH_PROFILE table, and the NVTX ranges, which are the toolkit's nvtx3 in CUDA builds
# and calls that do nothing elsewhere.
target_sources(funcmesh_framework PRIVATE ${CMAKE_CURRENT_LIST_DIR}/device_activity.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/hooks.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/table.cpp)
if(FUNCMESH_ENABLE_CUDA)
  target_sources(funcmesh_framework PRIVATE ${CMAKE_CURRENT_LIST_DIR}/cuda/nvtx_ranges.cpp)
  # Header-only (it loads the tool's library, if any, at the first call).
  target_link_libraries(funcmesh_framework PRIVATE CUDA::nvtx3)
else()
  target_sources(funcmesh_framework PRIVATE ${CMAKE_CURRENT_LIST_DIR}/no_cuda/nvtx_ranges.cpp)
endif()
