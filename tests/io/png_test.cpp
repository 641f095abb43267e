// PNG pictures: a known 2-D field decoded back (size, colour bar, a cell's colour), the
// partition picture, a 3-D slice, and a clear error for a bad path.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <funcmesh/core/error.hpp>
#include <funcmesh/io/png.hpp>
#include <funcmesh/io/polygons.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/vtk_piece.hpp>

#include "png_decode.hpp"

namespace fm = funcmesh;
namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("funcmesh_png_test_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void expect_near(fm::io::rgb a, fm::io::rgb b, int tolerance = 0) {
  EXPECT_LE(std::abs(a.r - b.r), tolerance) << int(a.r) << " vs " << int(b.r);
  EXPECT_LE(std::abs(a.g - b.g), tolerance) << int(a.g) << " vs " << int(b.g);
  EXPECT_LE(std::abs(a.b - b.b), tolerance) << int(a.b) << " vs " << int(b.b);
}

}  // namespace

TEST(png, known_field_decodes_with_its_colours_and_bar) {
  // A 2 x 1 rectangle of 8 x 4 quads; value = cell index.
  const fm::mesh m = fm::box2d_quad(8, 4, {.lengths = {2, 1, 1}});
  const auto polygons = fm::io::cell_polygons(fm::vtk_piece(m));
  ASSERT_EQ(polygons.size(), 32);
  std::vector<double> values(32);
  for (std::size_t c = 0; c < values.size(); ++c) values[c] = static_cast<double>(c);
  fm::io::picture_layout layout;
  const fm::io::image picture = fm::io::render_field(polygons, values, {}, &layout);
  const fs::path file = scratch("field") / "u.png";
  fm::io::write_png(file, picture);
  EXPECT_FALSE(fs::exists(file.string() + ".part"));

  const fm::io::image decoded = fm::test::decode_png(file);
  EXPECT_EQ(decoded.width, 800);
  EXPECT_EQ(decoded.height, picture.height);
  EXPECT_EQ(decoded.pixels, picture.pixels);
  // Aspect kept: the plot is twice as wide as high (to the pixel).
  EXPECT_NEAR(layout.plot_width, 2 * layout.plot_height, 1);
  EXPECT_EQ(layout.range, (std::array<double, 2>{0, 31}));
  // The centre of cell 13 (column 5, row 1: x in [1.25, 1.5], y in [0.25, 0.5]).
  const auto at = layout.pixel_of(1.375, 0.375);
  expect_near(decoded.at(static_cast<int>(at[0]), static_cast<int>(at[1])),
              fm::io::colour_at(fm::io::colour_map::viridis, 13.0 / 31.0));
  // The bar: max colour at its top, min at its bottom, framed in black.
  const int bar_middle = layout.bar_x + layout.bar_width / 2;
  expect_near(decoded.at(bar_middle, layout.margin),
              fm::io::colour_at(fm::io::colour_map::viridis, 1), 3);
  expect_near(decoded.at(bar_middle, decoded.height - layout.margin - 1),
              fm::io::colour_at(fm::io::colour_map::viridis, 0), 3);
  expect_near(decoded.at(layout.bar_x - 1, decoded.height / 2), {0, 0, 0});
  // Labels: some black pixels right of the bar, near its top and near its bottom.
  auto black_in_rows = [&](int from, int to) {
    int count = 0;
    for (int y = from; y < to; ++y) {
      for (int x = layout.bar_x + layout.bar_width + 2; x < decoded.width; ++x) {
        count += decoded.at(x, y) == fm::io::rgb{0, 0, 0};
      }
    }
    return count;
  };
  EXPECT_GT(black_in_rows(layout.margin, layout.margin + 14), 10);
  EXPECT_GT(black_in_rows(decoded.height - layout.margin - 14, decoded.height - layout.margin), 10);
  // Background white in the margin.
  expect_near(decoded.at(2, 2), {255, 255, 255});
}

TEST(png, explicit_range_and_diverging_map) {
  const fm::mesh m = fm::box2d_tri(4, 4);
  const auto polygons = fm::io::cell_polygons(fm::vtk_piece(m));
  const std::vector<double> values(static_cast<std::size_t>(polygons.size()), 0.0);
  fm::io::picture_layout layout;
  const auto picture = fm::io::render_field(
      polygons, values,
      {.width = 400, .colours = fm::io::colour_map::blue_white_red, .range = {{-1, 1}}}, &layout);
  EXPECT_EQ(picture.width, 400);
  const auto at = layout.pixel_of(0.5, 0.5);
  expect_near(picture.at(static_cast<int>(at[0]), static_cast<int>(at[1])), {255, 255, 255});
}

TEST(png, partition_picture_uses_the_categorical_palette) {
  const fm::mesh m = fm::box2d_quad(4, 4);
  const auto polygons = fm::io::cell_polygons(fm::vtk_piece(m));
  std::vector<std::int64_t> part(16);
  for (std::size_t c = 0; c < 16; ++c) part[c] = c < 8 ? 0 : 1;  // bottom half, top half
  fm::io::picture_layout layout;
  const auto picture = fm::io::render_categories(polygons, part, {.width = 300}, &layout);
  const fs::path file = scratch("partition") / "p.png";
  fm::io::write_png(file, picture);
  const auto decoded = fm::test::decode_png(file);
  EXPECT_EQ(decoded.width, 300);
  EXPECT_LT(layout.plot_width, 300 - 2 * layout.margin) << "room for the legend";
  EXPECT_EQ(layout.plot_height, layout.plot_width);  // square domain
  // The legend: category 0's swatch first, category 1's below it, down the panel.
  std::vector<fm::io::rgb> swatches;
  for (int y = layout.margin; y < decoded.height - layout.margin; ++y) {
    const fm::io::rgb c = decoded.at(layout.bar_x + layout.bar_width / 2, y);
    if (c != fm::io::rgb{255, 255, 255} && (swatches.empty() || swatches.back() != c)) {
      swatches.push_back(c);
    }
  }
  EXPECT_EQ(swatches,
            (std::vector<fm::io::rgb>{fm::io::category_colour(0), fm::io::category_colour(1)}));
  const auto low = layout.pixel_of(0.5, 0.2), high = layout.pixel_of(0.5, 0.8);
  EXPECT_EQ(decoded.at(int(low[0]), int(low[1])), fm::io::category_colour(0));
  EXPECT_EQ(decoded.at(int(high[0]), int(high[1])), fm::io::category_colour(1));
  EXPECT_NE(fm::io::category_colour(0), fm::io::category_colour(1));
}

