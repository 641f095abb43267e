// Which compiler built the calling translation unit: only nvcc-compiled code can launch
// CUDA kernels, so templates that pick or dispatch to an executor take it as a parameter
// (defaulted to this_compiler) and the two kinds of unit never share a definition.
#pragma once

#include <type_traits>

namespace funcmesh::exec {

struct host_compiler {};
struct nvcc_compiler {};
#if defined(__CUDACC__)
using this_compiler = nvcc_compiler;
#else
using this_compiler = host_compiler;
#endif

// Whether code built by Compiler can run loops on a GPU.
template <class Compiler>
inline constexpr bool launches_kernels = std::is_same_v<Compiler, nvcc_compiler>;

}  // namespace funcmesh::exec
