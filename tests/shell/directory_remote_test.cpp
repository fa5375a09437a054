// The directory remote of MemoryBox sync (spec memorybox.md §9, memkit/sync_remote.hpp) on real
// folders: lossless round trips, cursors, the idempotent upsert and its refusals, workspaces kept
// apart, crashed pushes cut off, bad lines named, concurrent pushes and pulls serialised by the
// lock; and the fast line writer and reader held to memorybox::record_line and parse_record_line.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <latch>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "codec/canonical.hpp"
#include "memkit/memorybox/sync.hpp"
#include "memorybox/sync_files.hpp"
#include "memorybox/record_lines.hpp"
#include "sync/remote.hpp"
#include "temp_dir.hpp"

namespace memkit::shell_test {
namespace {

using namespace std::string_literals;
using memorybox::SyncRecord;
using memorybox::SyncTable;
using sync::Pulled;
using sync::Refusal;
using sync::Remote;

const std::string kA = "0190d7a0-1c2b-7a3d-9e4f-5a6b7c8d9e0a";
const std::string kB = "0190d7a0-1c2b-7a3d-9e4f-5a6b7c8d9e0b";

// 2026-05-01T10:00:00.000Z plus `ms` milliseconds (under an hour).
std::string at(int ms) {
  char out[32];
  std::snprintf(out, sizeof out, "2026-05-01T10:%02d:%02d.%03dZ", ms / 60000, ms / 1000 % 60,
                ms % 1000);
  return out;
}

SyncRecord memory(const std::string& workspace, const std::string& id, const std::string& text,
                  int ms) {
  return SyncRecord{.id = id,
                    .workspace_id = workspace,
                    .table = SyncTable::memories,
                    .file = "memory/LONG_TERM.md",
                    .category = "fact",
                    .text = text,
                    .confidence = 80,
                    .verified = "2026-04-30",
                    .updated_at = at(ms),
                    .deleted = false};
}

SyncRecord session_log(const std::string& workspace, const std::string& id, const std::string& text,
                       int ms) {
  return SyncRecord{.id = id,
                    .workspace_id = workspace,
                    .table = SyncTable::session_logs,
                    .file = "memory/SESSION_LOG.md",
                    .category = std::nullopt,
                    .text = text,
                    .confidence = std::nullopt,
                    .verified = std::nullopt,
                    .updated_at = at(ms),
                    .deleted = false};
}

SyncRecord daily_log(const std::string& workspace, const std::string& id, const std::string& text,
                     int ms) {
  SyncRecord record = session_log(workspace, id, text, ms);
  record.table = SyncTable::daily_logs;
  record.file = "memory/daily/2026-05-01.md";
  return record;
}

std::unique_ptr<Remote> open_remote(const TempDir& dir) {
  Result<std::unique_ptr<Remote>> remote = sync::open_directory_remote(dir.str());
  REQUIRE(remote.ok());
  return std::move(remote).value();
}

std::vector<Refusal> push(Remote& remote, const std::string& workspace,
                          const std::vector<SyncRecord>& records) {
  Result<std::vector<Refusal>> refused = remote.push(workspace, records);
  REQUIRE_MESSAGE(refused.ok(), refused.status().message());
  return std::move(refused).value();
}

Pulled pull(Remote& remote, const std::string& workspace, const std::string& cursor = "") {
  Result<Pulled> pulled = remote.pull(workspace, cursor);
  REQUIRE_MESSAGE(pulled.ok(), pulled.status().message());
  return std::move(pulled).value();
}

std::string lines_of(const std::vector<SyncRecord>& records) {
  std::string out;
  for (const SyncRecord& record : records) out += memorybox::record_line(record);
  return out;
}

std::vector<std::string> ids_of(const std::vector<SyncRecord>& records) {
  std::vector<std::string> out;
  for (const SyncRecord& record : records) out.push_back(record.id);
  return out;
}

// record_line through a JSON tree and canonical_dump: the reference the direct writer is held to.
std::string json_record_line(const SyncRecord& r) {
  using memkit::detail::utf8;
  const auto optional = [](const std::optional<std::string>& text) {
    return text ? utf8(*text) : nlohmann::json(nullptr);
  };
  nlohmann::json o = nlohmann::json::object();
  o["id"] = utf8(r.id);
  o["workspace_id"] = utf8(r.workspace_id);
  o["table"] = std::string(memorybox::sync_table_name(r.table));
  o["file"] = utf8(r.file);
  o["category"] = optional(r.category);
  o["text"] = utf8(r.text);
  o["confidence"] = r.confidence ? nlohmann::json(*r.confidence) : nlohmann::json(nullptr);
  o["verified"] = optional(r.verified);
  o["updated_at"] = utf8(r.updated_at);
  o["deleted"] = r.deleted;
  return memkit::detail::canonical_dump(o) + "\n";
}

// Returns true iff the direct line reader agrees with the JSON-tree reader on `line`: a record it
// reads is the JSON reader's, and it reads every line in canonical form.
bool readers_agree(const std::string& line) {
  const std::optional<SyncRecord> fast = memorybox::detail::read_canonical_record_line(line);
  const Result<SyncRecord> slow = memorybox::detail::parse_record_line_json(line);
  if (fast) return slow.ok() && *fast == *slow;
  std::string with_lf = line;
  if (with_lf.empty() || with_lf.back() != '\n') with_lf += '\n';
  return !(slow.ok() && json_record_line(*slow) == with_lf);
}

}  // namespace

TEST_CASE("shell: a directory remote opens an existing folder only") {
  TempDir dir;
  const std::string missing = dir / "none";
  const Result<std::unique_ptr<Remote>> absent = sync::open_directory_remote(missing);
  REQUIRE_FALSE(absent.ok());
  CHECK(absent.status().code() == Errc::not_found);
  CHECK(absent.status().message() == missing + ": no such folder");

  write_bytes(dir.path() / "file", "x\n");
  const Result<std::unique_ptr<Remote>> file = sync::open_directory_remote(dir / "file");
  REQUIRE_FALSE(file.ok());
  CHECK(file.status().code() == Errc::invalid_argument);

  const std::unique_ptr<Remote> remote = open_remote(dir);
  CHECK(remote->describe() == "directory " + dir.str());
  const Pulled empty = pull(*remote, kA);  // no files yet: an empty remote
  CHECK(empty.records.empty());
  CHECK(empty.cursor == "0,0,0");
  CHECK(tree_of(dir.path()) == std::vector<std::string>{".lock", "file"});
}

TEST_CASE("shell: a directory remote round-trips all three tables byte for byte") {
  TempDir dir;
  const std::unique_ptr<Remote> remote = open_remote(dir);
  SyncRecord tombstone = memory(kA, "0190d7a0-0000-7000-8000-000000000003", "gone", 3);
  tombstone.deleted = true;
  tombstone.confidence = std::nullopt;
  tombstone.verified = std::nullopt;
  tombstone.category = std::nullopt;
  const std::vector<SyncRecord> memories = {
      memory(kA, "0190d7a0-0000-7000-8000-000000000001",
             "- Tabs\there, a back\\slash, \"quotes\", CRLF\r\nand ```fences``` \x01", 1),
      memory(kA, "mem-2", "- Unicode: café, 日本語, emoji 🚀, U+2028 \u2028 end", 2), tombstone};
  const std::vector<SyncRecord> sessions = {
      session_log(kA, "sess-1", "## Session 1\n\n- did `x`\r\n- and\ty\n", 4)};
  const std::vector<SyncRecord> days = {
      daily_log(kA, "day-1", "# 2026-05-01\n\n- worked \\ rested\n\n", 5)};

  std::vector<SyncRecord> all = memories;
  all.insert(all.end(), sessions.begin(), sessions.end());
  all.insert(all.end(), days.begin(), days.end());
  // Pushed out of table order: the pull returns table order.
  std::vector<SyncRecord> shuffled = {days[0], memories[0], sessions[0], memories[1], memories[2]};
  CHECK(push(*remote, kA, shuffled).empty());

  CHECK(read_bytes(dir.path() / "memories.jsonl") == lines_of(memories));
  CHECK(read_bytes(dir.path() / "session_logs.jsonl") == lines_of(sessions));
  CHECK(read_bytes(dir.path() / "daily_logs.jsonl") == lines_of(days));

  const Pulled pulled = pull(*remote, kA);
  CHECK(pulled.records == all);
  CHECK(pulled.cursor == std::to_string(lines_of(memories).size()) + "," +
                             std::to_string(lines_of(sessions).size()) + "," +
                             std::to_string(lines_of(days).size()));
}

TEST_CASE("shell: a directory remote creates a table's file on its first push") {
  TempDir dir;
  const std::unique_ptr<Remote> remote = open_remote(dir);
  CHECK(push(*remote, kA, {memory(kA, "m1", "- one", 1)}).empty());
  CHECK(tree_of(dir.path()) == std::vector<std::string>{".lock", "memories.jsonl"});
  CHECK(pull(*remote, kA).cursor ==
        std::to_string(fs::file_size(dir.path() / "memories.jsonl")) + ",0,0");
}

TEST_CASE("shell: a directory remote's cursor returns only what was pushed after it") {
  TempDir dir;
  const std::unique_ptr<Remote> remote = open_remote(dir);
  CHECK(push(*remote, kA, {memory(kA, "m1", "- one", 1), memory(kA, "m2", "- two", 2)}).empty());
  const Pulled first = pull(*remote, kA);
  CHECK(ids_of(first.records) == std::vector<std::string>{"m1", "m2"});

  // A newer m1 and a new log entry.
  const SyncRecord m1_again = memory(kA, "m1", "- one, edited", 10);
  CHECK(push(*remote, kA, {m1_again, session_log(kA, "s1", "- session", 11)}).empty());
  const Pulled second = pull(*remote, kA, first.cursor);
  CHECK(ids_of(second.records) == std::vector<std::string>{"m1", "s1"});
  CHECK(second.records[0] == m1_again);

  const Pulled third = pull(*remote, kA, second.cursor);
  CHECK(third.records.empty());
  CHECK(third.cursor == second.cursor);

  // From the beginning, m1 appears once, at the place of its latest line.
  const Pulled everything = pull(*remote, kA);
  CHECK(ids_of(everything.records) == std::vector<std::string>{"m2", "m1", "s1"});
  CHECK(everything.records[1] == m1_again);
  CHECK(everything.cursor == second.cursor);
}

TEST_CASE("shell: a directory remote restarts a stale cursor and refuses a malformed one") {
  TempDir dir;
  const std::unique_ptr<Remote> remote = open_remote(dir);
  CHECK(push(*remote, kA, {memory(kA, "m1", "- one", 1), memory(kA, "m2", "- two", 2)}).empty());
  const Pulled before = pull(*remote, kA);

  // The file was replaced by a shorter one: the cursor is past its end.
  const std::string shorter = memorybox::record_line(memory(kA, "m3", "- three", 3));
  write_bytes(dir.path() / "memories.jsonl", shorter);
  const Pulled restarted = pull(*remote, kA, before.cursor);
  CHECK(ids_of(restarted.records) == std::vector<std::string>{"m3"});
  CHECK(restarted.cursor == std::to_string(shorter.size()) + ",0,0");

  // Replaced by a longer file, whose byte before the cursor is no LF: the cursor points into a
  // line, so it is stale too.
  const std::string longer =
      memorybox::record_line(memory(kA, "m4", "- " + std::string(1000, 'x'), 4));
  write_bytes(dir.path() / "memories.jsonl", longer);
  const Pulled replaced = pull(*remote, kA, before.cursor);
  CHECK(ids_of(replaced.records) == std::vector<std::string>{"m4"});
  CHECK(replaced.cursor == std::to_string(longer.size()) + ",0,0");

  for (const std::string bad : {"1,2", "1,2,3,4", "a,b,c", "1,,3", "-1,0,0", " 1,0,0", "1,0,0,"}) {
    const Result<Pulled> refused = remote->pull(kA, bad);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.status().code() == Errc::invalid_argument);
  }
}

