// The local side of sync (spec memorybox.md §3 entries, field lines and Id; §9 Identity, Records,
// push): which files sync, the record digest and tombstones, .memkit/sync/base.tsv, the tier files
// read as records with their Ids (assigning missing ones), and what a push sends.
#include <algorithm>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "memkit/digest.hpp"
#include "memkit/memorybox/sync.hpp"
#include "memorybox/sync_files.hpp"
#include "moves_support.hpp"

using namespace moves_test;

namespace {

constexpr std::string_view kWorkspace = "0192f3a4-5b6c-7d8e-9f00-112233445566";
// kNow (2026-11-30T10:00:00+01:00) in UTC, and its Unix milliseconds as a UUIDv7 prefix.
constexpr std::string_view kNowUtc = "2026-11-30T09:00:00.000Z";
constexpr std::string_view kIdPrefix = "01a22bae-b680-7";
constexpr std::string_view kMtime = "2026-11-28T12:00:00.000Z";

using Files = std::map<std::string, std::string>;
using Ids = std::set<std::string, std::less<>>;

LocalScan scan(const Files& files, const ModifiedTimes& modified = {},
               const ClockReading& now = kNow) {
  const Result<LocalScan> s = scan_local(inputs_of(files), kWorkspace, modified, now);
  REQUIRE(s);
  return *s;
}

Status scan_failure(const Inputs& inputs) {
  const Result<LocalScan> s = scan_local(inputs, kWorkspace, {}, kNow);
  REQUIRE_FALSE(s);
  return s.status();
}

// The files with the splices of each path applied.
Files spliced(Files files, const std::map<std::string, std::vector<Splice>>& splices) {
  for (const auto& [path, edits] : splices) {
    REQUIRE(files.contains(path));
    files[path] = apply_splices(files[path], edits);
  }
  return files;
}

// The base a sync of exactly these records leaves.
SyncBase base_of(const LocalScan& s) {
  SyncBase base;
  for (const LocalRecord& r : s.records) {
    base.insert_or_assign(r.record.id,
                          BaseEntry{r.record.table, r.record.file, record_digest(r.record)});
  }
  return base;
}

const LocalRecord& record_in(const LocalScan& s, std::string_view file, std::size_t n) {
  std::vector<const LocalRecord*> in_file;
  for (const LocalRecord& r : s.records) {
    if (r.record.file == file) in_file.push_back(&r);
  }
  REQUIRE(n < in_file.size());
  return *in_file[n];
}

const LocalRecord& record_with_id(const LocalScan& s, std::string_view id) {
  const auto it = std::find_if(s.records.begin(), s.records.end(),
                               [&](const LocalRecord& r) { return r.record.id == id; });
  REQUIRE(it != s.records.end());
  return *it;
}

SyncRecord memory_record(std::string id, std::string text) {
  return SyncRecord{.id = std::move(id),
                    .workspace_id = std::string(kWorkspace),
                    .table = SyncTable::memories,
                    .file = "memory/LONG_TERM.md",
                    .category = "Stack",
                    .text = std::move(text),
                    .confidence = 90,
                    .verified = "2026-11-01",
                    .updated_at = "2026-11-30T08:00:00.000Z",
                    .deleted = false};
}

std::string digest_of(char c) { return std::string(32, c); }

}  // namespace

// ---- sync_table_of, record_digest, tombstone ----

TEST_CASE("sync_local: which tier files sync to which table") {
  for (const char* path : {"memory/LONG_TERM.md", "memory/SOP_LIBRARY.md", "memory/PATTERNS.md",
                           "memory/MISTAKES.md", "memory/DECISIONS.md"}) {
    CAPTURE(path);
    CHECK(sync_table_of(path) == SyncTable::memories);
  }
  CHECK(sync_table_of("memory/SESSION_LOG.md") == SyncTable::session_logs);
  CHECK(sync_table_of("memory/daily/2026-11-30.md") == SyncTable::daily_logs);
  CHECK(sync_table_of("memory/daily/2024-02-29.md") == SyncTable::daily_logs);
  for (const char* path :
       {"memory/ACTIVE_TASKS.md", "memory/SELF_REFLECTIONS.md", "brain/SOUL.md", "brain/STATE.md",
        "memory/daily/2026-02-30.md", "memory/daily/2026-11-30.txt", "memory/daily/x/2026-11-30.md",
        "memory/daily/2026-11-3.md", "memory/ARCHIVES/long_term-2026-11.md", "LONG_TERM.md",
        "memory/long_term.md", "memory/../memory/LONG_TERM.md", "memory/SYNC_CONFLICTS.md", ""}) {
    CAPTURE(path);
    CHECK_FALSE(sync_table_of(path).has_value());
  }
}

TEST_CASE("sync_local: record_digest covers every field but workspace_id and updated_at") {
  const SyncRecord r = memory_record("id-a", "- a\n");
  const std::string d = record_digest(r);
  CHECK(d.size() == 32);
  CHECK(std::all_of(d.begin(), d.end(),
                    [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }));
  SyncRecord same = r;
  same.workspace_id = "00000000-0000-4000-8000-000000000000";
  same.updated_at = "2027-01-01T00:00:00.000Z";
  CHECK(record_digest(same) == d);

  std::vector<SyncRecord> others;
  others.push_back(r);
  others.back().id = "id-b";
  others.push_back(r);
  others.back().table = SyncTable::session_logs;
  others.push_back(r);
  others.back().file = "memory/PATTERNS.md";
  others.push_back(r);
  others.back().category = std::nullopt;
  others.push_back(r);
  others.back().category = "";  // an empty category is not a missing one
  others.push_back(r);
  others.back().text = "- a\r\n";
  others.push_back(r);
  others.back().confidence = 91;
  others.push_back(r);
  others.back().confidence = std::nullopt;
  others.push_back(r);
  others.back().verified = "2026-11-02";
  others.push_back(r);
  others.back().verified = std::nullopt;
  others.push_back(r);
  others.back().deleted = true;
  std::set<std::string> digests{d};
  for (const SyncRecord& o : others) digests.insert(record_digest(o));
  CHECK(digests.size() == others.size() + 1);  // all different

  // Length-prefixed fields: moving bytes from one field to the next changes the digest.
  SyncRecord left = r;
  left.file = "memory/LONG_TERM.md";
  left.text = "ab";
  SyncRecord right = left;
  right.file = "memory/LONG_TERM.mda";
  right.text = "b";
  CHECK(record_digest(left) != record_digest(right));
}

TEST_CASE("sync_local: a tombstone has no text and no scores, and is deleted") {
  const SyncRecord t = tombstone("id-a", std::string(kWorkspace), SyncTable::memories,
                                 "memory/PATTERNS.md", std::string(kNowUtc));
  CHECK(t == SyncRecord{.id = "id-a",
                        .workspace_id = std::string(kWorkspace),
                        .table = SyncTable::memories,
                        .file = "memory/PATTERNS.md",
                        .category = std::nullopt,
                        .text = "",
                        .confidence = std::nullopt,
                        .verified = std::nullopt,
                        .updated_at = std::string(kNowUtc),
                        .deleted = true});
  // A tombstone is a valid record line: a deleted memories record needs no scores.
  const Result<SyncRecord> back = parse_record_line(record_line(t));
  REQUIRE(back);
  CHECK(*back == t);
  CHECK(record_digest(t) != record_digest(memory_record("id-a", "")));
}

// ---- SyncBase: .memkit/sync/base.tsv ----

TEST_CASE("sync_local: the base renders one sorted line per id and parses back") {
  const SyncBase base{
      {"b-id", BaseEntry{SyncTable::session_logs, "memory/SESSION_LOG.md", digest_of('b')}},
      {"a id with spaces", BaseEntry{SyncTable::memories, "memory/LONG_TERM.md", digest_of('a')}},
      {"c\tid", BaseEntry{SyncTable::daily_logs, "memory/daily/2026-11-30.md", digest_of('0')}},
  };
  const std::string lines = digest_of('a') + "\tmemories\tmemory/LONG_TERM.md\ta id with spaces\n" +
                            digest_of('b') + "\tsession_logs\tmemory/SESSION_LOG.md\tb-id\n" +
                            digest_of('0') + "\tdaily_logs\tmemory/daily/2026-11-30.md\tc\tid\n";
  const std::string bytes = render_sync_base(base);
  CHECK(bytes == "# memkit sync base 2: XXH3-128 digests\n" + lines);
  CHECK(render_sync_base_lines(base) == lines);  // what an append adds
  const Result<SyncBase> back = parse_sync_base(bytes);
  REQUIRE(back);
  CHECK(back->digests() == BaseDigests::xxh3);
  CHECK(*back == base);
  CHECK(render_sync_base(SyncBase{}) == kSyncBaseHeader);
  CHECK(render_sync_base_lines(SyncBase{}).empty());
  const Result<SyncBase> empty = parse_sync_base("");
  REQUIRE(empty);
  CHECK(empty->empty());
}

