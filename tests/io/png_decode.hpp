// Test helper: a PNG decoded back with libpng into RGB rows.
#pragma once

#include <png.h>

#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include <funcmesh/io/png.hpp>

namespace funcmesh::test {

inline io::image decode_png(const std::filesystem::path& file) {
  png_image decoded{};
  decoded.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&decoded, file.c_str())) {
    throw std::runtime_error("cannot decode " + file.string() + ": " + decoded.message);
  }
  decoded.format = PNG_FORMAT_RGB;
  io::image out(static_cast<int>(decoded.width), static_cast<int>(decoded.height), {});
  if (!png_image_finish_read(&decoded, nullptr, out.pixels.data(), 0, nullptr)) {
    throw std::runtime_error("cannot decode " + file.string() + ": " + decoded.message);
  }
  return out;
}

}  // namespace funcmesh::test