TEST_CASE("shell: a repeated directory push is acknowledged and appends nothing") {
  TempDir dir;
  const std::unique_ptr<Remote> remote = open_remote(dir);
  const std::vector<SyncRecord> records = {memory(kA, "m1", "- one", 1),
                                           daily_log(kA, "d1", "- day", 2)};
  CHECK(push(*remote, kA, records).empty());
  const std::string memories = read_bytes(dir.path() / "memories.jsonl");
  const std::string days = read_bytes(dir.path() / "daily_logs.jsonl");
  const Pulled first = pull(*remote, kA);

  CHECK(push(*remote, kA, records).empty());  // a push repeated after a timeout
  CHECK(read_bytes(dir.path() / "memories.jsonl") == memories);
  CHECK(read_bytes(dir.path() / "daily_logs.jsonl") == days);
  CHECK(pull(*remote, kA, first.cursor).records.empty());

  // Invalid UTF-8 is stored repaired (U+FFFD), and the same push again is acknowledged too.
  const SyncRecord broken = memory(kA, "m\xff", "- caf\xc3", 3);
  CHECK(push(*remote, kA, {broken}).empty());
  const std::uint64_t size = fs::file_size(dir.path() / "memories.jsonl");
  CHECK(push(*remote, kA, {broken}).empty());
  CHECK(fs::file_size(dir.path() / "memories.jsonl") == size);
  const Pulled repaired = pull(*remote, kA, first.cursor);
  REQUIRE(repaired.records.size() == 1);
  CHECK(repaired.records[0].id == "m\xef\xbf\xbd");
  CHECK(repaired.records[0].text == "- caf\xef\xbf\xbd");
}

