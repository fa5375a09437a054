// Archive files (spec compaction.md §10): one canonical explanation per file, newest batch
// first, no per-batch wrappers, and changelog dates merged.
#include <algorithm>

#include "memkit/compact.hpp"
#include "memkit/text.hpp"

namespace memkit {
namespace {

constexpr std::string_view kExplanation1 =
    "Complete entries moved out of active memory by reviewed compaction.";
constexpr std::string_view kExplanation2 =
    "Load this file only when explicitly asked; it is not part of normal task context.";

std::string canonical_preamble(std::string_view target, std::string_view t) {
  std::string out = "# Archived Memory: " + std::string(target);
  out += t;
  out += t;
  out += kExplanation1;
  out += t;
  out += kExplanation2;
  out += t;
  out += t;
  return out;
}

// One archived section: its heading line and the rest, from the heading to its last non-blank
// line, always terminated.
struct ArchivedSection {
  std::string heading;  // heading text, stripped
  std::string heading_line;
  std::string body;  // the lines after the heading, to the last non-blank one
};

ArchivedSection split_section(std::string_view bytes, std::string_view t) {
  ArchivedSection s;
  std::string text(bytes);
  if (!text.empty() && text.back() != '\n') text += t;
  const std::size_t lf = text.find('\n');
  s.heading_line = text.substr(0, lf + 1);
  s.body = text.substr(lf + 1);
  const std::string_view content =
      std::string_view(s.heading_line).substr(0, s.heading_line.find_first_of("\r\n"));
  s.heading = std::string(heading_text(content));
  return s;
}

bool is_iso_date_heading(const ArchivedSection& s) {
  std::string_view line = s.heading_line;
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  if (line.size() != 13 || line.substr(0, 3) != "## ") return false;
  const std::string_view date = line.substr(3);
  for (std::size_t i = 0; i < date.size(); ++i) {
    const bool dash = i == 4 || i == 7;
    if (dash ? date[i] != '-' : (date[i] < '0' || date[i] > '9')) return false;
  }
  return true;
}

// Returns true iff the section is a legacy batch wrapper of older tools: a heading ending in
// " - From <target>" and a line that is exactly "Reason:".
bool is_legacy_wrapper(const Document& doc, const Section& section, std::string_view target) {
  const std::optional<std::string_view> heading = section_heading(doc, section);
  const std::string suffix = " - From " + std::string(target);
  if (!heading || heading->size() < suffix.size() ||
      heading->substr(heading->size() - suffix.size()) != suffix) {
    return false;
  }
  LineCursor cursor = doc.lines(section);
  Line line{};
  while (cursor.next(line)) {
    if (line.content == "Reason:") return true;
  }
  return false;
}

}  // namespace

std::string archive_file_bytes(const Document* existing, std::string_view target,
                               const std::vector<std::string>& sections,
                               std::string_view terminator) {
  const std::string_view t = existing != nullptr ? new_line_terminator(*existing) : terminator;
  std::vector<ArchivedSection> all;
  for (const std::string& bytes : sections) all.push_back(split_section(bytes, t));
  std::string head = canonical_preamble(target, t);
  if (existing != nullptr) {
    const std::span<const Section> old = existing->sections();
    std::size_t first_h2 = old.size();
    for (std::size_t i = 0; i < old.size(); ++i) {
      if (old[i].kind == SectionKind::section) {
        first_h2 = i;
        break;
      }
    }
    // The preamble: replaced when it is ours, kept after ours when it is not, so nothing drops.
    std::string_view preamble = existing->bytes().substr(existing->content_begin());
    if (first_h2 < old.size()) {
      preamble = existing->bytes().substr(existing->content_begin(),
                                          old[first_h2].begin - existing->content_begin());
    }
    const std::string title = "# Archived Memory: " + std::string(target);
    const std::size_t eol = preamble.find_first_of("\r\n");
    const bool ours = preamble.substr(0, eol) == title;
    if (!ours && !strip_w(preamble).empty()) {
      head += std::string(preamble);
      if (head.back() != '\n') head += t;
      const std::size_t last_line = head.rfind('\n', head.size() - 2);
      if (!strip_w(std::string_view(head).substr(last_line + 1)).empty()) head += t;
    }
    for (std::size_t i = first_h2; i < old.size(); ++i) {
      if (is_legacy_wrapper(*existing, old[i], target)) continue;
      // A section runs to the next H2, so text between two sections stays with the one before
      // it; only its trailing blank lines are left out (§6.2).
      all.push_back(split_section(existing->text(old[i]), t));
    }
  }
  if (target == "changelog.md") {
    // Identical headings merge into the first (the newest text leads), then dates sort newest
    // first when every heading is one.
    std::vector<ArchivedSection> merged;
    for (ArchivedSection& s : all) {
      auto same = std::find_if(merged.begin(), merged.end(),
                               [&](const ArchivedSection& m) { return m.heading == s.heading; });
      if (same == merged.end()) {
        merged.push_back(std::move(s));
      } else {
        same->body += std::string(t) + s.body;
      }
    }
    all = std::move(merged);
    if (std::all_of(all.begin(), all.end(), is_iso_date_heading)) {
      std::stable_sort(
          all.begin(), all.end(),
          [](const ArchivedSection& a, const ArchivedSection& b) { return a.heading > b.heading; });
    }
  }
  std::string out = std::move(head);
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (i > 0) out += t;
    out += all[i].heading_line;
    out += all[i].body;
  }
  return out;
}

}  // namespace memkit
