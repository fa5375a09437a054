// User text in messages and the names memkit may create (issue 24, defect 12).
#include <doctest/doctest.h>

#include <string>

#include "text/shown_text.hpp"

using memkit::is_creatable_name;
using memkit::shown_text;

TEST_CASE("shown_text: printable text, including non-ASCII, is kept as it is") {
  CHECK(shown_text("docs/memory") == "docs/memory");
  CHECK(shown_text("caf\xc3\xa9 \xe6\x97\xa5") == "caf\xc3\xa9 \xe6\x97\xa5");
  CHECK(shown_text("a\\x41") == "a\\x41");  // already shown: showing it again changes nothing
}

TEST_CASE("shown_text: controls, DEL, C1 and ill-formed UTF-8 are escaped visibly") {
  CHECK(shown_text("a\nb\rc\td") == "a\\nb\\rc\\td");
  CHECK(shown_text("x\x1b[2J") == "x\\x1b[2J");
  CHECK(shown_text(std::string("n\0ul", 4)) == "n\\x00ul");
  CHECK(shown_text("del\x7f") == "del\\x7f");
  CHECK(shown_text("c1\xc2\x9b") == "c1\\xc2\\x9b");
  CHECK(shown_text("bad\xff\xe2\x82") == "bad\\xff\\xe2\\x82");
}

TEST_CASE("is_creatable_name: no control character, well-formed UTF-8") {
  CHECK(is_creatable_name("docs/memory"));
  CHECK(is_creatable_name("caf\xc3\xa9"));
  CHECK_FALSE(is_creatable_name("docs/memory\n"));
  CHECK_FALSE(is_creatable_name("x\x1b[2J"));
  CHECK_FALSE(is_creatable_name("del\x7f"));
  CHECK_FALSE(is_creatable_name("c1\xc2\x85"));
  CHECK_FALSE(is_creatable_name("bad\xff"));
}

TEST_CASE("is_plain_relative_path: relative, every part a plain name") {
  CHECK(memkit::is_plain_relative_path("inbox.md"));
  CHECK(memkit::is_plain_relative_path("areas/collector.md"));
  CHECK(memkit::is_plain_relative_path("..md/x"));
  CHECK_FALSE(memkit::is_plain_relative_path(""));
  CHECK_FALSE(memkit::is_plain_relative_path("/etc/passwd"));
  CHECK_FALSE(memkit::is_plain_relative_path("../outside.md"));
  CHECK_FALSE(memkit::is_plain_relative_path("a/../../b"));
  CHECK_FALSE(memkit::is_plain_relative_path("a/./b"));
  CHECK_FALSE(memkit::is_plain_relative_path("a//b"));
  CHECK_FALSE(memkit::is_plain_relative_path("a/"));
}
