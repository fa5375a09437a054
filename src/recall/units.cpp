// Recall's units (memkit/recall.hpp): which layout reads a file, the UTF-8 check every file it
// reads passes first, and what the layouts' readers share.
#include <optional>
#include <string>
#include <vector>

#include "memkit/clock.hpp"
#include "memkit/recall.hpp"
#include "memkit/text.hpp"
#include "recall/readers.hpp"

namespace memkit::recall {
namespace detail {

std::vector<std::string_view> path_parts(std::string_view path) {
  std::vector<std::string_view> parts;
  for (std::size_t slash = path.find('/'); slash != std::string_view::npos;
       slash = path.find('/')) {
    parts.push_back(path.substr(0, slash));
    path.remove_prefix(slash + 1);
  }
  parts.push_back(path);
  return parts;
}

std::uint32_t line_at(std::string_view bytes, std::size_t offset) noexcept {
  return static_cast<std::uint32_t>(count_newlines(bytes.substr(0, offset)) + 1);
}

Unit unit_at(std::string_view bytes, std::uint32_t first_line, std::size_t begin, std::size_t end,
             std::string kind) {
  Unit unit;
  unit.text = std::string(bytes.substr(begin, end - begin));
  const std::size_t breaks = count_newlines(unit.text);
  const bool terminated = unit.text.ends_with('\n');
  unit.first_line = first_line;
  unit.last_line = first_line + static_cast<std::uint32_t>(breaks - (terminated ? 1 : 0));
  unit.kind = std::move(kind);
  return unit;
}

Finding unparseable(const Source& source, std::string message) {
  return make_finding("MK-PARSE-001", Severity::warning, display_path(source), std::move(message),
                      "repair the file; until then it is not searched");
}

std::optional<Document> parse_or_refuse(const Source& source, std::string_view bytes,
                                        FileUnits& out) {
  Document doc = parse_markdown(std::string(bytes));
  if (const std::optional<TextIssue>& issue = doc.parse_error()) {
    out.findings.push_back(unparseable(source, describe_issue(*issue, display_path(source))));
    return std::nullopt;
  }
  return doc;
}

std::optional<std::string> leading_date(std::string_view text) {
  if (text.size() < 10 || !parse_iso_date(text.substr(0, 10))) return std::nullopt;
  if (text.size() > 10 && text[10] >= '0' && text[10] <= '9') return std::nullopt;
  return std::string(text.substr(0, 10));
}

void keep_latest(std::optional<std::string>& latest, std::optional<std::string> date) {
  if (date && (!latest || *date > *latest)) latest = std::move(date);
}

}  // namespace detail

namespace {

// A layout's name, what it reads, and its reader.
struct LayoutReader {
  std::string_view name;
  bool (*reads)(std::string_view path);
  void (*read)(const Source& source, std::string_view bytes, FileUnits& out);
};

LayoutReader reader_of(Layout layout) noexcept {
  switch (layout) {
    case Layout::custodian:
      break;
    case Layout::memorybox:
      return {"memorybox", detail::memorybox_reads, detail::read_memorybox};
    case Layout::tiers:
      return {"tiers", detail::tiers_reads, detail::read_tiers};
    case Layout::curated:
      return {"curated", detail::curated_reads, detail::read_curated};
  }
  return {"custodian", detail::custodian_reads, detail::read_custodian};
}

}  // namespace

std::string_view layout_name(Layout layout) noexcept { return reader_of(layout).name; }

std::string display_path(const Source& source) {
  if (source.root.empty()) return source.path;
  if (source.path.empty()) return source.root;
  return source.root + "/" + source.path;
}

FileUnits read_units(const Source& source, std::string_view bytes) {
  FileUnits out;
  const LayoutReader reader = reader_of(source.layout);
  if (!reader.reads(source.path)) return out;
  // Every layout's parsers read text: a file that is not UTF-8 is skipped whole (compaction.md
  // §2.1: a report marks the file and goes on).
  if (const std::optional<std::size_t> bad = find_invalid_utf8(bytes)) {
    const std::string shown = display_path(source);
    const TextIssue issue{.problem = TextProblem::invalid_utf8,
                          .line = detail::line_at(bytes, *bad)};
    out.findings.push_back(make_finding("MK-UTF8-001", Severity::warning, shown,
                                        describe_issue(issue, shown),
                                        "fix the encoding; until then the file is not searched"));
    return out;
  }
  reader.read(source, bytes, out);
  return out;
}

}  // namespace memkit::recall
