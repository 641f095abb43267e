// Edits of a written mesh file through the HDF5 C API, serial (rank 0 of a test), for the
// corruption cases of mesh_file_test: attributes replaced, datasets removed, replaced by
// others of another shape, grown, or single values overwritten.
#pragma once

#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace funcmesh::testing {

class mesh_file_edit {
 public:
  explicit mesh_file_edit(const std::filesystem::path& path)
      : file_(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)) {
    EXPECT_GE(file_, 0) << path;
  }
  mesh_file_edit(const mesh_file_edit&) = delete;
  mesh_file_edit& operator=(const mesh_file_edit&) = delete;
  ~mesh_file_edit() { EXPECT_GE(H5Fclose(file_), 0); }

  void set_attribute(const char* name, const std::string& value) {
    H5Adelete(file_, name);
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, value.size());
    write_attribute(name, type, type, value.data());
    H5Tclose(type);
  }
  void set_attribute(const char* name, std::int64_t value) {
    H5Adelete(file_, name);
    write_attribute(name, H5T_STD_I64LE, H5T_NATIVE_INT64, &value);
  }
  void remove(const char* path) { EXPECT_GE(H5Ldelete(file_, path, H5P_DEFAULT), 0) << path; }
  // `path` replaced by a contiguous dataset of `dims` (one or two extents) of int64 or
  // double values 0, 1, 2, ...
  void replace(const char* path, std::vector<hsize_t> dims, bool real = false) {
    remove(path);
    const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
    const hid_t dataset = H5Dcreate2(file_, path, real ? H5T_IEEE_F64LE : H5T_STD_I64LE, space,
                                     H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    ASSERT_GE(dataset, 0) << path;
    std::vector<double> values(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
    for (std::size_t k = 0; k < values.size(); ++k) values[k] = static_cast<double>(k);
    EXPECT_GE(H5Dwrite(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
              0);
    H5Dclose(dataset);
    H5Sclose(space);
  }
  // Grows a (chunked, extendible) one-dimensional dataset to `rows`.
  void grow(const char* path, hsize_t rows) {
    const hid_t dataset = H5Dopen2(file_, path, H5P_DEFAULT);
    EXPECT_GE(H5Dset_extent(dataset, &rows), 0) << path;
    H5Dclose(dataset);
  }
  // Value `row` of a one-dimensional dataset, read or overwritten (as int64).
  std::int64_t value(const char* path, hsize_t row) {
    std::int64_t v = 0;
    at(path, row, [&](hid_t dataset, hid_t memory, hid_t space) {
      EXPECT_GE(H5Dread(dataset, H5T_NATIVE_INT64, memory, space, H5P_DEFAULT, &v), 0);
    });
    return v;
  }
  void set_value(const char* path, hsize_t row, std::int64_t v) {
    at(path, row, [&](hid_t dataset, hid_t memory, hid_t space) {
      EXPECT_GE(H5Dwrite(dataset, H5T_NATIVE_INT64, memory, space, H5P_DEFAULT, &v), 0) << path;
    });
  }

 private:
  void write_attribute(const char* name, hid_t file_type, hid_t memory_type, const void* data) {
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t attribute = H5Acreate2(file_, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT);
    EXPECT_GE(H5Awrite(attribute, memory_type, data), 0) << name;
    H5Aclose(attribute);
    H5Sclose(space);
  }
  template <class F>
  void at(const char* path, hsize_t row, F&& f) {
    const hid_t dataset = H5Dopen2(file_, path, H5P_DEFAULT);
    ASSERT_GE(dataset, 0) << path;
    const hid_t space = H5Dget_space(dataset);
    const hsize_t one = 1;
    H5Sselect_hyperslab(space, H5S_SELECT_SET, &row, nullptr, &one, nullptr);
    const hid_t memory = H5Screate_simple(1, &one, nullptr);
    f(dataset, memory, space);
    H5Sclose(memory);
    H5Sclose(space);
    H5Dclose(dataset);
  }

  hid_t file_;
};

}  // namespace funcmesh::testing