TEST_CASE("sync_local: bad base lines are refused with their line number") {
  const std::string good = digest_of('a') + "\tmemories\tmemory/LONG_TERM.md\tid-a\n";
  const auto problem = [](const std::string& bytes) {
    const Result<SyncBase> r = parse_sync_base(bytes);
    REQUIRE_FALSE(r);
    CHECK(r.status().code() == Errc::parse);
    return r.status().message();
  };
  CHECK(problem(good + digest_of('b') + "\tmemories\tmemory/LONG_TERM.md\n") ==
        ".memkit/sync/base.tsv:2: expected digest, table, file and id");
  CHECK(problem(good + "\n") == ".memkit/sync/base.tsv:2: expected digest, table, file and id");
  CHECK(problem(good + digest_of('b') + "\tmemories\tf\tid-b\n" + std::string(31, 'c') +
                "\tmemories\tf\tid\n") ==
        ".memkit/sync/base.tsv:3: the digest is not 32 lower-case hex digits");
  CHECK(problem(std::string(32, 'A') + "\tmemories\tf\tid\n") ==
        ".memkit/sync/base.tsv:1: the digest is not 32 lower-case hex digits");
  CHECK(problem(std::string(32, 'g') + "\tmemories\tf\tid\n") ==
        ".memkit/sync/base.tsv:1: the digest is not 32 lower-case hex digits");
  CHECK(problem(digest_of('a') + "\tfacts\tf\tid\n") == ".memkit/sync/base.tsv:1: unknown table");
  CHECK(problem(digest_of('a') + "\tmemories\t\tid\n") ==
        ".memkit/sync/base.tsv:1: empty file or id");
  CHECK(problem(digest_of('a') + "\tmemories\tf\t\n") ==
        ".memkit/sync/base.tsv:1: empty file or id");
  // An id is held with its length in 24 bits: one of 16 MiB or more is refused, read or set.
  const std::string huge(std::size_t{1} << 24, 'x');
  CHECK(problem(good + digest_of('b') + "\tmemories\tf\t" + huge + "\n") ==
        ".memkit/sync/base.tsv:2: an id of 16 MiB or more");
  const Result<SyncBase> longest =
      parse_sync_base(digest_of('b') + "\tmemories\tf\t" + huge.substr(1) + "\n");
  REQUIRE(longest);
  CHECK(longest->contains(huge.substr(1)));
  SyncBase set;
  CHECK_THROWS_AS(set.insert_or_assign(huge, BaseEntry{SyncTable::memories, "f", digest_of('a')}),
                  std::length_error);
  CHECK(set.empty());
  // After the first line of version 2, lines count from 2.
  CHECK(problem(std::string(kSyncBaseHeader) + good + "\n") ==
        ".memkit/sync/base.tsv:3: expected digest, table, file and id");
  // A first line of another version is a base this memkit cannot read: refused, not taken apart.
  const Result<SyncBase> later = parse_sync_base("# memkit sync base 3: BLAKE3 digests\n" + good);
  REQUIRE_FALSE(later);
  CHECK(later.status().code() == Errc::layout);
  CHECK(later.status().message() ==
        ".memkit/sync/base.tsv:1: a base of a later version than this memkit reads (# memkit "
        "sync base 3: BLAKE3 digests): upgrade memkit");
}

TEST_CASE(
    "sync_local: the base is appended to: a later line of an id wins, a torn last line is "
    "dropped") {
  const std::string a1 = digest_of('a') + "\tmemories\tmemory/LONG_TERM.md\tid-a\n";
  const std::string b1 = digest_of('b') + "\tmemories\tmemory/LONG_TERM.md\tid-b\n";
  const std::string a2 = digest_of('c') + "\tmemories\tmemory/PATTERNS.md\tid-a\n";
  const std::string h(kSyncBaseHeader);
  const Result<SyncBase> later = parse_sync_base(h + a1 + b1 + a2);
  REQUIRE(later);
  CHECK(*later ==
        SyncBase{{"id-a", BaseEntry{SyncTable::memories, "memory/PATTERNS.md", digest_of('c')}},
                 {"id-b", BaseEntry{SyncTable::memories, "memory/LONG_TERM.md", digest_of('b')}}});
  // A crash cut the last append short: its id is merely synced again.
  for (const std::size_t cut : {std::size_t{1}, std::size_t{10}, a2.size() - 1}) {
    const Result<SyncBase> torn = parse_sync_base(h + a1 + b1 + a2.substr(0, cut));
    REQUIRE(torn);
    CHECK(torn->at("id-a") ==
          BaseEntry{SyncTable::memories, "memory/LONG_TERM.md", digest_of('a')});
    CHECK(torn->size() == 2);
  }
  // merged_base sets each change and keeps the rest.
  const SyncBase before{{"id-a", BaseEntry{SyncTable::memories, "f", digest_of('a')}},
                        {"id-b", BaseEntry{SyncTable::memories, "f", digest_of('b')}}};
  const SyncBase changes{{"id-b", BaseEntry{SyncTable::memories, "g", digest_of('c')}},
                         {"id-c", BaseEntry{SyncTable::daily_logs, "h", digest_of('d')}}};
  CHECK(merged_base(before, changes) ==
        SyncBase{{"id-a", BaseEntry{SyncTable::memories, "f", digest_of('a')}},
                 {"id-b", BaseEntry{SyncTable::memories, "g", digest_of('c')}},
                 {"id-c", BaseEntry{SyncTable::daily_logs, "h", digest_of('d')}}});
}

TEST_CASE("sync_local: a long appended base keeps the last line of each id, in first-seen order") {
  // 2,000 ids written whole, then two syncs appended: each repeats every third id and adds 500
  // new ones. The items of the repeats are dropped and the table points at the closed-up items.
  const auto line = [](int i, char digest, std::string_view file) {
    return digest_of(digest) + "\tmemories\t" + std::string(file) + "\tid-" + std::to_string(i) +
           "\n";
  };
  std::string bytes;
  for (int i = 0; i < 2000; ++i) bytes += line(i, 'a', "memory/LONG_TERM.md");
  int next = 2000;
  for (const char round : {'b', 'c'}) {
    for (int i = 0; i < 2000; i += 3) bytes += line(i, round, "memory/PATTERNS.md");
    for (const int end = next + 500; next < end; ++next)
      bytes += line(next, 'a', "memory/LONG_TERM.md");
  }
  // The base keeps nothing of the bytes it was parsed from (a sanitizer build sees any view).
  auto parsed_from = std::make_unique<std::string>(bytes);
  const Result<SyncBase> base = parse_sync_base(*parsed_from);
  parsed_from.reset();
  REQUIRE(base);
  CHECK(base->size() == 3000);
  std::set<std::string> visited;
  base->for_each([&](std::string_view id, SyncTable, std::string_view file,
                     std::string_view digest) {
    visited.emplace(id);
    CHECK(base->at(id) == BaseEntry{SyncTable::memories, std::string(file), std::string(digest)});
  });
  CHECK(visited.size() == 3000);
  for (int i = 0; i < 3000; ++i) {
    const std::string id = "id-" + std::to_string(i);
    const bool repeated = i < 2000 && i % 3 == 0;
    CHECK(base->at(id) == BaseEntry{SyncTable::memories,
                                    repeated ? "memory/PATTERNS.md" : "memory/LONG_TERM.md",
                                    digest_of(repeated ? 'c' : 'a')});
    // Positions in first-seen order, the repeats' items closed up.
    CHECK(base->position(id) == static_cast<std::uint32_t>(i + 1));
    CHECK(base->holding(fast_hash(id), digest_of(repeated ? 'c' : 'a')) == base->position(id));
    CHECK(base->holding(fast_hash(id), digest_of('b')) == 0);
  }
  CHECK(*base == *parse_sync_base(render_sync_base(*base)));
}

TEST_CASE("sync_local: a SyncBase answers by id, grows, and copies independently of its source") {
  SyncBase base;
  CHECK(base.empty());
  CHECK_FALSE(base.contains("id-0"));
  CHECK(base.holding(fast_hash("id-0"), digest_of('a')) == 0);
  CHECK(base.position("id-0") == 0);
  // Enough ids to grow the table several times.
  for (int i = 0; i < 5000; ++i) {
    base.insert_or_assign("id-" + std::to_string(i),
                          BaseEntry{SyncTable::memories, "memory/file-" + std::to_string(i % 7),
                                    digest_of(static_cast<char>('a' + i % 6))});
  }
  REQUIRE(base.size() == 5000);
  for (int i = 0; i < 5000; i += 499) {
    const std::string id = "id-" + std::to_string(i);
    const std::string digest = digest_of(static_cast<char>('a' + i % 6));
    CHECK(base.at(id) ==
          BaseEntry{SyncTable::memories, "memory/file-" + std::to_string(i % 7), digest});
    REQUIRE(base.digest(id));
    CHECK(std::string(base.digest(id)->data(), 32) == digest);
    CHECK(base.holding(fast_hash(id), digest) == static_cast<std::uint32_t>(i + 1));  // inserted
    CHECK(base.position(id) == static_cast<std::uint32_t>(i + 1));
    CHECK(base.holding(fast_hash(id), digest_of('0')) == 0);
  }
  CHECK_FALSE(base.find("id-5000"));
  CHECK_THROWS_AS(static_cast<void>(base.at("id-5000")), std::out_of_range);
  // Setting an id again replaces its entry; the size stays.
  base.insert_or_assign(
      "id-7", BaseEntry{SyncTable::daily_logs, "memory/daily/2026-11-30.md", digest_of('9')});
  CHECK(base.size() == 5000);
  CHECK(base.holding(fast_hash("id-7"), digest_of('9')) == 8);
  CHECK(base.holding(fast_hash("id-7"), digest_of('b')) == 0);
  // A copy owns what it views: it outlives its source, and changing one leaves the other.
  const Result<SyncBase> parsed = parse_sync_base(render_sync_base(base));
  REQUIRE(parsed);
  CHECK(*parsed == base);
  std::optional<SyncBase> source = *parsed;
  source->insert_or_assign("id-new",
                           BaseEntry{SyncTable::memories, "memory/new.md", digest_of('c')});
  const SyncBase copy = *source;
  source->insert_or_assign("id-new",
                           BaseEntry{SyncTable::memories, "memory/other.md", digest_of('d')});
  source.reset();
  CHECK(copy.size() == 5001);
  CHECK(copy.at("id-new") == BaseEntry{SyncTable::memories, "memory/new.md", digest_of('c')});
  CHECK(copy.at("id-4999") == base.at("id-4999"));
  CHECK(merged_base(copy, SyncBase{}) == copy);
}

