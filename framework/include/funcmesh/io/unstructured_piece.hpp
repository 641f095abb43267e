// unstructured_piece: one rank's cells as VTK sees them (points, connectivity, end offsets,
// VTK cell type numbers) with no mesh type behind it, and cell_field: named per-cell values
// (1..9 components, Float64 / Int32 / Int64) viewed, not copied, from the caller's storage.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <funcmesh/core/vec.hpp>

namespace funcmesh::io {

// VTK cell type numbers (vtkCellType.h) the writers and the slicer know.
namespace vtk_cell {
inline constexpr std::uint8_t vertex = 1, line = 3, triangle = 5, polygon = 7, quad = 9, tetra = 10,
                              hexahedron = 12, wedge = 13, pyramid = 14;
}

struct unstructured_piece {
  std::vector<std::array<double, 3>> points;
  // Cell c has points connectivity[offsets[c] - n .. offsets[c]) in VTK's node order:
  // offsets holds END offsets, one per cell, as VTK's "offsets" array does.
  std::vector<std::int64_t> connectivity;
  std::vector<std::int64_t> offsets;
  std::vector<std::uint8_t> types;  // vtk_cell numbers, one per cell

  std::int64_t cell_count() const { return static_cast<std::int64_t>(types.size()); }
  std::int64_t point_count() const { return static_cast<std::int64_t>(points.size()); }
  std::int64_t begin_of(std::int64_t cell) const {
    return cell == 0 ? 0 : offsets[static_cast<std::size_t>(cell) - 1];
  }
  std::span<const std::int64_t> points_of(std::int64_t cell) const {
    const std::int64_t b = begin_of(cell);
    return {connectivity.data() + b,
            static_cast<std::size_t>(offsets[static_cast<std::size_t>(cell)] - b)};
  }
};

// Per-cell values, component-interleaved (cell 0's components, then cell 1's, ...). The
// spans must stay valid while the field is written.
struct cell_field {
  using values_type = std::variant<std::span<const double>, std::span<const std::int32_t>,
                                   std::span<const std::int64_t>>;
  std::string name;
  int components = 1;  // 1..9
  values_type values;

  std::size_t value_count() const {
    return std::visit([](auto s) { return s.size(); }, values);
  }
};

inline cell_field scalar_field(std::string name, std::span<const double> values) {
  return {std::move(name), 1, values};
}
inline cell_field scalar_field(std::string name, std::span<const std::int32_t> values) {
  return {std::move(name), 1, values};
}
inline cell_field scalar_field(std::string name, std::span<const std::int64_t> values) {
  return {std::move(name), 1, values};
}
// vec<double, N> values are N contiguous doubles (an aggregate of one array): viewed as such.
template <int N>
cell_field vector_field(std::string name, std::span<const vec<double, N>> values) {
  static_assert(sizeof(vec<double, N>) == N * sizeof(double) &&
                std::is_standard_layout_v<vec<double, N>>);
  static_assert(N >= 1 && N <= 9, "VTK cell fields have 1..9 components");
  return {
      std::move(name), N,
      std::span<const double>(reinterpret_cast<const double*>(values.data()), values.size() * N)};
}

}  // namespace funcmesh::io
