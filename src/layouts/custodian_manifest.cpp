// Reading manifest.md and finding decision entries (spec compaction.md §3 and §5).
#include "memkit/layouts.hpp"
#include "memkit/text.hpp"
#include "memkit/tokens.hpp"

namespace memkit::custodian {
namespace {

// Headings are matched after strip and ASCII case-folding (§3).
std::string fold_ascii(std::string_view text) {
  std::string out(strip_w(text));
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool starts_with(std::string_view s, std::string_view prefix) noexcept {
  return s.substr(0, prefix.size()) == prefix;
}

// "- path" or "- `path`" (optionally followed by ": ..." after the closing backtick).
std::string_view route_of_bullet(std::string_view content) {
  std::string_view rest = strip_w(content.substr(2));
  if (starts_with(rest, "`")) {
    const std::size_t close = rest.find('`', 1);
    if (close == std::string_view::npos) return strip_w(rest.substr(1));
    return rest.substr(1, close - 1);
  }
  return rest;
}

bool is_bullet(std::string_view content) noexcept {
  return content.size() >= 2 && content[1] == ' ' &&
         (content[0] == '-' || content[0] == '*' || content[0] == '+');
}

bool is_h3(std::string_view content) noexcept {
  return starts_with(content, "###") &&
         (content.size() == 3 || content[3] == ' ' || content[3] == '\t');
}

}  // namespace

const std::vector<std::string_view>& task_subsection_headings() {
  static const std::vector<std::string_view> headings = {"Planning / architecture / refactoring",
                                                         "Implementation / execution / debugging",
                                                         "User-facing artifact / output",
                                                         "Preferences",
                                                         "Change history / recap",
                                                         "Memory maintenance"};
  return headings;
}

Manifest read_manifest(const Document& doc) {
  Manifest manifest;
  for (std::string_view heading : task_subsection_headings()) {
    manifest.task_subsections[std::string(heading)] = 0;
  }
  enum class Area { other, protocol, always_load, load_by_task, module_index };
  for (const Section& section : doc.sections()) {
    Area area = Area::other;
    if (const auto heading = section_heading(doc, section)) {
      const std::string folded = fold_ascii(*heading);
      if (folded == "memorycustodian protocol") area = Area::protocol;
      if (folded == "always load") area = Area::always_load;
      if (folded == "load by task") area = Area::load_by_task;
      if (folded == "optional module index") area = Area::module_index;
    }
    if (area == Area::protocol) manifest.has_protocol_section = true;
    if (area == Area::always_load) ++manifest.always_load_sections;
    bool required = false;  // the last label seen: "Load:" or "Load if present:"
    bool under_label = false;
    std::string task;  // the `###` heading of Load by task it is under
    for_each_visible_line(doc, section, [&](const Line& line) {
      const std::string_view content = line.content;
      if (content.empty()) return;
      if (area == Area::protocol && is_bullet(content)) {
        const std::string_view item = strip_w(content.substr(2));
        const std::size_t colon = item.find(':');
        if (colon == std::string_view::npos || colon == 0) return;
        const std::string_view key = item.substr(0, colon);
        for (char c : key) {
          const bool word = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
          if (!word) return;
        }
        manifest.protocol.emplace(std::string(key), std::string(strip_w(item.substr(colon + 1))));
      } else if (area == Area::always_load && is_bullet(content)) {
        manifest.routes.push_back(
            Route{std::string(route_of_bullet(content)), line.number, true, std::string()});
      } else if (area == Area::load_by_task) {
        if (is_h3(content)) {
          const std::string heading(heading_text(content));
          task = heading;
          for (std::string_view known : task_subsection_headings()) {
            if (fold_ascii(known) == fold_ascii(heading))
              ++manifest.task_subsections[std::string(known)];
          }
          under_label = false;
        } else if (strip_w(content) == "Load:") {
          required = true;
          under_label = true;
        } else if (strip_w(content) == "Load if present:") {
          required = false;
          under_label = true;
        } else if (under_label && is_bullet(content)) {
          manifest.routes.push_back(
              Route{std::string(route_of_bullet(content)), line.number, required, task});
        }
      } else if (area == Area::module_index && is_bullet(content) &&
                 starts_with(strip_w(content.substr(2)), "`")) {
        // Only ``- `<folder>/<name>.md`: ...`` is an entry; placeholders such as
        // "- None enabled." written by other tools of the family are prose.
        manifest.module_index.push_back(
            Route{std::string(route_of_bullet(content)), line.number, false, std::string()});
      }
    });
  }
  return manifest;
}

ProtocolCheck check_protocol(const Document& manifest, Severity unsupported) {
  const Manifest m = read_manifest(manifest);
  const auto it = m.protocol.find("protocol_version");
  if (!m.has_protocol_section || it == m.protocol.end()) {
    return {"0.5",
            make_finding("MK-PROTO-002", Severity::warning, "manifest.md",
                         "manifest.md: no protocol_version in a MemoryCustodian Protocol "
                         "section; read as 0.5",
                         "add '- protocol_version: 0.7' under '## MemoryCustodian Protocol'")};
  }
  const ProtocolSupport support = protocol_support(it->second);
  if (support == ProtocolSupport::supported) return {it->second, std::nullopt};
  const std::string what = it->second.empty() ? "empty protocol_version"
                           : support == ProtocolSupport::invalid
                               ? "invalid protocol version " + it->second
                               : "unsupported protocol version " + it->second;
  const std::string remediation = support == ProtocolSupport::invalid
                                      ? "write '- protocol_version: 0.7' (dotted numbers)"
                                      : "use a memkit release that supports this protocol";
  return {it->second,
          make_finding("MK-PROTO-001", unsupported, "manifest.md",
                       "manifest.md: " + what + "; memkit supports 0.5, 0.6 and 0.7", remediation)};
}

std::vector<DecisionEntry> decision_entries(const Document& doc, const TokenCounter& counter) {
  std::vector<DecisionEntry> entries;
  for (const Section& section : doc.sections()) {
    if (section.kind != SectionKind::section) continue;
    bool decision = false;
    for_each_visible_line(doc, section, [&](const Line& line) {
      if (decision || line.number == section.first_line) return;
      const std::string_view stripped = strip_w(line.content);
      decision = stripped == "Decision:" || starts_with(stripped, "Decision: ");
    });
    if (!decision) continue;
    entries.push_back(DecisionEntry{std::string(*section_heading(doc, section)), section.first_line,
                                    counter.count(doc.text(section))});
  }
  return entries;
}

}  // namespace memkit::custodian
