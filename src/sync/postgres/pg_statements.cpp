// The PostgreSQL adapter's SQL (pg_statements.hpp).
//
// No statement joins the incoming records with a stored table. The planner chooses such a join
// from the table's statistics, and right after a large push they still describe the table
// before it: a workspace they have not seen is estimated at a row or two, and the join becomes
// a scan of all the workspace's rows for each incoming record (a push of 100 records took 75 ms
// against 100,000 stored rows instead of 5; larger pushes would take minutes). So the store is
// INSERT ... ON CONFLICT, whose conflicts are found through the primary key, whatever the
// statistics say; and the few records it did not store are looked up by id, in one scan.
#include "pg_statements.hpp"

#include <array>

namespace memkit::detail::pg {

namespace {

using memorybox::SyncTable;

constexpr SyncTable kTables[] = {SyncTable::memories, SyncTable::session_logs,
                                 SyncTable::daily_logs};

std::string tag_of(SyncTable table) { return std::to_string(static_cast<int>(table)); }

std::string name_of(SyncTable table) { return std::string(memorybox::sync_table_name(table)); }

// The columns of PulledColumn from `table`. The times are formatted here, so that the session's
// DateStyle and TimeZone play no part.
std::string select_row(SyncTable table) {
  return "SELECT " + tag_of(table) +
         " AS tbl, id, file, category, text, confidence, to_char(verified, 'YYYY-MM-DD'), "
         "to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'), deleted, "
         "revision FROM " +
         name_of(table);
}

std::string make_pull_sql() {
  std::string sql;
  for (const SyncTable table : kTables) {
    if (!sql.empty()) sql += " UNION ALL ";
    sql += select_row(table) + " WHERE workspace_id = $1::uuid AND revision > $2::bigint";
  }
  return sql + " ORDER BY revision";
}

// nextval() runs for every incoming record, also for those the WHERE then leaves alone (a
// revision number skipped, which is harmless); a row that is not updated keeps its revision.
std::string make_store_sql(SyncTable table) {
  return "INSERT INTO " + name_of(table) +
         " AS stored (workspace_id, id, file, category, text, confidence, verified, updated_at, "
         "deleted, revision) SELECT $1::uuid, id, file, category, text, confidence, verified, "
         "updated_at, deleted, nextval('memkit_revision') FROM memkit_incoming WHERE tbl = " +
         tag_of(table) +
         " ON CONFLICT (workspace_id, id) DO UPDATE SET file = EXCLUDED.file, "
         "category = EXCLUDED.category, text = EXCLUDED.text, confidence = EXCLUDED.confidence, "
         "verified = EXCLUDED.verified, updated_at = EXCLUDED.updated_at, "
         "deleted = EXCLUDED.deleted, revision = EXCLUDED.revision "
         "WHERE stored.updated_at < EXCLUDED.updated_at RETURNING id";
}

std::string make_stored_rows_sql(SyncTable table) {
  return select_row(table) + " WHERE workspace_id = $1::uuid AND id = ANY($2::text[])";
}

template <class Make>
std::array<std::string, 3> per_table(const Make& make) {
  return {make(kTables[0]), make(kTables[1]), make(kTables[2])};
}

}  // namespace

const std::string& pull_sql() {
  static const std::string sql = make_pull_sql();
  return sql;
}

const std::string& create_incoming_sql() {
  static const std::string sql =
      "CREATE TEMPORARY TABLE memkit_incoming (tbl smallint NOT NULL, id text NOT NULL, "
      " file text NOT NULL, category text, text text NOT NULL, "
      "confidence smallint, verified date, updated_at timestamptz NOT NULL, "
      "deleted boolean NOT NULL) ON COMMIT DELETE ROWS";
  return sql;
}

const std::string& store_sql(SyncTable table) {
  static const std::array<std::string, 3> sql = per_table(make_store_sql);
  return sql[static_cast<std::size_t>(table)];
}

const std::string& stored_rows_sql(SyncTable table) {
  static const std::array<std::string, 3> sql = per_table(make_stored_rows_sql);
  return sql[static_cast<std::size_t>(table)];
}

}  // namespace memkit::detail::pg
