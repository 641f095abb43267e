# framework/paged sources: the untyped engine behind paged_array<T> (caches, locks,
# transfers), its stores, the bandwidth probe (paged_array itself is a thin template),
# and the page binding of loops over paged grid functions.
target_sources(funcmesh_framework PRIVATE ${CMAKE_CURRENT_LIST_DIR}/bandwidth_probe.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/channel_lock.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/file_store.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/mapped_buffer.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/page_binding.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/page_cache.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/page_layout.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/page_store.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/paged_core.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/paged_function_base.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/prefetcher.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/space_store.cpp)
# find() on CUDA stores: a kernel where CUDA is built, a stub that fails loudly elsewhere.
if(FUNCMESH_ENABLE_CUDA)
  target_sources(funcmesh_framework PRIVATE ${CMAKE_CURRENT_LIST_DIR}/cuda/device_find.cu)
else()
  target_sources(funcmesh_framework PRIVATE ${CMAKE_CURRENT_LIST_DIR}/no_cuda/device_find.cpp)
endif()