TEST_CASE("shell: a directory push stores newer versions and refuses older or rival ones") {
  TempDir dir;
  const std::unique_ptr<Remote> remote = open_remote(dir);
  CHECK(push(*remote, kA, {memory(kA, "m1", "- v5", 5), session_log(kA, "s1", "- v5", 5)}).empty());
  const std::uint64_t size = fs::file_size(dir.path() / "memories.jsonl");

  const std::vector<Refusal> refused =
      push(*remote, kA,
           {memory(kA, "m1", "- v4", 4), session_log(kA, "s1", "- rival v5", 5),
            memory(kA, "m2", "- new", 6)});
  REQUIRE(refused.size() == 2);
  CHECK(refused[0].table == SyncTable::memories);
  CHECK(refused[0].id == "m1");
  CHECK(refused[0].reason == "the remote holds a newer version");
  CHECK(refused[1].table == SyncTable::session_logs);
  CHECK(refused[1].id == "s1");
  CHECK(refused[1].reason == "the remote holds a different version with the same updated_at");
  // Only m2 was appended.
  CHECK(fs::file_size(dir.path() / "memories.jsonl") ==
        size + memorybox::record_line(memory(kA, "m2", "- new", 6)).size());

  CHECK(push(*remote, kA, {memory(kA, "m1", "- v7", 7)}).empty());
  const Pulled pulled = pull(*remote, kA);
  CHECK(pulled.records == std::vector<SyncRecord>{memory(kA, "m2", "- new", 6),
                                                  memory(kA, "m1", "- v7", 7),
                                                  session_log(kA, "s1", "- v5", 5)});

  // Within one push, each record meets the ones before it.
  const std::vector<Refusal> in_one =
      push(*remote, kA,
           {memory(kA, "m3", "- v1", 1), memory(kA, "m3", "- v2", 2),
            memory(kA, "m3", "- v1 again", 1), memory(kA, "m3", "- v2", 2)});
  REQUIRE(in_one.size() == 1);
  CHECK(in_one[0].reason == "the remote holds a newer version");
  CHECK(pull(*remote, kA, pulled.cursor).records ==
        std::vector<SyncRecord>{memory(kA, "m3", "- v2", 2)});
}

