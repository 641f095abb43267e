# FUNCMESH_FUZZ: included by the top-level CMakeLists.txt before the modules, so that every
# funcmesh target of this build (the libraries first) is compiled with libFuzzer's
# coverage and ASan + UBSan. The fuzz targets (fuzz/CMakeLists.txt) then link the modules'
# own libraries, instrumented, instead of hand-kept lists of their sources: a source added
# to a parser is in its target by construction.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "funcmesh: FUNCMESH_FUZZ needs clang (libFuzzer), e.g. "
                      "-DCMAKE_CXX_COMPILER=clang++-14; found ${CMAKE_CXX_COMPILER_ID}")
endif()
set(FUNCMESH_FUZZ_SANITIZERS -fsanitize=address,undefined -fno-sanitize-recover=undefined)
add_compile_options(-fsanitize=fuzzer-no-link ${FUNCMESH_FUZZ_SANITIZERS}
                    -fno-omit-frame-pointer -g)
add_link_options(${FUNCMESH_FUZZ_SANITIZERS})
