// The PostgreSQL adapter of MemoryBox sync (spec memorybox.md §9), in its own library target
// (memkit::postgres) on libpq. It works unchanged against Supabase or any PostgreSQL 13+.
#pragma once

#include <memory>
#include <string>

#include "memkit/result.hpp"
#include "sync/remote.hpp"

namespace memkit::sync {

// The schema version this build creates and understands (table memkit_schema).
inline constexpr int kPostgresSchemaVersion = 1;

// Connects with libpq (`conninfo` is a libpq connection string or URI; "" uses libpq's defaults
// and PG* environment variables), then creates the schema in an empty database or migrates an
// older one to kPostgresSchemaVersion, in one transaction under an advisory lock.
// Fails with Errc::io when the server cannot be reached or refuses the login, and with
// Errc::layout when the database holds a newer schema version. Messages never contain the
// connection string or a password.
// The remote holds one connection, so its calls must not overlap (one remote per thread). A call
// that finds the connection dropped since the last one (a server restart) connects again first;
// a connection lost during a call fails it with Errc::io, and its transaction stores nothing.
[[nodiscard]] Result<std::unique_ptr<Remote>> open_postgres_remote(const std::string& conninfo);

}  // namespace memkit::sync
