// MemoryBox entries, fields, IDs (spec memorybox.md §3) and decay (§5, §6): the worked example,
// the bands' edges, review flags and the report's order.
#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <string>

#include "memkit/digest.hpp"
#include "memkit/memorybox.hpp"

using namespace memkit;
using namespace memkit::memorybox;

namespace {

std::vector<Entry> entries(std::string_view path, const std::string& text) {
  const Document doc = parse_markdown(text);
  REQUIRE(doc.parseable());
  return read_entries(path, doc);
}

Inputs inputs_of(const std::map<std::string, std::string>& files) {
  Inputs in;
  std::vector<FileSnapshot> snaps;
  for (const auto& [path, bytes] : files) {
    snaps.push_back(
        FileSnapshot{path, EntryState::file, std::make_shared<const std::string>(bytes), ""});
    if (path.rfind("memory/daily/", 0) == 0) in.daily_files.push_back(path);
  }
  in.snapshot = Snapshot(std::move(snaps));
  return in;
}

ClockReading at(const char* date) {
  return *ClockReading::parse_rfc3339(std::string(date) + "T12:00:00+00:00");
}

}  // namespace

TEST_CASE("memorybox: bullet entries keep their fields apart from their identity") {
  const auto e = entries("memory/LONG_TERM.md",
                         "# LONG_TERM\n\n## Stack\n- Uses PostgreSQL 15\n  Confidence: 0.90\n"
                         "  Verified: 2026-10-01\n  more text\n- Other fact\n");
  REQUIRE(e.size() == 2);
  CHECK(e[0].kind == EntryKind::bullet);
  CHECK(e[0].identity_key == "uses postgresql 15\n  more text");
  CHECK(e[0].id == "memory/LONG_TERM.md#" + sha256_hex(e[0].identity_key).substr(0, 12));
  CHECK(e[0].field("Confidence") == std::optional<std::string_view>("0.90"));
  CHECK(e[0].field("Verified") == std::optional<std::string_view>("2026-10-01"));
  CHECK_FALSE(e[0].field("Source").has_value());
  CHECK(e[0].fields[0].line == 5);
  // A field update changes no ID: the same text with other field values.
  const auto updated =
      entries("memory/LONG_TERM.md", "- Uses PostgreSQL 15\n  Confidence: 0.95\n  more text\n");
  CHECK(updated[0].id == e[0].id);
}

TEST_CASE("memorybox: section files use H2 entries, or bullets when they have no H2") {
  const auto sections = entries("memory/MISTAKES.md",
                                "# MISTAKES\n\n## Forgot the lock\nText.\nStatus: resolved\n"
                                "  Confidence: 0.5\n\n## Second\n");
  REQUIRE(sections.size() == 2);
  CHECK(sections[0].kind == EntryKind::section);
  CHECK(sections[0].identity_key == "forgot the lock");
  CHECK(sections[0].field("Status") == std::optional<std::string_view>("resolved"));
  CHECK_FALSE(sections[0].field("Confidence").has_value());  // indented: not a section field
  const auto bullets = entries("memory/PATTERNS.md", "# PATTERNS\n- a\n- b\n");
  REQUIRE(bullets.size() == 2);
  CHECK(bullets[0].kind == EntryKind::bullet);
}

TEST_CASE("memorybox: session entries run from a dated H3 to the next one, an H1 or an H2") {
  const auto e =
      entries("memory/SESSION_LOG.md",
              "# SESSION_LOG\nintro\n### 2026-11-01 first\nnotes\n### not a date\n"
              "more\n\n### 2026-11-02\xE2\x80\x94second\n```\n### 2026-11-03 in a fence\n"
              "```\n\n## Archive\n### 2026-11-04 third\n");
  REQUIRE(e.size() == 3);
  CHECK(e[0].first_line == 3);
  CHECK(e[0].last_line == 6);
  CHECK(e[0].identity_key == "session:2026-11-01 first");
  CHECK(e[1].first_line == 8);
  CHECK(e[1].last_line == 11);
  CHECK(e[2].first_line == 14);
}

