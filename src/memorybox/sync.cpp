// The pure sync core (spec memorybox.md §9).
#include <algorithm>

#include "codec/canonical.hpp"
#include "codec/strict_json.hpp"
#include "memkit/clock.hpp"
#include "memkit/memorybox.hpp"
#include "memkit/memorybox/sync.hpp"
#include "memorybox/sync_files.hpp"
#include "memorybox/record_lines.hpp"

namespace memkit::memorybox {

namespace {

using nlohmann::json;

Status parse_error(std::string_view what, std::string message) {
  return Status(Errc::parse, std::string(what) + ": " + std::move(message));
}

bool is_lower_hex(char c) noexcept { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

// Parses a JSON object holding exactly `keys`, strictly (a key given twice is refused).
Result<json> parse_object(std::string_view text, std::string_view what,
                          const std::vector<std::string_view>& keys) {
  std::string problem;
  const std::optional<json> parsed = memkit::detail::parse_strict_json(text, problem);
  if (!parsed) return parse_error(what, problem);
  const json& value = *parsed;
  if (!value.is_object()) return parse_error(what, "not a JSON object");
  for (const auto& [key, _] : value.items()) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      return parse_error(what, "unknown key \"" + key + "\"");
    }
  }
  for (const std::string_view key : keys) {
    if (!value.contains(key)) return parse_error(what, "missing key \"" + std::string(key) + "\"");
  }
  return value;
}

Result<std::string> get_string(const json& object, const char* key, std::string_view what) {
  const json& v = object.at(key);
  if (!v.is_string()) return parse_error(what, std::string(key) + " is not a string");
  return v.get<std::string>();
}

// A string, or null.
Result<std::optional<std::string>> get_optional_string(const json& object, const char* key,
                                                       std::string_view what) {
  const json& v = object.at(key);
  if (v.is_null()) return std::optional<std::string>();
  if (!v.is_string()) return parse_error(what, std::string(key) + " is not a string or null");
  return std::optional<std::string>(v.get<std::string>());
}

Result<std::optional<std::string>> get_optional_time(const json& object, const char* key,
                                                     std::string_view what) {
  Result<std::optional<std::string>> v = get_optional_string(object, key, what);
  if (v && *v && !is_utc_millis(**v)) {
    return parse_error(what, std::string(key) + " is not an RFC 3339 UTC time with milliseconds");
  }
  return v;
}

json optional_text(const std::optional<std::string>& text) {
  return text ? memkit::detail::utf8(*text) : json(nullptr);
}

// Could `id` be an `Id` field value (a stripped value on one line)?
bool is_field_value(std::string_view id) noexcept {
  if (id.empty()) return false;
  const auto blank = [](char c) { return c == ' ' || c == '\t'; };
  if (blank(id.front()) || blank(id.back())) return false;
  return id.find_first_of("\r\n") == std::string_view::npos;
}

// The content of a record, everything but updated_at.
bool same_content(const SyncRecord& a, const SyncRecord& b) noexcept {
  return a.id == b.id && a.workspace_id == b.workspace_id && a.table == b.table &&
         a.file == b.file && a.category == b.category && a.text == b.text &&
         a.confidence == b.confidence && a.verified == b.verified && a.deleted == b.deleted;
}

std::size_t longest_backtick_run(std::string_view text) noexcept {
  std::size_t longest = 0;
  std::size_t run = 0;
  for (const char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

void append_fenced(std::string& out, std::string_view fence, std::string_view text) {
  out += fence;
  out += '\n';
  out += text;
  if (!text.empty() && text.back() != '\n') out += '\n';
  out += fence;
  out += '\n';
}

}  // namespace

std::string_view sync_table_name(SyncTable table) noexcept {
  switch (table) {
    case SyncTable::memories:
      return "memories";
    case SyncTable::session_logs:
      return "session_logs";
    case SyncTable::daily_logs:
      return "daily_logs";
  }
  return "memories";
}

std::optional<SyncTable> parse_sync_table(std::string_view name) noexcept {
  for (const SyncTable t : {SyncTable::memories, SyncTable::session_logs, SyncTable::daily_logs}) {
    if (sync_table_name(t) == name) return t;
  }
  return std::nullopt;
}

bool is_log_table(SyncTable table) noexcept { return table != SyncTable::memories; }

Result<SyncRecord> detail::parse_record_line_json(std::string_view line) {
  constexpr std::string_view what = "sync record";
  if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
  if (line.find('\n') != std::string_view::npos) return parse_error(what, "more than one line");
  Result<json> parsed = parse_object(line, what,
                                     {"id", "workspace_id", "table", "file", "category", "text",
                                      "confidence", "verified", "updated_at", "deleted"});
  if (!parsed) return parsed.status();
  const json& o = *parsed;
  SyncRecord r;

  Result<std::string> id = get_string(o, "id", what);
  if (!id) return id.status();
  r.id = std::move(*id);

  Result<std::string> workspace = get_string(o, "workspace_id", what);
  if (!workspace) return workspace.status();
  r.workspace_id = std::move(*workspace);

  Result<std::string> table = get_string(o, "table", what);
  if (!table) return table.status();
  const std::optional<SyncTable> t = parse_sync_table(*table);
  if (!t) return parse_error(what, "unknown table \"" + *table + "\"");
  r.table = *t;

  Result<std::string> file = get_string(o, "file", what);
  if (!file) return file.status();
  r.file = std::move(*file);

  Result<std::optional<std::string>> category = get_optional_string(o, "category", what);
  if (!category) return category.status();
  r.category = std::move(*category);

  Result<std::string> text = get_string(o, "text", what);
  if (!text) return text.status();
  r.text = std::move(*text);

  const json& confidence = o.at("confidence");
  if (!confidence.is_null()) {
    if (!confidence.is_number_integer() || confidence.get<std::int64_t>() < 0 ||
        confidence.get<std::int64_t>() > 100) {
      return parse_error(what, "confidence is not an integer 0-100 or null");
    }
    r.confidence = static_cast<std::uint32_t>(confidence.get<std::int64_t>());
  }

  Result<std::optional<std::string>> verified = get_optional_string(o, "verified", what);
  if (!verified) return verified.status();
  r.verified = std::move(*verified);

  Result<std::string> updated = get_string(o, "updated_at", what);
  if (!updated) return updated.status();
  r.updated_at = std::move(*updated);

  const json& deleted = o.at("deleted");
  if (!deleted.is_boolean()) return parse_error(what, "deleted is not a boolean");
  r.deleted = deleted.get<bool>();

  if (std::optional<std::string> problem = record_problem(r)) return parse_error(what, *problem);
  return r;
}

std::optional<std::string> record_problem(const SyncRecord& r) {
  if (!is_field_value(r.id)) return "id is not a valid Id value";
  if (!is_uuid(r.workspace_id)) return "workspace_id is not a canonical UUID";
  if (r.table != SyncTable::memories && r.table != SyncTable::session_logs &&
      r.table != SyncTable::daily_logs) {
    return "unknown table";
  }
  if (r.file.empty()) return "file is empty";
  if (r.confidence && *r.confidence > 100) return "confidence is not an integer 0-100 or null";
  if (r.verified && !parse_iso_date(*r.verified)) return "verified is not a YYYY-MM-DD date";
  if (!is_utc_millis(r.updated_at)) {
    return "updated_at is not an RFC 3339 UTC time with milliseconds";
  }
  if (is_log_table(r.table) && r.confidence) return "a log record has a confidence";
  if (r.table == SyncTable::memories && !r.deleted && (!r.confidence || !r.verified)) {
    return "a memories record lacks confidence or verified";
  }
  return std::nullopt;
}

std::string uuid_v7(std::uint64_t unix_millis, const std::array<std::uint8_t, 10>& random) {
  std::array<std::uint8_t, 16> b{};
  for (int i = 0; i < 6; ++i) {
    b[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(unix_millis >> (8 * (5 - i)));
  }
  b[6] = static_cast<std::uint8_t>(0x70 | (random[0] & 0x0F));
  b[7] = random[1];
  b[8] = static_cast<std::uint8_t>(0x80 | (random[2] & 0x3F));
  for (std::size_t i = 9; i < 16; ++i) b[i] = random[i - 6];
  constexpr std::string_view kHex = "0123456789abcdef";
  std::string out;
  out.reserve(36);
  for (std::size_t i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += kHex[b[i] >> 4];
    out += kHex[b[i] & 0x0F];
  }
  return out;
}

bool is_uuid(std::string_view text) noexcept {
  if (text.size() != 36) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? text[i] != '-' : !is_lower_hex(text[i])) return false;
  }
  return true;
}

Result<SyncState> parse_sync_state(std::string_view bytes) {
  constexpr std::string_view what = ".memkit/sync.json";
  Result<json> parsed = parse_object(
      bytes, what, {"workspace_id", "last_pull_at", "last_push_at", "last_push_ok", "pull_cursor"});
  if (!parsed) return parsed.status();
  const json& o = *parsed;
  SyncState s;
  Result<std::string> workspace = get_string(o, "workspace_id", what);
  if (!workspace) return workspace.status();
  if (!is_uuid(*workspace)) return parse_error(what, "workspace_id is not a canonical UUID");
  s.workspace_id = std::move(*workspace);
  Result<std::optional<std::string>> pull = get_optional_time(o, "last_pull_at", what);
  if (!pull) return pull.status();
  s.last_pull_at = std::move(*pull);
  Result<std::optional<std::string>> push = get_optional_time(o, "last_push_at", what);
  if (!push) return push.status();
  s.last_push_at = std::move(*push);
  const json& ok = o.at("last_push_ok");
  if (!ok.is_boolean()) return parse_error(what, "last_push_ok is not a boolean");
  s.last_push_ok = ok.get<bool>();
  Result<std::string> cursor = get_string(o, "pull_cursor", what);
  if (!cursor) return cursor.status();
  s.pull_cursor = std::move(*cursor);
  return s;
}

std::string render_sync_state(const SyncState& state) {
  json o = json::object();
  o["workspace_id"] = memkit::detail::utf8(state.workspace_id);
  o["last_pull_at"] = optional_text(state.last_pull_at);
  o["last_push_at"] = optional_text(state.last_push_at);
  o["last_push_ok"] = state.last_push_ok;
  o["pull_cursor"] = memkit::detail::utf8(state.pull_cursor);
  return memkit::detail::canonical_dump(o) + "\n";
}

std::string_view merge_outcome_name(MergeOutcome outcome) noexcept {
  switch (outcome) {
    case MergeOutcome::take_local:
      return "take_local";
    case MergeOutcome::take_remote:
      return "take_remote";
    case MergeOutcome::conflict:
      return "conflict";
  }
  return "conflict";
}

std::string_view merge_rule_name(MergeRule rule) noexcept {
  switch (rule) {
    case MergeRule::same:
      return "same";
    case MergeRule::only_local_changed:
      return "only_local_changed";
    case MergeRule::only_remote_changed:
      return "only_remote_changed";
    case MergeRule::canon:
      return "canon";
    case MergeRule::log_newer:
      return "log_newer";
    case MergeRule::log_tie:
      return "log_tie";
    case MergeRule::fact_newer:
      return "fact_newer";
    case MergeRule::fact_higher:
      return "fact_higher";
    case MergeRule::fact_ambiguous:
      return "fact_ambiguous";
  }
  return "same";
}

MergeDecision merge(const SyncRecord& local, const SyncRecord& remote, const MergeInput& input) {
  using enum MergeOutcome;
  // Which side is newer: -1 local, +1 remote, 0 neither (is_utc_millis orders bytewise).
  const int newer = local.updated_at > remote.updated_at   ? -1
                    : local.updated_at < remote.updated_at ? 1
                                                           : 0;
  const MergeOutcome take_newer = newer < 0 ? take_local : take_remote;
  if (same_content(local, remote)) {
    // Canon is never overwritten from remote, not even its Updated field.
    const bool remote_newer = newer > 0 && !input.canon;
    return {.outcome = remote_newer ? take_remote : take_local, .rule = MergeRule::same};
  }
  if (input.canon) return {.outcome = conflict, .rule = MergeRule::canon};
  const bool local_changed = input.local_changed;
  const bool remote_changed = input.remote_changed;
  if (local_changed && !remote_changed) {
    return {.outcome = take_local, .rule = MergeRule::only_local_changed};
  }
  if (remote_changed && !local_changed) {
    return {.outcome = take_remote, .rule = MergeRule::only_remote_changed};
  }
  if (is_log_table(local.table)) {
    if (newer == 0) return {.outcome = conflict, .rule = MergeRule::log_tie};
    return {.outcome = take_newer, .rule = MergeRule::log_newer};
  }
  int higher = 0;
  if (input.local_effective && input.remote_effective) {
    higher = *input.local_effective > *input.remote_effective   ? -1
             : *input.local_effective < *input.remote_effective ? 1
                                                                : 0;
  }
  if (newer != 0 && (higher == 0 || higher == newer)) {
    return {.outcome = take_newer, .rule = MergeRule::fact_newer};
  }
  if (newer == 0 && higher != 0) {
    return {.outcome = higher < 0 ? take_local : take_remote, .rule = MergeRule::fact_higher};
  }
  return {.outcome = conflict, .rule = MergeRule::fact_ambiguous};
}

std::string fence_for(std::string_view text) {
  return std::string(std::max<std::size_t>(3, longest_backtick_run(text) + 1), '`');
}

std::string conflict_block(std::string_view id, std::string_view today, const SyncRecord& local,
                           const SyncRecord& remote) {
  const std::string_view local_text = local.deleted ? std::string_view() : local.text;
  const std::string_view remote_text = remote.deleted ? std::string_view() : remote.text;
  const std::string fence = std::string(
      std::max<std::size_t>(
          3, std::max(longest_backtick_run(local_text), longest_backtick_run(remote_text)) + 1),
      '`');
  const auto version = [&](std::string& out, std::string_view side, const SyncRecord& r,
                           std::string_view text) {
    out += side;
    out += ":\n\n- file: ";
    out += r.file;
    out += "\n- category: ";
    out += r.category.value_or("none");
    out += "\n- confidence: ";
    out += r.confidence ? format_hundredths(*r.confidence) : std::string("none");
    out += "\n- verified: ";
    out += r.verified.value_or("none");
    out += "\n- updated_at: ";
    out += r.updated_at;
    out += r.deleted ? "\n- deleted: yes\n\n" : "\n- deleted: no\n\n";
    append_fenced(out, fence, text);
  };
  std::string out = "## ";
  out += id;
  out += " \u2014 ";
  out += today;
  out += "\n\n";
  version(out, "Local", local, local_text);
  out += '\n';
  version(out, "Remote", remote, remote_text);
  return out;
}

}  // namespace memkit::memorybox