TEST_CASE("shell: a directory remote keeps workspaces apart") {
  TempDir dir;
  const std::unique_ptr<Remote> remote = open_remote(dir);
  const std::vector<SyncRecord> a_records = {memory(kA, "m1", "- A's", 5),
                                             session_log(kA, "s1", "- A's session", 5)};
  CHECK(push(*remote, kA, a_records).empty());
  const std::string a_memories = read_bytes(dir.path() / "memories.jsonl");
  const std::string a_sessions = read_bytes(dir.path() / "session_logs.jsonl");
  const Pulled a_before = pull(*remote, kA);

  const Pulled b_empty = pull(*remote, kB);
  CHECK(b_empty.records.empty());

  // B pushes the same ids, older than A's: stored, since B has no rows of its own.
  const std::vector<SyncRecord> b_records = {memory(kB, "m1", "- B's", 1),
                                             session_log(kB, "s1", "- B's session", 1)};
  CHECK(push(*remote, kB, b_records).empty());
  CHECK(pull(*remote, kB).records == b_records);
  CHECK(pull(*remote, kB, b_empty.cursor).records == b_records);

  // A's lines are untouched and A sees nothing new.
  const std::string memories = read_bytes(dir.path() / "memories.jsonl");
  const std::string sessions = read_bytes(dir.path() / "session_logs.jsonl");
  CHECK(memories.substr(0, a_memories.size()) == a_memories);
  CHECK(sessions.substr(0, a_sessions.size()) == a_sessions);
  CHECK(pull(*remote, kA).records == a_before.records);
  CHECK(pull(*remote, kA, a_before.cursor).records.empty());

  // A record of another workspace than the pushed one is refused as a whole push.
  const Result<std::vector<Refusal>> mixed =
      remote->push(kA, std::vector<SyncRecord>{memory(kA, "m9", "- ok", 9), b_records[0]});
  REQUIRE_FALSE(mixed.ok());
  CHECK(mixed.status().code() == Errc::invalid_argument);
  CHECK(read_bytes(dir.path() / "memories.jsonl") == memories);
}

TEST_CASE("shell: a directory remote ignores a crashed push's partial line, and cuts it") {
  TempDir dir;
  const std::unique_ptr<Remote> remote = open_remote(dir);
  CHECK(push(*remote, kA, {memory(kA, "m1", "- one", 1), memory(kA, "m2", "- two", 2)}).empty());
  const std::string complete = read_bytes(dir.path() / "memories.jsonl");
  const std::string torn = memorybox::record_line(memory(kA, "m3", "- three", 3));
  write_bytes(dir.path() / "memories.jsonl", complete + torn.substr(0, torn.size() / 2));

  const Pulled pulled = pull(*remote, kA);
  CHECK(ids_of(pulled.records) == std::vector<std::string>{"m1", "m2"});
  CHECK(pulled.cursor == std::to_string(complete.size()) + ",0,0");

  // Only a session record is pushed: the memories file is cut all the same.
  CHECK(push(*remote, kA, {session_log(kA, "s1", "- s", 4)}).empty());
  CHECK(read_bytes(dir.path() / "memories.jsonl") == complete);

  const std::string m4 = memorybox::record_line(memory(kA, "m4", "- four", 4));
  write_bytes(dir.path() / "memories.jsonl", complete + "{\"id\":");
  CHECK(push(*remote, kA, {memory(kA, "m4", "- four", 4)}).empty());
  CHECK(read_bytes(dir.path() / "memories.jsonl") == complete + m4);
  const Pulled next = pull(*remote, kA, pulled.cursor);
  CHECK(ids_of(next.records) == std::vector<std::string>{"m4", "s1"});

  // A file that is one partial line and nothing else.
  write_bytes(dir.path() / "daily_logs.jsonl", "{\"id\":\"d");
  CHECK(pull(*remote, kA).records.size() == 4);
  CHECK(push(*remote, kA, {daily_log(kA, "d1", "- day", 5)}).empty());
  CHECK(read_bytes(dir.path() / "daily_logs.jsonl") ==
        memorybox::record_line(daily_log(kA, "d1", "- day", 5)));
}

TEST_CASE("shell: a directory push that fails part way leaves every file as it was") {
  TempDir dir;
  const std::unique_ptr<Remote> remote = open_remote(dir);
  CHECK(push(*remote, kA, {memory(kA, "m1", "- one", 1)}).empty());
  const std::string memories = read_bytes(dir.path() / "memories.jsonl");
  // session_logs.jsonl cannot be created: a link into a folder that does not exist.
  fs::create_symlink(dir.path() / "none/session_logs.jsonl", dir.path() / "session_logs.jsonl");
  const Result<std::vector<Refusal>> failed = remote->push(
      kA, std::vector<SyncRecord>{memory(kA, "m2", "- two", 2), session_log(kA, "s1", "- s", 2)});
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.status().code() == Errc::io);
  CHECK(failed.status().message().rfind(dir / "session_logs.jsonl: ", 0) == 0);
  CHECK(read_bytes(dir.path() / "memories.jsonl") == memories);  // m2 was cut off again
  CHECK(ids_of(pull(*remote, kA).records) == std::vector<std::string>{"m1"});
}

