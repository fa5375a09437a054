// The PostgreSQL adapter of MemoryBox sync (spec memorybox.md §9; include/memkit/sync_postgres.hpp,
// the contract in include/memkit/sync_remote.hpp).
//
// Ordering. Every stored row takes the next value of one sequence as its `revision`, and a pull
// returns a workspace's rows above its cursor, the highest revision it returned. That is only
// safe if a workspace's revisions become visible in order: were push A to take revision 11 and
// push B revision 12, and B commit first, a pull in between would move its cursor to 12 and
// never see 11. So every push stores its rows under the workspace's advisory lock, held until
// its transaction ends: B cannot take a revision until A has committed (PostgreSQL makes a
// transaction visible before it releases its locks), and a pull that sees B's rows sees A's.
//
// Pushing. The records are checked (nothing is sent when one is invalid) and copied into a
// temporary table with COPY (the session's, made once: by prepare_push() or the first push); then,
// under the lock, one INSERT ... ON CONFLICT per table stores those without a row or with an older
// one, each with a new revision. The records it left alone are looked up: refused when the stored
// row is newer, or as new with other content; acknowledged when it is the same record. All in one
// transaction: a failure stores nothing. (The records as array parameters of the INSERT, with no
// table, were measured slower: a push of 100 at 100,000 entries took 123-128 ms against 108-112,
// the session's first use of those types and of unnest() then falling inside the transaction,
// where the table's creation runs beside the caller's scan.)
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "memkit/memorybox/sync.hpp"
#include "pg_connection.hpp"
#include "pg_records.hpp"
#include "pg_schema.hpp"
#include "pg_statements.hpp"
#include "sync/postgres/postgres.hpp"
#include "sync/remote.hpp"

namespace memkit::sync {

namespace {

namespace pg = detail::pg;
using memorybox::SyncRecord;
using memorybox::SyncTable;

constexpr SyncTable kTables[] = {SyncTable::memories, SyncTable::session_logs,
                                 SyncTable::daily_logs};

std::optional<std::int64_t> parse_revision(std::string_view text) {
  std::int64_t revision = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), revision);
  if (error != std::errc() || end != text.data() + text.size() || revision < 0) return std::nullopt;
  return revision;
}

std::string_view cell(const PGresult* rows, int row, int column) {
  return {pg::libpq().PQgetvalue(rows, row, column),
          static_cast<std::size_t>(pg::libpq().PQgetlength(rows, row, column))};
}

