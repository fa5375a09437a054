// Changelog maintenance lines (spec compaction.md §11).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "memkit/compact.hpp"

using namespace memkit;

namespace {
std::string add_line(const std::string& bytes) {
  const Document doc = parse_markdown(bytes);
  return apply_splices(doc.bytes(), std::vector<Splice>{changelog_line(doc, "2026-03-07", "m")});
}
}  // namespace

TEST_CASE("compact: a changelog line joins today's section, newest line first") {
  CHECK(add_line("# L\n\n## 2026-03-07\n- older\n") == "# L\n\n## 2026-03-07\n- m\n- older\n");
}

TEST_CASE("compact: without today's section a new one goes before the first date") {
  CHECK(add_line("# L\n\n## 2026-03-06\n- old\n") ==
        "# L\n\n## 2026-03-07\n- m\n\n## 2026-03-06\n- old\n");
  CHECK(add_line("# L\nintro\n") == "# L\nintro\n\n## 2026-03-07\n- m\n");
  CHECK(add_line("") == "## 2026-03-07\n- m\n");
}

TEST_CASE("compact: only the first of duplicate date sections takes the line") {
  CHECK(add_line("## 2026-03-07\n- a\n\n## 2026-03-07\n- b\n") ==
        "## 2026-03-07\n- m\n- a\n\n## 2026-03-07\n- b\n");
}
