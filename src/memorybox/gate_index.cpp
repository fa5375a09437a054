// REDUNDANCY's view of a workspace (spec memorybox.md §4): every entry of the tier 1-4 files with
// its exact-match key and its text in the near-duplicate index, and the existing categories.
#include <algorithm>
#include <set>

#include "markdown/line_kinds.hpp"
#include "memkit/memorybox/gate.hpp"
#include "memkit/text.hpp"

namespace memkit::memorybox {
namespace {

// Files whose entries are bullets under H2 categories (§3): not the section files, the session
// log or daily files.
bool is_bullet_file(std::string_view path) noexcept {
  return !is_section_file(path) && path != "memory/SESSION_LOG.md" &&
         path.rfind("memory/daily/", 0) != 0;
}

// Drops the first two code points of a line (a bullet's marker and space, a heading's "##").
std::string_view without_two_code_points(std::string_view line) noexcept {
  std::size_t at = 0;
  for (int n = 0; n < 2 && at < line.size(); ++n) {
    ++at;
    while (at < line.size() && (static_cast<unsigned char>(line[at]) & 0xC0) == 0x80) ++at;
  }
  return line.substr(at);
}

// §4: the key over an entry's lines without its field lines; `text` gets those lines joined
// with LF.
void key_and_text(const Document& doc, const Entry& entry, std::string& key, std::string& text) {
  std::string joined;
  bool first = true;
  LineCursor cursor(doc.bytes(), entry.begin, entry.end, entry.first_line);
  Line line{};
  std::size_t field = 0;
  while (cursor.next(line)) {
    while (field < entry.fields.size() && entry.fields[field].line < line.number) ++field;
    if (field < entry.fields.size() && entry.fields[field].line == line.number) continue;
    if (!first) text.push_back('\n');
    text.append(line.content);
    if (first) {
      joined.append(strip_w(without_two_code_points(line.content)));
      first = false;
    } else {
      joined.push_back('\n');
      joined.append(rstrip_w(line.content));
    }
  }
  key = casefold(strip_w(joined));
}

// The H2 and "H2 / H3" headings of a bullet file, the places categories have there.
void heading_categories(const Document& doc, std::set<std::string>& out) {
  std::optional<std::string> h2;
  for (const Unit& unit : doc.units()) {
    if (unit.kind != UnitKind::heading) continue;
    Line line{};
    LineCursor cursor = doc.lines(unit);
    cursor.next(line);
    const std::string text(heading_text(line.content));
    if (unit.heading_level == 1) {
      h2.reset();
    } else if (unit.heading_level == 2) {
      h2 = text;
      out.insert(text);
    } else if (unit.heading_level == 3 && h2) {
      out.insert(*h2 + " / " + text);
    }
  }
}

}  // namespace

Result<GateIndex> GateIndex::build(const Inputs& inputs) {
  struct Read {
    Item item;
    std::string text;
  };
  std::vector<Read> read;
  std::set<std::string> categories;
  std::string key;
  std::string text;
  for (const std::string& path : tier_files_1_to_4(inputs)) {
    const FileSnapshot* file = inputs.snapshot.find(path);
    if (file == nullptr || file->state != EntryState::file) continue;
    const Document doc = parse_markdown(file->bytes);
    if (const auto& issue = doc.parse_error()) {
      return Status(Errc::parse, describe_issue(*issue, path));
    }
    if (is_bullet_file(path)) heading_categories(doc, categories);
    if (is_section_file(path)) categories.insert(std::string(file_stem(path)));
    for (const Entry& entry : read_entries(path, doc)) {
      key.clear();
      text.clear();
      key_and_text(doc, entry, key, text);
      if (entry.category) categories.insert(*entry.category);
      read.push_back(Read{Item{entry.id, path, entry.category, key}, text});
    }
  }
  std::stable_sort(read.begin(), read.end(),
                   [](const Read& a, const Read& b) { return a.item.entry_id < b.item.entry_id; });
  read.erase(
      std::unique(read.begin(), read.end(),
                  [](const Read& a, const Read& b) { return a.item.entry_id == b.item.entry_id; }),
      read.end());
  std::vector<std::string_view> texts;
  texts.reserve(read.size());
  for (const Read& r : read) texts.emplace_back(r.text);
  similarity::NearDuplicateIndex index(texts);
  std::vector<Item> items;
  items.reserve(read.size());
  for (Read& r : read) items.push_back(std::move(r.item));
  return GateIndex(std::move(items), std::vector<std::string>(categories.begin(), categories.end()),
                   std::move(index));
}

GateIndex::GateIndex(std::vector<Item> items, std::vector<std::string> categories,
                     similarity::NearDuplicateIndex index)
    : items_(std::move(items)), categories_(std::move(categories)), index_(std::move(index)) {
  for (std::size_t i = 0; i < items_.size(); ++i) {
    if (!items_[i].key.empty()) by_key_.emplace(items_[i].key, i);  // keeps the lowest ID
  }
}

const GateIndex::Item* GateIndex::exact_match(std::string_view key) const noexcept {
  if (key.empty()) return nullptr;
  const auto it = by_key_.find(std::string(key));
  return it == by_key_.end() ? nullptr : &items_[it->second];
}

std::vector<NearDuplicate> GateIndex::near_duplicates(std::string_view text,
                                                      std::uint32_t threshold) const {
  std::vector<NearDuplicate> out;
  for (const similarity::Match& match : index_.query(text, threshold)) {
    const Item& item = items_[match.item];
    out.push_back(NearDuplicate{item.entry_id, item.file, match.hundredths});
  }
  return out;
}

std::string candidate_key(std::string_view given) {
  const std::string_view text = strip_w(given);  // as a WRITE writes it
  std::string joined;
  bool first = true;
  LineCursor cursor(text, 0, text.size(), 1);
  Line line{};
  while (cursor.next(line)) {
    if (first) {
      joined.append(strip_w(line.content));
      first = false;
      continue;
    }
    joined.push_back('\n');
    if (!memkit::detail::is_blank(line.content)) joined.append("  ").append(rstrip_w(line.content));
  }
  return casefold(strip_w(joined));
}

}  // namespace memkit::memorybox