// ---- scan_local: Ids assigned ----

TEST_CASE("sync_local: a bullet's new Id goes after its last field line, with that indent") {
  const Files files = {
      {"memory/LONG_TERM.md",
       "# LONG_TERM\n\n## Stack\n- Uses PostgreSQL 15\n  Confidence: 0.90\n  more text\n"
       "  Verified: 2026-11-01\n  trailing text\n- Tabbed\n\tConfidence: 0.80\n"
       "\tVerified: 2026-11-01\n- Last\n    Confidence: 0.70\n    Verified: 2026-11-01"}};
  const LocalScan s = scan(files);
  REQUIRE(s.records.size() == 3);
  CHECK(s.findings.empty());
  for (const LocalRecord& r : s.records) {
    CAPTURE(r.record.text);
    CHECK(r.assigned);
    CHECK(is_uuid(r.record.id));
    CHECK(r.record.id.rfind(kIdPrefix, 0) == 0);  // UUIDv7 stamped with now
  }
  const std::string& a = s.records[0].record.id;
  const std::string& b = s.records[1].record.id;
  const std::string& c = s.records[2].record.id;
  CHECK(a != b);
  CHECK(b != c);
  REQUIRE(s.id_splices.size() == 1);
  CHECK(s.id_splices.at("memory/LONG_TERM.md").size() == 3);
  // The unterminated last line first gets a terminator.
  CHECK(spliced(files, s.id_splices).at("memory/LONG_TERM.md") ==
        "# LONG_TERM\n\n## Stack\n- Uses PostgreSQL 15\n  Confidence: 0.90\n  more text\n"
        "  Verified: 2026-11-01\n  Id: " +
            a + "\n  trailing text\n- Tabbed\n\tConfidence: 0.80\n\tVerified: 2026-11-01\n\tId: " +
            b + "\n- Last\n    Confidence: 0.70\n    Verified: 2026-11-01\n    Id: " + c + "\n");
}

TEST_CASE("sync_local: a section's new Id is a column-0 line after its last field line") {
  const Files files = {{"memory/PATTERNS.md",
                        "# PATTERNS\r\n\r\n## Retry with backoff\r\nConfidence: 0.85\r\n"
                        "Verified: 2026-11-20\r\nUse exponential backoff.\r\n\r\n"
                        "## Unscored\r\nJust text.\r\n"}};
  const LocalScan s = scan(files);
  REQUIRE(s.records.size() == 1);  // the unscored section does not sync
  const std::string& id = s.records[0].record.id;
  CHECK(s.records[0].entry.kind == EntryKind::section);
  CHECK(spliced(files, s.id_splices).at("memory/PATTERNS.md") ==
        "# PATTERNS\r\n\r\n## Retry with backoff\r\nConfidence: 0.85\r\nVerified: "
        "2026-11-20\r\nId: " +
            id + "\r\nUse exponential backoff.\r\n\r\n## Unscored\r\nJust text.\r\n");
}

TEST_CASE("sync_local: a session's new Id goes after its last field line, column 0") {
  const Files files = {{"memory/SESSION_LOG.md",
                        "# SESSION_LOG\n\n### 2026-11-30 review\nSource: chat\nMore.\n\n"
                        "### 2026-11-30 \xE2\x80\x94 late\r\nStatus: done\r\nmore\r\n"}};
  const LocalScan s = scan(files);
  REQUIRE(s.records.size() == 2);
  CHECK(s.records[0].record.table == SyncTable::session_logs);
  CHECK(s.records[0].entry.kind == EntryKind::session);
  CHECK(s.records[0].record.text == "### 2026-11-30 review\nMore.\n");
  CHECK(s.records[1].record.text == "### 2026-11-30 \xE2\x80\x94 late\r\nmore\r\n");
  // New lines take the file's terminator (its first line's).
  CHECK(spliced(files, s.id_splices).at("memory/SESSION_LOG.md") ==
        "# SESSION_LOG\n\n### 2026-11-30 review\nSource: chat\nId: " + s.records[0].record.id +
            "\nMore.\n\n### 2026-11-30 \xE2\x80\x94 late\r\nStatus: done\r\nId: " +
            s.records[1].record.id + "\nmore\r\n");
}

// A session entry's Id goes right after its heading (read_sessions sets first_line_end; it once
// did not, and the Id line went to the top of the file, into no entry).
TEST_CASE("sync_local: a session's new Id goes right after its heading when it has no fields") {
  const Files files = {{"memory/SESSION_LOG.md",
                        "# SESSION_LOG\n\n### 2026-11-29 \xE2\x80\x94 deploy\nDid things.\n"}};
  const LocalScan s = scan(files);
  REQUIRE(s.records.size() == 1);
  const std::string& id = s.records[0].record.id;
  const Files after = spliced(files, s.id_splices);
  CHECK(after.at("memory/SESSION_LOG.md") ==
        "# SESSION_LOG\n\n### 2026-11-29 \xE2\x80\x94 deploy\nId: " + id + "\nDid things.\n");
  const LocalScan again = scan(after);
  REQUIRE(again.records.size() == 1);
  CHECK(again.records[0].record.id == id);
  CHECK_FALSE(again.records[0].assigned);
}

TEST_CASE("sync_local: a daily file's new Id is its first line, then an empty line") {
  const std::string bom = "\xEF\xBB\xBF";
  const Files files = {{"memory/daily/2026-11-27.md", "- did a\n"},
                       {"memory/daily/2026-11-28.md", bom + "- did b\n"},
                       {"memory/daily/2026-11-29.md", "- did c\r\n- more\r\n"},
                       {"memory/daily/2026-11-30.md", ""}};
  const LocalScan s = scan(files);
  REQUIRE(s.records.size() == 4);
  const Files after = spliced(files, s.id_splices);
  CHECK(after.at("memory/daily/2026-11-27.md") ==
        "Id: " + s.records[0].record.id + "\n\n- did a\n");
  CHECK(after.at("memory/daily/2026-11-28.md") ==
        bom + "Id: " + s.records[1].record.id + "\n\n- did b\n");
  CHECK(after.at("memory/daily/2026-11-29.md") ==
        "Id: " + s.records[2].record.id + "\r\n\r\n- did c\r\n- more\r\n");
  CHECK(after.at("memory/daily/2026-11-30.md") == "Id: " + s.records[3].record.id + "\n\n");
  // The text is the file after the BOM, before the Id is written and after.
  CHECK(s.records[0].record.text == "- did a\n");
  CHECK(s.records[1].record.text == "- did b\n");
  CHECK(s.records[2].record.text == "- did c\r\n- more\r\n");
  CHECK(s.records[3].record.text.empty());
  CHECK(s.records[0].record.table == SyncTable::daily_logs);
  CHECK_FALSE(s.records[0].record.category.has_value());
  CHECK_FALSE(s.records[0].record.confidence.has_value());
  CHECK_FALSE(s.records[0].record.verified.has_value());
}

TEST_CASE("sync_local: written Ids read back as the same records, nothing assigned again") {
  const Files files = {
      {"memory/LONG_TERM.md",
       "# LONG_TERM\n\n## Stack\n- Uses PostgreSQL 15\n  Confidence: 0.90\n"
       "  Verified: 2026-11-01\n"},
      {"memory/MISTAKES.md", "# MISTAKES\n\n## Forgot tz\nConfidence: 1\nVerified: 2026-11-02\n"},
      {"memory/SESSION_LOG.md", "### 2026-11-30 x\nSource: chat\nbody\n"},
      {"memory/daily/2026-11-30.md", "\xEF\xBB\xBF- a\r\n"}};
  const LocalScan first = scan(files);
  REQUIRE(first.records.size() == 4);
  const LocalScan again = scan(spliced(files, first.id_splices));
  CHECK(again.id_splices.empty());
  REQUIRE(again.records.size() == first.records.size());
  for (std::size_t i = 0; i < first.records.size(); ++i) {
    CAPTURE(first.records[i].record.file);
    CHECK_FALSE(again.records[i].assigned);
    CHECK(again.records[i].record == first.records[i].record);
    CHECK(record_digest(again.records[i].record) == record_digest(first.records[i].record));
  }
}

TEST_CASE("sync_local: the same files at the same instant get the same Ids") {
  const Files files = {
      {"memory/LONG_TERM.md",
       "## A\n- same\n  Confidence: 0.9\n  Verified: 2026-11-01\n- same\n  Confidence: 0.9\n"
       "  Verified: 2026-11-01\n"},
      {"memory/DECISIONS.md", "- same\n  Confidence: 0.9\n  Verified: 2026-11-01\n"},
      {"memory/daily/2026-11-30.md", "x\n"}};
  const LocalScan a = scan(files);
  const LocalScan b = scan(files);
  REQUIRE(a.records.size() == 4);
  REQUIRE(b.records.size() == 4);
  std::set<std::string> ids;
  for (std::size_t i = 0; i < a.records.size(); ++i) {
    CHECK(a.records[i].record.id == b.records[i].record.id);
    ids.insert(a.records[i].record.id);
  }
  CHECK(ids.size() == 4);  // the same text twice in one file, or in two files: two Ids
  CHECK(a.id_splices == b.id_splices);
  // Another instant, other Ids, with that instant's time in them.
  const LocalScan later = scan(files, {}, at("2026-11-30T10:00:00.001+01:00"));
  CHECK(later.records[0].record.id != a.records[0].record.id);
  CHECK(later.records[0].record.id.rfind("01a22bae-b681-7", 0) == 0);
  CHECK(a.records[0].record.id.substr(15) != later.records[0].record.id.substr(15));
}