TEST_CASE("memorybox: a daily file is one entry with only its Id line as a field") {
  const auto e = entries("memory/daily/2026-11-30.md",
                         "Id: 0190a5e4-0000-7000-8000-000000000000\n- x\nConfidence: 1\n");
  REQUIRE(e.size() == 1);
  CHECK(e[0].kind == EntryKind::daily);
  CHECK(e[0].identity_key == "daily:2026-11-30");
  REQUIRE(e[0].fields.size() == 1);
  CHECK(e[0].fields[0].key == "Id");
}

TEST_CASE("memorybox: entries know their category and their byte range") {
  const std::string text =
      "# LONG_TERM\n- before any H2\n## Stack\n- a\n### DB\n- b\n  Confidence: 0.50\n"
      "## Team\n\n- c\n# Other\n- d\n";
  const auto e = entries("memory/LONG_TERM.md", text);
  REQUIRE(e.size() == 5);
  CHECK_FALSE(e[0].category.has_value());
  CHECK(e[1].category == std::optional<std::string>("Stack"));
  CHECK(e[2].category == std::optional<std::string>("Stack / DB"));
  CHECK(e[3].category == std::optional<std::string>("Team"));
  CHECK_FALSE(e[4].category.has_value());  // an H1 ends the H2's reach
  CHECK(text.substr(e[2].begin, e[2].end - e[2].begin) == "- b\n  Confidence: 0.50\n");

  const std::string mistakes = "# MISTAKES\n## One\ntext\n\n## Two\nCategory: Deploys\n\n";
  const auto m = entries("memory/MISTAKES.md", mistakes);
  REQUIRE(m.size() == 2);
  CHECK(m[0].category == std::optional<std::string>("MISTAKES"));
  CHECK(m[1].category == std::optional<std::string>("Deploys"));
  CHECK(mistakes.substr(m[0].begin, m[0].end - m[0].begin) == "## One\ntext\n");

  const std::string log = "# LOG\n### 2026-11-01 — a\nx\n\n\n### 2026-11-02\ny";
  const auto s = entries("memory/SESSION_LOG.md", log);
  REQUIRE(s.size() == 2);
  CHECK(log.substr(s[0].begin, s[0].end - s[0].begin) == "### 2026-11-01 — a\nx\n");
  CHECK(log.substr(s[1].begin, s[1].end - s[1].begin) == "### 2026-11-02\ny");
  CHECK_FALSE(s[0].category.has_value());
}

