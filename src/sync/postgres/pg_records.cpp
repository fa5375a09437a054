// Sync records into and out of PostgreSQL (pg_records.hpp).
#include "pg_records.hpp"

#include <charconv>
#include <set>
#include <utility>

#include "copy_text.hpp"
#include "memkit/clock.hpp"
#include "memkit/text.hpp"

namespace memkit::detail::pg {

namespace {

using memorybox::SyncRecord;
using memorybox::SyncTable;

// An id as messages show it, quoted; a NUL byte (refused, but still to be named) as \0.
std::string shown(std::string_view id) {
  std::string out = "'";
  for (const char c : id) {
    if (c == '\0') {
      out += "\\0";
    } else {
      out += c;
    }
  }
  out += "'";
  return out;
}

Status refused(const SyncRecord& record, std::string_view problem) {
  return Status(Errc::invalid_argument,
                "PostgreSQL: push: record " + shown(record.id) + ": " + std::string(problem));
}

std::string_view or_empty(const std::optional<std::string>& text) noexcept {
  return text ? std::string_view(*text) : std::string_view();
}

void append_number(std::string& out, std::uint64_t number) {
  char digits[24];
  const auto [end, error] = std::to_chars(digits, digits + sizeof digits, number);
  out.append(digits, end);
}

std::string_view value(const PGresult* rows, int row, int column) {
  return {libpq().PQgetvalue(rows, row, column),
          static_cast<std::size_t>(libpq().PQgetlength(rows, row, column))};
}

std::optional<std::string> optional_value(const PGresult* rows, int row, int column) {
  if (libpq().PQgetisnull(rows, row, column)) return std::nullopt;
  return std::string(value(rows, row, column));
}

Status row_error(SyncTable table, std::string_view id, std::string_view problem) {
  return Status(Errc::parse, "PostgreSQL: pull: " + std::string(memorybox::sync_table_name(table)) +
                                 " row " + shown(id) +
                                 " is not a valid record: " + std::string(problem));
}

}  // namespace

std::optional<std::string> storable_problem(const SyncRecord& r) {
  const std::pair<std::string_view, std::string_view> texts[] = {{"id", r.id},
                                                                 {"workspace_id", r.workspace_id},
                                                                 {"file", r.file},
                                                                 {"category", or_empty(r.category)},
                                                                 {"text", r.text},
                                                                 {"verified", or_empty(r.verified)},
                                                                 {"updated_at", r.updated_at}};
  for (const auto& [name, text] : texts) {
    if (text.find('\0') != std::string_view::npos) {
      return "its " + std::string(name) + " holds a NUL byte, which PostgreSQL cannot store";
    }
    if (const std::optional<std::size_t> at = find_invalid_utf8(text)) {
      return "its " + std::string(name) + " is not valid UTF-8 (byte " + std::to_string(*at) + ")";
    }
  }
  return memorybox::record_problem(r);
}

Status check_push(std::string_view workspace_id, std::span<const SyncRecord> records) {
  if (!memorybox::is_uuid(workspace_id)) {
    return Status(Errc::invalid_argument, "PostgreSQL: push: the workspace id '" +
                                              std::string(workspace_id) +
                                              "' is not a canonical lower-case UUID");
  }
  std::set<std::pair<SyncTable, std::string_view>> seen;
  for (const SyncRecord& record : records) {
    if (record.workspace_id != workspace_id) {
      return refused(record, "it belongs to workspace '" + record.workspace_id + "', not '" +
                                 std::string(workspace_id) + "'");
    }
    if (const std::optional<std::string> problem = storable_problem(record)) {
      return refused(record, *problem);
    }
    if (record.updated_at.starts_with("0000") ||
        (record.verified && record.verified->starts_with("0000"))) {
      return refused(record, "PostgreSQL has no year 0000");
    }
    if (!seen.emplace(record.table, record.id).second) {
      return refused(record, "the push holds it twice in " +
                                 std::string(memorybox::sync_table_name(record.table)));
    }
  }
  return Status();
}

void append_incoming_row(std::string& out, const SyncRecord& r) {
  append_number(out, static_cast<std::uint64_t>(r.table));
  out += '\t';
  append_copy_field(out, r.id);
  out += '\t';
  append_copy_field(out, r.file);
  out += '\t';
  if (r.category) {
    append_copy_field(out, *r.category);
  } else {
    append_copy_null(out);
  }
  out += '\t';
  append_copy_field(out, r.text);
  out += '\t';
  if (r.confidence) {
    append_number(out, *r.confidence);
  } else {
    append_copy_null(out);
  }
  out += '\t';
  if (r.verified) {
    out += *r.verified;  // YYYY-MM-DD: nothing to escape
  } else {
    append_copy_null(out);
  }
  out += '\t';
  out += r.updated_at;  // is_utc_millis: nothing to escape
  out += '\t';
  out += r.deleted ? 't' : 'f';
  out += '\n';
}

Result<SyncRecord> record_from_row(const PGresult* rows, int row, std::string_view workspace_id) {
  SyncRecord r;
  const std::string_view tag = value(rows, row, kTable);
  if (tag.size() != 1 || tag[0] < '0' || tag[0] > '2') {
    return Status(Errc::internal, "PostgreSQL: pull: a row of no known table");
  }
  r.table = static_cast<SyncTable>(tag[0] - '0');
  r.id = std::string(value(rows, row, kId));
  r.workspace_id = std::string(workspace_id);
  r.file = std::string(value(rows, row, kFile));
  r.category = optional_value(rows, row, kCategory);
  r.text = std::string(value(rows, row, kText));
  if (!libpq().PQgetisnull(rows, row, kConfidence)) {
    const std::string_view text = value(rows, row, kConfidence);
    std::uint32_t confidence = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), confidence);
    if (error != std::errc() || end != text.data() + text.size()) {
      return row_error(r.table, r.id, "confidence is not an integer 0-100 or null");
    }
    r.confidence = confidence;
  }
  r.verified = optional_value(rows, row, kVerified);
  r.updated_at = std::string(value(rows, row, kUpdatedAt));
  r.deleted = value(rows, row, kDeleted) == "t";
  if (const std::optional<std::string> problem = storable_problem(r)) {
    return row_error(r.table, r.id, *problem);
  }
  return r;
}

std::optional<std::string> refusal_reason(const SyncRecord& incoming, const PGresult* rows,
                                          int row) {
  // The INSERT left the record alone, so the stored row is at least as new: another time is a
  // newer one. (Both are spelled is_utc_millis, the stored one by pull_sql's formatting.)
  if (value(rows, row, kUpdatedAt) != incoming.updated_at) {
    return "the remote holds a newer version";
  }
  const auto same = [&](int column, const std::optional<std::string>& mine) {
    return libpq().PQgetisnull(rows, row, column) ? !mine.has_value()
                                                  : mine && value(rows, row, column) == *mine;
  };
  const std::optional<std::string> confidence =
      incoming.confidence ? std::optional<std::string>(std::to_string(*incoming.confidence))
                          : std::nullopt;
  const bool identical =
      value(rows, row, kFile) == incoming.file && same(kCategory, incoming.category) &&
      value(rows, row, kText) == incoming.text && same(kConfidence, confidence) &&
      same(kVerified, incoming.verified) && (value(rows, row, kDeleted) == "t") == incoming.deleted;
  if (identical) return std::nullopt;
  return "the remote holds a different version with the same updated_at";
}

}  // namespace memkit::detail::pg
