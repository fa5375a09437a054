// The tombstones of do-not-use.md (spec compaction.md §8): what compaction, add and check match.
#include "memkit/layouts.hpp"
#include "memkit/markdown.hpp"
#include "memkit/text.hpp"

namespace memkit::custodian {
namespace {

// Returns the offset just past " — tombstone:" in text (ASCII case-insensitive), or npos.
std::size_t after_dash_tombstone(std::string_view text) noexcept {
  constexpr std::string_view kDash = " \xE2\x80\x94 ";  // U+2014 between spaces
  for (std::size_t at = text.find(kDash); at != std::string_view::npos;
       at = text.find(kDash, at + 1)) {
    const std::size_t rest = at + kDash.size();
    if (starts_with_ascii_ci(text.substr(rest), "tombstone:")) return rest + 10;
  }
  return std::string_view::npos;
}

// A bullet's first line without its marker and the whitespace after it.
std::string_view bullet_title(const Document& doc, const Unit& unit) {
  LineCursor cursor = doc.lines(unit);
  Line line{};
  if (!cursor.next(line)) return {};
  std::string_view text = strip_w(line.content);
  if (!text.empty() && (text[0] == '-' || text[0] == '*' || text[0] == '+')) text.remove_prefix(1);
  return strip_w(text);
}

}  // namespace

std::vector<Tombstone> tombstones(const Document& do_not_use) {
  std::vector<Tombstone> out;
  for (const Unit& unit : do_not_use.units()) {
    if (unit.kind == UnitKind::bullet_unit) {
      std::string key = *unit_key(do_not_use, unit);
      if (!key.empty()) {
        out.push_back(Tombstone{std::move(key), std::string(bullet_title(do_not_use, unit)),
                                unit.first_line});
      }
      continue;
    }
    if (unit.kind != UnitKind::heading || unit.heading_level != 2) continue;
    LineCursor cursor = do_not_use.lines(unit);
    Line line{};
    if (!cursor.next(line)) continue;
    const std::string_view heading = heading_text(line.content);
    std::string_view title;
    if (starts_with_ascii_ci(heading, "tombstone:")) {
      title = heading.substr(heading.find(':') + 1);
    } else if (const std::size_t at = after_dash_tombstone(heading);
               at != std::string_view::npos) {
      title = heading.substr(at);
    } else {
      continue;
    }
    title = strip_w(title);
    std::string key = casefold(title);
    if (!key.empty()) out.push_back(Tombstone{std::move(key), std::string(title), unit.first_line});
  }
  return out;
}

}  // namespace memkit::custodian