TEST_CASE("memorybox: an entry layout read in shares is the whole layout, in order") {
  // Bullets under H2s and H3s (a share may start below a heading it must still know), bullets
  // before any heading, entries whose fields vary in number (the reader reuses one entry), a
  // section file with H2 sections, one without, a session log and a daily file (not shared).
  const std::string bullets =
      "- Before any heading\n  Confidence: 0.50\n"
      "# LONG_TERM\n\n## Stack\n- Uses PostgreSQL 15\n  Confidence: 0.90\n  Verified: 2026-10-01\n"
      "  more text\n- Other fact\n### Hosts\n- db1 answers\n  Id: a\n  Updated: x\n  Source: y\n"
      "- db2\n\n## Billing\n- Stripe\n  Verified: 2026-10-02\n# Other\n- loose\n  Confidence: 1\n";
  const std::map<std::string, std::string> files = {
      {"memory/LONG_TERM.md", bullets},
      {"memory/PATTERNS.md", "# PATTERNS\n- one\n  Category: Ops\n- two\n"},
      {"memory/MISTAKES.md", "# MISTAKES\n## First\nConfidence: 0.70\n## Second\ntext\n"},
      {"memory/SESSION_LOG.md", "# S\n### 2026-11-01 one\nId: s1\n### 2026-11-02 two\n"},
      {"memory/daily/2026-11-30.md", "Id: d1\n\n# Day\n- x\n"},
  };
  const auto key = [](const Entry& e) {
    std::string out = std::to_string(e.begin) + "-" + std::to_string(e.end) + "/" +
                      std::to_string(e.first_line_end) + " " + e.category.value_or("(none)");
    for (const Field& f : e.fields) {
      out += " " + f.key + "=" + f.value + "@" + std::to_string(f.begin) + "+" +
             std::to_string(f.indent) + "," + std::to_string(f.content_end) + "," +
             std::to_string(f.end) + ",L" + std::to_string(f.line);
    }
    return out;
  };
  for (const auto& [path_, text] : files) {
    const auto& path = path_;  // clang 14 cannot capture a structured binding
    CAPTURE(path);
    const Document doc = parse_markdown(text);
    REQUIRE(doc.parseable());
    std::vector<std::string> whole;
    visit_entry_layout(path, doc, [&](Entry& e) { whole.push_back(key(e)); });
    REQUIRE_FALSE(whole.empty());
    // The named reader finds the same entries.
    const std::vector<Entry> named = read_entries(path, doc);
    REQUIRE(named.size() == whole.size());
    for (std::size_t i = 0; i < named.size(); ++i) CHECK(key(named[i]) == whole[i]);
    for (std::size_t shares = 1; shares <= 6; ++shares) {
      CAPTURE(shares);
      std::vector<std::string> joined;
      std::vector<std::size_t> sizes;
      for (std::size_t share = 0; share < shares; ++share) {
        const std::size_t before = joined.size();
        visit_entry_layout(path, doc, share, shares, [&](Entry& e) { joined.push_back(key(e)); });
        sizes.push_back(joined.size() - before);
      }
      CHECK(joined == whole);
      // A file of bullets is shared out; the others are read whole by share 0.
      const bool shared_out = path == "memory/LONG_TERM.md" || path == "memory/PATTERNS.md";
      if (shares > 1 && !shared_out) CHECK(sizes[0] == whole.size());
      if (shares == 2 && path == "memory/LONG_TERM.md") CHECK(sizes[1] > 0);
    }
  }
}

TEST_CASE("memorybox: confidence is 0, 1, or one or two decimals, in hundredths") {
  CHECK(parse_confidence("0") == 0u);
  CHECK(parse_confidence("1") == 100u);
  CHECK(parse_confidence("0.5") == 50u);
  CHECK(parse_confidence("0.85") == 85u);
  CHECK(parse_confidence("1.0") == 100u);
  CHECK(parse_confidence("1.00") == 100u);
  CHECK_FALSE(parse_confidence("1.01").has_value());
  CHECK_FALSE(parse_confidence("0.855").has_value());
  CHECK_FALSE(parse_confidence(".5").has_value());
  CHECK_FALSE(parse_confidence("0,5").has_value());
  CHECK_FALSE(parse_confidence("2").has_value());
}

TEST_CASE("memorybox: bands are contiguous in hundredths") {
  CHECK(band_of(100) == Band::verified);
  CHECK(band_of(95) == Band::verified);
  CHECK(band_of(94) == Band::high);
  CHECK(band_of(80) == Band::high);
  CHECK(band_of(79) == Band::medium);
  CHECK(band_of(50) == Band::medium);
  CHECK(band_of(49) == Band::low);
  CHECK(band_of(20) == Band::low);
  CHECK(band_of(19) == Band::speculation);
  CHECK(band_action(Band::low) == "Flag for verification, don't rely on");
}