// The ids as a PostgreSQL text array literal: each element quoted, with " and \ escaped.
std::string text_array(const std::vector<const SyncRecord*>& records) {
  std::string out = "{";
  for (const SyncRecord* record : records) {
    if (out.size() > 1) out += ',';
    out += '"';
    for (const char c : record->id) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  out += '}';
  return out;
}

Status invalid_workspace(std::string_view what, std::string_view workspace_id) {
  return Status(Errc::invalid_argument, "PostgreSQL: " + std::string(what) +
                                            ": the workspace id '" + std::string(workspace_id) +
                                            "' is not a canonical lower-case UUID");
}

class PostgresRemote final : public Remote {
 public:
  explicit PostgresRemote(pg::Connection connection) : connection_(std::move(connection)) {}

  [[nodiscard]] std::string describe() const override { return "PostgreSQL"; }

  [[nodiscard]] Result<Pulled> pull(std::string_view workspace_id,
                                    std::string_view cursor) override {
    if (!memorybox::is_uuid(workspace_id)) return invalid_workspace("pull", workspace_id);
    std::int64_t after = 0;
    if (!cursor.empty()) {
      const std::optional<std::int64_t> revision = parse_revision(cursor);
      if (!revision) {
        return Status(Errc::invalid_argument, "PostgreSQL: pull: the cursor '" +
                                                  std::string(cursor) +
                                                  "' is not one this adapter gave");
      }
      after = *revision;
    }
    const std::string workspace(workspace_id);
    return with_reconnect<Pulled>([&]() { return pull_once(workspace, after, cursor); });
  }

  void prepare_push() override {
    if (incoming_ready_ || !connection_.alive()) return;
    incoming_ready_ =
        connection_.run("push: creating the incoming table", pg::create_incoming_sql().c_str())
            .ok();
  }

  [[nodiscard]] Result<std::vector<Refusal>> push(std::string_view workspace_id,
                                                  std::span<const SyncRecord> records) override {
    if (Status checked = pg::check_push(workspace_id, records); !checked.ok()) return checked;
    if (records.empty()) return std::vector<Refusal>();
    const std::string workspace(workspace_id);
    return with_reconnect<std::vector<Refusal>>([&]() { return push_once(workspace, records); });
  }

 private:
  // Runs `call` on a live connection. A connection the server dropped since the last call (a
  // restart, a terminated backend) is reset first; when the connection is lost before the first
  // statement of `call` succeeded, the server did nothing, so it is reset and `call` runs once
  // more. A connection lost later fails the call (Errc::io): its transaction is rolled back.
  template <class T, class Call>
  Result<T> with_reconnect(const Call& call) {
    bool reconnected = false;
    if (!connection_.alive()) {
      incoming_ready_ = false;  // a new session
      if (Status status = connection_.reconnect(); !status.ok()) return status;
      reconnected = true;
    }
    const std::uint64_t before = connection_.successes();
    Result<T> result = call();
    if (!result && !reconnected && connection_.lost() && connection_.successes() == before) {
      incoming_ready_ = false;
      if (Status status = connection_.reconnect(); !status.ok()) return status;
      result = call();
    }
    return result;
  }

  Result<Pulled> pull_once(const std::string& workspace, std::int64_t after,
                           std::string_view cursor) {
    // One snapshot for the three tables, so that the cursor covers all of them.
    pg::Transaction transaction(connection_);
    if (Status begun = transaction.begin("pull", "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
        !begun.ok()) {
      return begun;
    }
    // No parallel workers: a pull since a cursor reads a few rows through the (workspace_id,
    // revision) index, but right after a large push the statistics can promise tens of thousands,
    // and starting workers then costs more than the query (about 75 of the 78 ms of a 100-row
    // pull on the 2-core test VM). SET LOCAL ends with the transaction, so a pooled connection
    // is left as it was.
    if (Result<pg::PgResult> serial =
            connection_.run("pull", "SET LOCAL max_parallel_workers_per_gather = 0");
        !serial) {
      return serial.status();
    }
    const std::string after_text = std::to_string(after);
    Result<pg::PgResult> rows =
        connection_.run("pull", pg::pull_sql().c_str(), {workspace.c_str(), after_text.c_str()});
    if (!rows) return rows.status();
    const PGresult* result = rows->get();
    const int count = pg::libpq().PQntuples(result);
    Pulled pulled;
    pulled.records.reserve(static_cast<std::size_t>(count));
    std::int64_t last = after;
    for (int row = 0; row < count; ++row) {
      Result<SyncRecord> record = pg::record_from_row(result, row, workspace);
      if (!record) return record.status();
      const std::optional<std::int64_t> revision = parse_revision(cell(result, row, pg::kRevision));
      if (!revision) return Status(Errc::internal, "PostgreSQL: pull: a row without a revision");
      last = std::max(last, *revision);
      pulled.records.push_back(std::move(*record));
    }
    if (Status committed = transaction.commit("pull"); !committed.ok()) return committed;
    pulled.cursor = last == after ? std::string(cursor) : std::to_string(last);
    return pulled;
  }

  Result<std::vector<Refusal>> push_once(const std::string& workspace,
                                         std::span<const SyncRecord> records) {
    pg::Transaction transaction(connection_);
    if (Status begun = transaction.begin("push", "BEGIN"); !begun.ok()) return begun;
    const bool creating = !incoming_ready_;  // made in this transaction: kept if it commits
    if (creating) {
      if (Result<pg::PgResult> created = connection_.run("push: creating the incoming table",
                                                         pg::create_incoming_sql().c_str());
          !created) {
        return created.status();
      }
    }
    std::size_t next = 0;
    const Status copied = connection_.copy_in("push: sending the records", pg::kCopyIncomingSql,
                                              [&](std::string& out) {
                                                pg::append_incoming_row(out, records[next]);
                                                return ++next < records.size();
                                              });
    if (!copied.ok()) return copied;

    // From here until the transaction ends, no other memkit push of this workspace runs (see
    // the top of this file).
    const std::string lock_class = std::to_string(pg::kWorkspaceLockClass);
    const std::string lock_key = std::to_string(pg::workspace_lock_key(workspace));
    if (Result<pg::PgResult> locked = connection_.run(
            "push: locking the workspace", "SELECT pg_advisory_xact_lock($1::integer, $2::integer)",
            {lock_class.c_str(), lock_key.c_str()});
        !locked) {
      return locked.status();
    }

    std::vector<Refusal> refusals;
    for (const SyncTable table : kTables) {
      std::vector<const SyncRecord*> mine;
      for (const SyncRecord& record : records) {
        if (record.table == table) mine.push_back(&record);
      }
      if (mine.empty()) continue;
      Result<pg::PgResult> stored = connection_.run(
          "push: storing the records", pg::store_sql(table).c_str(), {workspace.c_str()});
      if (!stored) return stored.status();
      if (pg::libpq().PQntuples(stored->get()) == static_cast<int>(mine.size())) continue;

      // The records left alone meet a row as new or newer: the same record, or a refusal.
      std::unordered_set<std::string_view> stored_ids;
      for (int row = 0; row < pg::libpq().PQntuples(stored->get()); ++row) {
        stored_ids.insert(cell(stored->get(), row, 0));
      }
      std::vector<const SyncRecord*> left;
      for (const SyncRecord* record : mine) {
        if (stored_ids.count(record->id) == 0) left.push_back(record);
      }
      const std::string ids = text_array(left);
      Result<pg::PgResult> rows =
          connection_.run("push: comparing with the stored rows",
                          pg::stored_rows_sql(table).c_str(), {workspace.c_str(), ids.c_str()});
      if (!rows) return rows.status();
      std::unordered_map<std::string_view, int> row_of;
      for (int row = 0; row < pg::libpq().PQntuples(rows->get()); ++row) {
        row_of.emplace(cell(rows->get(), row, pg::kId), row);
      }
      for (const SyncRecord* record : left) {
        const auto found = row_of.find(record->id);
        if (found == row_of.end()) {
          return Status(Errc::internal,
                        "PostgreSQL: push: a record was neither stored nor found stored");
        }
        if (std::optional<std::string> reason =
                pg::refusal_reason(*record, rows->get(), found->second)) {
          refusals.push_back(
              Refusal{.table = table, .id = record->id, .reason = std::move(*reason)});
        }
      }
    }
    if (Status committed = transaction.commit("push"); !committed.ok()) return committed;
    if (creating) incoming_ready_ = true;
    return refusals;
  }

  pg::Connection connection_;
  // The session's incoming table exists (created once per session, emptied at each commit).
  bool incoming_ready_ = false;
};

}  // namespace

Result<std::unique_ptr<Remote>> open_postgres_remote(const std::string& conninfo) {
  Result<pg::Connection> connection = pg::Connection::open(conninfo);
  if (!connection) return connection.status();
  if (Status migrated = pg::migrate_schema(*connection); !migrated.ok()) return migrated;
  return std::unique_ptr<Remote>(std::make_unique<PostgresRemote>(std::move(*connection)));
}

}  // namespace memkit::sync
