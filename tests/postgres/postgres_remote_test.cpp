// The PostgreSQL adapter against a real server (spec memorybox.md §9; the contract of
// include/memkit/sync_remote.hpp): the schema and its version, failed logins, byte-for-byte
// round trips, cursors, the upsert rules, workspace isolation, concurrent pushes under
// interleaved pulls, reconnecting, a push cut off mid-way, and invalid rows on the server.
//
// Test names: "postgres: ..." run in parallel with each other (each uses its own workspace or
// database); "postgres restart: ..." drop every connection of the server, so ctest runs them alone.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "pg_records.hpp"
#include "pg_test_support.hpp"

namespace memkit::pg_test {
namespace {

using sync::Pulled;
using sync::Refusal;
using sync::Remote;

std::vector<SyncRecord> pull_all(Remote& remote, const std::string& workspace) {
  Result<Pulled> pulled = remote.pull(workspace, "");
  REQUIRE_MESSAGE(pulled.ok(), pulled.status().message());
  return pulled->records;
}

std::vector<Refusal> push_ok(Remote& remote, const std::string& workspace,
                             const std::vector<SyncRecord>& records) {
  Result<std::vector<Refusal>> pushed = remote.push(workspace, records);
  REQUIRE_MESSAGE(pushed.ok(), pushed.status().message());
  return *pushed;
}

// Polls `condition` every 20 ms for up to 30 s.
template <class Condition>
bool eventually(const Condition& condition) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

// Terminates every backend of `application_name` and waits until they are gone.
void terminate_backends(Sql& sql, const std::string& application_name) {
  CHECK(sql.count("SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                  "WHERE application_name = $1) AS t",
                  {application_name}) >= 1);
  CHECK(eventually([&] {
    return sql.count("SELECT count(*) FROM pg_stat_activity WHERE application_name = $1",
                     {application_name}) == 0;
  }));
}

// The adapter checks parse_record_line()'s rules on the fields, not through JSON (pg_records.hpp):
// both must accept and refuse the same records, with the same words. A NUL byte is the one
// difference: JSON carries it, PostgreSQL text cannot.
TEST_CASE("postgres: the adapter's record check agrees with parse_record_line") {
  const std::string ws = "0192f3a4-5b6c-7d8e-9f00-112233445566";
  std::vector<SyncRecord> cases;
  const SyncRecord fact = memory(ws, "id-1", "- text\n", at_ms(1));
  const SyncRecord log = log_record(ws, SyncTable::session_logs, "s", "log\n", at_ms(1));
  const auto with = [&](SyncRecord r, const auto& change) {
    change(r);
    cases.push_back(std::move(r));
  };
  cases.push_back(fact);
  cases.push_back(log);
  with(fact, [](SyncRecord& r) { r.id = ""; });
  with(fact, [](SyncRecord& r) { r.id = " id"; });
  with(fact, [](SyncRecord& r) { r.id = "id\t"; });
  with(fact, [](SyncRecord& r) { r.id = "i\nd"; });
  with(fact, [](SyncRecord& r) { r.id = "i\rd"; });
  with(fact, [](SyncRecord& r) { r.id = "in ner\tblanks"; });
  with(fact, [](SyncRecord& r) { r.workspace_id = "0192F3A4-5B6C-7D8E-9F00-112233445566"; });
  with(fact, [](SyncRecord& r) { r.workspace_id = "0192f3a4"; });
  with(fact, [](SyncRecord& r) { r.table = static_cast<SyncTable>(7); });
  with(fact, [](SyncRecord& r) { r.file = ""; });
  with(fact, [](SyncRecord& r) { r.confidence = 100; });
  with(fact, [](SyncRecord& r) { r.confidence = 101; });
  with(fact, [](SyncRecord& r) { r.confidence = std::nullopt; });
  with(fact, [](SyncRecord& r) { r.verified = std::nullopt; });
  with(fact, [](SyncRecord& r) { r.verified = "2026-02-30"; });
  with(fact, [](SyncRecord& r) { r.verified = "2026-1-01"; });
  with(fact, [](SyncRecord& r) { r.verified = "0000-01-01"; });
  with(fact, [](SyncRecord& r) {
    r.deleted = true;
    r.confidence = std::nullopt;
    r.verified = std::nullopt;
  });
  with(fact, [](SyncRecord& r) { r.updated_at = "2026-11-30T10:00:00Z"; });
  with(fact, [](SyncRecord& r) { r.updated_at = "2026-11-30T10:00:00.000+01:00"; });
  with(fact, [](SyncRecord& r) { r.updated_at = "2026-02-30T10:00:00.000Z"; });
  with(fact, [](SyncRecord& r) { r.updated_at = "2026-11-30t10:00:00.000Z"; });
  with(fact, [](SyncRecord& r) { r.updated_at = "0000-01-01T00:00:00.000Z"; });
  with(fact, [](SyncRecord& r) { r.updated_at = "9999-12-31T23:59:59.999Z"; });
  with(fact, [](SyncRecord& r) { r.category = std::nullopt; });
  with(fact, [](SyncRecord& r) { r.category = "caf\xe9"; });
  with(fact, [](SyncRecord& r) { r.text = "\xff"; });
  with(fact, [](SyncRecord& r) { r.file = "memory/\xc3"; });
  with(fact, [](SyncRecord& r) { r.id = "\xed\xa0\x80"; });  // a surrogate
  with(fact, [](SyncRecord& r) { r.text = std::string("a\0b", 3); });
  with(log, [](SyncRecord& r) { r.confidence = 50; });
  with(log, [](SyncRecord& r) { r.verified = "2026-11-30"; });
  with(log, [](SyncRecord& r) { r.table = SyncTable::daily_logs; });

  for (const SyncRecord& r : cases) {
    CAPTURE(memorybox::record_line(r));
    const Result<SyncRecord> back = memorybox::parse_record_line(memorybox::record_line(r));
    const bool json_accepts = back.ok() && *back == r;
    const bool has_nul = r.text.find('\0') != std::string::npos;
    const std::optional<std::string> problem = detail::pg::storable_problem(r);
    CHECK(problem.has_value() == (!json_accepts || has_nul));
    if (!back.ok() && problem) CHECK("sync record: " + *problem == back.status().message());
  }
}

TEST_CASE("postgres: open creates schema version 1 in an empty database and reopens it") {
  const Server s = server();
  const Database db = new_database(s);
  Sql sql(db.conninfo);
  CHECK(sql.scalar("SELECT to_regclass('memkit_schema') IS NULL") == "t");

  const std::string workspace = new_workspace();
  {
    const std::unique_ptr<Remote> remote = open_remote(db.conninfo);
    CHECK(remote->describe() == "PostgreSQL");
    CHECK(push_ok(*remote, workspace, {memory(workspace, "a", "- kept\n", at_ms(0))}).empty());
  }
  CHECK(sql.scalar("SELECT string_agg(version::text, ',') FROM memkit_schema") == "1");
  for (const char* object : {"memories", "session_logs", "daily_logs", "memkit_revision"}) {
    CHECK_MESSAGE(sql.scalar("SELECT to_regclass($1) IS NOT NULL", {object}) == "t", object);
  }
  // Each table has the primary key and the pull index.
  for (const char* table : {"memories", "session_logs", "daily_logs"}) {
    CHECK(sql.count("SELECT count(*) FROM pg_indexes WHERE tablename = $1", {table}) == 2);
  }

  // Reopening finds version 1 and changes nothing.
  const std::unique_ptr<Remote> again = open_remote(db.conninfo);
  CHECK(sql.count("SELECT count(*) FROM memkit_schema") == 1);
  CHECK(sql.scalar("SELECT version FROM memkit_schema") == "1");
  CHECK(pull_all(*again, workspace) == std::vector{memory(workspace, "a", "- kept\n", at_ms(0))});
}

// Two agents starting at once on a new database: one creates the schema, the others wait for it
// and find it made (a check made before the wait must not decide what happens after it).
TEST_CASE("postgres: opens racing on an empty database all succeed and create the schema once") {
  const Server s = server();
  for (int round = 0; round < 3; ++round) {
    const Database db = new_database(s);
    constexpr int kOpens = 6;
    std::vector<std::string> failures(kOpens);
    std::atomic<int> ready{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < kOpens; ++i) {
      threads.emplace_back([&, i] {
        ready.fetch_add(1);
        while (ready.load() < kOpens) std::this_thread::yield();
        const Result<std::unique_ptr<Remote>> remote = sync::open_postgres_remote(db.conninfo);
        if (!remote.ok()) failures[static_cast<std::size_t>(i)] = remote.status().message();
      });
    }
    for (std::thread& t : threads) t.join();
    for (const std::string& failure : failures) CHECK_MESSAGE(failure.empty(), failure);
    Sql sql(db.conninfo);
    CHECK(sql.scalar("SELECT string_agg(version::text, ',') FROM memkit_schema") == "1");
  }
}

TEST_CASE("postgres: a database with a newer schema version is refused with Errc::layout") {
  const Server s = server();
  const Database db = new_database(s);
  (void)open_remote(db.conninfo);
  Sql(db.conninfo).query("UPDATE memkit_schema SET version = 2");
  const Result<std::unique_ptr<Remote>> refused = sync::open_postgres_remote(db.conninfo);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().code() == Errc::layout);
  CHECK(refused.status().message() ==
        "PostgreSQL: the database has memkit schema version 2; this memkit understands up to 1");
}

