// CSV data memory (tiers3.md §10): lenient RFC 4180 records, the manifest entry and manifest.json
// (2-space indented, keys sorted, entries for other files kept as they were), and --head prefixes.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "codec/bounded_json.hpp"
#include "memkit/text.hpp"
#include "memkit/tiers.hpp"
#include "tiers/stamps.hpp"

namespace memkit::tiers {
namespace {

// The length of the line break at `pos` (LF or CRLF), or 0.
std::size_t line_break(std::string_view bytes, std::size_t pos) noexcept {
  if (pos < bytes.size() && bytes[pos] == '\n') return 1;
  if (pos + 1 < bytes.size() && bytes[pos] == '\r' && bytes[pos + 1] == '\n') return 2;
  return 0;
}

}  // namespace

CsvParse parse_csv(std::string_view bytes, CsvScan scan) {
  CsvParse parsed;
  std::size_t pos = bom_size(bytes);
  std::uint32_t line = 1;
  while (pos < bytes.size() && parsed.records.size() < scan.max_records) {
    if (const std::size_t br = line_break(bytes, pos)) {  // an empty line is no record
      pos += br;
      ++line;
      continue;
    }
    const bool keep = parsed.records.size() < scan.fields_of;
    CsvRecord record;
    while (true) {
      std::string field;
      if (bytes[pos] == '"') {
        const std::uint32_t opened = line;
        ++pos;
        while (true) {
          const std::size_t quote = bytes.find('"', pos);
          if (quote == std::string_view::npos) {
            parsed.unterminated_line = opened;
            return parsed;
          }
          const std::string_view inside = bytes.substr(pos, quote - pos);
          line += static_cast<std::uint32_t>(count_newlines(inside));
          if (keep) field.append(inside);
          pos = quote + 1;
          if (pos < bytes.size() && bytes[pos] == '"') {
            if (keep) field += '"';
            ++pos;
            continue;
          }
          break;
        }
      }
      // Unquoted text, or what follows a closing quote: literal up to ',' or a line break (a CR
      // alone is literal).
      std::size_t stop = std::min(bytes.find_first_of(",\n", pos), bytes.size());
      // A CRLF ends the field at its CR.
      if (stop < bytes.size() && bytes[stop] == '\n' && stop > pos && bytes[stop - 1] == '\r') {
        --stop;
      }
      if (keep) {
        field.append(bytes.substr(pos, stop - pos));
        record.fields.push_back(std::move(field));
      }
      pos = stop;
      if (pos < bytes.size() && bytes[pos] == ',') {
        ++pos;
        if (pos < bytes.size()) continue;
        if (keep) record.fields.emplace_back();  // "a," at the very end: a last, empty field
        break;
      }
      if (const std::size_t br = line_break(bytes, pos)) {
        pos += br;
        ++line;
      }
      break;
    }
    record.end = pos;
    parsed.records.push_back(std::move(record));
  }
  return parsed;
}

DataEntry data_entry(std::string name, std::string_view csv, const CsvParse& parsed,
                     const ClockReading& now) {
  DataEntry entry;
  entry.name = std::move(name);
  entry.updated_at = local_stamp(now, Stamp::iso);
  if (!parsed.records.empty()) {
    entry.detected_columns = parsed.records.front().fields;
    entry.row_count = parsed.records.size() - 1;
    entry.column_count = entry.detected_columns.size();
  }
  entry.size_bytes = csv.size();
  return entry;
}

namespace {

nlohmann::ordered_json optional_text(const std::optional<std::string>& text) {
  return text ? nlohmann::ordered_json(*text) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json entry_value(const DataEntry& entry) {
  nlohmann::ordered_json value;
  value["name"] = entry.name;
  value["path"] = std::string(kDataDir) + "/" + entry.name;
  value["updated_at"] = entry.updated_at;
  value["source_label"] = optional_text(entry.source_label);
  value["description"] = optional_text(entry.description);
  value["declared_columns"] = entry.declared_columns
                                  ? nlohmann::ordered_json(*entry.declared_columns)
                                  : nlohmann::ordered_json(nullptr);
  value["detected_columns"] = entry.detected_columns;
  value["row_count"] = entry.row_count;
  value["column_count"] = entry.column_count;
  value["size_bytes"] = entry.size_bytes;
  return value;
}

}  // namespace

Result<std::string> manifest_with(const std::optional<std::string_view>& existing,
                                  const DataEntry& entry) {
  nlohmann::ordered_json manifest = nlohmann::ordered_json::object();
  if (existing && existing->find_first_not_of(" \t\r\n") != std::string_view::npos) {
    std::string problem = "not a JSON object";
    manifest = detail::parse_bounded_json<nlohmann::ordered_json>(*existing, &problem);
    if (!manifest.is_object()) {
      return Status(Errc::invalid_argument,
                    std::string(kManifestPath) + ": " + problem + "; repair or remove it");
    }
  }
  manifest[entry.name] = entry_value(entry);
  // Keys sorted (bytewise, as std::map orders them) for deterministic diffs.
  std::map<std::string, nlohmann::ordered_json> sorted;
  for (auto& [key, value] : manifest.items()) sorted.emplace(key, std::move(value));
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (auto& [key, value] : sorted) out[key] = std::move(value);
  return out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::optional<std::string> manifest_entry(std::string_view manifest, std::string_view name) {
  const nlohmann::json parsed = detail::parse_bounded_json(manifest);
  if (!parsed.is_object()) return std::nullopt;
  const auto found = parsed.find(std::string(name));
  if (found == parsed.end() || found->is_null()) return std::nullopt;
  return found->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string csv_head(std::string_view bytes, std::uint64_t n, bool& truncated) {
  // Records past n + 1 change nothing: whether one more exists is all `truncated` needs.
  const std::size_t wanted = n >= SIZE_MAX - 1 ? SIZE_MAX : static_cast<std::size_t>(n) + 1;
  const CsvParse parsed = parse_csv(bytes, CsvScan{0, wanted});
  truncated = parsed.records.size() > n;
  if (n == 0 || parsed.records.empty()) return {};
  const std::size_t last =
      static_cast<std::size_t>(std::min<std::uint64_t>(n, parsed.records.size()));
  return std::string(bytes.substr(0, parsed.records[last - 1].end));
}

}  // namespace memkit::tiers
