// vtk_series: VTK output of a distributed run for ParaView. Each write() is collective:
// every rank writes its owned cells as <base>_<step>_<rank>.vtu, rank 0 writes
// <base>_<step>.pvtu naming the pieces and rewrites <base>.pvd listing every time so far.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/core/error.hpp>
#include <funcmesh/core/vec.hpp>
#include <funcmesh/io/unstructured_piece.hpp>
#include <funcmesh/io/vtu.hpp>

namespace funcmesh {

// A field written under a name other than its dist_function's.
template <class T>
struct named_field {
  std::string name;
  const dist_function<T>* function;
};
template <class T>
named_field<T> named(std::string name, const dist_function<T>& f) {
  return {std::move(name), &f};
}

namespace detail {

// A field's owned values as doubles, component-interleaved, with its name and width.
struct owned_field {
  std::string name;
  int components = 1;
  std::vector<double> values;
};

template <class T>
struct field_width;
template <>
struct field_width<double> : std::integral_constant<int, 1> {};
template <int N>
struct field_width<vec<double, N>> : std::integral_constant<int, N> {};

template <class T>
owned_field take_owned(const std::string& name, const dist_function<T>& f,
                       const distributed_layout& layout) {
  constexpr int width = field_width<T>::value;
  static_assert(width >= 1 && width <= 9, "VTK cell fields have 1..9 components");
  if (!(f.layout() == layout)) {
    throw error("funcmesh::vtk_series: field '" + name + "' is on " + f.layout().describe() +
                ", the series is written on " + layout.describe());
  }
  if (name == "partition" || name == "global_cell") {
    throw error("funcmesh::vtk_series: a field may not be named '" + name +
                "': the series writes that array itself (use named(\"other name\", f))");
  }
  owned_field out{name, width, {}};
  const auto values = f.local_values().read();
  const auto* first = reinterpret_cast<const double*>(values.data());
  out.values.assign(first, first + f.owned_size() * width);
  return out;
}
template <class T>
owned_field take_owned(const dist_function<T>& f, const distributed_layout& layout) {
  return take_owned(f.name(), f, layout);
}
template <class T>
owned_field take_owned(const named_field<T>& f, const distributed_layout& layout) {
  return take_owned(f.name, *f.function, layout);
}

}  // namespace detail

struct vtk_series_options {
  // Also write "global_cell" (Int64): each cell's global index, 0-based, so values can be
  // compared across rank counts. "partition" (Int32, the owning rank) is always written.
  bool global_cell = true;
};

class vtk_series {
 public:
  // Nothing is written (and the directory not created) until the first write().
  vtk_series(std::filesystem::path directory, std::string base, vtk_series_options options = {});

  // Collective over the layout. Fields: dist_function<double>, dist_function<vec<double, N>>
  // (N <= 9), each named by its grid function's name, or named("rho", f). Writes step
  // steps_written() at `time` and returns the .pvtu's path. Every failure (a directory
  // or file that cannot be created, an unnamed field, a field of another layout) throws
  // mpi::collective_error on every rank with the same message naming the file.
  template <class... Fields>
  std::filesystem::path write(double time, const distributed_layout& m, const Fields&... fields) {
    std::vector<detail::owned_field> owned;
    std::string failure;
    try {
      (owned.push_back(detail::take_owned(fields, m)), ...);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    return write_owned(time, m, owned, failure);
  }

  // The same with fields already laid out as owned values (one entry per owned cell x
  // components): the way in for values that are not dist_functions.
  std::filesystem::path write_fields(double time, const distributed_layout& m,
                                     std::span<const io::cell_field> fields);

  int steps_written() const { return static_cast<int>(entries_.size()); }
  const std::filesystem::path& directory() const { return directory_; }
  std::filesystem::path pvd_file() const { return directory_ / (base_ + ".pvd"); }
  // <base>_<step>.pvtu and <base>_<step>_<rank>.vtu (file names, no directory).
  std::string pvtu_name(int step) const;
  std::string piece_name(int step, int rank) const;

 private:
  std::filesystem::path write_owned(double time, const distributed_layout& m,
                                    const std::vector<detail::owned_field>& fields,
                                    const std::string& local_failure);

  std::filesystem::path directory_;
  std::string base_;
  vtk_series_options options_;
  std::vector<io::pvd_entry> entries_;
};

}  // namespace funcmesh