TEST_CASE("postgres: a table of the same name that is not memkit's is refused with Errc::layout") {
  const Server s = server();
  const Database db = new_database(s);
  Sql(db.conninfo).query("CREATE TABLE memories (content text)");
  const Result<std::unique_ptr<Remote>> refused = sync::open_postgres_remote(db.conninfo);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().code() == Errc::layout);
  CHECK(refused.status().message().find("\"memories\" already exists") != std::string::npos);
  // Nothing of the failed creation stays behind.
  CHECK(Sql(db.conninfo).scalar("SELECT to_regclass('memkit_schema') IS NULL") == "t");
}

TEST_CASE("postgres: a wrong password fails with Errc::io without showing the password") {
  const Server s = server();
  const std::string role = s.env.at("password_role");
  const std::string dbname = s.env.at("password_dbname");
  const std::string socket = s.env.at("socket_dir");
  const std::string port = std::to_string(s.env.at("port").get<int>());
  const std::string wrong = "not-the-Secret-7731";
  for (const std::string& host : {socket, std::string("127.0.0.1")}) {
    CAPTURE(host);
    const Result<std::unique_ptr<Remote>> refused =
        sync::open_postgres_remote("host=" + host + " port=" + port + " user=" + role +
                                   " dbname=" + dbname + " password=" + wrong);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.status().code() == Errc::io);
    const std::string message = refused.status().message();
    CHECK(message.starts_with("PostgreSQL: connecting: "));
    CHECK(message.find("password authentication failed") != std::string::npos);
    CHECK(message.find(wrong) == std::string::npos);
    CHECK(message.find('\n') == std::string::npos);
  }
  // The right password works, and a role that is no superuser can create the schema in its
  // own database.
  const std::string right = s.env.at("password");
  const std::unique_ptr<Remote> remote = open_remote(
      "host=127.0.0.1 port=" + port + " user=" + role + " dbname=" + dbname + " password=" + right);
  const std::string workspace = new_workspace();
  CHECK(push_ok(*remote, workspace, {memory(workspace, "p", "- p\n", at_ms(1))}).empty());

  // A connection string libpq cannot parse is refused without quoting it.
  const Result<std::unique_ptr<Remote>> garbled =
      sync::open_postgres_remote("host=x password=" + wrong + " dangling");
  REQUIRE_FALSE(garbled.ok());
  CHECK(garbled.status().code() == Errc::invalid_argument);
  CHECK(garbled.status().message().find(wrong) == std::string::npos);
}

