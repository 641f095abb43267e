# framework/paged sources: the untyped engine behind paged_array<T> (caches, locks,
# transfers), its stores, the bandwidth probe (paged_array itself is a thin template).
target_sources(funcmesh_framework PRIVATE ${CMAKE_CURRENT_LIST_DIR}/bandwidth_probe.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/channel_lock.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/file_store.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/mapped_buffer.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/page_cache.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/page_layout.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/page_store.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/paged_core.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/prefetcher.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/space_store.cpp)
