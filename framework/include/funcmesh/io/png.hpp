// PNG pictures of cell data without ParaView: polygons (polygons.hpp) coloured by a
// scalar through a colour map, with a colour bar labelled min/max in a built-in bitmap
// font, or coloured by category (the partition). Encoded by libpng; written atomically.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <vector>

#include <funcmesh/io/polygons.hpp>

namespace funcmesh::io {

enum class colour_map {
  viridis,         // perceptually uniform dark blue -> green -> yellow
  blue_white_red,  // diverging, for signed fields around 0
};

struct rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  friend bool operator==(const rgb&, const rgb&) = default;
};

struct png_options {
  int width = 800;  // the whole image, colour bar included; the height keeps the aspect
  int max_height = 4000;
  colour_map colours = colour_map::viridis;
  // Value range mapped onto the colour map; default: min and max of the finite values.
  std::optional<std::array<double, 2>> range{};
  // Region drawn, {xmin, xmax, ymin, ymax} in polygon coordinates; default: all polygons.
  std::optional<std::array<double, 4>> window{};
};

// An RGB image, row 0 at the top.
struct image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> pixels;  // 3 bytes per pixel, row-major

  image() = default;
  image(int w, int h, rgb fill);
  rgb at(int x, int y) const;
  void set(int x, int y, rgb colour);
};

// t in [0, 1] (clamped) -> colour.
rgb colour_at(colour_map map, double t);
// A categorical palette (20 distinct colours, then repeating).
rgb category_colour(std::int64_t category);
inline constexpr rgb nan_colour{128, 128, 128};

// Where things are drawn, so tests and callers can find a point's pixel.
struct picture_layout {
  int margin = 16;
  int plot_width = 0, plot_height = 0;
  double xmin = 0, ymax = 0, scale = 1;  // pixel x = margin + (x - xmin) * scale
  int bar_x = 0, bar_width = 0;          // colour bar: columns [bar_x, bar_x + bar_width)
  int label_scale = 2;                   // bitmap font pixels per font dot
  std::array<double, 2> range{0, 1};
  std::array<double, 2> pixel_of(double x, double y) const {
    return {margin + (x - xmin) * scale, margin + (ymax - y) * scale};
  }
};

// values: one per polygon. Non-finite values are drawn in nan_colour. Background white.
image render_field(const polygon_set& polygons, std::span<const double> values,
                   const png_options& options = {}, picture_layout* layout = nullptr);
// Framed as render_field's picture of the same polygons and options (same size, plot area
// and scale), with a legend of the categories drawn (swatch and number) where the colour
// bar would be: a partition picture can be laid over a field's.
image render_categories(const polygon_set& polygons, std::span<const std::int64_t> categories,
                        const png_options& options = {}, picture_layout* layout = nullptr);

// Throws funcmesh::error naming the file when it cannot be written.
void write_png(const std::filesystem::path& file, const image& picture);

inline void render_png(const std::filesystem::path& file, const polygon_set& polygons,
                       std::span<const double> values, const png_options& options = {}) {
  write_png(file, render_field(polygons, values, options));
}
inline void render_categories_png(const std::filesystem::path& file, const polygon_set& polygons,
                                  std::span<const std::int64_t> categories,
                                  const png_options& options = {}) {
  write_png(file, render_categories(polygons, categories, options));
}

}  // namespace funcmesh::io