TEST_CASE("postgres: an unreachable server fails with Errc::io quickly") {
  const Server s = server();
  const std::string port = std::to_string(unused_port());
  for (const std::string& conninfo :
       {"host=127.0.0.1 port=" + port + " connect_timeout=2 user=postgres",
        "host=/nonexistent-memkit-socket-dir port=" + port + " connect_timeout=2 user=postgres"}) {
    CAPTURE(conninfo);
    const auto start = std::chrono::steady_clock::now();
    const Result<std::unique_ptr<Remote>> refused = sync::open_postgres_remote(conninfo);
    const auto elapsed = std::chrono::steady_clock::now() - start;
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.status().code() == Errc::io);
    // The cause alone: where it connected is the connection string's, never printed.
    const std::string message = refused.status().message();
    CHECK(message.starts_with("PostgreSQL: connecting: "));
    CHECK(message.find("connection to server") == std::string::npos);
    CHECK(message.find("nonexistent-memkit-socket-dir") == std::string::npos);
    CHECK(message.find("127.0.0.1") == std::string::npos);
    CHECK(message.find(port) == std::string::npos);
    CHECK(elapsed < std::chrono::seconds(10));
  }
}

TEST_CASE("postgres: push then pull round-trips records of all three tables byte for byte") {
  const Server s = server();
  const std::unique_ptr<Remote> remote = open_remote(s.conninfo);
  const std::string workspace = new_workspace();

  // Every byte COPY's text format treats specially, and a few it does not.
  const std::string awkward =
      "- tab\there, backslash \\ and \\\\ and \\N and \\.\n"
      "\\.\n"
      "CR LF\r\nlone CR\r"
      "non-ASCII: é ü 日本語 🎉\n"
      "````\nfenced `code` with ``` inside\n````\n";
  SyncRecord fact = memory(workspace, "019375a2-0000-7000-8000-000000000001", awkward, at_ms(1));
  SyncRecord no_category = memory(workspace, "id with spaces and é", "", at_ms(2), 0);
  no_category.category = std::nullopt;
  SyncRecord empty_category = memory(workspace, "empty-category", "- x\n", at_ms(3), 100);
  empty_category.category = "";
  empty_category.file = "memory/PATTERNS.md";
  SyncRecord tombstone = memory(workspace, "gone", "", at_ms(4));
  tombstone.confidence = std::nullopt;
  tombstone.verified = std::nullopt;
  tombstone.deleted = true;
  SyncRecord session = log_record(workspace, SyncTable::session_logs, "s1",
                                  "### 2026-11-30 10:00\n\tindented\\path\r\n", at_ms(5));
  session.category = "session";
  SyncRecord daily =
      log_record(workspace, SyncTable::daily_logs, "d1", awkward, "1999-12-31T23:59:59.999Z");
  // The same id in two tables is two records.
  SyncRecord same_id = log_record(workspace, SyncTable::daily_logs, "s1", "\\\t\\n\n", at_ms(6));

  const std::vector<SyncRecord> pushed = {fact,    no_category, empty_category, tombstone,
                                          session, daily,       same_id};
  CHECK(push_ok(*remote, workspace, pushed).empty());
  const std::vector<SyncRecord> pulled = pull_all(*remote, workspace);
  REQUIRE(pulled.size() == pushed.size());
  const std::vector<SyncRecord> want = sorted(pushed);
  const std::vector<SyncRecord> got = sorted(pulled);
  for (std::size_t i = 0; i < want.size(); ++i) {
    CAPTURE(want[i].id);
    CHECK(got[i] == want[i]);
    CHECK(memorybox::record_line(got[i]) == memorybox::record_line(want[i]));
  }

  // Stored as the right SQL values: NULL is NULL, "" is "".
  Sql sql(s.conninfo);
  CHECK(sql.scalar("SELECT category IS NULL FROM memories WHERE workspace_id = $1::uuid AND id = "
                   "'id with spaces and é'",
                   {workspace}) == "t");
  CHECK(sql.scalar("SELECT category FROM memories WHERE workspace_id = $1::uuid AND id = "
                   "'empty-category'",
                   {workspace}) == "");
  CHECK(sql.scalar("SELECT text FROM memories WHERE workspace_id = $1::uuid AND id = $2",
                   {workspace, fact.id}) == awkward);
}

