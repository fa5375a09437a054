// MemoryBox's units: the entries of memorybox.md §3, as read_entries reads them, with their IDs,
// and the facets a query filters on. An archive file under memory/ARCHIVES/ (§7 "Archive files")
// holds entries of the file its name's stem names, and is read as that file is.
#include <optional>
#include <string>

#include "memkit/clock.hpp"
#include "memkit/digest.hpp"
#include "memkit/memorybox.hpp"
#include "recall/readers.hpp"

namespace memkit::recall::detail {
namespace {

constexpr std::string_view kDailyArchive = "daily";

std::string_view entry_kind_name(memorybox::EntryKind kind) noexcept {
  switch (kind) {
    case memorybox::EntryKind::bullet:
      return "bullet";
    case memorybox::EntryKind::section:
      return "section";
    case memorybox::EntryKind::session:
      return "session";
    case memorybox::EntryKind::daily:
      return "daily";
  }
  return "bullet";
}

// The path whose reading a file takes: an archive "<stem>-YYYY-MM.md" is read as the file its
// stem names (sessions: SESSION_LOG.md, tasks: ACTIVE_TASKS.md, patterns: PATTERNS.md, ...), and
// "daily" stands for a daily archive; any other file is read as itself.
std::string reading_path(std::string_view path) {
  const std::string archives = std::string(memorybox::kArchiveFolder) + "/";
  const std::string_view name = memorybox::file_name(path);
  constexpr std::size_t kMonthTail = 11;  // "-YYYY-MM.md"
  if (!path.starts_with(archives) || name.size() <= kMonthTail || !name.ends_with(".md") ||
      name[name.size() - kMonthTail] != '-' ||
      !parse_iso_date(std::string(name.substr(name.size() - 10, 7)) + "-01")) {
    return std::string(path);
  }
  const std::string_view stem = name.substr(0, name.size() - kMonthTail);
  if (stem == "sessions") return "memory/SESSION_LOG.md";
  if (stem == "tasks") return "memory/ACTIVE_TASKS.md";
  if (stem == kDailyArchive) return std::string(kDailyArchive);
  std::string source = "memory/";
  for (char c : stem) source += c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
  return source + ".md";
}

// The date of a session entry: its heading's ("### 2026-11-28 — webhook retries").
std::optional<std::string> session_date(std::string_view bytes, const memorybox::Entry& entry) {
  std::string_view first = bytes.substr(entry.begin, entry.first_line_end - entry.begin);
  while (first.ends_with('\n') || first.ends_with('\r')) first.remove_suffix(1);
  return leading_date(heading_text(first));
}

// The latest of an entry's dates: its Verified, Updated, Last-Used and Done fields, a daily
// file's name, a session's heading.
std::optional<std::string> box_entry_date(std::string_view bytes, const memorybox::Entry& entry,
                                          std::string_view reading) {
  std::optional<std::string> date;
  for (std::string_view key : {"Verified", "Updated", "Last-Used", "Done"}) {
    if (const std::optional<std::string_view> value = entry.field(key)) {
      keep_latest(date, leading_date(*value));
    }
  }
  if (entry.kind == memorybox::EntryKind::daily) {
    keep_latest(date, leading_date(memorybox::file_name(reading)));
  }
  if (entry.kind == memorybox::EntryKind::session) keep_latest(date, session_date(bytes, entry));
  return date;
}

void add_box_facets(const Source& source, const memorybox::Entry& entry,
                    std::optional<std::string> date, Unit& unit) {
  if (source.tier > 0) unit.facets.emplace_back("tier", std::to_string(source.tier));
  if (entry.category) unit.facets.emplace_back("category", *entry.category);
  if (const std::optional<std::string_view> confidence = entry.field("Confidence")) {
    if (const std::optional<std::uint32_t> hundredths = memorybox::parse_confidence(*confidence)) {
      unit.facets.emplace_back("confidence", memorybox::format_hundredths(*hundredths));
    }
  }
  if (date) unit.facets.emplace_back("date", std::move(*date));
  if (const std::optional<std::string_view> status = entry.field("Status")) {
    unit.facets.emplace_back("status", std::string(*status));
  }
}

// A daily archive (§7): each day is an H2 section "## YYYY-MM-DD", an entry of kind daily whose
// ID is that of the daily file's entry (§3, identity key "daily:<date>") under the archive's path.
void read_daily_archive(const Source& source, const Document& doc, FileUnits& out) {
  for (const Section& section : doc.sections()) {
    if (section.kind != SectionKind::section) continue;
    Unit unit = unit_at(doc.bytes(), section.first_line, section.begin, section.end, "daily");
    std::optional<std::string> date = leading_date(*section_heading(doc, section));
    if (date) unit.id = source.path + "#" + sha256_hex("daily:" + *date).substr(0, 12);
    add_box_facets(source, memorybox::Entry{}, std::move(date), unit);
    out.units.push_back(std::move(unit));
  }
}

}  // namespace

bool memorybox_reads(std::string_view path) {
  return path.ends_with(".md") && (path.starts_with("brain/") || path.starts_with("memory/"));
}

void read_memorybox(const Source& source, std::string_view bytes, FileUnits& out) {
  const std::optional<Document> doc = parse_or_refuse(source, bytes, out);
  if (!doc) return;
  const std::string reading = reading_path(source.path);
  if (reading == kDailyArchive) {
    read_daily_archive(source, *doc, out);
    return;
  }
  for (const memorybox::Entry& entry : memorybox::read_entries(reading, *doc)) {
    if (entry.first_line == 0) continue;  // an empty daily file
    Unit unit = unit_at(doc->bytes(), entry.first_line, entry.begin, entry.end,
                        std::string(entry_kind_name(entry.kind)));
    // "<path>#<hash>": the ID names the file the entry is in, whichever file's reading it took.
    unit.id = source.path + entry.id.substr(reading.size());
    add_box_facets(source, entry, box_entry_date(doc->bytes(), entry, reading), unit);
    out.units.push_back(std::move(unit));
  }
}

}  // namespace memkit::recall::detail
