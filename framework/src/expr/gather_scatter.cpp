// Gather/scatter on the host executors; CUDA goes to the kernels in
// src/exec/cuda/gather_scatter.cu (or to a stub that says CUDA is not built).
#include <funcmesh/expr/gather_scatter.hpp>

#include <cstring>
#include <string>

#include <funcmesh/exec/dispatch.hpp>
#include <funcmesh/memory/token.hpp>
#include <funcmesh/profile/device_activity.hpp>

namespace funcmesh::detail {

void cuda_gather_bytes(const executor& on, const std::byte* values, const index_t* indices,
                       index_t count, std::byte* packed, std::size_t element_size);
void cuda_scatter_bytes(const executor& on, const std::byte* packed, const index_t* indices,
                        index_t count, std::byte* values, std::size_t element_size);

namespace {

void check_indices(const buffer& indices, index_t values_count, const char* what) {
  token holder;
  const auto* list = static_cast<const index_t*>(indices.read_pointer(host_space, holder));
  const auto count = static_cast<index_t>(indices.size_bytes() / sizeof(index_t));
  for (index_t k = 0; k < count; ++k) {
    if (list[k] < 0 || list[k] >= values_count) {
      throw error(std::string("funcmesh::") + what + ": index list entry " + std::to_string(k) +
                  " is " + std::to_string(list[k]) + ", outside [0, " +
                  std::to_string(values_count) + ")");
    }
  }
}

// One element copy per index; fixed sizes let the compiler emit plain loads and stores.
template <std::size_t Size>
struct copy_element {
  static void run(std::byte* to, const std::byte* from, std::size_t) {
    std::memcpy(to, from, Size);
  }
};
template <>
struct copy_element<0> {
  static void run(std::byte* to, const std::byte* from, std::size_t size) {
    std::memcpy(to, from, size);
  }
};

template <std::size_t Size, bool Gather>
struct move_body {
  const std::byte* from;
  std::byte* to;
  const index_t* list;
  std::size_t size;
  void operator()(index_t k) const {
    const auto packed = static_cast<std::size_t>(k) * size;
    const auto spread = static_cast<std::size_t>(list[k]) * size;
    if constexpr (Gather) {
      copy_element<Size>::run(to + packed, from + spread, size);
    } else {
      copy_element<Size>::run(to + spread, from + packed, size);
    }
  }
};

template <bool Gather>
void host_move(const executor& on, const std::byte* from, std::byte* to, const index_t* list,
               index_t count, std::size_t size) {
  const exec::loop_label label{Gather ? "gather" : "scatter"};
  // Two values move per element (one read, one write).
  constexpr exec::loop_shape shape{false, 2};
  auto run = [&](auto body) {
    exec::for_each<exec::host_compiler>(on, 0, count, body, shape, label);
  };
  switch (size) {
    case 4:
      return run(move_body<4, Gather>{from, to, list, size});
    case 8:
      return run(move_body<8, Gather>{from, to, list, size});
    case 16:
      return run(move_body<16, Gather>{from, to, list, size});
    case 32:
      return run(move_body<32, Gather>{from, to, list, size});
    default:
      return run(move_body<0, Gather>{from, to, list, size});
  }
}

}  // namespace

namespace {

// values[indices[k]] <-> packed[k]; gather reads values and overwrites packed, scatter
// reads packed and updates values (keeping the entries not listed).
template <bool Gather>
void move_indexed(const executor& on, const buffer& values_in, buffer* values_out,
                  index_t values_count, const buffer& indices, const buffer& packed_in,
                  buffer* packed_out, std::size_t element_size, bool list_checked, token* given) {
  if (!list_checked) check_indices(indices, values_count, Gather ? "gather" : "scatter");
  const auto count = static_cast<index_t>(indices.size_bytes() / sizeof(index_t));
  token holder;
  // The values with the caller's token when given (a bound loop's, which reads them); the
  // packed bytes and the list are this call's alone.
  token& values_holder = given != nullptr ? *given : holder;
  const memory_space space = on.space();
  std::byte* to = nullptr;
  const std::byte* from = nullptr;
  if constexpr (Gather) {
    to = static_cast<std::byte*>(packed_out->overwrite_pointer(space, holder));
    from = static_cast<const std::byte*>(values_in.read_pointer(space, values_holder));
  } else {
    to = static_cast<std::byte*>(values_out->write_pointer(space, values_holder));
    from = static_cast<const std::byte*>(packed_in.read_pointer(space, holder));
  }
  const auto* list = static_cast<const index_t*>(indices.read_pointer(space, holder));
  if (on.kind() != executor_kind::cuda) {
    host_move<Gather>(on, from, to, list, count, element_size);  // counted by for_each
    return;
  }
  // The kernels do not pass through for_each: counted here, as for_each counts.
  if (count > 0) record_launch(exec::loop_label{Gather ? "gather" : "scatter"});
  if constexpr (Gather) {
    cuda_gather_bytes(on, from, list, count, to, element_size);
  } else {
    cuda_scatter_bytes(on, from, list, count, to, element_size);
  }
}

}  // namespace

void gather_bytes(const executor& on, const buffer& values, index_t values_count,
                  const buffer& indices, buffer& packed, std::size_t element_size,
                  bool list_checked) {
  move_indexed<true>(on, values, nullptr, values_count, indices, packed, &packed, element_size,
                     list_checked, nullptr);
}

void scatter_bytes(const executor& on, const buffer& packed, const buffer& indices, buffer& values,
                   index_t values_count, std::size_t element_size, bool list_checked,
                   token* holder) {
  move_indexed<false>(on, values, &values, values_count, indices, packed, nullptr, element_size,
                      list_checked, holder);
}

}  // namespace funcmesh::detail