TEST_CASE("postgres: the cursor makes a pull return only what reached the remote after it") {
  const Server s = server();
  const std::unique_ptr<Remote> remote = open_remote(s.conninfo);
  const std::string workspace = new_workspace();
  CHECK(
      push_ok(*remote, workspace,
              {memory(workspace, "a", "- a\n", at_ms(1)), memory(workspace, "b", "- b\n", at_ms(1)),
               log_record(workspace, SyncTable::session_logs, "s", "s\n", at_ms(1))})
          .empty());
  Result<Pulled> first = remote->pull(workspace, "");
  REQUIRE(first.ok());
  CHECK(first->records.size() == 3);
  CHECK_FALSE(first->cursor.empty());

  // One new record, one changed.
  const SyncRecord b2 = memory(workspace, "b", "- b changed\n", at_ms(2));
  const SyncRecord d = log_record(workspace, SyncTable::daily_logs, "d", "d\n", at_ms(2));
  CHECK(push_ok(*remote, workspace, {b2, d}).empty());
  Result<Pulled> second = remote->pull(workspace, first->cursor);
  REQUIRE(second.ok());
  CHECK(sorted(second->records) == sorted({b2, d}));
  CHECK(std::stoll(second->cursor) > std::stoll(first->cursor));

  // Nothing new: no records, the same cursor.
  Result<Pulled> third = remote->pull(workspace, second->cursor);
  REQUIRE(third.ok());
  CHECK(third->records.empty());
  CHECK(third->cursor == second->cursor);
  // An empty workspace from the start: nothing, and still the start.
  Result<Pulled> empty = remote->pull(new_workspace(), "");
  REQUIRE(empty.ok());
  CHECK(empty->records.empty());
  CHECK(empty->cursor.empty());

  // A cursor this adapter never gave.
  for (const char* bad : {"abc", "-1", "12x", "1,2,3", "99999999999999999999"}) {
    const Result<Pulled> refused = remote->pull(workspace, bad);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.status().code() == Errc::invalid_argument);
  }
}

TEST_CASE("postgres: a repeated push acknowledges every record and stores nothing new") {
  const Server s = server();
  const std::unique_ptr<Remote> remote = open_remote(s.conninfo);
  const std::string workspace = new_workspace();
  std::vector<SyncRecord> records;
  for (int i = 0; i < 50; ++i) {
    records.push_back(memory(workspace, "m" + std::to_string(i), "- fact\n", at_ms(i)));
  }
  records.push_back(log_record(workspace, SyncTable::daily_logs, "d", "day\n", at_ms(7)));
  CHECK(push_ok(*remote, workspace, records).empty());
  Result<Pulled> first = remote->pull(workspace, "");
  REQUIRE(first.ok());

  Sql sql(s.conninfo);
  const std::string revisions =
      "SELECT string_agg(id || ':' || revision, ',' ORDER BY id) FROM memories WHERE "
      "workspace_id = $1::uuid";
  const std::string before = sql.scalar(revisions, {workspace});
  CHECK(push_ok(*remote, workspace, records).empty());  // a push repeated after a timeout
  CHECK(sql.scalar(revisions, {workspace}) == before);
  CHECK(rows_of(sql, workspace) == 51);
  Result<Pulled> after = remote->pull(workspace, first->cursor);
  REQUIRE(after.ok());
  CHECK(after->records.empty());
}