TEST_CASE("sync_local: an existing Id is kept byte for byte, whatever its form") {
  const Files files = {
      {"memory/LONG_TERM.md",
       "- fact\n  Confidence: 0.90\n  Verified: 2026-11-01\n  Id: My-Own ID 42\n"},
      {"memory/PATTERNS.md",
       "## P\nId: 0192F3A4-5B6C-7D8E-9F00-112233445566\nConfidence: 0.5\nVerified: 2026-11-01\n"},
      {"memory/daily/2026-11-30.md", "Id: day one\n\n- a\n"}};
  const LocalScan s = scan(files);
  REQUIRE(s.records.size() == 3);
  CHECK(s.records[0].record.id == "My-Own ID 42");
  CHECK(s.records[1].record.id == "0192F3A4-5B6C-7D8E-9F00-112233445566");  // not lower-cased
  CHECK(s.records[2].record.id == "day one");
  for (const LocalRecord& r : s.records) CHECK_FALSE(r.assigned);
  CHECK(s.id_splices.empty());
}

// An empty `Id:` line holds no Id: the scan assigns one (no record has an empty id, which the
// remote and base.tsv would refuse).
TEST_CASE("sync_local: an empty Id line gives no record an empty id") {
  const Files files = {{"memory/LONG_TERM.md",
                        "- a\n  Confidence: 0.9\n  Verified: 2026-11-01\n  Id:\n"
                        "- b\n  Confidence: 0.9\n  Verified: 2026-11-01\n  Id:   \n"}};
  const Result<LocalScan> s = scan_local(inputs_of(files), kWorkspace, {}, kNow);
  if (!s) return;  // refusing is fine too
  for (const LocalRecord& r : s->records) {
    CHECK_FALSE(r.record.id.empty());
    CHECK(parse_record_line(record_line(r.record)));
  }
}

// ---- scan_local: what a record holds ----

TEST_CASE("sync_local: unscored memories entries are no records, their Ids are dormant") {
  const Files files = {
      {"memory/LONG_TERM.md",
       "## A\n- no fields\n- only confidence\n  Confidence: 0.9\n  Id: dormant-1\n"
       "- bad confidence\n  Confidence: 1.5\n  Verified: 2026-11-01\n  Id: dormant-2\n"
       "- bad date\n  Confidence: 0.9\n  Verified: 2026-02-30\n"
       "- scored\n  Confidence: 0.9\n  Verified: 2026-11-01\n  Id: live\n"}};
  const LocalScan s = scan(files);
  REQUIRE(s.records.size() == 1);
  CHECK(s.records[0].record.id == "live");
  CHECK(s.dormant == Ids{"dormant-1", "dormant-2"});
  CHECK(s.id_splices.empty());  // unscored entries get no Id
  CHECK(s.findings.empty());
}

TEST_CASE("sync_local: record text leaves out field lines and trailing blank lines, keeps CRLF") {
  const Files files = {
      {"memory/LONG_TERM.md",
       "## A\r\n- fact\r\n  Confidence: 0.90\r\n  more\r\n  Verified: 2026-11-01\r\n"
       "  Id: a\r\n\r\n\r\n- next\r\n  Confidence: 0.5\r\n  Verified: 2026-11-01\r\n  Id: b"},
      {"memory/DECISIONS.md",
       "# DECISIONS\n\n## Use UTC\nConfidence: 0.95\nWhy: clocks drift.\nVerified: 2026-11-01\n"
       "Id: c\n\n  indented\n\n\n## Next\nConfidence: 0.5\nVerified: 2026-11-01\nId: d\n"},
      {"memory/SESSION_LOG.md",
       "### 2026-11-30 s\nId: e\nUpdated: 2026-11-30T08:00:00.000Z\nwork\n\n\n## After\n"},
      {"memory/daily/2026-11-29.md", "Id: f\n\n\n- a\n\n\n"},
      {"memory/daily/2026-11-30.md", "Id: g\n- a"}};
  const LocalScan s = scan(files);
  REQUIRE(s.records.size() == 7);
  CHECK(record_with_id(s, "a").record.text == "- fact\r\n  more\r\n");
  CHECK(record_with_id(s, "b").record.text == "- next\r\n");
  // "Why:" is no field key: it is text.
  CHECK(record_with_id(s, "c").record.text == "## Use UTC\nWhy: clocks drift.\n\n  indented\n");
  CHECK(record_with_id(s, "d").record.text == "## Next\n");
  CHECK(record_with_id(s, "e").record.text == "### 2026-11-30 s\nwork\n");
  // A daily file's text is everything after its Id line and one empty line.
  CHECK(record_with_id(s, "f").record.text == "\n- a\n\n\n");
  CHECK(record_with_id(s, "g").record.text == "- a");
}

TEST_CASE("sync_local: updated_at is a valid Updated field, else the file's modification time") {
  const Files files = {
      {"memory/LONG_TERM.md",
       "- a\n  Confidence: 0.9\n  Verified: 2026-11-01\n  Updated: 2026-11-29T07:00:00.123Z\n"
       "  Id: a\n- b\n  Confidence: 0.9\n  Verified: 2026-11-01\n"
       "  Updated: 2026-11-29T07:00:00Z\n  Id: b\n- c\n  Confidence: 0.9\n  Verified: 2026-11-01\n"
       "  Updated: yesterday\n  Id: c\n- d\n  Confidence: 0.9\n  Verified: 2026-11-01\n  Id: d\n"},
      {"memory/daily/2026-11-30.md", "Id: day\n\nx\n"},
      {"memory/SESSION_LOG.md", "### 2026-11-30\nId: s\n"}};
  const ModifiedTimes modified{{"memory/LONG_TERM.md", std::string(kMtime)},
                               {"memory/daily/2026-11-30.md", "2026-11-30T06:30:00.000Z"}};
  const LocalScan s = scan(files, modified);
  CHECK(record_with_id(s, "a").record.updated_at == "2026-11-29T07:00:00.123Z");
  CHECK(record_with_id(s, "b").record.updated_at == kMtime);  // no milliseconds: not valid
  CHECK(record_with_id(s, "c").record.updated_at == kMtime);
  CHECK(record_with_id(s, "d").record.updated_at == kMtime);
  CHECK(record_with_id(s, "day").record.updated_at == "2026-11-30T06:30:00.000Z");
  // A file without a known modification time: now.
  CHECK(record_with_id(s, "s").record.updated_at == kNowUtc);
}

TEST_CASE("sync_local: a record's category, scores and effective confidence") {
  const Files files = {
      {"memory/LONG_TERM.md",
       "# LONG_TERM\n- before\n  Confidence: 0.9\n  Verified: 2026-11-01\n  Id: before\n"
       "## Stack\n- in h2\n  Confidence: 0.90\n  Verified: 2026-11-01\n  Id: h2\n"
       "### Databases\n- in h3\n  Confidence: 0.9\n  Verified: 2026-10-01\n  Id: h3\n"
       "## Team\n- next h2\n  Confidence: 1\n  Verified: 2026-08-01\n  Id: team\n"
       "# Reset\n- after h1\n  Confidence: 0.5\n  Verified: 2026-12-01\n  Id: h1\n"},
      {"memory/PATTERNS.md",
       "## P1\nConfidence: 0.8\nVerified: 2026-11-30\nId: p1\n\n"
       "## P2\nConfidence: 0.8\nVerified: 2026-11-30\nCategory: Ops\nId: p2\n"}};
  const LocalScan s = scan(files);
  REQUIRE(s.records.size() == 7);
  CHECK_FALSE(record_with_id(s, "before").record.category.has_value());
  CHECK(record_with_id(s, "h2").record.category == "Stack");
  CHECK(record_with_id(s, "h3").record.category == "Stack / Databases");
  CHECK(record_with_id(s, "team").record.category == "Team");
  CHECK_FALSE(record_with_id(s, "h1").record.category.has_value());
  CHECK(record_with_id(s, "p1").record.category == "PATTERNS");
  CHECK(record_with_id(s, "p2").record.category == "Ops");
  const SyncRecord& h2 = record_with_id(s, "h2").record;
  CHECK(h2.confidence == 90u);
  CHECK(h2.verified == "2026-11-01");
  CHECK(h2.workspace_id == kWorkspace);
  CHECK(h2.table == SyncTable::memories);
  CHECK(h2.file == "memory/LONG_TERM.md");
  CHECK_FALSE(h2.deleted);
  // §6 on 2026-11-30: 29 days no penalty, 60 days -0.10, 121 days -0.30, a future date none.
  CHECK(record_with_id(s, "h2").effective == 90u);
  CHECK(record_with_id(s, "h3").effective == 80u);
  CHECK(record_with_id(s, "team").effective == 70u);
  CHECK(record_with_id(s, "h1").effective == 50u);
  // Records come in tier order (LONG_TERM before PATTERNS), then file order.
  CHECK(s.records[0].record.id == "before");
  CHECK(s.records[5].record.id == "p1");
}

