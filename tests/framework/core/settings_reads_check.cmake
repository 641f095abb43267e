# cmake -DSOURCE_DIR=<funcmesh> -P settings_reads_check.cmake
# Fails when code outside framework/src/core/settings.cpp reads a FUNCMESH_* variable
# (getenv("FUNCMESH_...")) or reads one through a name it computed (getenv(name)): every
# variable goes through funcmesh::settings, whose table docs/settings.md shows.
cmake_minimum_required(VERSION 3.24)
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "usage: cmake -DSOURCE_DIR=<funcmesh> -P settings_reads_check.cmake")
endif()
set(files)
foreach(dir framework partition faces comm checkpoint examples bench tools)
  foreach(ext cpp hpp cu cuh h cc)
    file(GLOB_RECURSE found "${SOURCE_DIR}/${dir}/*.${ext}")
    list(APPEND files ${found})
  endforeach()
endforeach()
list(FILTER files EXCLUDE REGEX "/framework/src/core/settings\\.cpp$")
list(LENGTH files count)
if(count LESS 100)
  message(FATAL_ERROR "only ${count} source files under ${SOURCE_DIR}: wrong SOURCE_DIR?")
endif()
set(reads)
foreach(f IN LISTS files)
  file(STRINGS "${f}" lines REGEX "getenv")
  foreach(line IN LISTS lines)
    # A literal FUNCMESH_ name, or any name that is not a literal.
    if(line MATCHES "getenv[ ]*\\([ ]*\"FUNCMESH_" OR line MATCHES "getenv[ ]*\\([ ]*[^\" )]")
      file(RELATIVE_PATH where "${SOURCE_DIR}" "${f}")
      string(STRIP "${line}" line)
      list(APPEND reads "  ${where}: ${line}")
    endif()
  endforeach()
endforeach()
if(reads)
  list(JOIN reads "\n" text)
  message(FATAL_ERROR "environment variables read outside funcmesh::settings (add the "
                      "variable to framework/src/core/settings.cpp's table and "
                      "docs/settings.md, and ask settings::get()):\n${text}")
endif()
message(STATUS "settings_reads_check: ${count} files, every FUNCMESH_* read goes through settings")