// The incoming table lives as long as the session (made by prepare_push() or the first push) and
// is emptied when each push commits: a later push sends its own records, never an earlier push's.
TEST_CASE("postgres: each push sends only its own records through the session's incoming table") {
  const Server s = server();
  const std::unique_ptr<Remote> remote = open_remote(s.conninfo);
  const std::string workspace = new_workspace();
  Sql sql(s.conninfo);
  const std::string text_of = "SELECT text FROM memories WHERE workspace_id = $1::uuid AND id = $2";
  for (const bool prepared : {true, false}) {
    const std::string x = prepared ? "x1" : "x2";
    const std::string y = prepared ? "y1" : "y2";
    if (prepared) {
      remote->prepare_push();
      remote->prepare_push();  // once is enough; twice is harmless
    }
    CHECK(push_ok(*remote, workspace, {memory(workspace, x, "- x\n", at_ms(5))}).empty());
    // The stored x made older by hand: x sent again would replace it.
    sql.query(
        "UPDATE memories SET updated_at = updated_at - interval '1 hour', text = 'by hand' "
        "WHERE workspace_id = $1::uuid AND id = $2",
        {workspace, x});
    CHECK(push_ok(*remote, workspace, {memory(workspace, y, "- y\n", at_ms(5))}).empty());
    CHECK(sql.scalar(text_of, {workspace, x}) == "by hand");
    CHECK(sql.scalar(text_of, {workspace, y}) == "- y\n");
  }
}

TEST_CASE("postgres: an older version is refused and the newer one kept") {
  const Server s = server();
  const std::unique_ptr<Remote> remote = open_remote(s.conninfo);
  const std::string workspace = new_workspace();
  const SyncRecord newer = memory(workspace, "x", "- newer\n", at_ms(2000));
  CHECK(push_ok(*remote, workspace, {newer}).empty());

  const SyncRecord older = memory(workspace, "x", "- older\n", at_ms(1000));
  const SyncRecord fresh = memory(workspace, "y", "- fresh\n", at_ms(1000));
  const std::vector<Refusal> refusals = push_ok(*remote, workspace, {fresh, older});
  REQUIRE(refusals.size() == 1);
  CHECK(refusals[0].id == "x");
  CHECK(refusals[0].table == SyncTable::memories);
  CHECK(refusals[0].reason == "the remote holds a newer version");
  CHECK(sorted(pull_all(*remote, workspace)) == sorted({newer, fresh}));

  // A newer version replaces the stored one.
  const SyncRecord newest = memory(workspace, "x", "- newest\n", at_ms(3000), 95);
  CHECK(push_ok(*remote, workspace, {newest}).empty());
  CHECK(sorted(pull_all(*remote, workspace)) == sorted({newest, fresh}));
}

TEST_CASE("postgres: an equally new version with other content is refused") {
  const Server s = server();
  const std::unique_ptr<Remote> remote = open_remote(s.conninfo);
  const std::string workspace = new_workspace();
  const SyncRecord stored = log_record(workspace, SyncTable::session_logs, "s", "mine\n", at_ms(5));
  CHECK(push_ok(*remote, workspace, {stored}).empty());

  SyncRecord other_text = stored;
  other_text.text = "theirs\n";
  SyncRecord other_file = stored;
  other_file.file = "memory/SESSION_LOG_2.md";
  SyncRecord deleted = stored;
  deleted.deleted = true;
  for (const SyncRecord& rival : {other_text, other_file, deleted}) {
    const std::vector<Refusal> refusals = push_ok(*remote, workspace, {rival});
    REQUIRE(refusals.size() == 1);
    CHECK(refusals[0].id == "s");
    CHECK(refusals[0].table == SyncTable::session_logs);
    CHECK(refusals[0].reason == "the remote holds a different version with the same updated_at");
  }
  CHECK(pull_all(*remote, workspace) == std::vector{stored});
}