TEST_CASE("sync_local: files that do not sync are not read, even when unreadable") {
  Inputs in =
      inputs_of({{"memory/ACTIVE_TASKS.md", "- task\n  Id: t\n"},
                 {"brain/SOUL.md", "```\nunclosed\n"},
                 {"memory/LONG_TERM.md", "- a\n  Confidence: 1\n  Verified: 2026-11-01\n"}});
  const Result<LocalScan> s = scan_local(in, kWorkspace, {}, kNow);
  REQUIRE(s);
  REQUIRE(s->records.size() == 1);
  CHECK(s->records[0].record.file == "memory/LONG_TERM.md");
  CHECK(s->dormant.empty());
}

// ---- scan_local: refusals ----

// How MK-BOX-022 names an entry: its file and first line.
std::string line_of(const std::string& path, const std::string& bytes, std::size_t n) {
  return path + ":" +
         std::to_string(read_entries(path, parse_markdown(bytes)).at(n).first_line);
}

TEST_CASE("sync_local: two entries holding one Id are MK-BOX-022, naming both") {
  const std::string lt =
      "## A\n- one\n  Confidence: 0.9\n  Verified: 2026-11-01\n  Id: dup\n"
      "- two\n  Confidence: 0.9\n  Verified: 2026-11-01\n  Id: dup\n";
  const LocalScan one_file = scan({{"memory/LONG_TERM.md", lt}});
  REQUIRE(one_file.findings.size() == 1);
  const Finding& f = one_file.findings[0];
  CHECK(f.code == "MK-BOX-022");
  CHECK(f.severity == Severity::blocker);
  CHECK(f.path == "memory/LONG_TERM.md");
  const std::string one = line_of("memory/LONG_TERM.md", lt, 0);
  const std::string two = line_of("memory/LONG_TERM.md", lt, 1);
  CHECK(f.message == "the Id dup is held by " + one + " and " + two);

  // Across files, and a dormant entry counts as a holder too.
  const std::string patterns = "## P\nId: dup\nConfidence: 0.9\n";  // unscored
  const LocalScan two_files = scan(
      {{"memory/LONG_TERM.md", "- one\n  Confidence: 0.9\n  Verified: 2026-11-01\n  Id: dup\n"},
       {"memory/PATTERNS.md", patterns},
       {"memory/daily/2026-11-30.md", "Id: dup\n\nx\n"}});
  REQUIRE(two_files.findings.size() == 2);
  for (const Finding& g : two_files.findings) {
    CHECK(g.code == "MK-BOX-022");
    CHECK(g.severity == Severity::blocker);
    CHECK(g.message.find("the Id dup is held by memory/LONG_TERM.md:1 and ") == 0);
  }
  std::set<std::string> paths;
  for (const Finding& g : two_files.findings) paths.insert(g.path);
  CHECK(paths == std::set<std::string>{"memory/PATTERNS.md", "memory/daily/2026-11-30.md"});
  CHECK(std::any_of(two_files.findings.begin(), two_files.findings.end(), [&](const Finding& g) {
    return g.message.ends_with(" and " + line_of("memory/PATTERNS.md", patterns, 0));
  }));
  CHECK(std::any_of(two_files.findings.begin(), two_files.findings.end(), [](const Finding& g) {
    return g.message.ends_with(" and memory/daily/2026-11-30.md:1");
  }));
}

TEST_CASE("sync_local: a synced file that is a link, unreadable or unparseable fails the scan") {
  const auto with = [](EntryState state, std::string error = "") {
    Inputs in = inputs_of({{"memory/daily/2026-11-30.md", "x\n"}});
    std::vector<FileSnapshot> files = in.snapshot.files();
    files.push_back(FileSnapshot{"memory/PATTERNS.md", state, nullptr, std::move(error)});
    in.snapshot = Snapshot(std::move(files));
    return in;
  };
  const Status link = scan_failure(with(EntryState::symlink));
  CHECK(link.code() == Errc::unsafe_path);
  CHECK(link.message() == "memory/PATTERNS.md: a symbolic link");
  const Status dir = scan_failure(with(EntryState::not_a_file));
  CHECK(dir.code() == Errc::unsafe_path);
  CHECK(dir.message() == "memory/PATTERNS.md: not a regular file");
  const Status unreadable = scan_failure(with(EntryState::unreadable, "permission denied"));
  CHECK(unreadable.code() == Errc::io);
  CHECK(unreadable.message() == "memory/PATTERNS.md: unreadable: permission denied");
  // A missing file is simply not there.
  CHECK(scan_local(with(EntryState::missing), kWorkspace, {}, kNow));

  const Status unclosed =
      scan_failure(inputs_of({{"memory/SESSION_LOG.md", "### 2026-11-30\n```\nno end\n"}}));
  CHECK(unclosed.code() == Errc::parse);
  CHECK(unclosed.message().find("memory/SESSION_LOG.md") != std::string::npos);
  const Status utf8 = scan_failure(inputs_of({{"memory/daily/2026-11-30.md", "caf\xC3\n"}}));
  CHECK(utf8.code() == Errc::invalid_utf8);
  CHECK(utf8.message().find("memory/daily/2026-11-30.md") != std::string::npos);
}

// ---- select_push ----

namespace {

const Files kPushed = {
    {"memory/LONG_TERM.md",
     "# LONG_TERM\n\n## Stack\n- Uses PostgreSQL 15\n  Confidence: 0.90\n  Verified: 2026-11-01\n"
     "  Id: id-a\n- Uses Redis 7\n  Confidence: 0.80\n  Verified: 2026-11-01\n"
     "  Updated: 2026-11-29T08:00:00.000Z\n  Id: id-b\n- Will lose its score\n"
     "  Confidence: 0.80\n  Verified: 2026-11-01\n  Id: id-d\n"},
    {"memory/SESSION_LOG.md", "### 2026-11-29 s\nId: id-s\nwork\n"},
    {"memory/daily/2026-11-29.md", "Id: id-day\n\n- a\n"},
};

// Whether two scans found the same: findings, records (and where their entries are), unchanged
// Ids (as text: one may view the files, the other the base), dormant Ids, Id lines and the
// cache's entries (as a set: one scan may find in the cache what the other read).
bool same_scan(const LocalScan& a, const LocalScan& b) {
  const auto texts = [](const std::vector<std::string_view>& ids) {
    return std::vector<std::string>(ids.begin(), ids.end());
  };
  const auto entries = [](std::vector<CachedEntry> cache) {
    std::sort(cache.begin(), cache.end(), [](const CachedEntry& x, const CachedEntry& y) {
      return std::tie(x.fingerprint, x.id_hash, x.digest) <
             std::tie(y.fingerprint, y.id_hash, y.digest);
    });
    return cache;
  };
  bool same = a.findings == b.findings && texts(a.unchanged) == texts(b.unchanged) &&
              a.dormant == b.dormant && a.id_splices == b.id_splices &&
              a.records.size() == b.records.size() && entries(a.cache) == entries(b.cache);
  for (std::size_t i = 0; same && i < a.records.size(); ++i) {
    same = a.records[i].record == b.records[i].record &&
           a.records[i].digest == b.records[i].digest &&
           a.records[i].entry.begin == b.records[i].entry.begin &&
           a.records[i].assigned == b.records[i].assigned;
  }
  return same;
}

// What a push selects, checked to be the same when the scan reads in full only the entries that
// changed since `base` (ScanFocus).
PushSelection push(const Files& files, const SyncBase& base, const Ids& open = {},
                   const ModifiedTimes& modified = {}, std::string_view synced_at = {}) {
  const Inputs in = inputs_of(files);
  const Result<LocalScan> s = scan_local(in, kWorkspace, modified, kNow);
  REQUIRE(s);
  PushSelection full = select_push(in, *s, base, open, kWorkspace, kNow, synced_at);
  const Result<LocalScan> focused = scan_local(in, kWorkspace, modified, kNow, {&base, {}});
  REQUIRE(focused);
  CHECK(focused->findings == s->findings);
  CHECK(focused->records.size() + focused->unchanged.size() == s->records.size());
  const PushSelection same = select_push(in, *focused, base, open, kWorkspace, kNow, synced_at);
  CHECK(same.records == full.records);
  CHECK(same.held == full.held);
  CHECK(same.splices == full.splices);
  // Each file's entries read in two halves on two cores: the same scan, the same selection.
  ScanFocus halves{&base, {}};
  halves.parallel_bytes = 0;
  const Result<LocalScan> split = scan_local(in, kWorkspace, modified, kNow, halves);
  REQUIRE(split);
  CHECK(split->findings == focused->findings);
  CHECK(split->unchanged == focused->unchanged);
  CHECK(split->dormant == focused->dormant);
  CHECK(split->id_splices == focused->id_splices);
  REQUIRE(split->records.size() == focused->records.size());
  for (std::size_t i = 0; i < split->records.size(); ++i) {
    CHECK(split->records[i].record == focused->records[i].record);
    CHECK(split->records[i].digest == focused->records[i].digest);
    CHECK(split->records[i].entry.begin == focused->records[i].entry.begin);
    CHECK(split->records[i].assigned == focused->records[i].assigned);
  }
  const PushSelection two = select_push(in, *split, base, open, kWorkspace, kNow, synced_at);
  CHECK(two.records == full.records);
  CHECK(two.held == full.held);
  CHECK(two.splices == full.splices);
  // With a scan cache of these files (ScanCache), on one core and on two: the bullets the base
  // holds unchanged are found there, the others read in full; the same scan, the same selection.
  const Result<ScanCache> cache = parse_scan_cache(render_scan_cache(focused->cache));
  REQUIRE(cache);
  for (const std::size_t parallel : {std::size_t{1} << 20, std::size_t{0}}) {
    ScanFocus cached{&base, {}};
    cached.parallel_bytes = parallel;
    cached.cache = &*cache;
    const Result<LocalScan> c = scan_local(in, kWorkspace, modified, kNow, cached);
    REQUIRE(c);
    CHECK(same_scan(*c, *focused));
    const PushSelection three = select_push(in, *c, base, open, kWorkspace, kNow, synced_at);
    CHECK(three.records == full.records);
    CHECK(three.held == full.held);
    CHECK(three.splices == full.splices);
  }
  return full;
}

}  // namespace

