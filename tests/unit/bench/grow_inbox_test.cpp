// An inbox grown from its own items (memkit/bench.hpp, issue 32): the inbox itself first, then
// copies whose items carry their copy's suffix, keeping the inbox's duplicate rate.
#include "memkit/bench.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <set>
#include <string>

#include "memkit/markdown.hpp"

namespace memkit::bench {
namespace {

const std::string kInbox =
    "# Memory Inbox\n\nEntries are newest first.\n\n## 2026-03-07\n- Use tabs  \n- use TABS\n"
    "- Keep CRLF\n  in the collector\n\n## 2026-03-06\n* Ask about CSV\n";

std::size_t bullets_in(const std::string& bytes) {
  const Document doc = parse_markdown(std::make_shared<const std::string>(bytes));
  REQUIRE(doc.parseable());
  std::size_t n = 0;
  for (const Unit& u : doc.units()) n += u.kind == UnitKind::bullet_unit ? 1 : 0;
  return n;
}

// The exact duplicates compaction finds (compaction.md §8): items whose keys are equal.
std::size_t duplicates_in(const std::string& bytes) {
  const Document doc = parse_markdown(std::make_shared<const std::string>(bytes));
  std::set<std::string> keys;
  std::size_t duplicates = 0;
  for (const Unit& u : doc.units()) {
    if (u.kind != UnitKind::bullet_unit) continue;
    const std::optional<std::string> key = unit_key(doc, u);
    if (key && !keys.insert(*key).second) ++duplicates;
  }
  return duplicates;
}

}  // namespace

TEST_CASE("bench grow_inbox: the inbox itself, then whole copies with their suffix") {
  const std::string body = kInbox.substr(kInbox.find("## 2026-03-07"));
  const Result<GrownInbox> grown = grow_inbox(kInbox, kInbox.size() + 2 * body.size());
  REQUIRE(grown.ok());
  CHECK(grown->bytes.compare(0, kInbox.size(), kInbox) == 0);
  CHECK(grown->rounds == 2);
  CHECK(grown->items == 12);
  CHECK(bullets_in(grown->bytes) == 12);
  CHECK(grown->bytes.find("- Use tabs (r1)  \n- use TABS (r1)\n- Keep CRLF (r1)\n  in the "
                          "collector\n") != std::string::npos);
  CHECK(grown->bytes.ends_with("## 2026-03-06\n* Ask about CSV (r2)\n"));
  // One duplicate in the inbox (tabs), one in each whole copy, none across copies.
  CHECK(duplicates_in(kInbox) == 1);
  CHECK(duplicates_in(grown->bytes) == 3);
}

TEST_CASE("bench grow_inbox: a size inside a copy stops after the item that reaches it") {
  const Result<GrownInbox> grown = grow_inbox(kInbox, kInbox.size() + 40);
  REQUIRE(grown.ok());
  CHECK(grown->rounds == 1);
  CHECK(grown->items == 4 + 2);
  CHECK(grown->bytes.size() >= kInbox.size() + 40);
  CHECK(grown->bytes.ends_with("\n## 2026-03-07\n- Use tabs (r1)  \n- use TABS (r1)\n"));
  CHECK(bullets_in(grown->bytes) == 6);
}

TEST_CASE("bench grow_inbox: a large inbox stays as it is, and CRLF and a last line without LF") {
  const Result<GrownInbox> same = grow_inbox(kInbox, 10);
  REQUIRE(same.ok());
  CHECK(same->bytes == kInbox);
  CHECK(same->rounds == 0);
  const Result<GrownInbox> crlf = grow_inbox("# Inbox\r\n\r\n- a\r\n- b", 30);
  REQUIRE(crlf.ok());
  CHECK(crlf->bytes == "# Inbox\r\n\r\n- a\r\n- b\n- a (r1)\r\n- b (r1)\n");
  CHECK(crlf->rounds == 1);
}

TEST_CASE("bench grow_inbox: an inbox without items, or with an open fence, is refused") {
  const Result<GrownInbox> empty = grow_inbox("# Inbox\n\nNothing yet.\n", 1000);
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.status().code() == Errc::invalid_argument);
  CHECK(empty.status().message() == "inbox.md: no bullet item to grow an inbox from");
  const Result<GrownInbox> open = grow_inbox("# Inbox\n\n- a\n```\n- b\n", 1000);
  REQUIRE_FALSE(open.ok());
  CHECK(open.status().code() == Errc::parse);
  CHECK(open.status().message() == "inbox.md:4: a fence or comment is left open");
}

}  // namespace memkit::bench