TEST_CASE("postgres: workspaces never see or touch each other's rows") {
  const Server s = server();
  const std::unique_ptr<Remote> remote = open_remote(s.conninfo);
  const std::string a = new_workspace();
  const std::string b = new_workspace();
  const std::vector<SyncRecord> a_records = {
      memory(a, "shared-1", "- A's\n", at_ms(5000)),
      log_record(a, SyncTable::daily_logs, "shared-2", "A's day\n", at_ms(5000))};
  CHECK(push_ok(*remote, a, a_records).empty());
  CHECK(pull_all(*remote, b).empty());

  // B pushes the same ids, older than A's rows: no refusal, since B holds no rows yet.
  const std::vector<SyncRecord> b_records = {
      memory(b, "shared-1", "- B's\n", at_ms(1000)),
      log_record(b, SyncTable::daily_logs, "shared-2", "B's day\n", at_ms(1000))};
  CHECK(push_ok(*remote, b, b_records).empty());
  CHECK(sorted(pull_all(*remote, a)) == sorted(a_records));
  CHECK(sorted(pull_all(*remote, b)) == sorted(b_records));

  Sql sql(s.conninfo);
  CHECK(sql.count("SELECT count(*) FROM memories WHERE id = 'shared-1' AND workspace_id IN "
                  "($1::uuid, $2::uuid)",
                  {a, b}) == 2);
  CHECK(sql.count("SELECT count(DISTINCT workspace_id) FROM daily_logs WHERE id = 'shared-2' AND "
                  "workspace_id IN ($1::uuid, $2::uuid)",
                  {a, b}) == 2);
  CHECK(sql.scalar("SELECT text FROM memories WHERE id = 'shared-1' AND workspace_id = $1::uuid",
                   {a}) == "- A's\n");
}

TEST_CASE("postgres: an invalid push is refused before anything is sent") {
  const Server s = server();
  const std::unique_ptr<Remote> remote = open_remote(s.conninfo);
  const std::string workspace = new_workspace();
  const SyncRecord good = memory(workspace, "good", "- fine\n", at_ms(1));
  const auto refused = [&](const SyncRecord& bad, const std::string& expected) {
    CAPTURE(expected);
    const Result<std::vector<Refusal>> pushed = remote->push(workspace, std::vector{good, bad});
    REQUIRE_FALSE(pushed.ok());
    CHECK(pushed.status().code() == Errc::invalid_argument);
    CHECK(pushed.status().message() == expected);
  };
  SyncRecord other = memory(new_workspace(), "alien", "- x\n", at_ms(1));
  refused(other, "PostgreSQL: push: record 'alien': it belongs to workspace '" +
                     other.workspace_id + "', not '" + workspace + "'");
  SyncRecord nul = memory(workspace, "nul", std::string("a\0b", 3), at_ms(1));
  refused(nul,
          "PostgreSQL: push: record 'nul': its text holds a NUL byte, which PostgreSQL cannot "
          "store");
  SyncRecord latin1 = memory(workspace, "latin1", "caf\xe9\n", at_ms(1));
  refused(latin1, "PostgreSQL: push: record 'latin1': its text is not valid UTF-8 (byte 3)");
  SyncRecord unscored = memory(workspace, "unscored", "- x\n", at_ms(1));
  unscored.confidence = std::nullopt;
  refused(unscored,
          "PostgreSQL: push: record 'unscored': a memories record lacks confidence or verified");
  SyncRecord bad_time = memory(workspace, "bad-time", "- x\n", "2026-11-30T10:00:00Z");
  refused(bad_time,
          "PostgreSQL: push: record 'bad-time': updated_at is not an RFC 3339 UTC time with "
          "milliseconds");
  SyncRecord year_zero = memory(workspace, "year-zero", "- x\n", "0000-01-01T00:00:00.000Z");
  refused(year_zero, "PostgreSQL: push: record 'year-zero': PostgreSQL has no year 0000");
  refused(good, "PostgreSQL: push: record 'good': the push holds it twice in memories");
  Sql sql(s.conninfo);
  CHECK(rows_of(sql, workspace) == 0);

  const Result<std::vector<Refusal>> upper = remote->push("ABC", std::vector{good});
  REQUIRE_FALSE(upper.ok());
  CHECK(upper.status().code() == Errc::invalid_argument);
  const Result<Pulled> pulled = remote->pull("not-a-uuid", "");
  REQUIRE_FALSE(pulled.ok());
  CHECK(pulled.status().code() == Errc::invalid_argument);
  // An empty push is fine.
  CHECK(push_ok(*remote, workspace, {}).empty());
}