TEST_CASE("scan_local: with a focus, entries unchanged since the base are only located") {
  const Inputs unchanged_in = inputs_of(kPushed);
  const SyncBase base = base_of(scan(kPushed));
  Files edited = kPushed;
  std::string& lt = edited["memory/LONG_TERM.md"];
  lt.replace(lt.find("Redis 7"), 7, "Redis 8");
  lt += "- No Id yet\n  Confidence: 0.50\n  Verified: 2026-11-30\n";
  const Inputs in = inputs_of(edited);
  const Result<LocalScan> s = scan_local(in, kWorkspace, {}, kNow, {&base, {"id-s"}});
  REQUIRE(s);
  // Read in full: the edited entry, the one without an Id, the focused id and the daily file.
  std::vector<std::string> full;
  for (const LocalRecord& r : s->records) full.push_back(r.assigned ? "new" : r.record.id);
  CHECK(full == std::vector<std::string>{"id-b", "new", "id-s", "id-day"});
  CHECK(s->unchanged == std::vector<std::string_view>{"id-a", "id-d"});
  for (const LocalRecord& r : s->records) CHECK(r.digest == record_digest(r.record));
  // The located Ids are views of the files' bytes.
  const std::string_view bytes = in.snapshot.find("memory/LONG_TERM.md")->text();
  for (const std::string_view id : s->unchanged) {
    CHECK(id.data() >= bytes.data());
    CHECK(id.data() + id.size() <= bytes.data() + bytes.size());
  }
  // Without a base every entry is read in full.
  const Result<LocalScan> all = scan_local(unchanged_in, kWorkspace, {}, kNow, {nullptr, {}});
  REQUIRE(all);
  CHECK(all->unchanged.empty());
  CHECK(all->records.size() == 5);
  // An Id held by two unchanged entries is still MK-BOX-022.
  const std::string twice =
      "- one\n  Confidence: 0.9\n  Verified: 2026-11-01\n  Id: dup\n"
      "- one\n  Confidence: 0.9\n  Verified: 2026-11-01\n  Id: dup\n";
  const Files copied{{"memory/LONG_TERM.md", twice}};
  const SyncBase dup_base = base_of(scan(copied));
  const Result<LocalScan> dup =
      scan_local(inputs_of(copied), kWorkspace, {}, kNow, {&dup_base, {}});
  REQUIRE(dup);
  CHECK(dup->records.empty());
  REQUIRE(dup->findings.size() == 1);
  ScanFocus halves{&dup_base, {}};
  halves.parallel_bytes = 0;  // the two holders in different halves, read on different cores
  const Result<LocalScan> split = scan_local(inputs_of(copied), kWorkspace, {}, kNow, halves);
  REQUIRE(split);
  CHECK(split->findings == dup->findings);
  CHECK(dup->findings[0].message == "the Id dup is held by " +
                                        line_of("memory/LONG_TERM.md", twice, 0) + " and " +
                                        line_of("memory/LONG_TERM.md", twice, 1));
  // Two copies of one entry have one entry ID: their lines tell them apart.
  CHECK(dup->findings[0].message ==
        "the Id dup is held by memory/LONG_TERM.md:1 and memory/LONG_TERM.md:5");
  // An edited copy before an unchanged entry, and two holders of an Id the base never held: each
  // copy found, the first in file order named first.
  const std::string one = "- one\n  Confidence: 0.9\n  Verified: 2026-11-01\n  Id: dup\n";
  const Files single{{"memory/LONG_TERM.md", one}};
  const SyncBase one_base = base_of(scan(single));
  const std::string mixed =
      "- one, edited\n  Confidence: 0.9\n  Verified: 2026-11-01\n  Id: dup\n" + one +
      "- new\n  Confidence: 0.9\n  Verified: 2026-11-01\n  Id: fresh\n" +
      "- new again\n  Confidence: 0.9\n  Verified: 2026-11-01\n  Id: fresh\n";
  const Files both{{"memory/LONG_TERM.md", mixed}};
  for (const std::size_t parallel : {std::size_t{1} << 20, std::size_t{0}}) {
    ScanFocus focus{&one_base, {}};
    focus.parallel_bytes = parallel;
    const Result<LocalScan> found = scan_local(inputs_of(both), kWorkspace, {}, kNow, focus);
    REQUIRE(found);
    CHECK(found->unchanged == std::vector<std::string_view>{"dup"});
    REQUIRE(found->findings.size() == 2);
    std::set<std::string> messages;
    for (const Finding& f : found->findings) messages.insert(f.message);
    CHECK(messages == std::set<std::string>{
                          "the Id dup is held by " + line_of("memory/LONG_TERM.md", mixed, 0) +
                              " and " + line_of("memory/LONG_TERM.md", mixed, 1),
                          "the Id fresh is held by " + line_of("memory/LONG_TERM.md", mixed, 2) +
                              " and " + line_of("memory/LONG_TERM.md", mixed, 3)});
  }
}

TEST_CASE("scan_cache: entries render, append as blocks and parse back, the later one wins") {
  const auto entry = [](std::uint8_t fingerprint, std::uint64_t id_hash, std::uint8_t digest) {
    CachedEntry e;
    e.fingerprint.fill(fingerprint);
    e.id_hash = id_hash;
    e.digest.fill(digest);
    return e;
  };
  const std::vector<CachedEntry> first{entry(1, 10, 0xa1), entry(2, 20, 0xa2)};
  const std::vector<CachedEntry> later{entry(2, 21, 0xb2), entry(3, 30, 0xb3)};
  const std::string whole = render_scan_cache(first) + render_scan_cache_block(later);
  const Result<ScanCache> cache = parse_scan_cache(whole);
  REQUIRE(cache);
  CHECK(cache->whole());
  CHECK(cache->size() == 4);
  CHECK(cache->find(entry(1, 0, 0).fingerprint) == entry(1, 10, 0xa1));
  CHECK(cache->find(entry(2, 0, 0).fingerprint) == entry(2, 21, 0xb2));
  CHECK(cache->find(entry(3, 0, 0).fingerprint) == entry(3, 30, 0xb3));
  CHECK_FALSE(cache->find(entry(4, 0, 0).fingerprint));
  // A block cut short (an append a crash stopped) ends the cache: what came before is kept.
  const Result<ScanCache> cut = parse_scan_cache(whole.substr(0, whole.size() - 1));
  REQUIRE(cut);
  CHECK_FALSE(cut->whole());
  CHECK(cut->size() == 2);
  CHECK(cut->find(entry(2, 0, 0).fingerprint) == entry(2, 20, 0xa2));
  CHECK_FALSE(cut->find(entry(3, 0, 0).fingerprint));
  // A block whose bytes changed fails its checksum, and ends the cache too.
  std::string damaged = whole;
  damaged[damaged.size() - 1] = static_cast<char>(damaged.back() ^ 1);
  const Result<ScanCache> checked = parse_scan_cache(damaged);
  REQUIRE(checked);
  CHECK_FALSE(checked->whole());
  CHECK_FALSE(checked->find(entry(3, 0, 0).fingerprint));
  // Anything else is no cache at all.
  CHECK_FALSE(parse_scan_cache("# memkit scan cache 2\n"));
  CHECK_FALSE(parse_scan_cache(""));
  const Result<ScanCache> empty = parse_scan_cache(render_scan_cache({}));
  REQUIRE(empty);
  CHECK(empty->size() == 0);
  CHECK_FALSE(empty->find(entry(1, 0, 0).fingerprint));
}