// The demo's two pictures: a field's and the partition's of the same polygons and options
// have the same size, crop and scale, so the partition can be laid over the field.
TEST(png, a_partition_picture_frames_its_polygons_as_the_field_picture_does) {
  const fm::mesh m = fm::box2d_quad(12, 6, {.lengths = {3, 1, 1}});
  const auto polygons = fm::io::cell_polygons(fm::vtk_piece(m));
  const std::vector<double> values(static_cast<std::size_t>(polygons.size()), 1.0);
  std::vector<std::int64_t> part(static_cast<std::size_t>(polygons.size()));
  for (std::size_t c = 0; c < part.size(); ++c) part[c] = static_cast<std::int64_t>(c % 3);
  for (const fm::io::png_options& options :
       {fm::io::png_options{},
        fm::io::png_options{.width = 500, .window = {{0.5, 2.0, 0.2, 0.9}}}}) {
    fm::io::picture_layout field_layout, partition_layout;
    const auto field = fm::io::render_field(polygons, values, options, &field_layout);
    const auto partition = fm::io::render_categories(polygons, part, options, &partition_layout);
    EXPECT_EQ(partition.width, field.width);
    EXPECT_EQ(partition.height, field.height);
    EXPECT_EQ(partition_layout.plot_width, field_layout.plot_width);
    EXPECT_EQ(partition_layout.plot_height, field_layout.plot_height);
    EXPECT_EQ(partition_layout.scale, field_layout.scale);
    EXPECT_EQ(partition_layout.xmin, field_layout.xmin);
    EXPECT_EQ(partition_layout.ymax, field_layout.ymax);
    // A point of the mesh falls on the same pixel, coloured in both.
    const auto at = field_layout.pixel_of(1.2, 0.55);
    EXPECT_EQ(partition_layout.pixel_of(1.2, 0.55), at);
    EXPECT_NE(field.at(int(at[0]), int(at[1])), (fm::io::rgb{255, 255, 255}));
    EXPECT_NE(partition.at(int(at[0]), int(at[1])), (fm::io::rgb{255, 255, 255}));
  }
}

TEST(png, slices_of_3d_meshes_are_drawn) {
  for (const fm::mesh& m : {fm::box3d_hex(4, 4, 4), fm::box3d_tet(3, 3, 3)}) {
    const auto piece = fm::vtk_piece(m);
    EXPECT_THROW(fm::io::cell_polygons(piece), fm::error);
    // Through a node layer (z = 0.5 of 4 hex layers) and between layers.
    for (double z : {0.5, 0.3}) {
      const auto polygons = fm::io::cell_polygons(piece, fm::io::slice_plane{2, z});
      ASSERT_GT(polygons.size(), 0);
      double area = 0;
      for (std::int64_t p = 0; p < polygons.size(); ++p) {
        const auto b = polygons.offsets[static_cast<std::size_t>(p)];
        const auto e = polygons.offsets[static_cast<std::size_t>(p) + 1];
        for (auto k = b; k < e; ++k) {
          const auto& u = polygons.points[static_cast<std::size_t>(k)];
          const auto& v = polygons.points[static_cast<std::size_t>(k + 1 < e ? k + 1 : b)];
          area += 0.5 * (u[0] * v[1] - v[0] * u[1]);
        }
      }
      // The cut covers the unit square exactly once (angle order: counter-clockwise).
      EXPECT_NEAR(area, 1.0, 1e-12) << "z = " << z << ", " << polygons.size() << " polygons";
      const auto values =
          fm::io::values_for(polygons, std::span<const double>(std::vector<double>(
                                           static_cast<std::size_t>(m.cell_count()), 1.0)));
      fm::io::picture_layout layout;
      const auto picture = fm::io::render_field(polygons, values, {.width = 300}, &layout);
      int coloured = 0;
      for (int y = 0; y < picture.height; ++y) {
        for (int x = 0; x < layout.margin + layout.plot_width; ++x) {
          coloured += picture.at(x, y) != fm::io::rgb{255, 255, 255};
        }
      }
      // Every plot pixel is covered: the cut tiles the square.
      EXPECT_EQ(coloured, layout.plot_width * layout.plot_height);
    }
  }
}

TEST(png, bad_path_gives_a_clear_error) {
  const fs::path bad = scratch("bad") / "missing" / "u.png";
  const fm::io::image picture(10, 10, {255, 0, 0});
  try {
    fm::io::write_png(bad, picture);
    FAIL() << "expected an error";
  } catch (const fm::error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("write_png"), std::string::npos) << what;
    EXPECT_NE(what.find(bad.string()), std::string::npos) << what;
  }
  EXPECT_FALSE(fs::exists(bad));
}
