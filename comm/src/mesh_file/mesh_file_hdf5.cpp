// HDF5 helpers of the mesh file: handles, attributes, dataset descriptions.
#include "mesh_file_hdf5.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include <funcmesh/core/error.hpp>

namespace funcmesh::mesh_file_detail {

void silence_hdf5_errors() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

void write_int_attribute(hid_t object, const char* name, hid_t file_type, std::int64_t value,
                         std::string_view who, const std::filesystem::path& file) {
  const h5_handle space(checked(H5Screate(H5S_SCALAR), who, file, "H5Screate"), H5Sclose);
  const h5_handle attribute(
      checked(H5Acreate2(object, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT), who, file,
              "H5Acreate2"),
      H5Aclose);
  checked(H5Awrite(attribute.get(), H5T_NATIVE_INT64, &value), who, file, "H5Awrite");
}

h5_handle string_type(std::size_t size, std::string_view who, const std::filesystem::path& file) {
  h5_handle type(checked(H5Tcopy(H5T_C_S1), who, file, "H5Tcopy"), H5Tclose);
  checked(H5Tset_size(type.get(), std::max<std::size_t>(1, size)), who, file, "H5Tset_size");
  checked(H5Tset_strpad(type.get(), H5T_STR_NULLPAD), who, file, "H5Tset_strpad");
  return type;
}

void write_string_attribute(hid_t object, const char* name, std::string_view value,
                            std::string_view who, const std::filesystem::path& file) {
  const h5_handle type = string_type(value.size(), who, file);
  const std::string padded = value.empty() ? std::string(1, '\0') : std::string(value);
  const h5_handle space(checked(H5Screate(H5S_SCALAR), who, file, "H5Screate"), H5Sclose);
  const h5_handle attribute(
      checked(H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), who,
              file, "H5Acreate2"),
      H5Aclose);
  checked(H5Awrite(attribute.get(), type.get(), padded.data()), who, file, "H5Awrite");
}

namespace {

// The attribute `name` of `object` when it holds exactly one value of class `expected`.
std::optional<h5_handle> open_single(hid_t object, const char* name, H5T_class_t expected,
                                     std::string_view who, const std::filesystem::path& file) {
  const htri_t exists = H5Aexists(object, name);
  if (exists < 0) checked(exists, who, file, "H5Aexists");
  if (exists == 0) return std::nullopt;
  h5_handle attribute(checked(H5Aopen(object, name, H5P_DEFAULT), who, file, "H5Aopen"), H5Aclose);
  const h5_handle type(checked(H5Aget_type(attribute.get()), who, file, "H5Aget_type"), H5Tclose);
  const h5_handle space(checked(H5Aget_space(attribute.get()), who, file, "H5Aget_space"),
                        H5Sclose);
  // A read of an array attribute into one value would overrun it.
  if (H5Tget_class(type.get()) != expected || H5Sget_simple_extent_npoints(space.get()) != 1) {
    throw error(std::string(who) + ": " + file.string() + ": attribute '" + name + "' is not " +
                (expected == H5T_INTEGER ? "one integer" : "one string"));
  }
  return attribute;
}

}  // namespace

std::optional<std::int64_t> read_int_attribute(hid_t object, const char* name, std::string_view who,
                                               const std::filesystem::path& file) {
  const auto attribute = open_single(object, name, H5T_INTEGER, who, file);
  if (!attribute) return std::nullopt;
  std::int64_t value = 0;
  checked(H5Aread(attribute->get(), H5T_NATIVE_INT64, &value), who, file, "H5Aread");
  return value;
}

std::optional<std::string> read_string_attribute(hid_t object, const char* name,
                                                 std::string_view who,
                                                 const std::filesystem::path& file) {
  const auto attribute = open_single(object, name, H5T_STRING, who, file);
  if (!attribute) return std::nullopt;
  const h5_handle type(checked(H5Aget_type(attribute->get()), who, file, "H5Aget_type"), H5Tclose);
  if (H5Tis_variable_str(type.get()) > 0) {
    const h5_handle memory(checked(H5Tcopy(H5T_C_S1), who, file, "H5Tcopy"), H5Tclose);
    checked(H5Tset_size(memory.get(), H5T_VARIABLE), who, file, "H5Tset_size");
    char* text = nullptr;
    checked(H5Aread(attribute->get(), memory.get(), &text), who, file, "H5Aread");
    std::string value = text != nullptr ? text : "";
    H5free_memory(text);
    return value;
  }
  const std::size_t size = H5Tget_size(type.get());
  if (size == 0 || size > (std::size_t{1} << 20)) {
    throw error(std::string(who) + ": " + file.string() + ": attribute '" + name +
                "' has a length of " + std::to_string(size) + " bytes");
  }
  std::string value(size, '\0');
  checked(H5Aread(attribute->get(), type.get(), value.data()), who, file, "H5Aread");
  value.resize(std::strlen(value.c_str()));
  return value;
}

bool path_exists(hid_t root, const std::string& path) {
  // H5Lexists on "/a/b" fails (rather than saying no) when "/a" is missing.
  for (std::size_t end = path.find('/', 1);; end = path.find('/', end + 1)) {
    const std::string prefix = path.substr(0, end);
    if (H5Lexists(root, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
    if (end == std::string::npos) return true;
  }
}

detail::dataset_info describe(hid_t dataset, std::string_view who,
                              const std::filesystem::path& file, const std::string& path) {
  detail::dataset_info info;
  const h5_handle type(checked(H5Dget_type(dataset), who, file, "H5Dget_type"), H5Tclose);
  switch (H5Tget_class(type.get())) {
    case H5T_INTEGER:
      info.kind = detail::value_class::integer;
      break;
    case H5T_FLOAT:
      info.kind = detail::value_class::real;
      break;
    case H5T_STRING:
      info.kind = detail::value_class::string;
      break;
    default:
      info.kind = detail::value_class::other;
      break;
  }
  info.value_bytes = H5Tget_size(type.get());
  info.stored_bytes = H5Dget_storage_size(dataset);
  const h5_handle space(checked(H5Dget_space(dataset), who, file, "H5Dget_space"), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0 || rank > H5S_MAX_RANK) {
    throw error(std::string(who) + ": " + file.string() + ": dataset '" + path +
                "' has no simple extent");
  }
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  checked(H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr), who, file,
          "H5Sget_simple_extent_dims");
  info.dims.assign(dims.begin(), dims.end());
  return info;
}

}  // namespace funcmesh::mesh_file_detail
