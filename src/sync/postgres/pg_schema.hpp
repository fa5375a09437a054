// The PostgreSQL adapter's schema (spec memorybox.md §9: "it creates and migrates its own schema,
// with a schema version") and the advisory locks memkit processes share.
//
// Version 1: `memkit_schema(version)` with one row; `memories`, `session_logs` and `daily_logs`
// (the seed's table names), one row per (workspace_id, id) with the record's fields and a
// `revision` from the one sequence `memkit_revision`, indexed by (workspace_id, revision) for
// pulls. Plain names in the connection's schema (search_path), none of which Supabase uses.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "memkit/result.hpp"
#include "pg_connection.hpp"

namespace memkit::detail::pg {

// The advisory locks, in the two-integer form so that they never meet the one-bigint keys other
// applications of the same database tend to use. Every memkit version must keep these numbers:
// a push of an older and a newer memkit to one workspace must still exclude each other.
inline constexpr std::int32_t kSchemaLockClass = 0x6d6b5300;     // "mkS": creating, migrating
inline constexpr std::int32_t kWorkspaceLockClass = 0x6d6b5700;  // "mkW": a workspace's pushes

// The second key of a workspace's lock: FNV-1a (32 bits) of its id. Two workspaces that share a
// key only wait for each other.
[[nodiscard]] std::int32_t workspace_lock_key(std::string_view workspace_id) noexcept;

// Creates the schema in a database that has none, or migrates an older one up to
// kPostgresSchemaVersion, in one transaction under the schema lock (two processes opening a
// fresh database at once must not both create it). Fails with Errc::layout when the database
// holds a newer version, or when the schema cannot be created there (a `memories` table that is
// not memkit's); with Errc::io when the connection fails.
[[nodiscard]] Status migrate_schema(Connection& connection);

}  // namespace memkit::detail::pg
