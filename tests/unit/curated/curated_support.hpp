// What the curated row tests share. Internal to tests/unit/curated.
#pragma once

#include <doctest/doctest.h>

#include <string_view>

#include "memkit/curated.hpp"

namespace curated_test {

// The store-relative path the tests' row files are read as.
constexpr std::string_view kPath = "rows/ws1/project.md";

// The entry of `file` named `name`; fails the test when there is none.
inline const memkit::curated::Entry& entry_named(const memkit::curated::RowFile& file,
                                                 std::string_view name) {
  for (const memkit::curated::Entry& entry : file.entries) {
    if (entry.row.name == name) return entry;
  }
  FAIL("no entry " << name);
  return file.entries.front();
}

}  // namespace curated_test
