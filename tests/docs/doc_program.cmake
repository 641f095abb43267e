# funcmesh_doc_program(TARGET DOC FILE): the code block that follows "<!-- file: FILE -->" in
# the page DOC, written into the build tree at configure time and compiled as TARGET, so
# that a page's program is built (and run by a test) exactly as the page shows it. The page
# is a configure dependency: editing it regenerates the source.
function(funcmesh_doc_program target doc file)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${doc})
  file(READ ${doc} text)
  string(FIND "${text}" "<!-- file: ${file} -->\n```cpp\n" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${doc} has no code block marked <!-- file: ${file} -->")
  endif()
  string(LENGTH "<!-- file: ${file} -->\n```cpp\n" opening)
  math(EXPR start "${at} + ${opening}")
  string(SUBSTRING "${text}" ${start} -1 rest)
  string(FIND "${rest}" "\n```" end)
  if(end EQUAL -1)
    message(FATAL_ERROR "${doc}: the block for ${file} is not closed")
  endif()
  math(EXPR end "${end} + 1")
  string(SUBSTRING "${rest}" 0 ${end} body)
  set(source ${CMAKE_CURRENT_BINARY_DIR}/doc_programs/${file})
  file(CONFIGURE OUTPUT ${source} CONTENT "${body}" @ONLY)
  add_executable(${target} ${source})
endfunction()