TEST_CASE("scan_local: with a scan cache, a bullet is read only when its bytes or its base moved") {
  const Inputs in = inputs_of(kPushed);
  const SyncBase base = base_of(scan(kPushed));
  // A scan without a cache reads every bullet and says so: the cache of what it read.
  const Result<LocalScan> first = scan_local(in, kWorkspace, {}, kNow, {&base, {}});
  REQUIRE(first);
  CHECK(first->cache.size() == 3);  // id-a, id-b and id-d: the bullets of LONG_TERM.md
  CHECK(first->cache_read == first->cache);
  const Result<ScanCache> cache = parse_scan_cache(render_scan_cache(first->cache));
  REQUIRE(cache);
  const auto with_cache = [&](const Files& files, const SyncBase& b, const Ids& ids = {}) {
    const Inputs inputs = inputs_of(files);
    ScanFocus plain{&b, {}};
    ScanFocus cached{&b, {}};
    for (const std::string& id : ids) {
      plain.ids.insert(id);
      cached.ids.insert(id);
    }
    cached.cache = &*cache;
    const Result<LocalScan> full = scan_local(inputs, kWorkspace, {}, kNow, plain);
    const Result<LocalScan> fast = scan_local(inputs, kWorkspace, {}, kNow, cached);
    REQUIRE(full);
    REQUIRE(fast);
    CHECK(same_scan(*fast, *full));
    std::vector<std::string> read;  // the Ids of the bullets read in full
    for (const CachedEntry& e : fast->cache_read) {
      for (const char* id : {"id-a", "id-b", "id-d", "id-x"}) {
        if (fast_hash(id) == e.id_hash) read.emplace_back(id);
      }
    }
    return read;
  };
  // Nothing changed: every bullet is found in the cache, none read.
  CHECK(with_cache(kPushed, base).empty());
  // An edited bullet is read; the others are not.
  Files edited = kPushed;
  std::string& lt = edited["memory/LONG_TERM.md"];
  lt.replace(lt.find("Redis 7"), 7, "Redis 8");
  CHECK(with_cache(edited, base) == std::vector<std::string>{"id-b"});
  // A bullet moved under another heading, its bytes as they were: its category changed.
  Files moved = kPushed;
  std::string& m = moved["memory/LONG_TERM.md"];
  const std::size_t d = m.find("- Will lose its score");
  m = m.substr(0, d) + "## Ops\n" + m.substr(d);
  CHECK(with_cache(moved, base) == std::vector<std::string>{"id-d"});
  // Asked for by Id (a pulled record): read.
  CHECK(with_cache(kPushed, base, {"id-a"}) == std::vector<std::string>{"id-a"});
  // The base moved on for id-a (a pull stored another version): read, though its bytes did not.
  SyncBase moved_on = base;
  moved_on.insert_or_assign(
      "id-a", BaseEntry{SyncTable::memories, "memory/LONG_TERM.md", std::string(32, 'e')});
  CHECK(with_cache(kPushed, moved_on) == std::vector<std::string>{"id-a"});
  // A copy of a bullet, byte for byte: both found in the cache, and still MK-BOX-022, naming both.
  Files copied = kPushed;
  std::string& c = copied["memory/LONG_TERM.md"];
  const std::size_t a = c.find("- Uses PostgreSQL");
  const std::size_t b = c.find("- Uses Redis");
  c += c.substr(a, b - a);
  CHECK(with_cache(copied, base).empty());
  ScanFocus cached{&base, {}};
  cached.cache = &*cache;
  const Result<LocalScan> dup = scan_local(inputs_of(copied), kWorkspace, {}, kNow, cached);
  REQUIRE(dup);
  REQUIRE(dup->findings.size() == 1);
  CHECK(dup->findings[0].message == "the Id id-a is held by " + line_of("memory/LONG_TERM.md", c, 0) +
                                        " and " + line_of("memory/LONG_TERM.md", c, 3));
}

TEST_CASE("select_push: nothing changed since the base, nothing sent or written") {
  const SyncBase base = base_of(scan(kPushed));
  REQUIRE(base.size() == 5);
  const PushSelection p = push(kPushed, base);
  CHECK(p.records.empty());
  CHECK(p.held.empty());
  CHECK(p.splices.empty());
  // A new modification time (the updated_at of an entry without Updated) is no change.
  const PushSelection touched =
      push(kPushed, base, {}, {{"memory/LONG_TERM.md", std::string(kMtime)}});
  CHECK(touched.records.empty());
}

TEST_CASE("select_push: a changed entry is sent at now, and its Updated line set to now") {
  const SyncBase base = base_of(scan(kPushed));
  Files edited = kPushed;
  std::string& lt = edited["memory/LONG_TERM.md"];
  lt.replace(lt.find("PostgreSQL 15"), 13, "PostgreSQL 16");
  lt.replace(lt.find("Redis 7"), 7, "Redis 8");
  edited["memory/SESSION_LOG.md"] = "### 2026-11-29 s\nId: id-s\nwork, more\n";
  edited["memory/daily/2026-11-29.md"] = "Id: id-day\n\n- a\n- b\n";
  const ModifiedTimes modified{{"memory/daily/2026-11-29.md", std::string(kMtime)}};
  const PushSelection p = push(edited, base, {}, modified);
  REQUIRE(p.records.size() == 4);
  CHECK(p.records[0].id == "id-a");
  CHECK(p.records[0].text == "- Uses PostgreSQL 16\n");
  CHECK(p.records[0].updated_at == kNowUtc);
  CHECK(p.records[1].id == "id-b");
  CHECK(p.records[1].updated_at == kNowUtc);  // not its old Updated value
  CHECK(p.records[2].id == "id-s");
  CHECK(p.records[2].updated_at == kNowUtc);
  // A daily file has no Updated line: it is sent with its file's time.
  CHECK(p.records[3].id == "id-day");
  CHECK(p.records[3].updated_at == kMtime);
  CHECK(p.held.empty());
  const Files after = spliced(edited, p.splices);
  CHECK(
      after.at("memory/LONG_TERM.md") ==
      "# LONG_TERM\n\n## Stack\n- Uses PostgreSQL 16\n  Confidence: 0.90\n  Verified: 2026-11-01\n"
      "  Updated: 2026-11-30T09:00:00.000Z\n  Id: id-a\n- Uses Redis 8\n  Confidence: 0.80\n"
      "  Verified: 2026-11-01\n  Updated: 2026-11-30T09:00:00.000Z\n  Id: id-b\n"
      "- Will lose its score\n  Confidence: 0.80\n  Verified: 2026-11-01\n  Id: id-d\n");
  CHECK(after.at("memory/SESSION_LOG.md") ==
        "### 2026-11-29 s\nUpdated: 2026-11-30T09:00:00.000Z\nId: id-s\nwork, more\n");
  CHECK_FALSE(p.splices.contains("memory/daily/2026-11-29.md"));
  // What was sent is what the files say afterwards.
  const LocalScan rescanned = scan(after);
  for (const SyncRecord& sent : p.records) {
    if (sent.table == SyncTable::daily_logs) continue;
    CHECK(record_with_id(rescanned, sent.id).record == sent);
  }
}

TEST_CASE("select_push: an entry whose own Updated is later than the last sync keeps it") {
  const SyncBase base = base_of(scan(kPushed));
  constexpr std::string_view kSynced = "2026-11-30T08:00:00.000Z";
  Files edited = kPushed;
  std::string& lt = edited["memory/LONG_TERM.md"];
  // id-a: edited, no Updated line (its time would be the file's, later than the sync): stamped.
  lt.replace(lt.find("PostgreSQL 15"), 13, "PostgreSQL 16");
  // id-b: edited with its Updated set after the sync (as memkit's own writes do): kept.
  lt.replace(lt.find("Redis 7"), 7, "Redis 8");
  lt.replace(lt.find("2026-11-29T08:00:00.000Z"), 24, "2026-11-30T08:30:00.000Z");
  // id-s: edited, its Updated from before the sync (a hand edit leaves it): stamped.
  edited["memory/SESSION_LOG.md"] =
      "### 2026-11-29 s\nUpdated: 2026-11-30T07:00:00.000Z\nId: id-s\nmore\n";
  const ModifiedTimes modified{{"memory/LONG_TERM.md", "2026-11-30T08:45:00.000Z"}};
  const PushSelection p = push(edited, base, {}, modified, kSynced);
  REQUIRE(p.records.size() == 3);
  CHECK(p.records[0].id == "id-a");
  CHECK(p.records[0].updated_at == kNowUtc);
  CHECK(p.records[1].id == "id-b");
  CHECK(p.records[1].updated_at == "2026-11-30T08:30:00.000Z");
  CHECK(p.records[2].id == "id-s");
  CHECK(p.records[2].updated_at == kNowUtc);
  const Files after = spliced(edited, p.splices);
  CHECK(after.at("memory/LONG_TERM.md")
            .find("Redis 8\n  Confidence: 0.80\n  Verified: 2026-11-01\n"
                  "  Updated: 2026-11-30T08:30:00.000Z\n") != std::string::npos);
  CHECK(after.at("memory/LONG_TERM.md")
            .find("PostgreSQL 16\n  Confidence: 0.90\n  Verified: "
                  "2026-11-01\n  Updated: 2026-11-30T09:00:00.000Z\n") != std::string::npos);
  CHECK(after.at("memory/SESSION_LOG.md") ==
        "### 2026-11-29 s\nUpdated: 2026-11-30T09:00:00.000Z\nId: id-s\nmore\n");
  // Only id-b changed: nothing written, sent with its own time.
  Files only_b = kPushed;
  std::string& b = only_b["memory/LONG_TERM.md"];
  b.replace(b.find("Redis 7"), 7, "Redis 8");
  b.replace(b.find("2026-11-29T08:00:00.000Z"), 24, "2026-11-30T08:30:00.000Z");
  const PushSelection q = push(only_b, base, {}, {}, kSynced);
  REQUIRE(q.records.size() == 1);
  CHECK(q.records[0].updated_at == "2026-11-30T08:30:00.000Z");
  CHECK(q.splices.empty());
  // Its Updated no later than the last sync (equal), or no last sync known: stamped.
  for (const std::string_view synced :
       {std::string_view("2026-11-30T08:30:00.000Z"), std::string_view()}) {
    const PushSelection r = push(only_b, base, {}, {}, synced);
    REQUIRE(r.records.size() == 1);
    CHECK(r.records[0].updated_at == kNowUtc);
    CHECK(r.splices.size() == 1);
  }
}

TEST_CASE("select_push: a new entry is sent with its own updated_at and no Updated line") {
  const SyncBase base = base_of(scan(kPushed));
  Files grown = kPushed;
  grown["memory/LONG_TERM.md"] +=
      "- New with id\n  Confidence: 0.60\n  Verified: 2026-11-30\n"
      "  Updated: 2026-11-29T07:00:00.000Z\n  Id: id-c\n"
      "- New without id\n  Confidence: 0.60\n  Verified: 2026-11-30\n";
  const ModifiedTimes modified{{"memory/LONG_TERM.md", std::string(kMtime)}};
  const PushSelection p = push(grown, base, {}, modified);
  REQUIRE(p.records.size() == 2);
  CHECK(p.records[0].id == "id-c");
  CHECK(p.records[0].updated_at == "2026-11-29T07:00:00.000Z");
  CHECK(p.records[0].text == "- New with id\n");
  CHECK(is_uuid(p.records[1].id));
  CHECK(p.records[1].updated_at == kMtime);
  // Only the new Id line is written.
  REQUIRE(p.splices.size() == 1);
  CHECK(spliced(grown, p.splices).at("memory/LONG_TERM.md") ==
        grown.at("memory/LONG_TERM.md") + "  Id: " + p.records[1].id + "\n");
}

