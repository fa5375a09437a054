// The PostgreSQL adapter's schema and its migrations (pg_schema.hpp).
#include "pg_schema.hpp"

#include <charconv>
#include <string>

#include "sync/postgres/postgres.hpp"

namespace memkit::detail::pg {

namespace {

// One step of the schema: the SQL that turns version `version - 1` into `version`. The list is
// ordered; version 2 is one more entry. A released entry is never edited, since databases out
// there already ran it.
struct Migration {
  int version;
  const char* sql;
};

constexpr Migration kMigrations[] = {
    {1, R"sql(
-- Revisions order what reached the database, for pulls. CACHE 1 (the default) matters: with a
-- cache, two sessions would hand out values out of order.
CREATE SEQUENCE memkit_revision AS bigint CACHE 1;

CREATE TABLE memories (
  workspace_id uuid NOT NULL,
  id text NOT NULL,
  file text NOT NULL,
  category text,
  text text NOT NULL,
  confidence smallint CHECK (confidence BETWEEN 0 AND 100),
  verified date CHECK (verified BETWEEN '0001-01-01' AND '9999-12-31'),
  -- Milliseconds in years 0001-9999, as a record's updated_at spells them, so that every stored
  -- time reads back exactly.
  updated_at timestamptz NOT NULL CHECK (
    updated_at AT TIME ZONE 'UTC' = date_trunc('milliseconds', updated_at AT TIME ZONE 'UTC')
    AND updated_at AT TIME ZONE 'UTC' BETWEEN '0001-01-01' AND '9999-12-31 23:59:59.999'),
  deleted boolean NOT NULL,
  revision bigint NOT NULL,
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX ON memories (workspace_id, revision);

-- The log tables have the same columns, checks and indexes.
CREATE TABLE session_logs (LIKE memories INCLUDING ALL);
CREATE TABLE daily_logs (LIKE memories INCLUDING ALL);
)sql"},
};

static_assert(std::size(kMigrations) == static_cast<std::size_t>(sync::kPostgresSchemaVersion),
              "one migration per schema version, the last one kPostgresSchemaVersion");

Status layout_error(std::string message) {
  return Status(Errc::layout, "PostgreSQL: " + std::move(message));
}

// The version in memkit_schema's rows: one row holding a version.
Result<int> version_in(const PgResult& rows) {
  const int count = libpq().PQntuples(rows.get());
  if (count != 1) {
    return layout_error("memkit_schema holds " + std::to_string(count) + " rows; it must hold one");
  }
  const std::string_view text = libpq().PQgetvalue(rows.get(), 0, 0);
  int version = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), version);
  if (error != std::errc() || end != text.data() + text.size() || version < 0) {
    return layout_error("memkit_schema holds the version '" + std::string(text) + "'");
  }
  return version;
}

// The version the database holds: 0 without memkit_schema (a fresh database).
// Whether memkit_schema exists is read from pg_class itself, not through to_regclass: that looks
// in the session's catalog cache, which an advisory lock does not refresh, so a session that
// waited for another's migration would still find no table (and fail to create it). Reading
// pg_class locks it, which brings the cache up to date too.
Result<int> stored_version(Connection& connection) {
  constexpr std::string_view what = "reading the schema version";
  Result<PgResult> exists =
      connection.run(what,
                     "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_class c WHERE c.relname = "
                     "'memkit_schema' AND pg_catalog.pg_table_is_visible(c.oid))");
  if (!exists) return exists.status();
  if (std::string_view(libpq().PQgetvalue(exists->get(), 0, 0)) != "t") return 0;
  Result<PgResult> rows = connection.run(what, "SELECT version FROM memkit_schema");
  if (!rows) return rows.status();
  return version_in(*rows);
}

}  // namespace

std::int32_t workspace_lock_key(std::string_view workspace_id) noexcept {
  std::uint32_t hash = 2166136261u;
  for (const char c : workspace_id) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 16777619u;
  }
  return static_cast<std::int32_t>(hash);
}

Status migrate_schema(Connection& connection) {
  // The usual case, a current schema, is one query without a transaction or the lock: a
  // migration commits its tables and the new version together, so a current version is a whole
  // schema. Anything else (no such table yet, another version) is settled under the lock.
  if (Result<PgResult> rows =
          connection.run("reading the schema version", "SELECT version FROM memkit_schema");
      rows) {
    if (Result<int> current = version_in(*rows);
        current && *current == sync::kPostgresSchemaVersion) {
      return Status();
    }
  }
  Transaction transaction(connection);
  if (Status begun = transaction.begin("creating the schema", "BEGIN"); !begun.ok()) return begun;
  const std::string lock_class = std::to_string(kSchemaLockClass);
  Result<PgResult> locked = connection.run(
      "locking the schema", "SELECT pg_advisory_xact_lock($1::integer, 0)", {lock_class.c_str()});
  if (!locked) return locked.status();

  Result<int> version = stored_version(connection);
  if (!version) return version.status();
  if (*version > sync::kPostgresSchemaVersion) {
    return layout_error("the database has memkit schema version " + std::to_string(*version) +
                        "; this memkit understands up to " +
                        std::to_string(sync::kPostgresSchemaVersion));
  }
  if (*version == sync::kPostgresSchemaVersion) return transaction.commit("reading the schema");

  if (*version == 0) {
    const Status created =
        connection.run_script("creating memkit_schema",
                              "CREATE TABLE memkit_schema (version integer NOT NULL);"
                              "INSERT INTO memkit_schema (version) VALUES (0);");
    if (!created.ok()) return created;
  }
  for (const Migration& migration : kMigrations) {
    if (migration.version <= *version) continue;
    const std::string what = "creating schema version " + std::to_string(migration.version);
    Status migrated = connection.run_script(what, migration.sql);
    if (!migrated.ok()) {
      // The connection is fine, so the database refused the SQL: it holds something in the
      // way (a table of the same name that is not memkit's) or forbids creating tables.
      if (!connection.lost()) return Status(Errc::layout, migrated.message());
      return migrated;
    }
  }
  const std::string target = std::to_string(sync::kPostgresSchemaVersion);
  Result<PgResult> recorded =
      connection.run("recording the schema version",
                     "UPDATE memkit_schema SET version = $1::integer", {target.c_str()});
  if (!recorded) return recorded.status();
  return transaction.commit("creating the schema");
}

}  // namespace memkit::detail::pg
