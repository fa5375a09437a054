// Read telemetry (curated.md §9): access records, the counters derived from them, and compaction.
// The counters are never stored as such: they are the count and latest ts per (name, kind) of
// the snapshot and the log together, so compaction only moves records from the log into the
// snapshot and the derived values cannot change.
//
// The snapshot, access-snapshot.json, is canonical JSON {name: {kind: {"count": N, "last": TS}}}
// then LF: per row, one member per kind with at least one folded read ("last" may be null only
// in a hand-made snapshot). A snapshot entry that does not read is skipped, like a bad log line.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "codec/bounded_json.hpp"
#include "codec/canonical.hpp"
#include "curated/words.hpp"
#include "memkit/curated.hpp"
#include "memkit/curated/log.hpp"
#include "memkit/findings.hpp"

namespace memkit::curated {
namespace {

using nlohmann::json;
using Counters = std::map<std::string, ReadCounters>;

constexpr wordlist::Words<ReadKind, 3> kKinds{{
    {ReadKind::deliberate, "deliberate"},
    {ReadKind::kernel, "kernel"},
    {ReadKind::injection, "injection"},
}};

// Adds `count` reads whose latest was at `last` (string order is time order, §2).
void add(Axis& axis, std::uint64_t count, const std::optional<std::string>& last) {
  axis.count += count;
  if (last && (!axis.last_at || *axis.last_at < *last)) axis.last_at = last;
}

Finding warning(std::string_view path, std::string message) {
  return make_finding("MK-PARSE-001", Severity::warning, std::string(path), std::move(message),
                      "correct or remove it");
}

// Folds the snapshot's entries into `rows`; what does not read goes to `findings`.
void fold_snapshot(std::string_view bytes, std::string_view path, Counters& rows,
                   std::vector<Finding>& findings) {
  if (bytes.empty()) return;  // no snapshot yet
  std::string problem = "not JSON";
  const json value = detail::parse_bounded_json(bytes, &problem);
  if (value.is_discarded() || !value.is_object()) {
    findings.push_back(warning(path, std::string(path) + ": not a telemetry snapshot (" +
                                         (value.is_discarded() ? problem : "not a JSON object") +
                                         "); it is ignored"));
    return;
  }
  for (const auto& [name, kinds] : value.items()) {
    if (!kinds.is_object()) {
      findings.push_back(warning(path, std::string(path) + ": snapshot entry \"" + name +
                                           "\" is not an object; it is skipped"));
      continue;
    }
    for (const auto& [kind_word, entry] : kinds.items()) {
      const std::optional<ReadKind> kind = parse_read_kind(kind_word);
      const auto count = entry.is_object() ? entry.find("count") : entry.end();
      const auto last = entry.is_object() ? entry.find("last") : entry.end();
      const bool good = kind && entry.is_object() && count != entry.end() &&
                        (count->is_number_unsigned() ||
                         (count->is_number_integer() && count->get<std::int64_t>() >= 0)) &&
                        last != entry.end() && (last->is_string() || last->is_null());
      if (!good) {
        findings.push_back(warning(path, std::string(path) + ": snapshot entry \"" + name +
                                             "\" \"" + kind_word +
                                             "\" is not {\"count\": N, \"last\": TS}; it is "
                                             "skipped"));
        continue;
      }
      const std::uint64_t n = count->get<std::uint64_t>();
      if (n == 0 && last->is_null()) continue;  // nothing to derive: the row gets no entry
      add(rows[name].axis(*kind), n,
          last->is_string() ? std::optional<std::string>(last->get<std::string>()) : std::nullopt);
    }
  }
}

// One access.jsonl line read as a record, or why it is not one.
struct ReadLine {
  std::optional<AccessRecord> record;
  std::string problem;
};

ReadLine read_access_line(std::string_view line) {
  std::string problem = "not JSON";
  const json value = detail::parse_bounded_json(line, &problem);
  if (value.is_discarded()) return {.record = std::nullopt, .problem = problem};
  if (!value.is_object()) return {.record = std::nullopt, .problem = "not a JSON object"};
  AccessRecord record;
  for (const std::string_view key : {"ts", "name", "kind"}) {
    const auto it = value.find(key);
    if (it == value.end() || !it->is_string()) {
      return {.record = std::nullopt, .problem = "\"" + std::string(key) + "\" is not a string"};
    }
  }
  record.ts = value["ts"].get<std::string>();
  record.name = value["name"].get<std::string>();
  const std::optional<ReadKind> kind = parse_read_kind(value["kind"].get_ref<const std::string&>());
  if (!kind) return {.record = std::nullopt, .problem = "\"kind\" is not a known word"};
  record.kind = *kind;
  // The surface says where a read came from; the counters do not depend on it.
  if (const auto it = value.find("surface"); it != value.end() && it->is_string()) {
    record.surface = it->get<std::string>();
  }
  return {.record = std::move(record), .problem = {}};
}

// A line exactly as access_line() writes it, {"kind":"K","name":"N","surface":"S","ts":"T"},
// every string printable ASCII without '"' or '\\' and K a known kind. Such a line reads the same
// through the JSON parser, which every other line goes through; this reads it without building a
// JSON value (access.jsonl grows by a line per counted read, and show, list and stats read it all).
struct CanonicalAccess {
  std::string_view ts;
  std::string_view name;
  ReadKind kind = ReadKind::deliberate;
};

std::optional<CanonicalAccess> canonical_access(std::string_view line) noexcept {
  // The string after `prefix`, up to its closing quote; nullopt unless plain printable ASCII.
  auto field = [&line](std::string_view prefix) -> std::optional<std::string_view> {
    if (!line.starts_with(prefix)) return std::nullopt;
    line.remove_prefix(prefix.size());
    for (std::size_t i = 0; i < line.size(); ++i) {
      const auto c = static_cast<unsigned char>(line[i]);
      if (c == '"') {
        const std::string_view value = line.substr(0, i);
        line.remove_prefix(i + 1);
        return value;
      }
      if (c < 0x20 || c > 0x7E || c == '\\') return std::nullopt;
    }
    return std::nullopt;
  };
  const std::optional<std::string_view> kind = field("{\"kind\":\"");
  if (!kind) return std::nullopt;
  const std::optional<std::string_view> name = field(",\"name\":\"");
  if (!name || !field(",\"surface\":\"")) return std::nullopt;
  const std::optional<std::string_view> ts = field(",\"ts\":\"");
  const std::optional<ReadKind> parsed = parse_read_kind(*kind);
  if (!ts || line != "}" || !parsed) return std::nullopt;
  return CanonicalAccess{.ts = *ts, .name = *name, .kind = *parsed};
}

// Calls `visit(line, number, bytes_with_terminator)` for each line of a JSON Lines file.
template <class Visit>
void for_each_line(std::string_view bytes, Visit visit) {
  std::size_t number = 0;
  while (!bytes.empty()) {
    ++number;
    const std::size_t lf = bytes.find('\n');
    const std::size_t size = lf == std::string_view::npos ? bytes.size() : lf + 1;
    visit(bytes.substr(0, lf), number, bytes.substr(0, size));
    bytes.remove_prefix(size);
  }
}

std::string render_snapshot(const Counters& rows) {
  json out = json::object();
  for (const auto& [name, counters] : rows) {
    json kinds = json::object();
    for (const auto& [kind, word] : kKinds) {
      const Axis& axis = counters.axis(kind);
      if (axis.count == 0 && !axis.last_at) continue;
      json entry = json::object();
      entry["count"] = axis.count;
      entry["last"] = axis.last_at ? detail::utf8(*axis.last_at) : json(nullptr);
      kinds[std::string(word)] = std::move(entry);
    }
    if (!kinds.empty()) out[name] = std::move(kinds);
  }
  if (out.empty()) return {};
  std::string bytes = detail::canonical_dump(out);
  bytes.push_back('\n');
  return bytes;
}

}  // namespace

std::string_view name_of(ReadKind kind) noexcept { return wordlist::word_of(kKinds, kind); }

std::optional<ReadKind> parse_read_kind(std::string_view text) noexcept {
  return wordlist::parse_word(kKinds, text);
}

const Axis& ReadCounters::axis(ReadKind kind) const noexcept {
  switch (kind) {
    case ReadKind::deliberate:
      return deliberate;
    case ReadKind::kernel:
      return kernel;
    case ReadKind::injection:
      break;
  }
  return injection;
}

Axis& ReadCounters::axis(ReadKind kind) noexcept {
  return const_cast<Axis&>(std::as_const(*this).axis(kind));
}

std::string access_line(const AccessRecord& record) {
  json out = json::object();
  out["ts"] = detail::utf8(record.ts);
  out["name"] = detail::utf8(record.name);
  out["kind"] = name_of(record.kind);
  out["surface"] = detail::utf8(record.surface);
  std::string line = detail::canonical_dump(out);
  line.push_back('\n');
  return line;
}

Telemetry fold_telemetry(std::string_view snapshot, std::string_view access,
                         std::string_view snapshot_path, std::string_view access_path) {
  Telemetry out;
  fold_snapshot(snapshot, snapshot_path, out.rows, out.findings);
  // Each name's counters by a view of the map's own key (nodes never move): a line's lookup
  // builds no string and walks no tree.
  std::unordered_map<std::string_view, ReadCounters*> known;
  auto counters_of = [&](std::string_view name) -> ReadCounters& {
    if (const auto it = known.find(name); it != known.end()) return *it->second;
    const auto at = out.rows.try_emplace(std::string(name)).first;
    known.emplace(at->first, &at->second);
    return at->second;
  };
  for_each_line(access, [&](std::string_view line, std::size_t number, std::string_view) {
    if (const std::optional<CanonicalAccess> read = canonical_access(line)) {
      Axis& axis = counters_of(read->name).axis(read->kind);
      ++axis.count;
      if (!axis.last_at || *axis.last_at < read->ts) axis.last_at = std::string(read->ts);
      return;
    }
    const ReadLine read = read_access_line(line);
    if (!read.record) {
      out.findings.push_back(
          warning(access_path, std::string(access_path) + ":" + std::to_string(number) +
                                   ": not an access record (" + read.problem + "); it is skipped"));
      return;
    }
    add(counters_of(read.record->name).axis(read.record->kind), 1, read.record->ts);
  });
  return out;
}

CompactedTelemetry compact_telemetry(std::string_view snapshot, std::string_view access,
                                     std::string_view before) {
  Counters rows;
  std::vector<Finding> ignored;  // fold_telemetry reports them, before and after alike
  fold_snapshot(snapshot, "", rows, ignored);
  CompactedTelemetry out;
  for_each_line(access, [&](std::string_view line, std::size_t, std::string_view bytes) {
    const ReadLine read = read_access_line(line);
    if (read.record && read.record->ts < before) {
      add(rows[read.record->name].axis(read.record->kind), 1, read.record->ts);
    } else {
      out.access.append(bytes);  // newer, or unreadable: kept exactly as it stands
    }
  });
  out.snapshot = render_snapshot(rows);
  return out;
}

}  // namespace memkit::curated