TEST_CASE("memorybox: the worked example of §6 decays in one step, then the other") {
  const std::map<std::string, std::string> files = {
      {"memory/LONG_TERM.md", "- fact\n  Confidence: 0.90\n  Verified: 2026-10-01\n"}};
  auto effective = [&](const char* date) {
    const DecayReport r = memorybox_decay(inputs_of(files), at(date));
    REQUIRE(r.entries.size() == 1);
    return r.entries[0].effective;
  };
  CHECK(effective("2026-10-30") == 90u);
  CHECK(effective("2026-10-31") == 80u);
  CHECK(effective("2026-12-29") == 80u);
  CHECK(effective("2026-12-30") == 60u);
  CHECK(effective("2027-06-01") == 60u);
  const DecayReport low = memorybox_decay(
      inputs_of({{"memory/LONG_TERM.md", "- f\n  Confidence: 0.25\n  Verified: 2026-01-01\n"}}),
      at("2026-11-30"));
  CHECK(low.entries[0].effective == 0u);
  CHECK(low.entries[0].band == Band::speculation);
  CHECK_FALSE(low.entries[0].reliable);
  CHECK(low.entries[0].review_due);
}

TEST_CASE("memorybox: review flags, future dates and unscored entries") {
  const DecayReport r = memorybox_decay(
      inputs_of({{"memory/LONG_TERM.md",
                  "- a\n  Confidence: 0.97\n  Verified: 2026-12-05\n"
                  "- b\n  Confidence: 0.85\n  Verified: 2026-11-01\n  Decay-Trigger: 2026-11-30\n"
                  "  Review: contradicted 2026-11-29: wrong port\n"
                  "- c\n  Confidence: 0.60\n  Verified: 2026-11-20\n  Review: needs verification\n"
                  "- d\n  Confidence: high\n  Verified: 2026-11-20\n"
                  "- e\n"},
                 {"brain/SOUL.md", "- soul\n  Confidence: 1\n  Verified: 2026-11-01\n"}}),
      at("2026-11-30"));
  REQUIRE(r.entries.size() == 4);
  CHECK(r.entries[0].file == "brain/SOUL.md");  // tier order first
  CHECK(r.entries[1].flags == std::vector<std::string>{"future_verified"});
  CHECK(r.entries[1].days == 0u);
  CHECK_FALSE(r.entries[1].review_due);
  CHECK(r.entries[2].flags == std::vector<std::string>{"contradicted", "trigger_reached"});
  CHECK(r.entries[2].review_due);
  CHECK_FALSE(r.entries[2].reliable);
  CHECK(r.entries[3].flags == std::vector<std::string>{"needs_verification"});
  CHECK(r.entries[3].review_due);
  CHECK(r.entries[3].reliable);
  REQUIRE(r.unscored.size() == 2);
  std::size_t box001 = 0;
  for (const Finding& f : r.findings) box001 += f.code == "MK-BOX-001" ? 1 : 0;
  CHECK(box001 == 2);  // the invalid Confidence and the future Verified
}

TEST_CASE("memorybox: an invalid Decay-Trigger is MK-BOX-001 naming its line, never dropped silently") {
  for (const char* bad : {"2026-02-30", "soon"}) {
    CAPTURE(bad);
    const DecayReport r = memorybox_decay(
        inputs_of({{"memory/LONG_TERM.md", std::string("- a\n  Confidence: 0.90\n  Verified: "
                                                       "2026-11-20\n  Decay-Trigger: ") +
                                               bad + "\n"}}),
        at("2026-11-30"));
    REQUIRE(r.entries.size() == 1);
    CHECK(r.entries[0].flags.empty());
    REQUIRE(r.findings.size() == 1);
    CHECK(r.findings[0].code == "MK-BOX-001");
    CHECK(r.findings[0].severity == Severity::warning);
    CHECK(r.findings[0].message.find("memory/LONG_TERM.md:4: Decay-Trigger '" + std::string(bad) +
                                     "' is not a date") == 0);
  }
}

TEST_CASE("memorybox: decay reports an unparseable tier file as MK-PARSE-001, an ERROR") {
  const DecayReport r = memorybox_decay(
      inputs_of({{"memory/LONG_TERM.md", "- a\n  Confidence: 0.90\n  Verified: 2026-11-20\n```\n"}}),
      at("2026-11-30"));
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].code == "MK-PARSE-001");
  CHECK(r.findings[0].severity == Severity::error);
  CHECK(r.entries.empty());
}
