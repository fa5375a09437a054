// An inbox grown from its own items (memkit/bench.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "memkit/bench.hpp"
#include "memkit/markdown.hpp"

namespace memkit::bench {
namespace {

// Where " (rR)" goes in a bullet item's first line, [begin, line end): before its trailing space,
// tabs and line terminator.
std::size_t suffix_at(std::string_view bytes, std::size_t begin) {
  std::size_t end = bytes.find('\n', begin);
  if (end == std::string_view::npos) end = bytes.size();
  while (end > begin && (bytes[end - 1] == '\r' || bytes[end - 1] == ' ' || bytes[end - 1] == '\t')) {
    --end;
  }
  return end;
}

}  // namespace

Result<GrownInbox> grow_inbox(std::string_view inbox, std::uint64_t target) {
  const Document doc = parse_markdown(std::make_shared<const std::string>(inbox));
  if (const std::optional<TextIssue>& issue = doc.parse_error()) {
    return Status(Errc::parse, fmt::format("inbox.md:{}: a fence or comment is left open",
                                           issue->line));
  }
  struct Item {
    std::size_t begin;   // its first byte
    std::size_t suffix;  // where " (rR)" goes
  };
  std::vector<Item> items;
  std::size_t body = std::string_view::npos;
  for (const Unit& unit : doc.units()) {
    const bool heading = unit.kind == UnitKind::heading && unit.heading_level == 2;
    if (unit.kind == UnitKind::bullet_unit) {
      items.push_back(Item{unit.begin, suffix_at(inbox, unit.begin)});
    }
    if ((heading || unit.kind == UnitKind::bullet_unit) && body == std::string_view::npos) {
      body = unit.begin;
    }
  }
  if (items.empty()) {
    return Status(Errc::invalid_argument, "inbox.md: no bullet item to grow an inbox from");
  }
  GrownInbox grown;
  grown.bytes.reserve(static_cast<std::size_t>(std::max<std::uint64_t>(target, inbox.size())) +
                      inbox.size());
  grown.bytes.append(inbox);
  grown.items = items.size();
  // A copy starts on a line of its own.
  const bool lf_ended = inbox.empty() || inbox.back() == '\n';
  while (grown.bytes.size() < target) {
    ++grown.rounds;
    const std::string suffix = fmt::format(" (r{})", grown.rounds);
    if (!lf_ended && grown.rounds == 1) grown.bytes += '\n';
    std::size_t from = body;
    for (std::size_t i = 0; i < items.size(); ++i) {
      grown.bytes.append(inbox.substr(from, items[i].suffix - from));
      grown.bytes += suffix;
      from = items[i].suffix;
      ++grown.items;
      if (grown.bytes.size() >= target) {
        // The item that reached the size is finished: its rest runs to the next item.
        const std::size_t end = i + 1 < items.size() ? items[i + 1].begin : inbox.size();
        grown.bytes.append(inbox.substr(from, end - from));
        from = end;
        break;
      }
    }
    if (grown.bytes.size() >= target && from < inbox.size()) break;
    grown.bytes.append(inbox.substr(from));
    if (!lf_ended) grown.bytes += '\n';
  }
  return grown;
}

}  // namespace memkit::bench
