// The JSON Lines form of sync records without a JSON tree (spec memorybox.md §9 Records).
#include "memorybox/record_lines.hpp"

#include <cstdint>

#include "codec/canonical.hpp"
#include "codec/canonical_cursor.hpp"
#include "memkit/clock.hpp"
#include "memkit/text.hpp"

namespace memkit::memorybox {

namespace {

void append_optional_string(std::string& out, const std::optional<std::string>& text) {
  if (text) {
    memkit::detail::append_json_string(out, *text);
  } else {
    out += "null";
  }
}

// Reads one canonical line from left to right; each step returns false at the first byte that
// is not where the canonical form puts it.
class CanonicalReader final : public memkit::detail::CanonicalCursor {
 public:
  explicit CanonicalReader(std::string_view line) noexcept
      : CanonicalCursor(line, memkit::detail::JsonEscapes::canonical) {}

  // null, or an integer 0-100 in shortest form.
  bool optional_confidence(std::optional<std::uint32_t>& out) noexcept {
    if (literal("null")) {
      out.reset();
      return true;
    }
    std::uint32_t value = 0;
    std::size_t digits = 0;
    while (digits < rest_.size() && digits < 4 && rest_[digits] >= '0' && rest_[digits] <= '9') {
      value = value * 10 + static_cast<std::uint32_t>(rest_[digits] - '0');
      ++digits;
    }
    if (digits == 0 || digits > 3 || (digits > 1 && rest_[0] == '0') || value > 100) return false;
    rest_.remove_prefix(digits);
    out = value;
    return true;
  }
};

// parse_record_line's checks of the values, given valid UTF-8 strings.
bool passes_value_checks(const SyncRecord& r) { return !record_problem(r); }

bool is_utf8(std::string_view text) noexcept { return !find_invalid_utf8(text); }

}  // namespace

bool detail::reads_back_unchanged(const SyncRecord& r) {
  return is_utf8(r.id) && is_utf8(r.workspace_id) && is_utf8(r.file) &&
         (!r.category || is_utf8(*r.category)) && is_utf8(r.text) &&
         (!r.verified || is_utf8(*r.verified)) && is_utf8(r.updated_at) && passes_value_checks(r);
}

void append_record_line(std::string& out, const SyncRecord& record) {
  // memkit::detail::append_json_string writes canonical_dump(utf8(text)): invalid UTF-8 repaired.
  out += "{\"category\":";
  append_optional_string(out, record.category);
  out += ",\"confidence\":";
  out += record.confidence ? std::to_string(*record.confidence) : "null";
  out += record.deleted ? ",\"deleted\":true,\"file\":" : ",\"deleted\":false,\"file\":";
  memkit::detail::append_json_string(out, record.file);
  out += ",\"id\":";
  memkit::detail::append_json_string(out, record.id);
  out += ",\"table\":\"";
  out += sync_table_name(record.table);
  out += "\",\"text\":";
  memkit::detail::append_json_string(out, record.text);
  out += ",\"updated_at\":";
  memkit::detail::append_json_string(out, record.updated_at);
  out += ",\"verified\":";
  append_optional_string(out, record.verified);
  out += ",\"workspace_id\":";
  memkit::detail::append_json_string(out, record.workspace_id);
  out += "}\n";
}

std::string record_line(const SyncRecord& record) {
  std::string out;
  append_record_line(out, record);
  return out;
}

std::optional<SyncRecord> detail::read_canonical_record_line(std::string_view line) {
  if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
  if (find_invalid_utf8(line)) return std::nullopt;
  CanonicalReader in(line);
  SyncRecord r;
  std::string table;
  const bool canonical =
      in.literal("{\"category\":") && in.optional_string(r.category) &&
      in.literal(",\"confidence\":") && in.optional_confidence(r.confidence) &&
      in.literal(",\"deleted\":") && in.boolean(r.deleted) && in.literal(",\"file\":") &&
      in.string(r.file) && in.literal(",\"id\":") && in.string(r.id) && in.literal(",\"table\":") &&
      in.string(table) && in.literal(",\"text\":") && in.string(r.text) &&
      in.literal(",\"updated_at\":") && in.string(r.updated_at) && in.literal(",\"verified\":") &&
      in.optional_string(r.verified) && in.literal(",\"workspace_id\":") &&
      in.string(r.workspace_id) && in.literal("}") && in.done();
  if (!canonical) return std::nullopt;

  // parse_record_line's checks; a line that fails one goes to it for the message.
  const std::optional<SyncTable> parsed_table = parse_sync_table(table);
  if (!parsed_table) return std::nullopt;
  r.table = *parsed_table;
  if (!passes_value_checks(r)) return std::nullopt;
  return r;
}

Result<SyncRecord> parse_record_line(std::string_view line) {
  if (std::optional<SyncRecord> fast = detail::read_canonical_record_line(line)) {
    return std::move(*fast);
  }
  return detail::parse_record_line_json(line);
}

}  // namespace memkit::memorybox