TEST_CASE("select_push: an id with an open conflict is held, not sent, not stamped") {
  const SyncBase base = base_of(scan(kPushed));
  Files edited = kPushed;
  std::string& lt = edited["memory/LONG_TERM.md"];
  lt.replace(lt.find("Redis 7"), 7, "Redis 8");
  lt.replace(lt.find("PostgreSQL 15"), 13, "PostgreSQL 16");
  const PushSelection p = push(edited, base, Ids{"id-b", "id-s", "id-a"});
  CHECK(p.records.empty());
  CHECK(p.held == std::vector<std::string>{"id-a", "id-b", "id-s"});  // sorted
  CHECK(p.splices.empty());
  // An unchanged id with an open conflict is held too.
  CHECK(push(kPushed, base, Ids{"id-day"}).held == std::vector<std::string>{"id-day"});
}

TEST_CASE("select_push: an id of the base that no entry holds is sent as a tombstone, once") {
  SyncBase base = base_of(scan(kPushed));
  base.insert_or_assign("id-gone",
                        BaseEntry{SyncTable::memories, "memory/PATTERNS.md", digest_of('e')});
  base.insert_or_assign(
      "id-also-gone", BaseEntry{SyncTable::session_logs, "memory/SESSION_LOG.md", digest_of('f')});
  Files edited = kPushed;
  edited["memory/LONG_TERM.md"].replace(edited["memory/LONG_TERM.md"].find("PostgreSQL 15"), 13,
                                        "PostgreSQL 16");
  const PushSelection p = push(edited, base);
  REQUIRE(p.records.size() == 3);
  CHECK(p.records[0].id == "id-a");  // local records first, then tombstones by id
  CHECK(p.records[1] == tombstone("id-also-gone", std::string(kWorkspace), SyncTable::session_logs,
                                  "memory/SESSION_LOG.md", std::string(kNowUtc)));
  CHECK(p.records[2] == tombstone("id-gone", std::string(kWorkspace), SyncTable::memories,
                                  "memory/PATTERNS.md", std::string(kNowUtc)));
  // After the push the base holds the tombstones' digests: they are not sent again.
  for (const SyncRecord& r : p.records) {
    base.insert_or_assign(r.id, BaseEntry{r.table, r.file, record_digest(r)});
  }
  const PushSelection again = push(spliced(edited, p.splices), base);
  CHECK(again.records.empty());
  CHECK(again.splices.empty());
  // A tombstone with an open conflict is held.
  SyncBase open_base = base_of(scan(kPushed));
  open_base.insert_or_assign("id-gone",
                             BaseEntry{SyncTable::memories, "memory/PATTERNS.md", digest_of('e')});
  const PushSelection held = push(kPushed, open_base, Ids{"id-gone"});
  CHECK(held.records.empty());
  CHECK(held.held == std::vector<std::string>{"id-gone"});
}

TEST_CASE("select_push: an entry that became unscored is dormant, not deleted") {
  const SyncBase base = base_of(scan(kPushed));
  Files edited = kPushed;
  std::string& lt = edited["memory/LONG_TERM.md"];
  const std::size_t at = lt.find("  Confidence: 0.80\n  Verified: 2026-11-01\n  Id: id-d");
  REQUIRE(at != std::string::npos);
  lt.erase(at, std::string_view("  Confidence: 0.80\n").size());
  const PushSelection p = push(edited, base);
  CHECK(p.records.empty());
  CHECK(p.splices.empty());
  // Deleting the entry itself sends the tombstone.
  lt.erase(lt.find("- Will lose its score"));
  const PushSelection deleted = push(edited, base);
  REQUIRE(deleted.records.size() == 1);
  CHECK(deleted.records[0] == tombstone("id-d", std::string(kWorkspace), SyncTable::memories,
                                        "memory/LONG_TERM.md", std::string(kNowUtc)));
}

TEST_CASE("select_push: on a first push everything is sent as it is, with the new Id lines") {
  Files fresh = kPushed;
  fresh["memory/MISTAKES.md"] = "## M\nConfidence: 0.7\nVerified: 2026-11-20\nbody\n";
  const LocalScan s = scan(fresh);
  const PushSelection p = push(fresh, SyncBase{});
  REQUIRE(p.records.size() == s.records.size());
  for (std::size_t i = 0; i < s.records.size(); ++i) CHECK(p.records[i] == s.records[i].record);
  CHECK(p.splices == s.id_splices);
  CHECK(spliced(fresh, p.splices).at("memory/MISTAKES.md") ==
        "## M\nConfidence: 0.7\nVerified: 2026-11-20\nId: " +
            record_in(s, "memory/MISTAKES.md", 0).record.id + "\nbody\n");
}

TEST_CASE("sync_local: a record's digest is the same from build to build, in both versions") {
  const SyncRecord r{.id = "id-golden",
                     .workspace_id = std::string(kWorkspace),
                     .table = SyncTable::memories,
                     .file = "memory/LONG_TERM.md",
                     .category = "Stack",
                     .text = "- Uses PostgreSQL 15\n",
                     .confidence = 90,
                     .verified = "2026-11-01",
                     .updated_at = std::string(kNowUtc),
                     .deleted = false};
  // As memkit at aaeee16 wrote it in base.tsv for this entry (version 1).
  CHECK(record_digest(r, BaseDigests::sha256) == "2b4bce31cf228d467d34cf1642f94969");
  CHECK(record_digest(r) == "50aaa084fedc23711b06fc7d5bff673f");
}

TEST_CASE(
    "sync_local: a base of version 1 (no first line) keeps SHA-256 digests: compared and "
    "appended to as they are") {
  const LocalScan full = scan(kPushed);
  std::string v1;  // base.tsv as memkit wrote it before version 2
  for (const LocalRecord& r : full.records) {
    const std::string sha = record_digest(r.record, BaseDigests::sha256);
    CHECK(sha != record_digest(r.record));
    CHECK(sha.size() == 32);
    CHECK(sha.find_first_not_of("0123456789abcdef") == std::string::npos);
    v1 += sha + "\t" + std::string(sync_table_name(r.record.table)) + "\t" + r.record.file + "\t" +
          r.record.id + "\n";
  }
  const Result<SyncBase> base = parse_sync_base(v1);
  REQUIRE(base);
  CHECK(base->digests() == BaseDigests::sha256);
  CHECK(render_sync_base(*base).rfind('#', 0) == std::string::npos);  // still version 1
  const Result<SyncBase> again = parse_sync_base(render_sync_base(*base));
  REQUIRE(again);
  CHECK(*again == *base);
  // Nothing changed: nothing to send; one edit: that record alone, with the base's digests.
  CHECK(push(kPushed, *base).records.empty());
  Files edited = kPushed;
  std::string& lt = edited["memory/LONG_TERM.md"];
  lt.replace(lt.find("Redis 7"), 7, "Redis 8");
  const PushSelection one = push(edited, *base);
  REQUIRE(one.records.size() == 1);
  CHECK(one.records[0].id == "id-b");
  const Result<LocalScan> focused =
      scan_local(inputs_of(edited), kWorkspace, {}, kNow, {&*base, {}});
  REQUIRE(focused);
  CHECK(focused->digests == BaseDigests::sha256);
  REQUIRE(focused->records.size() == 2);  // the edit and the daily file, always read in full
  for (const LocalRecord& r : focused->records) {
    CHECK(r.digest == record_digest(r.record, BaseDigests::sha256));
  }
}

TEST_CASE(
    "scan_local: files parsed beforehand are used only where they were parsed from its bytes") {
  const SyncBase base = base_of(scan(kPushed));
  const Inputs in = inputs_of(kPushed);
  const ParsedFiles parsed = parse_synced_files(in);
  std::vector<std::string> paths;
  for (const auto& [path, doc] : parsed) paths.push_back(path);
  CHECK(paths == std::vector<std::string>{"memory/LONG_TERM.md", "memory/SESSION_LOG.md",
                                          "memory/daily/2026-11-29.md"});
  const Result<LocalScan> plain = scan_local(in, kWorkspace, {}, kNow, {&base, {}});
  REQUIRE(plain);
  ScanFocus given{&base, {}};
  given.parsed = &parsed;
  const Result<LocalScan> reused = scan_local(in, kWorkspace, {}, kNow, given);
  REQUIRE(reused);
  CHECK(reused->unchanged == plain->unchanged);
  CHECK(reused->records.size() == plain->records.size());
  for (const auto& [path, doc] : parsed) {
    CHECK(reused->documents.at(path).units().data() == doc.units().data());  // the same parse
  }
  // Parsed from other bytes (the files changed since): parsed again, from the inputs' own.
  Files edited = kPushed;
  edited["memory/LONG_TERM.md"] += "- Another\n  Confidence: 0.50\n  Verified: 2026-11-30\n";
  const ParsedFiles stale = parse_synced_files(inputs_of(edited));
  given.parsed = &stale;
  const Result<LocalScan> fresh = scan_local(in, kWorkspace, {}, kNow, given);
  REQUIRE(fresh);
  CHECK(fresh->records.size() == plain->records.size());
  CHECK(fresh->documents.at("memory/LONG_TERM.md").bytes().data() ==
        in.snapshot.find("memory/LONG_TERM.md")->text().data());
}
