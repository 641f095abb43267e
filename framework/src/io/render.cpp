// Rasterizing polygons into an image: pixel-centre sampling (a pixel takes the colour of
// the polygon containing its centre, so polygons that tile the domain leave no holes even
// when cells are smaller than pixels), a colour bar, min/max labels.
#include <funcmesh/io/png.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>

#include <funcmesh/core/error.hpp>

#include "bitmap_font.hpp"

namespace funcmesh::io {

image::image(int w, int h, rgb fill)
    : width(w), height(h), pixels(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 3) {
  for (std::size_t i = 0; i < pixels.size(); i += 3) {
    pixels[i] = fill.r;
    pixels[i + 1] = fill.g;
    pixels[i + 2] = fill.b;
  }
}

rgb image::at(int x, int y) const {
  const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                         static_cast<std::size_t>(x)) *
                        3;
  return {pixels[i], pixels[i + 1], pixels[i + 2]};
}

void image::set(int x, int y, rgb colour) {
  const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                         static_cast<std::size_t>(x)) *
                        3;
  pixels[i] = colour.r;
  pixels[i + 1] = colour.g;
  pixels[i + 2] = colour.b;
}

namespace {

rgb interpolate(std::span<const rgb> stops, double t) {
  t = std::isnan(t) ? 0 : std::clamp(t, 0.0, 1.0);
  const double position = t * static_cast<double>(stops.size() - 1);
  const auto k = std::min(static_cast<std::size_t>(position), stops.size() - 2);
  const double f = position - static_cast<double>(k);
  auto mix = [&](std::uint8_t a, std::uint8_t b) {
    return static_cast<std::uint8_t>(std::lround(a + f * (b - a)));
  };
  return {mix(stops[k].r, stops[k + 1].r), mix(stops[k].g, stops[k + 1].g),
          mix(stops[k].b, stops[k + 1].b)};
}

constexpr rgb white{255, 255, 255};
constexpr rgb black{0, 0, 0};

struct frame {
  picture_layout layout;
  int height = 0;
};

frame lay_out(const polygon_set& polygons, const png_options& options, bool bar) {
  const std::string who = "funcmesh::io::render: ";
  std::array<double, 4> box{0, 1, 0, 1};
  if (options.window) {
    box = *options.window;
  } else if (!polygons.points.empty()) {
    box = {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
           std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
    for (const auto& p : polygons.points) {
      box[0] = std::min(box[0], p[0]);
      box[1] = std::max(box[1], p[0]);
      box[2] = std::min(box[2], p[1]);
      box[3] = std::max(box[3], p[1]);
    }
  }
  if (!(box[1] >= box[0]) || !(box[3] >= box[2]) || !std::isfinite(box[1] - box[0]) ||
      !std::isfinite(box[3] - box[2])) {
    throw error(who + "the drawing window is empty or not finite");
  }
  double dx = box[1] - box[0], dy = box[3] - box[2];
  if (dx == 0 && dy == 0) dx = dy = 1;
  if (dx == 0) dx = dy;
  if (dy == 0) dy = dx;
  frame f;
  picture_layout& l = f.layout;
  // Labels at font scale 2, or 1 on small pictures.
  l.label_scale = options.width >= 500 ? 2 : 1;
  const int panel = bar ? 12 + 24 + 8 + detail::text_width("-8.888e-88", l.label_scale) : 0;
  l.plot_width = options.width - 2 * l.margin - panel;
  if (l.plot_width < 16) {
    throw error(who + "width " + std::to_string(options.width) + " leaves no room to draw");
  }
  l.scale = l.plot_width / dx;
  l.plot_height = std::max(1, static_cast<int>(std::ceil(dy * l.scale)));
  const int max_plot = std::max(16, options.max_height - 2 * l.margin);
  if (l.plot_height > max_plot) {
    l.scale = max_plot / dy;
    l.plot_height = max_plot;
    l.plot_width = std::max(1, static_cast<int>(std::ceil(dx * l.scale)));
  }
  l.xmin = box[0];
  l.ymax = box[2] + dy;
  if (bar) {
    l.bar_x = l.margin + l.plot_width + 12;
    l.bar_width = 24;
  }
  f.height = std::max(l.plot_height, bar ? 80 * l.label_scale : 1) + 2 * l.margin;
  return f;
}

// Fills every polygon with colour_of(p), clipped to the plot area.
void fill(image& picture, const picture_layout& l, const polygon_set& polygons,
          const std::function<rgb(std::int64_t)>& colour_of) {
  const int x0 = l.margin, x1 = l.margin + l.plot_width;  // [x0, x1)
  const int y0 = l.margin, y1 = l.margin + l.plot_height;
  std::vector<std::array<double, 2>> pixel;
  std::vector<double> crossings;
  for (std::int64_t p = 0; p < polygons.size(); ++p) {
    const auto begin = static_cast<std::size_t>(polygons.offsets[static_cast<std::size_t>(p)]);
    const auto end = static_cast<std::size_t>(polygons.offsets[static_cast<std::size_t>(p) + 1]);
    if (end - begin < 3) continue;
    pixel.clear();
    double top = std::numeric_limits<double>::infinity(), bottom = -top;
    for (std::size_t k = begin; k < end; ++k) {
      pixel.push_back(l.pixel_of(polygons.points[k][0], polygons.points[k][1]));
      top = std::min(top, pixel.back()[1]);
      bottom = std::max(bottom, pixel.back()[1]);
    }
    const int first = std::max(y0, static_cast<int>(std::ceil(top - 0.5)));
    const int last = std::min(y1 - 1, static_cast<int>(std::floor(bottom - 0.5)));
    if (first > last) continue;
    const rgb colour = colour_of(p);
    for (int row = first; row <= last; ++row) {
      const double yc = row + 0.5;
      crossings.clear();
      for (std::size_t a = 0; a < pixel.size(); ++a) {
        const auto& pa = pixel[a];
        const auto& pb = pixel[(a + 1) % pixel.size()];
        if ((pa[1] <= yc) == (pb[1] <= yc)) continue;
        crossings.push_back(pa[0] + (yc - pa[1]) * (pb[0] - pa[0]) / (pb[1] - pa[1]));
      }
      std::ranges::sort(crossings);
      for (std::size_t k = 0; k + 1 < crossings.size(); k += 2) {
        const int from = std::max(x0, static_cast<int>(std::ceil(crossings[k] - 0.5)));
        const int to = std::min(x1, static_cast<int>(std::ceil(crossings[k + 1] - 0.5)));
        for (int column = from; column < to; ++column) picture.set(column, row, colour);
      }
    }
  }
}

std::string label(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

}  // namespace

rgb colour_at(colour_map map, double t) {
  static constexpr rgb viridis[] = {{68, 1, 84},    {71, 45, 123},  {59, 82, 139},
                                    {44, 114, 142}, {33, 145, 140}, {40, 174, 128},
                                    {94, 201, 98},  {173, 220, 48}, {253, 231, 37}};
  static constexpr rgb blue_white_red[] = {{33, 102, 172}, {255, 255, 255}, {178, 24, 43}};
  return map == colour_map::viridis ? interpolate(viridis, t) : interpolate(blue_white_red, t);
}

rgb category_colour(std::int64_t category) {
  // Tableau's 20: strong colours first, then their light partners.
  static constexpr rgb palette[] = {
      {31, 119, 180},  {255, 127, 14},  {44, 160, 44},   {214, 39, 40},   {148, 103, 189},
      {140, 86, 75},   {227, 119, 194}, {127, 127, 127}, {188, 189, 34},  {23, 190, 207},
      {174, 199, 232}, {255, 187, 120}, {152, 223, 138}, {255, 152, 150}, {197, 176, 213},
      {196, 156, 148}, {247, 182, 210}, {199, 199, 199}, {219, 219, 141}, {158, 218, 229}};
  constexpr std::int64_t n = std::size(palette);
  return palette[static_cast<std::size_t>(((category % n) + n) % n)];
}

image render_field(const polygon_set& polygons, std::span<const double> values,
                   const png_options& options, picture_layout* layout) {
  if (static_cast<std::int64_t>(values.size()) != polygons.size()) {
    throw error("funcmesh::io::render_field: " + std::to_string(values.size()) + " values for " +
                std::to_string(polygons.size()) + " polygons");
  }
  frame f = lay_out(polygons, options, true);
  picture_layout& l = f.layout;
  if (options.range) {
    l.range = *options.range;
  } else {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (double v : values) {
      if (!std::isfinite(v)) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    l.range = lo <= hi ? std::array<double, 2>{lo, hi} : std::array<double, 2>{0, 1};
  }
  const double lo = l.range[0], span = l.range[1] - l.range[0];
  auto t_of = [&](double v) { return span > 0 ? (v - lo) / span : 0.5; };
  image picture(options.width, f.height, white);
  fill(picture, l, polygons, [&](std::int64_t p) {
    const double v = values[static_cast<std::size_t>(p)];
    return std::isfinite(v) ? colour_at(options.colours, t_of(v)) : nan_colour;
  });
  // The bar: max at the top, a black frame around it.
  const int bar_height = f.height - 2 * l.margin;
  for (int row = 0; row < bar_height; ++row) {
    const rgb colour = colour_at(options.colours, 1 - (row + 0.5) / bar_height);
    for (int column = 0; column < l.bar_width; ++column) {
      picture.set(l.bar_x + column, l.margin + row, colour);
    }
  }
  for (int column = -1; column <= l.bar_width; ++column) {
    picture.set(l.bar_x + column, l.margin - 1, black);
    picture.set(l.bar_x + column, l.margin + bar_height, black);
  }
  for (int row = -1; row <= bar_height; ++row) {
    picture.set(l.bar_x - 1, l.margin + row, black);
    picture.set(l.bar_x + l.bar_width, l.margin + row, black);
  }
  const int text_x = l.bar_x + l.bar_width + 8;
  detail::draw_text(picture, text_x, l.margin, label(l.range[1]), l.label_scale, black);
  detail::draw_text(picture, text_x, l.margin + bar_height - detail::glyph_height * l.label_scale,
                    label(l.range[0]), l.label_scale, black);
  if (layout) *layout = l;
  return picture;
}

image render_categories(const polygon_set& polygons, std::span<const std::int64_t> categories,
                        const png_options& options, picture_layout* layout) {
  if (static_cast<std::int64_t>(categories.size()) != polygons.size()) {
    throw error("funcmesh::io::render_categories: " + std::to_string(categories.size()) +
                " categories for " + std::to_string(polygons.size()) + " polygons");
  }
  // The frame of render_field's: a partition picture and a field's picture of the same
  // polygons and options have the same size, crop and scale, so one can be laid over the
  // other. Its panel holds a legend instead of the colour bar.
  frame f = lay_out(polygons, options, true);
  const picture_layout& l = f.layout;
  image picture(options.width, f.height, white);
  fill(picture, l, polygons,
       [&](std::int64_t p) { return category_colour(categories[static_cast<std::size_t>(p)]); });
  // The legend: a swatch and the number of each category drawn, top down, as many as fit
  // (then "..."). A swatch is as high as a label.
  std::vector<std::int64_t> shown(categories.begin(), categories.end());
  std::ranges::sort(shown);
  shown.erase(std::unique(shown.begin(), shown.end()), shown.end());
  const int entry = detail::glyph_height * l.label_scale + 6;
  const int room = std::max(1, (f.height - 2 * l.margin) / entry);
  const int text_x = l.bar_x + l.bar_width + 8;
  for (std::size_t k = 0; k < shown.size(); ++k) {
    const int top = l.margin + static_cast<int>(k) * entry;
    if (static_cast<int>(k) + 1 == room && k + 1 < shown.size()) {
      detail::draw_text(picture, text_x, top, "...", l.label_scale, black);
      break;
    }
    for (int row = 0; row < entry - 6; ++row) {
      for (int column = 0; column < l.bar_width; ++column) {
        picture.set(l.bar_x + column, top + row, category_colour(shown[k]));
      }
    }
    detail::draw_text(picture, text_x, top, std::to_string(shown[k]), l.label_scale, black);
  }
  if (layout) *layout = l;
  return picture;
}

}  // namespace funcmesh::io
