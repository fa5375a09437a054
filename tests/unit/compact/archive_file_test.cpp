// Archive files (spec compaction.md §10).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "memkit/compact.hpp"

using namespace memkit;

namespace {
const std::string kPreamble =
    "# Archived Memory: decisions.md\n\nComplete entries moved out of active memory by reviewed "
    "compaction.\nLoad this file only when explicitly asked; it is not part of normal task "
    "context.\n\n";
}  // namespace

TEST_CASE("compact: a new archive is the canonical preamble and the sections, newest first") {
  CHECK(archive_file_bytes(nullptr, "decisions.md", {"## b\ny\n", "## a\nx"}, "\n") ==
        kPreamble + "## b\ny\n\n## a\nx\n");
}

TEST_CASE("compact: archiving twice on one day adds the new batch first and no wrapper") {
  const std::string first = archive_file_bytes(nullptr, "decisions.md", {"## a\nx\n"}, "\n");
  const Document existing = parse_markdown(first);
  CHECK(archive_file_bytes(&existing, "decisions.md", {"## b\ny\n"}, "\n") ==
        kPreamble + "## b\ny\n\n## a\nx\n");
}

TEST_CASE("compact: legacy wrappers go and a foreign preamble is kept after ours") {
  const Document legacy = parse_markdown(std::string(
      "Notes from someone\n\n## 2026-01-01 - From decisions.md\nReason:\nold batch\n\n## a\nx\n"));
  CHECK(archive_file_bytes(&legacy, "decisions.md", {"## b\ny\n"}, "\n") ==
        kPreamble + "Notes from someone\n\n## b\ny\n\n## a\nx\n");
}

TEST_CASE("compact: changelog archives merge same-date sections and sort dates newest first") {
  const std::string head =
      "# Archived Memory: changelog.md\n\nComplete entries moved out of active memory by reviewed "
      "compaction.\nLoad this file only when explicitly asked; it is not part of normal task "
      "context.\n\n";
  const Document existing =
      parse_markdown(head + "## 2026-03-05\n- older\n\n## 2026-03-01\n- oldest\n");
  CHECK(
      archive_file_bytes(&existing, "changelog.md",
                         {"## 2026-03-04\n- new\n", "## 2026-03-05\n- newer\n"}, "\n") ==
      head +
          "## 2026-03-05\n- newer\n\n- older\n\n## 2026-03-04\n- new\n\n## 2026-03-01\n- oldest\n");
}

TEST_CASE("compact: an archive keeps its own CRLF style") {
  const Document crlf =
      parse_markdown(std::string("# Archived Memory: decisions.md\r\n\r\n## a\r\nx\r\n"));
  const std::string out = archive_file_bytes(&crlf, "decisions.md", {"## b\ny\n"}, "\n");
  CHECK(out.rfind("# Archived Memory: decisions.md\r\n\r\nComplete", 0) == 0);
  CHECK(out.find("## b\ny\n\r\n## a\r\nx\r\n") != std::string::npos);
}