TEST_CASE("shell: a directory remote names the file and line of a bad line") {
  TempDir dir;
  const std::unique_ptr<Remote> remote = open_remote(dir);
  CHECK(push(*remote, kA, {memory(kA, "m1", "- one", 1), memory(kA, "m2", "- two", 2)}).empty());
  const Pulled first = pull(*remote, kA);
  const std::string path = dir / "memories.jsonl";
  const std::string good = read_bytes(path);

  SUBCASE("not JSON, after the cursor") {
    write_bytes(path, good + memorybox::record_line(memory(kA, "m3", "- three", 3)) + "oops\n");
    for (const std::string& cursor : {std::string(), first.cursor}) {
      const Result<Pulled> pulled = remote->pull(kA, cursor);
      REQUIRE_FALSE(pulled.ok());
      CHECK(pulled.status().code() == Errc::parse);
      CHECK(pulled.status().message().rfind(path + ":4: ", 0) == 0);
    }
    const Result<std::vector<Refusal>> pushed =
        remote->push(kA, std::vector<SyncRecord>{memory(kA, "m5", "- x", 5)});
    REQUIRE_FALSE(pushed.ok());
    CHECK(pushed.status().code() == Errc::parse);
    CHECK(pushed.status().message().rfind(path + ":4: ", 0) == 0);
  }
  SUBCASE("a record of another table") {
    write_bytes(path, memorybox::record_line(session_log(kA, "s1", "- s", 3)) + good);
    const Result<Pulled> pulled = remote->pull(kA, "");
    REQUIRE_FALSE(pulled.ok());
    CHECK(pulled.status().code() == Errc::parse);
    CHECK(pulled.status().message() == path + ":1: a session_logs record in memories.jsonl");
  }
  SUBCASE("a line of another workspace is checked too") {
    SyncRecord bad = memory(kB, "m1", "- b", 3);
    std::string line = memorybox::record_line(bad);
    line.replace(line.find("\"confidence\":80"), 15, "\"confidence\":101");
    write_bytes(path, good + line);
    const Result<Pulled> pulled = remote->pull(kA, "");
    REQUIRE_FALSE(pulled.ok());
    CHECK(pulled.status().message() == path + ":3: confidence is not an integer 0-100 or null");
  }
}

TEST_CASE("shell: a directory push reads the rows of its own ids only") {
  TempDir dir;
  const std::unique_ptr<Remote> remote = open_remote(dir);
  CHECK(push(*remote, kA, {memory(kA, "m1", "- one", 1), memory(kA, "m2", "- two", 2)}).empty());
  const std::string path = dir / "memories.jsonl";
  // m1's row made invalid (a pull names it): a push of m2 passes over it, a push of m1 does not.
  std::string bytes = read_bytes(path);
  bytes.replace(bytes.find("\"confidence\":"), 15, "\"confidence\":101");
  write_bytes(path, bytes);
  const Result<Pulled> pulled = remote->pull(kA, "");
  REQUIRE_FALSE(pulled.ok());
  CHECK(pulled.status().message() == path + ":1: confidence is not an integer 0-100 or null");
  const std::vector<Refusal> older = push(*remote, kA, {memory(kA, "m2", "- two, older", 1)});
  REQUIRE(older.size() == 1);  // m2's row was read: the older version is refused
  CHECK(older[0].id == "m2");
  CHECK(push(*remote, kA, {memory(kA, "m2", "- two, newer", 3)}).empty());
  const Result<std::vector<Refusal>> own =
      remote->push(kA, std::vector<SyncRecord>{memory(kA, "m1", "- one, newer", 4)});
  REQUIRE_FALSE(own.ok());
  CHECK(own.status().message() == path + ":1: confidence is not an integer 0-100 or null");

  // An id stored with a byte that is not UTF-8 is not passed over: the line is read in full, and
  // refused as a pull refuses it, whichever id is pushed.
  std::string raw = memorybox::record_line(memory(kA, "m9", "- raw", 5));
  raw.replace(raw.find("\"id\":\"m9\"") + 7, 1, "\xFF");
  write_bytes(path, raw);
  for (const std::string& id : {std::string("m9"), std::string("m2")}) {
    const Result<std::vector<Refusal>> stopped =
        remote->push(kA, std::vector<SyncRecord>{memory(kA, id, "- x", 6)});
    REQUIRE_FALSE(stopped.ok());
    CHECK(stopped.status().message().rfind(path + ":1: invalid UTF-8", 0) == 0);
  }
}

TEST_CASE("shell: a directory push refuses a record a pull could not read, writing nothing") {
  TempDir dir;
  const std::unique_ptr<Remote> remote = open_remote(dir);
  SyncRecord unscored = memory(kA, "m1", "- one", 1);
  unscored.confidence = std::nullopt;
  const Result<std::vector<Refusal>> refused =
      remote->push(kA, std::vector<SyncRecord>{memory(kA, "m0", "- zero", 1), unscored});
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().code() == Errc::invalid_argument);
  CHECK(refused.status().message() == "record m1: a memories record lacks confidence or verified");
  CHECK_FALSE(fs::exists(dir.path() / "memories.jsonl"));
}

