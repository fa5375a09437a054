// The SQL the PostgreSQL adapter runs on the schema of pg_schema.hpp. Every value travels as a
// parameter ($1 is always the workspace id); only table names and tags are part of the text.
#pragma once

#include <string>

#include "memkit/memorybox/sync.hpp"

namespace memkit::detail::pg {

// A pull: the rows of workspace $1 above revision $2 in the three tables, by revision, as the
// columns of PulledColumn (pg_records.hpp).
[[nodiscard]] const std::string& pull_sql();

// The temporary table a push copies its records into, dropped when the transaction ends.
[[nodiscard]] const std::string& create_incoming_sql();
// COPY into it.
inline constexpr const char* kCopyIncomingSql = "COPY memkit_incoming FROM STDIN";

// Stores the incoming records of `table` that have no row or an older one, each with the next
// revision, and returns the id of each row it stored.
[[nodiscard]] const std::string& store_sql(memorybox::SyncTable table);

// The rows of `table` in workspace $1 whose ids are in the text array $2, as PulledColumn.
[[nodiscard]] const std::string& stored_rows_sql(memorybox::SyncTable table);

}  // namespace memkit::detail::pg
