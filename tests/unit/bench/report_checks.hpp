// What the tests of the bench reports (memkit/bench.hpp) share: a machine to show, and what they
// check of every page: its <svg> elements well formed, each coordinate a finite number inside the
// drawing, and what a series draws.
#pragma once

#include <doctest/doctest.h>

#include <cctype>
#include <cmath>
#include <string>
#include <vector>

#include "memkit/bench.hpp"

namespace memkit::bench::report_checks {

// A machine every page of the tests shows.
inline Machine example_machine() {
  Machine m;
  m.cpu = "Example CPU @ 3.0GHz";
  m.cores = 8;
  m.memory_bytes = 16ULL << 30;
  m.kernel = "Linux 6.1.0-18-amd64 x86_64";
  m.compiler = "GCC 12.2.0";
  m.build_type = "Release";
  m.memkit_version = "0.9.0";
  return m;
}

inline std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

inline std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// The <svg> elements of the page, in order.
inline std::vector<std::string> svgs_of(const std::string& html) {
  std::vector<std::string> out;
  for (std::size_t at = html.find("<svg"); at != std::string::npos;
       at = html.find("<svg", at + 1)) {
    const std::size_t end = html.find("</svg>", at);
    REQUIRE(end != std::string::npos);
    out.push_back(html.substr(at, end + 6 - at));
  }
  return out;
}

// What `svg` draws for `series` (empty when it draws nothing for it).
inline std::string group_of(const std::string& svg, const std::string& series) {
  const std::size_t group = svg.find("data-series=\"" + series + "\"");
  if (group == std::string::npos) return "";
  return svg.substr(group, svg.find("</g>", group) - group);
}

// The number of points of the line drawn for `series` in `svg` (0 when it has no line).
inline std::size_t points_of(const std::string& svg, const std::string& series) {
  const std::string group = group_of(svg, series);
  const std::size_t line = group.find("<polyline points=\"");
  if (line == std::string::npos) return 0;
  const std::size_t begin = line + 18;
  return count_of(group.substr(begin, group.find('"', begin) - begin), ",");
}

// Every coordinate attribute (x, y, cx, cy, x1...y2, width, height and the line's points) holds
// a finite number inside the drawing.
inline void check_coordinates(const std::string& svg) {
  for (const std::string name : {" x=\"", " y=\"", " cx=\"", " cy=\"", " x1=\"", " x2=\"", " y1=\"",
                                 " y2=\"", " points=\""}) {
    for (std::size_t at = svg.find(name); at != std::string::npos; at = svg.find(name, at + 1)) {
      const std::size_t begin = at + name.size();
      std::string value = svg.substr(begin, svg.find('"', begin) - begin);
      for (char& c : value) c = c == ',' ? ' ' : c;
      std::size_t used = 0;
      while (used < value.size()) {
        std::size_t length = 0;
        const double v = std::stod(value.substr(used), &length);
        CHECK(std::isfinite(v));
        CHECK(v >= -1);
        CHECK(v <= 881);
        used += length;
        while (used < value.size() && value[used] == ' ') ++used;
      }
    }
  }
}

inline void check_well_formed_plots(const std::string& html) {
  CHECK(count_of(html, "<svg") == count_of(html, "</svg>"));
  CHECK(count_of(html, "<g ") + count_of(html, "<g>") == count_of(html, "</g>"));
  CHECK(count_of(html, "<text ") == count_of(html, "</text>"));
  for (const std::string& svg : svgs_of(html)) {
    const std::string tag = svg.substr(0, svg.find('>'));
    CHECK(tag.find(" width=\"880\"") != std::string::npos);
    CHECK(tag.find(" height=\"400\"") != std::string::npos);
    CHECK(tag.find(" viewBox=\"0 0 880 400\"") != std::string::npos);
    CHECK(tag.find(" role=\"img\"") != std::string::npos);
    CHECK(tag.find(" aria-label=\"") != std::string::npos);
    CHECK(svg.find("<title>") != std::string::npos);
    check_coordinates(svg);
  }
  const std::string text = lower(html);
  CHECK(text.find("nan") == std::string::npos);
  CHECK(text.find("inf") == std::string::npos);
}

}  // namespace memkit::bench::report_checks