TEST_CASE("shell: a directory remote reads a valid line in another JSON form as its record") {
  TempDir dir;
  const std::unique_ptr<Remote> remote = open_remote(dir);
  const SyncRecord m1 = memory(kA, "m1", "- caf\u00e9 / \"q\"", 5);
  // Keys out of order, blanks, and escapes the canonical form does not use.
  const std::string by_hand =
      "{ \"workspace_id\": \"" + kA +
      "\", \"id\": \"m1\", \"table\": \"memories\", \"file\": \"memory\\/LONG_TERM.md\", "
      "\"category\": \"fact\", \"text\": \"- caf\\u00e9 \\/ \\\"q\\\"\", \"confidence\": 80, "
      "\"verified\": \"2026-04-30\", \"updated_at\": \"" +
      at(5) + "\", \"deleted\": false }\n";
  write_bytes(dir.path() / "memories.jsonl", by_hand);
  CHECK(pull(*remote, kA).records == std::vector<SyncRecord>{m1});

  CHECK(push(*remote, kA, {m1}).empty());  // the same record: acknowledged, nothing appended
  CHECK(read_bytes(dir.path() / "memories.jsonl") == by_hand);
  SyncRecord rival = m1;
  rival.text = "- other";
  const std::vector<Refusal> refused = push(*remote, kA, {rival});
  REQUIRE(refused.size() == 1);
  CHECK(refused[0].reason == "the remote holds a different version with the same updated_at");
}

TEST_CASE("record lines: the direct writer is the JSON tree's canonical form, byte for byte") {
  SyncRecord odd = memory(kA, "id \"quoted\" \\ \x7f", "", 0);
  odd.text = "ctl \x00\x01\x08\x09\x0a\x0c\x0d\x1f\x7f bad \xff\xc3 \xe2\x82 ok \xe2\x82\xac"s;
  odd.file = "memory/\xc3(.md";
  odd.category = "\t";
  SyncRecord tombstone = memory(kB, "t", "gone", 999999);
  tombstone.deleted = true;
  tombstone.confidence = std::nullopt;
  tombstone.verified = std::nullopt;
  tombstone.category = std::nullopt;
  SyncRecord zero = memory(kA, "z", "- zero", 1);
  zero.confidence = 0;
  SyncRecord full = memory(kA, "f", "- full", 1);
  full.confidence = 100;
  for (const SyncRecord& record :
       {odd, tombstone, zero, full, session_log(kA, "s", "## S\r\n\n- `x`\n", 2),
        daily_log(kB, "d", "# 2026-05-01\n\n- \u65e5\u672c\n", 3)}) {
    std::string fast = "kept ";
    memorybox::append_record_line(fast, record);
    CHECK(fast == "kept " + json_record_line(record));
    CHECK(memorybox::record_line(record) == json_record_line(record));
    fast.erase(0, 5);
    const Result<SyncRecord> slow = memorybox::detail::parse_record_line_json(fast);
    const std::optional<SyncRecord> read = memorybox::detail::read_canonical_record_line(fast);
    const Result<SyncRecord> parsed = memorybox::parse_record_line(fast);
    REQUIRE(slow.ok());
    REQUIRE(read.has_value());
    REQUIRE(parsed.ok());
    CHECK(*read == *slow);
    CHECK(*parsed == *slow);
  }
}

TEST_CASE("record lines: which records read back unchanged") {
  const auto reads_back = [](const SyncRecord& record) {
    const Result<SyncRecord> parsed =
        memorybox::detail::parse_record_line_json(json_record_line(record));
    return parsed.ok() && *parsed == record;
  };
  std::vector<SyncRecord> records;
  const auto add = [&](SyncRecord record) { records.push_back(std::move(record)); };
  const SyncRecord fact = memory(kA, "m1", "- fact", 1);
  add(fact);
  add(session_log(kA, "s1", "- s", 2));
  add(daily_log(kA, "d1", "- d", 3));
  SyncRecord r = fact;
  r.confidence = 101;
  add(r);
  r = fact;
  r.confidence = std::nullopt;
  add(r);
  r.deleted = true;
  add(r);
  r = fact;
  r.verified = std::nullopt;
  add(r);
  r = fact;
  r.verified = "2026-02-30";
  add(r);
  r = fact;
  r.updated_at = "2026-05-01T10:00:00Z";
  add(r);
  r = fact;
  r.id = " m1";
  add(r);
  r = fact;
  r.id = "";
  add(r);
  r = fact;
  r.workspace_id = "0190D7A0-1C2B-7A3D-9E4F-5A6B7C8D9E0A";
  add(r);
  r = fact;
  r.file = "";
  add(r);
  r = fact;
  r.text = "- bad \xff";
  add(r);
  r = fact;
  r.category = "\xc3";
  add(r);
  r = fact;
  r.table = static_cast<SyncTable>(7);
  add(r);
  r = session_log(kA, "s1", "- s", 2);
  r.confidence = 50;
  add(r);
  int unchanged = 0;
  for (const SyncRecord& record : records) {
    INFO(memorybox::record_line(record));
    CHECK(memorybox::detail::reads_back_unchanged(record) == reads_back(record));
    if (reads_back(record)) ++unchanged;
  }
  CHECK(unchanged == 4);  // the three tables, and a deleted fact without a score
}

