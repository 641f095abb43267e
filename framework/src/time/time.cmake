# framework/time sources: tableau checks, low-storage coefficients, driver option checks,
# the progress printer (the schemes and the driver are templates in the headers).
target_sources(funcmesh_framework PRIVATE ${CMAKE_CURRENT_LIST_DIR}/butcher_tableau.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/low_storage_rk.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/options.cpp
                                          ${CMAKE_CURRENT_LIST_DIR}/progress_printer.cpp)
