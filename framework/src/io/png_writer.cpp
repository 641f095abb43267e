// write_png through libpng: its errors longjmp back here and become funcmesh::error.
#include <funcmesh/io/png.hpp>

#include <png.h>

#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <string>
#include <system_error>

#include <funcmesh/core/error.hpp>

#include <funcmesh/io/detail/atomic_file.hpp>

namespace funcmesh::io {

namespace {

struct png_failure {
  char message[256] = "";
};

[[noreturn]] void on_error(png_structp png, png_const_charp message) {
  auto* failure = static_cast<png_failure*>(png_get_error_ptr(png));
  std::snprintf(failure->message, sizeof failure->message, "libpng: %s", message);
  png_longjmp(png, 1);
}
void on_warning(png_structp, png_const_charp) {}

// No objects with destructors live between setjmp and a longjmp back to it.
bool encode(std::FILE* file, const image& picture, png_byte** rows, png_failure& failure) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &failure, on_error, on_warning);
  if (png == nullptr) {
    std::snprintf(failure.message, sizeof failure.message, "libpng: out of memory");
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (info == nullptr) {
    png_destroy_write_struct(&png, nullptr);
    std::snprintf(failure.message, sizeof failure.message, "libpng: out of memory");
    return false;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return false;
  }
  png_init_io(png, file);
  png_set_IHDR(png, info, static_cast<png_uint_32>(picture.width),
               static_cast<png_uint_32>(picture.height), 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  png_write_image(png, rows);
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

}  // namespace

void write_png(const std::filesystem::path& file, const image& picture) {
  const std::string who = "funcmesh::io::write_png";
  if (picture.width <= 0 || picture.height <= 0 ||
      picture.pixels.size() !=
          static_cast<std::size_t>(picture.width) * static_cast<std::size_t>(picture.height) * 3) {
    throw error(who + ": cannot write " + file.string() + ": the image is empty or malformed");
  }
  std::vector<png_byte*> rows(static_cast<std::size_t>(picture.height));
  for (std::size_t y = 0; y < rows.size(); ++y) {
    // libpng only reads the rows: the const_cast never leads to a write.
    rows[y] = const_cast<png_byte*>(picture.pixels.data() +
                                    y * static_cast<std::size_t>(picture.width) * 3);
  }
  const std::filesystem::path temporary = detail::temporary_for(file);
  std::FILE* out = std::fopen(temporary.c_str(), "wb");
  if (out == nullptr) {
    throw error(who + ": cannot write " + file.string() + ": cannot open " + temporary.string() +
                ": " + std::strerror(errno));
  }
  png_failure failure;
  const bool encoded = encode(out, picture, rows.data(), failure);
  const bool flushed = std::fflush(out) == 0;
  const std::string reason = flushed ? "" : std::strerror(errno);
  const bool closed = std::fclose(out) == 0;
  if (!encoded || !flushed || !closed) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw error(who + ": cannot write " + file.string() + ": " +
                (!encoded ? std::string(failure.message)
                          : "writing " + temporary.string() + " failed: " + reason));
  }
  detail::commit(temporary, file, who);
}

}  // namespace funcmesh::io