TEST_CASE("postgres: an invalid row on the server makes pull fail with Errc::parse naming it") {
  const Server s = server();
  const std::unique_ptr<Remote> remote = open_remote(s.conninfo);
  const std::string workspace = new_workspace();
  CHECK(push_ok(*remote, workspace, {memory(workspace, "fine", "- fine\n", at_ms(1))}).empty());
  Sql sql(s.conninfo);
  // Not deleted, yet unscored: a memories record must carry confidence and verified.
  sql.query(
      "INSERT INTO memories (workspace_id, id, file, category, text, confidence, verified, "
      "updated_at, deleted, revision) VALUES ($1::uuid, 'broken-row', 'memory/LONG_TERM.md', "
      "NULL, '- x', NULL, NULL, '2026-11-30T10:00:00.000Z', false, nextval('memkit_revision'))",
      {workspace});
  const Result<Pulled> pulled = remote->pull(workspace, "");
  REQUIRE_FALSE(pulled.ok());
  CHECK(pulled.status().code() == Errc::parse);
  CHECK(pulled.status().message() ==
        "PostgreSQL: pull: memories row 'broken-row' is not a valid record: a memories record "
        "lacks confidence or verified");

  // An empty file is invalid too, in a log table.
  sql.query("DELETE FROM memories WHERE workspace_id = $1::uuid AND id = 'broken-row'",
            {workspace});
  sql.query(
      "INSERT INTO session_logs (workspace_id, id, file, text, updated_at, deleted, revision) "
      "VALUES ($1::uuid, 'no-file', '', 'x', '2026-11-30T10:00:00.000Z', false, "
      "nextval('memkit_revision'))",
      {workspace});
  const Result<Pulled> again = remote->pull(workspace, "");
  REQUIRE_FALSE(again.ok());
  CHECK(again.status().code() == Errc::parse);
  CHECK(again.status().message().find("session_logs row 'no-file'") != std::string::npos);
}

// Two writers push to one workspace at once while a reader pulls from its cursor over and over.
// Were revisions visible out of order, the reader would step past a record and never get it.
TEST_CASE("postgres: concurrent pushes store everything once and interleaved pulls miss nothing") {
  const Server s = server();
  const std::string workspace = new_workspace();
  constexpr int kWriters = 2;
  constexpr int kRounds = 60;
  std::atomic<int> writers_left{kWriters};
  std::vector<std::string> failures(kWriters + 1);
  std::map<std::string, SyncRecord> expected;  // by table and id, filled before the threads run
  std::vector<std::vector<std::vector<SyncRecord>>> batches(kWriters);
  for (int w = 0; w < kWriters; ++w) {
    for (int round = 0; round < kRounds; ++round) {
      std::vector<SyncRecord> batch;
      // Sizes vary so that the writers' transactions overlap in every way.
      const int size = 1 + (round * 7 + w * 13) % 40;
      for (int k = 0; k < size; ++k) {
        const std::string id =
            "w" + std::to_string(w) + "-r" + std::to_string(round) + "-" + std::to_string(k);
        batch.push_back(
            k % 3 == 0 ? log_record(workspace, SyncTable::session_logs, id, id + "\n", at_ms(round))
                       : memory(workspace, id, "- " + id + "\n", at_ms(round)));
      }
      // Both writers push this one, identical: one stores it, the other finds it stored.
      batch.push_back(
          memory(workspace, "both-r" + std::to_string(round), "- both\n", at_ms(round)));
      for (const SyncRecord& r : batch) {
        expected[std::string(memorybox::sync_table_name(r.table)) + "/" + r.id] = r;
      }
      batches[static_cast<std::size_t>(w)].push_back(std::move(batch));
    }
  }

  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      Result<std::unique_ptr<Remote>> remote = sync::open_postgres_remote(s.conninfo);
      for (const std::vector<SyncRecord>& batch : batches[static_cast<std::size_t>(w)]) {
        if (!remote.ok()) break;
        const Result<std::vector<Refusal>> pushed = (*remote)->push(workspace, batch);
        if (!pushed.ok()) {
          failures[static_cast<std::size_t>(w)] = pushed.status().message();
          break;
        }
        if (!pushed->empty()) failures[static_cast<std::size_t>(w)] = "refused " + (*pushed)[0].id;
      }
      if (!remote.ok()) failures[static_cast<std::size_t>(w)] = remote.status().message();
      --writers_left;
    });
  }
  std::map<std::string, SyncRecord> seen;
  int pulls = 0;
  threads.emplace_back([&] {
    Result<std::unique_ptr<Remote>> remote = sync::open_postgres_remote(s.conninfo);
    if (!remote.ok()) {
      failures[kWriters] = remote.status().message();
      return;
    }
    std::string cursor;
    for (bool last = false; !last;) {
      last = writers_left.load() == 0;  // one more pull after the writers are done
      const Result<Pulled> pulled = (*remote)->pull(workspace, cursor);
      if (!pulled.ok()) {
        failures[kWriters] = pulled.status().message();
        return;
      }
      ++pulls;
      for (const SyncRecord& r : pulled->records) {
        const std::string key = std::string(memorybox::sync_table_name(r.table)) + "/" + r.id;
        if (seen.count(key) != 0) failures[kWriters] = "pulled twice: " + key;
        seen[key] = r;
      }
      cursor = pulled->cursor;
    }
  });
  for (std::thread& t : threads) t.join();
  for (const std::string& failure : failures) CHECK_MESSAGE(failure.empty(), failure);

  CHECK(pulls > 2);
  CHECK(seen.size() == expected.size());
  for (const auto& [key_, record] : expected) {
    const auto& key = key_;  // clang 14 cannot capture a structured binding
    CAPTURE(key);
    const auto found = seen.find(key);
    REQUIRE(found != seen.end());
    CHECK(found->second == record);
  }
  Sql sql(s.conninfo);
  CHECK(rows_of(sql, workspace) == static_cast<long long>(expected.size()));
}

