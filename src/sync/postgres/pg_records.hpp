// Sync records on their way into and out of PostgreSQL: the checks a push makes before it sends
// anything, a record as a row of COPY, and a pulled row back as a checked record.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "libpq.hpp"
#include "memkit/memorybox/sync.hpp"
#include "memorybox/sync_files.hpp"
#include "memkit/result.hpp"

namespace memkit::detail::pg {

// The columns of a row as pulled (pg_statements.hpp): the SyncTable, every field of a record
// but workspace_id, and the row's revision.
enum PulledColumn : int {
  kTable = 0,
  kId,
  kFile,
  kCategory,
  kText,
  kConfidence,
  kVerified,
  kUpdatedAt,
  kDeleted,
  kRevision,
};

// Why a record cannot go into PostgreSQL or come out of it, or nullopt when it can: a NUL byte
// or invalid UTF-8 in a string (text columns hold neither), or a rule of parse_record_line()
// broken (memorybox::record_problem), with its message. The rules are checked on the fields: the
// JSON round trip through record_line() cost 19 µs a record, two seconds for a push of 100,000.
[[nodiscard]] std::optional<std::string> storable_problem(const memorybox::SyncRecord& record);

// Returns OK iff every record can be pushed as it is: each belongs to `workspace_id`, is a
// record parse_record_line() would accept (so that a pull hands back only valid records), holds
// no NUL byte and only UTF-8 (PostgreSQL text holds neither), has no year 0000 (PostgreSQL has
// none), and no (table, id) comes twice (one upsert cannot store two versions of a row).
// Otherwise Errc::invalid_argument naming the record.
[[nodiscard]] Status check_push(std::string_view workspace_id,
                                std::span<const memorybox::SyncRecord> records);

// Appends `record` as one row of the incoming table (pg_statements.cpp: the SyncTable, then
// every field but workspace_id), in COPY's text format.
void append_incoming_row(std::string& out, const memorybox::SyncRecord& record);

// Why a push refuses `incoming`, which its INSERT did not store because the stored row (row
// `row` of `rows`, PulledColumn) is as new or newer; nullopt when the stored row holds exactly
// this record (a repeated push: acknowledged).
[[nodiscard]] std::optional<std::string> refusal_reason(const memorybox::SyncRecord& incoming,
                                                        const PGresult* rows, int row);

// A pulled row (PulledColumn) as a record of `workspace_id`, checked by the rules of
// parse_record_line(): Errc::parse naming the table and the id when it is not a valid record.
[[nodiscard]] Result<memorybox::SyncRecord> record_from_row(const PGresult* rows, int row,
                                                            std::string_view workspace_id);

}  // namespace memkit::detail::pg
