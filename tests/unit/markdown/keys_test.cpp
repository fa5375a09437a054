// The exact dedupe key of spec compaction.md §6.3 and heading keys of §6.4.
#include <doctest/doctest.h>

#include <string>

#include "memkit/markdown.hpp"

namespace {

std::string first_key(const std::string& bytes) {
  const memkit::Document doc = memkit::parse_markdown(bytes);
  REQUIRE_FALSE(doc.units().empty());
  const auto key = memkit::unit_key(doc, doc.units()[0]);
  REQUIRE(key.has_value());
  return *key;
}

}  // namespace

TEST_CASE("markdown: the §6.3 key table") {
  CHECK(first_key("- Stra\xC3\x9F"
                  "e  \n") == "strasse");
  CHECK(first_key("* STRASSE\n") == "strasse");
  CHECK(first_key("+ a\n  - b  \n") == "a\n  - b");
  CHECK(first_key("- a\n    - b\n") == "a\n    - b");
  CHECK(first_key("-  x\n\n  y\n") == "x\n\n  y");
}

TEST_CASE("markdown: the marker, case, trailing space and CRLF do not change a key") {
  CHECK(first_key("- Use tabs\r\n") == first_key("* use TABS  \n"));
  CHECK(first_key("- a\r\n  b\r\n") == "a\n  b");
}

TEST_CASE("markdown: a bare marker has the empty key") {
  CHECK(first_key("- \n").empty());
  CHECK(first_key("-   \t\n").empty());
}

TEST_CASE("markdown: opaque lines inside a unit are part of its key") {
  CHECK(first_key("- a\n  ```\n  X\n  ```\n") == "a\n  ```\n  x\n  ```");
}

TEST_CASE("markdown: heading keys fold the stripped heading text and other kinds have none") {
  const memkit::Document doc =
      memkit::parse_markdown(std::string("##   Tombstone: Redis  ##\ntext\n\n"));
  CHECK(memkit::unit_key(doc, doc.units()[0]) ==
        std::optional<std::string>("tombstone: redis  ##"));
  CHECK_FALSE(memkit::unit_key(doc, doc.units()[1]).has_value());
  CHECK_FALSE(memkit::unit_key(doc, doc.units()[2]).has_value());
  CHECK(memkit::heading_text("## \xC2\xA0 x \xE3\x80\x80") == "x");
}
