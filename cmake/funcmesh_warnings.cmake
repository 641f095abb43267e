# Warning flags for funcmesh's own targets (never propagated to consumers), and with
# FUNCMESH_NATIVE the build machine's instruction set (funcmesh_native.cmake).
include(funcmesh_native)

function(funcmesh_target_warnings target)
  set(cxx_flags -Wall -Wextra -Wpedantic)
  if(FUNCMESH_WARNINGS_AS_ERRORS)
    list(APPEND cxx_flags -Werror)
  endif()
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${cxx_flags}>)
  if(FUNCMESH_WARNINGS_AS_ERRORS)
    # nvcc: its own warnings become errors; the host compiler sees -Wall only, because
    # the toolkit's headers are not -Wpedantic clean.
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CUDA>:--Werror=all-warnings -Xcompiler=-Wall>)
  endif()
  funcmesh_target_native(${target})
endfunction()