TEST_CASE("record lines: the direct reader agrees with the JSON-tree reader") {
  const std::string base = memorybox::record_line(memory(kA, "m1", "- t", 7));
  // Each edit replaces the first occurrence of `from` in the canonical line.
  const std::vector<std::pair<std::string, std::string>> edits = {
      {"", ""},
      {":80,", ":101,"},
      {":80,", ":100,"},
      {":80,", ":0,"},
      {":80,", ":00,"},
      {":80,", ":080,"},
      {":80,", ":-0,"},
      {":80,", ":-1,"},
      {":80,", ":8e1,"},
      {":80,", ":80.0,"},
      {":80,", ":1000,"},
      {":80,", ":\"80\","},
      {":80,", ":null,"},
      {"\"2026-04-30\"", "\"2026-02-30\""},
      {"\"2026-04-30\"", "\"2026-4-30\""},
      {"\"2026-04-30\"", "null"},
      {"\"2026-04-30\"", "20260430"},
      {"10:00:00.007Z", "10:00:00Z"},
      {"10:00:00.007Z", "10:00:00.007+00:00"},
      {"10:00:00.007Z", "25:00:00.007Z"},
      {"T10:00:00.007Z", "t10:00:00.007z"},
      {kA, "0190D7A0-1C2B-7A3D-9E4F-5A6B7C8D9E0A"},
      {kA, "not-a-uuid"},
      {"\"" + kA + "\"", "null"},
      {"\"memories\"", "\"session_logs\""},
      {"\"memories\"", "\"daily_logs\""},
      {"\"memories\"", "\"Memories\""},
      {"\"m1\"", "\" m1\""},
      {"\"m1\"", "\"m1\\t\""},
      {"\"m1\"", "\"\""},
      {"\"m1\"", "\"m\\n1\""},
      {"\"m1\"", "\"m\\u0031\""},
      {"\"m1\"", "\"m\\u000a\""},
      {"\"- t\"", "\"- \\u0009\""},
      {"\"- t\"", "\"- \\/\""},
      {"\"- t\"", "\"- \\u001F\""},
      {"\"- t\"", "\"- \\u001f\""},
      {"\"- t\"", "\"- \\u007f\""},
      {"\"- t\"", "\"- \\ud83d\\ude80\""},
      {"\"- t\"", "\"- \\ud83d\""},
      {"\"- t\"", "\"- \\x\""},
      {"\"- t\"", "\"- \t\""},
      {"\"- t\"", "\"- \x7f\""},
      {"\"- t\"", "\"- \xc3\""},
      {"false", "true"},
      {"false", "0"},
      {"false", "\"false\""},
      {"\"memory/LONG_TERM.md\"", "\"\""},
      {"\"fact\"", "null"},
      {"\"fact\"", "1"},
      {"}\n", "}\n\n"},
      {"}\n", "} \n"},
      {"}\n", "}\r\n"},
      {"}\n", "}"},
      {"}\n", ",\"id\":\"m2\"}\n"},
      {"{", " {"},
      {"{\"category\":\"fact\",", "{"},
  };
  int accepted = 0;
  for (const auto& [from, to] : edits) {
    std::string line = base;
    if (!from.empty()) line.replace(line.find(from), from.size(), to);
    INFO(line);
    CHECK(readers_agree(line));
    if (memorybox::detail::read_canonical_record_line(line)) ++accepted;
  }
  // The base, confidence 100 and 0, \u001f, a raw DEL, a deleted fact that keeps its score, no
  // category, and no final LF.
  CHECK(accepted == 8);
  SyncRecord tombstone = memory(kA, "t", "gone", 8);
  tombstone.deleted = true;
  tombstone.confidence = std::nullopt;
  tombstone.verified = std::nullopt;
  CHECK(memorybox::detail::read_canonical_record_line(memorybox::record_line(tombstone)) ==
        tombstone);

  // Random edits of canonical lines.
  SyncRecord escaped = memory(kA, "m\\1", "a\"b\\c\x01\td", 7);
  const std::vector<std::string> seeds = {
      memorybox::record_line(escaped), memorybox::record_line(tombstone),
      memorybox::record_line(session_log(kB, "s1", "- caf\u00e9", 9)),
      memorybox::record_line(daily_log(kA, "d1", "x", 10))};
  const std::string alphabet = "\"\\u01afnulltrue,:{}[] \t\n-.Z9TZ7b/e\x80\xc3\xff"s;
  std::mt19937 random(20260501);
  int random_accepted = 0;
  int mismatches = 0;
  std::string example;
  for (int round = 0; round < 20000; ++round) {
    std::string line = seeds[random() % seeds.size()];
    const int count = random() % 2 == 0 ? 1 : 2;
    for (int e = 0; e < count; ++e) {
      const std::size_t at_byte = random() % line.size();
      const char c = alphabet[random() % alphabet.size()];
      switch (random() % 3) {
        case 0:
          line[at_byte] = c;
          break;
        case 1:
          line.insert(at_byte, 1, c);
          break;
        default:
          line.erase(at_byte, 1);
          break;
      }
    }
    if (memorybox::detail::read_canonical_record_line(line)) ++random_accepted;
    if (!readers_agree(line)) {
      ++mismatches;
      example = line;
    }
  }
  INFO("a line read differently: " << example);
  CHECK(mismatches == 0);
  CHECK(random_accepted > 500);  // the edits also make lines that stay valid
}

