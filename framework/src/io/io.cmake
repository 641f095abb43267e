# framework/io: VTK XML pieces and index files, polygons from cells, PNG pictures.
# libpng stays PRIVATE: no public header includes <png.h>, so consumers need not find it
# (a static funcmesh_framework still carries PNG::PNG in its exported link interface as
# $<LINK_ONLY:PNG::PNG>: the package config then needs find_dependency(PNG)).
find_package(PNG REQUIRED)
target_sources(funcmesh_framework PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/atomic_file.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bitmap_font.cpp
  ${CMAKE_CURRENT_LIST_DIR}/polygons.cpp
  ${CMAKE_CURRENT_LIST_DIR}/png_writer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/render.cpp
  ${CMAKE_CURRENT_LIST_DIR}/vtu.cpp
  ${CMAKE_CURRENT_LIST_DIR}/xml_escape.cpp)
target_link_libraries(funcmesh_framework PRIVATE PNG::PNG)