TEST_CASE("postgres: the next call reconnects after the adapter's backend was terminated") {
  const Server s = server();
  const std::string name = unique_name("memkit_term_");
  const std::unique_ptr<Remote> remote = open_remote(s.conninfo + " application_name=" + name);
  const std::string workspace = new_workspace();
  const SyncRecord first = memory(workspace, "a", "- a\n", at_ms(1));
  CHECK(push_ok(*remote, workspace, {first}).empty());

  Sql sql(s.conninfo);
  terminate_backends(sql, name);
  CHECK(pull_all(*remote, workspace) == std::vector{first});
  terminate_backends(sql, name);
  const SyncRecord second = memory(workspace, "b", "- b\n", at_ms(2));
  CHECK(push_ok(*remote, workspace, {second}).empty());
  CHECK(sorted(pull_all(*remote, workspace)) == sorted({first, second}));
}

TEST_CASE("postgres restart: the next call reconnects after the server restarted") {
  const Server s = server();
  const std::unique_ptr<Remote> remote = open_remote(s.conninfo);
  const std::string workspace = new_workspace();
  const SyncRecord first = memory(workspace, "a", "- a\n", at_ms(1));
  remote->prepare_push();  // the session's incoming table, gone with the session
  CHECK(push_ok(*remote, workspace, {first}).empty());

  std::string command;
  for (const nlohmann::json& word : s.env.at("restart")) {
    command += "'" + word.get<std::string>() + "' ";
  }
  for (int restart = 0; restart < 2; ++restart) {
    REQUIRE(std::system(command.c_str()) == 0);
    if (restart == 0) {
      CHECK(pull_all(*remote, workspace) == std::vector{first});
    } else {
      CHECK(push_ok(*remote, workspace, {memory(workspace, "b", "- b\n", at_ms(2))}).empty());
    }
  }
  CHECK(pull_all(*remote, workspace).size() == 2);
}

// The push is held mid-way: another transaction inserted one of its ids and has not committed,
// so the push waits on that row after COPY and after storing the rows before it. Its backend
// is terminated there.
TEST_CASE("postgres: a push whose backend is terminated mid-way fails and stores nothing") {
  const Server s = server();
  const std::string workspace = new_workspace();
  const std::string name = unique_name("memkit_midpush_");
  const std::unique_ptr<Remote> remote = open_remote(s.conninfo + " application_name=" + name);
  Sql blocker(s.conninfo);
  blocker.query("BEGIN");
  blocker.query(
      "INSERT INTO memories (workspace_id, id, file, text, confidence, verified, updated_at, "
      "deleted, revision) VALUES ($1::uuid, 'held', 'memory/LONG_TERM.md', '- held', 50, "
      "'2026-11-30', '2026-11-30T09:00:00.000Z', false, 0)",
      {workspace});

  std::vector<SyncRecord> records;
  for (int i = 0; i < 20000; ++i) {
    records.push_back(memory(workspace, "m" + std::to_string(i), "- fact " + std::to_string(i),
                             at_ms(i % 60000)));
    if (i % 4 == 0) {
      records.push_back(log_record(workspace, SyncTable::session_logs, "s" + std::to_string(i),
                                   "log\n", at_ms(i % 60000)));
    }
  }
  records.push_back(memory(workspace, "held", "- pushed\n", at_ms(59999)));

  std::optional<Result<std::vector<Refusal>>> outcome;
  std::thread pusher([&] { outcome = remote->push(workspace, records); });

  Sql watcher(s.conninfo);
  const bool waiting = eventually([&] {
    return watcher.count(
               "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND "
               "wait_event_type = 'Lock'",
               {name}) == 1;
  });
  CHECK(waiting);
  terminate_backends(watcher, name);
  pusher.join();
  blocker.query("ROLLBACK");

  REQUIRE(outcome.has_value());
  REQUIRE_FALSE(outcome->ok());
  CHECK(outcome->status().code() == Errc::io);
  CHECK(outcome->status().message().starts_with("PostgreSQL: push: storing the records: "));
  CHECK(rows_of(watcher, workspace) == 0);
  // The adapter connects again for the next call.
  CHECK(pull_all(*remote, workspace).empty());
}

}  // namespace
}  // namespace memkit::pg_test