TEST_CASE("shell: concurrent directory pushes and pulls see whole pushes in order") {
  TempDir dir;
  constexpr int kPushes = 80;
  constexpr int kShared = 3;
  std::vector<std::size_t> stored(2, 0);
  std::vector<std::string> failures(3);
  std::atomic<int> pushers_left{2};
  std::latch start(3);
  // Each pusher (its own Remote object, so its own lock descriptor) pushes its own memory and
  // session ids and a new version of a shared id: A at even milliseconds, B at odd ones, so that
  // every version is distinct and the newest is known.
  const auto pusher = [&](int who) {
    const auto slot = static_cast<std::size_t>(who);
    Result<std::unique_ptr<Remote>> remote = sync::open_directory_remote(dir.str());
    start.arrive_and_wait();
    const std::string name = who == 0 ? "a" : "b";
    for (int n = 0; n < kPushes && remote; ++n) {
      const int ms = 2 * n + who;
      const std::string own = name + std::to_string(n);
      const std::vector<SyncRecord> records = {
          memory(kA, own, "- " + std::string(300, 'x'), ms), session_log(kA, own, "- log", ms),
          memory(kA, "shared-" + std::to_string(n % kShared), "- by " + name, ms)};
      Result<std::vector<Refusal>> refused = (*remote)->push(kA, records);
      if (!refused) {
        failures[slot] = refused.status().message();
        break;
      }
      stored[slot] += records.size() - refused->size();
    }
    if (!remote) failures[slot] = remote.status().message();
    --pushers_left;
  };
  // A push writes its memories line before its session line and a pull reads the files in that
  // order: without the shared lock, a pull could see one without the other.
  int half_pushes = 0;
  const auto puller = [&] {
    Result<std::unique_ptr<Remote>> remote = sync::open_directory_remote(dir.str());
    start.arrive_and_wait();
    std::set<std::string> memories;
    std::set<std::string> sessions;
    std::string cursor;
    while (remote) {
      const bool last = pushers_left == 0;
      Result<Pulled> pulled = (*remote)->pull(kA, cursor);
      if (!pulled) {
        failures[2] = pulled.status().message();
        return;
      }
      cursor = pulled->cursor;
      for (const SyncRecord& record : pulled->records) {
        if (record.id.rfind("shared-", 0) == 0) continue;
        (record.table == SyncTable::memories ? memories : sessions).insert(record.id);
      }
      if (memories != sessions) ++half_pushes;
      if (last) break;
    }
  };
  std::thread a(pusher, 0);
  std::thread b(pusher, 1);
  std::thread c(puller);
  a.join();
  b.join();
  c.join();
  CHECK(failures == std::vector<std::string>(3));
  CHECK(half_pushes == 0);

  const std::unique_ptr<Remote> remote = open_remote(dir);
  const Pulled pulled = pull(*remote, kA);  // every line parses: none is torn
  std::map<std::string, SyncRecord> by_id;
  for (const SyncRecord& record : pulled.records) {
    const std::string key = std::string(memorybox::sync_table_name(record.table)) + ":" + record.id;
    CHECK(by_id.emplace(key, record).second);
  }
  CHECK(by_id.size() == 4 * kPushes + kShared);
  for (int k = 0; k < kShared; ++k) {
    int newest = 0;
    for (int n = k; n < kPushes; n += kShared) newest = std::max(newest, 2 * n + 1);
    CHECK(by_id.at("memories:shared-" + std::to_string(k)).updated_at == at(newest));
  }

  // Each line of an id is newer than the ones before it: no push decided on rows another push
  // was changing.
  const std::string memories = read_bytes(dir.path() / "memories.jsonl");
  const std::string sessions = read_bytes(dir.path() / "session_logs.jsonl");
  std::map<std::string, std::string> newest_so_far;
  int out_of_order = 0;
  std::size_t begin = 0;
  while (begin < memories.size()) {
    const std::size_t lf = memories.find('\n', begin);
    REQUIRE(lf != std::string::npos);
    const Result<SyncRecord> record =
        memorybox::parse_record_line(std::string_view(memories).substr(begin, lf + 1 - begin));
    REQUIRE(record.ok());
    std::string& newest = newest_so_far[record->id];
    if (record->updated_at <= newest) ++out_of_order;
    newest = record->updated_at;
    begin = lf + 1;
  }
  CHECK(out_of_order == 0);
  CHECK(sessions.back() == '\n');
  const auto lines = [](const std::string& bytes) {
    return static_cast<std::size_t>(std::count(bytes.begin(), bytes.end(), '\n'));
  };
  CHECK(lines(memories) + lines(sessions) == stored[0] + stored[1]);
}

}  // namespace memkit::shell_test
