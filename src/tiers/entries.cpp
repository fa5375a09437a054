// The bytes of the three tiers (tiers3.md §4-§6) and global.md's read contract (§6). Byte for byte
// the reference script's formats, so a memory folder it wrote stays readable and appendable.
#include <fmt/format.h>

#include "memkit/markdown.hpp"
#include "memkit/text.hpp"
#include "memkit/tiers.hpp"
#include "tiers/stamps.hpp"

namespace memkit::tiers {

std::string local_stamp(const ClockReading& now, Stamp stamp) {
  const LocalDateTime t = now.local_date_time();
  switch (stamp) {
    case Stamp::date:
      return fmt::format("{:04}-{:02}-{:02}", t.date.year, t.date.month, t.date.day);
    case Stamp::hour_file:
      return fmt::format("{:04}-{:02}-{:02}_{:02}", t.date.year, t.date.month, t.date.day, t.hour);
    case Stamp::minutes:
      return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}", t.date.year, t.date.month, t.date.day,
                         t.hour, t.minute);
    case Stamp::seconds:
      return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}", t.date.year, t.date.month,
                         t.date.day, t.hour, t.minute, t.second);
    case Stamp::iso:
      return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}", t.date.year, t.date.month,
                         t.date.day, t.hour, t.minute, t.second);
    case Stamp::compact:
      return fmt::format("{:04}{:02}{:02}T{:02}{:02}{:02}", t.date.year, t.date.month, t.date.day,
                         t.hour, t.minute, t.second);
  }
  return {};
}

std::string session_log_path(const ClockReading& now) {
  return std::string(kSessionsDir) + "/" + local_stamp(now, Stamp::date) + ".md";
}

std::string append_session_entry(const std::optional<std::string_view>& existing, const Turn& turn,
                                 const ClockReading& now) {
  std::string out;
  if (existing) {
    out.assign(*existing);
    out += "\n\n";
  } else {
    out = "# Session Log - " + local_stamp(now, Stamp::date) + "\n\n";
  }
  out += "### [" + local_stamp(now, Stamp::seconds) + "] " + turn.entry_type + "\n";
  if (turn.session_id) out += "**Session:** " + *turn.session_id + "\n";
  if (!turn.tools.empty()) {
    out += "**Tools:** ";
    for (std::size_t i = 0; i < turn.tools.size(); ++i) {
      if (i > 0) out += ", ";
      out += turn.tools[i];
    }
    out += "\n";
  }
  out += "\n" + turn.content + "\n\n---";
  return out;
}

std::string theme_note_path(std::string_view theme, const ClockReading& now) {
  return std::string(kMemoryDir) + "/" + std::string(theme) + "/" +
         local_stamp(now, Stamp::hour_file) + ".md";
}

std::string append_theme_entry(const std::optional<std::string_view>& existing, const Note& note,
                               const ClockReading& now) {
  std::string heading;
  if (note.title && note.templ) {
    heading = std::string(template_record(*note.templ)) + ": " + *note.title;
  } else if (note.title) {
    heading = *note.title;
  } else if (note.templ) {
    heading = std::string(template_record(*note.templ)) + " - " + local_stamp(now, Stamp::seconds);
  } else {
    heading = local_stamp(now, Stamp::seconds);
  }
  std::string out;
  if (existing) {
    out.assign(*existing);
    out += "\n\n";
  }
  out += "## " + heading + "\n\n" + note.content + "\n";
  return out;
}

std::string append_global_block(const std::optional<std::string_view>& existing,
                                std::string_view block) {
  std::string out(existing ? *existing : global_skeleton());
  out += "\n\n";
  out += strip_w(block);
  return out;
}

namespace {

// A heading's text with any leading "<digits>." and the spaces after it removed (§6).
std::string_view without_number(std::string_view text) noexcept {
  std::size_t n = 0;
  while (n < text.size() && text[n] >= '0' && text[n] <= '9') ++n;
  if (n == 0 || n >= text.size() || text[n] != '.') return text;
  return strip_w(text.substr(n + 1));
}

}  // namespace

std::vector<ReadOrderItem> read_order(std::string_view global) {
  static constexpr std::string_view kSections[] = {"Active Mission", "Key Constraints",
                                                   "Research Index", "User Preferences"};
  std::vector<ReadOrderItem> items;
  for (std::string_view name : kSections) {
    ReadOrderItem item;
    item.section = std::string(name);
    items.push_back(std::move(item));
  }
  const Document doc = parse_markdown(std::make_shared<const std::string>(global));
  const std::span<const Unit> units = doc.units();
  for (std::size_t u = 0; u < units.size(); ++u) {
    const Unit& unit = units[u];
    if (unit.kind != UnitKind::heading || (unit.heading_level != 2 && unit.heading_level != 3)) {
      continue;
    }
    Line line{};
    LineCursor cursor = doc.lines(unit);
    cursor.next(line);
    const std::string_view text = heading_text(line.content);
    const std::string folded = casefold(without_number(text));
    for (ReadOrderItem& item : items) {
      if (item.found() || folded.rfind(casefold(item.section), 0) != 0) continue;
      item.heading = std::string(text);
      item.level = unit.heading_level;
      item.begin = unit.begin;
      item.end = global.size();
      for (std::size_t next = u + 1; next < units.size(); ++next) {
        if (units[next].kind == UnitKind::heading &&
            units[next].heading_level <= unit.heading_level) {
          item.end = units[next].begin;
          break;
        }
      }
    }
  }
  return items;
}

}  // namespace memkit::tiers
