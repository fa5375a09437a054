// What the recall tests share: a file of the committed examples/ trees, and a unit's facets.
#pragma once

#include <doctest/doctest.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include "memkit/recall.hpp"

namespace memkit::recall::test {

// The bytes of examples/<path>; fails the test when the file cannot be read.
inline std::string example_bytes(const std::string& path) {
  std::ifstream in(std::string(MEMKIT_EXAMPLES_DIR) + "/" + path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read examples/" << path);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// The value of a unit's facet, or nullopt.
inline std::optional<std::string> facet(const Unit& unit, std::string_view name) {
  for (const auto& f : unit.facets) {
    if (f.first == name) return f.second;
  }
  return std::nullopt;
}

inline FileUnits read(Layout layout, std::string root, std::string path, std::string_view bytes,
                      int tier = 0) {
  return read_units(
      Source{.layout = layout, .root = std::move(root), .path = std::move(path), .tier = tier},
      bytes);
}

// The units of examples/<folder>/<path>, `path` being relative to the layout's root there.
inline FileUnits read_example(Layout layout, const std::string& folder, std::string path,
                              int tier = 0) {
  const std::string bytes = example_bytes(folder + "/" + path);
  return read(layout, "", std::move(path), bytes, tier);
}

}  // namespace memkit::recall::test
