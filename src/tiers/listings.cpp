// What the read commands select (tiers3.md §8, §11) and session-init's context under a token
// budget. Windows compare local wall times on the naive clock, as the reference script does.
#include <algorithm>

#include "memkit/text.hpp"
#include "memkit/tiers.hpp"
#include "memkit/tokens.hpp"

namespace memkit::tiers {
namespace {

constexpr std::int64_t kMillisPerHour = 3'600'000;
constexpr std::uint64_t kLongestWindowHours = 24ULL * 1'000'000'000ULL;  // no overflow below

// now - hours on the naive clock; a window longer than any calendar reaches everything.
std::int64_t cutoff(const ClockReading& now, std::uint64_t hours) {
  const std::int64_t span =
      static_cast<std::int64_t>(std::min(hours, kLongestWindowHours)) * kMillisPerHour;
  const std::int64_t local = now.local_naive_millis();
  return local < INT64_MIN + span ? INT64_MIN : local - span;
}

std::uint64_t days_to_hours(std::uint64_t days) {
  return std::min(days, kLongestWindowHours / 24) * 24;
}

// "YYYY-MM-DD_HH.md" -> the note's date and hour.
std::optional<std::pair<CivilDate, int>> note_time(std::string_view file) {
  if (file.size() != 16 || file[10] != '_' || file.substr(13) != ".md") return std::nullopt;
  const std::optional<CivilDate> date = parse_iso_date(file.substr(0, 10));
  const char h1 = file[11];
  const char h2 = file[12];
  if (!date || h1 < '0' || h1 > '2' || h2 < '0' || h2 > '9') return std::nullopt;
  const int hour = (h1 - '0') * 10 + (h2 - '0');
  if (hour > 23) return std::nullopt;
  return std::make_pair(*date, hour);
}

NoteFile note_file(const std::string& theme, const std::string& file,
                   const std::pair<CivilDate, int>& time) {
  return NoteFile{theme, std::string(kMemoryDir) + "/" + theme + "/" + file,
                  file.substr(0, 10) + "T" + file.substr(11, 2) + ":00:00",
                  naive_millis(time.first, time.second)};
}

// The notes of one theme folder, newest first.
std::vector<NoteFile> notes_of(const std::string& theme, const std::vector<std::string>& files) {
  std::vector<NoteFile> notes;
  for (auto it = files.rbegin(); it != files.rend(); ++it) {
    const auto time = note_time(*it);
    if (!time) continue;
    notes.push_back(note_file(theme, *it, *time));
  }
  return notes;
}

}  // namespace

std::vector<LogFile> select_logs(const TiersTree& tree, const ClockReading& now,
                                 std::uint64_t days_back, std::uint64_t limit) {
  const std::int64_t from = cutoff(now, days_to_hours(days_back));
  std::vector<LogFile> logs;
  for (auto it = tree.session_files.rbegin(); it != tree.session_files.rend(); ++it) {
    if (logs.size() >= limit) break;
    if (it->size() != 13 || it->substr(10) != ".md") continue;
    const std::optional<CivilDate> date = parse_iso_date(std::string_view(*it).substr(0, 10));
    if (!date || naive_millis(*date) < from) continue;
    logs.push_back(LogFile{it->substr(0, 10), std::string(kSessionsDir) + "/" + *it});
  }
  return logs;
}

std::vector<NoteFile> select_notes(const TiersTree& tree, std::string_view theme,
                                   const ClockReading& now, std::uint64_t hours_back,
                                   std::uint64_t limit) {
  const auto folder = tree.theme_folders.find(std::string(theme));
  if (folder == tree.theme_folders.end()) return {};
  const std::int64_t from = cutoff(now, hours_back);
  std::vector<NoteFile> selected;
  for (NoteFile& note : notes_of(folder->first, folder->second)) {
    if (selected.size() >= limit) break;
    if (note.hour_millis >= from) selected.push_back(std::move(note));
  }
  return selected;
}

std::vector<NoteFile> recent_notes(const TiersTree& tree, const ClockReading& now,
                                   std::uint64_t hours_back, std::uint64_t limit) {
  const std::int64_t from = cutoff(now, hours_back);
  std::vector<NoteFile> recent;
  for (const std::string& theme : theme_names(tree)) {
    // Names sort by time, so the newest note is the last valid name: no need to build the rest.
    const std::vector<std::string>& files = tree.theme_folders.at(theme);
    for (auto it = files.rbegin(); it != files.rend(); ++it) {
      const auto time = note_time(*it);
      if (!time) continue;
      if (naive_millis(time->first, time->second) >= from) {
        recent.push_back(note_file(theme, *it, *time));
      }
      break;
    }
  }
  // Themes come sorted, so a stable sort by time keeps equal times in theme order.
  std::stable_sort(recent.begin(), recent.end(), [](const NoteFile& a, const NoteFile& b) {
    return a.hour_millis > b.hour_millis;
  });
  if (recent.size() > limit) recent.resize(static_cast<std::size_t>(limit));
  return recent;
}

std::vector<NoteFile> archive_candidates(const TiersTree& tree, const ClockReading& now,
                                         std::uint64_t days) {
  const std::int64_t before = cutoff(now, days_to_hours(days));
  std::vector<NoteFile> old;
  for (const std::string& theme : theme_names(tree)) {
    for (NoteFile& note : notes_of(theme, tree.theme_folders.at(theme))) {
      if (note.hour_millis < before) old.push_back(std::move(note));
    }
  }
  std::sort(old.begin(), old.end(),
            [](const NoteFile& a, const NoteFile& b) { return a.path < b.path; });
  return old;
}

std::vector<std::string> theme_names(const TiersTree& tree, std::vector<std::string>* not_themes) {
  std::vector<std::string> themes;
  for (const auto& [name, files] : tree.theme_folders) {
    if (is_theme_name(name)) {
      themes.push_back(name);
    } else if (not_themes != nullptr && !is_reserved_name(name)) {
      not_themes->push_back(name);
    }
  }
  return themes;
}

std::string first_code_points(std::string_view bytes, std::size_t n) {
  std::string out;
  std::size_t pos = 0;
  for (std::size_t count = 0; count < n && pos < bytes.size(); ++count) {
    const std::size_t start = pos;
    const char32_t cp = decode_utf8(bytes, pos);
    // An ill-formed sequence becomes U+FFFD, so the excerpt is always well-formed.
    if (cp == kReplacementCharacter) {
      append_utf8(cp, out);
    } else {
      out.append(bytes.substr(start, pos - start));
    }
  }
  return out;
}

std::string note_preview(std::string_view content) {
  const std::string_view stripped = strip_w(content);
  std::string flat;
  flat.reserve(stripped.size());
  for (std::size_t i = 0; i < stripped.size(); ++i) {
    if (stripped[i] == '\r' && i + 1 < stripped.size() && stripped[i + 1] == '\n') {
      flat += ' ';
      ++i;
    } else if (stripped[i] == '\n') {
      flat += ' ';
    } else {
      flat += stripped[i];
    }
  }
  return first_code_points(flat, 160);
}

Context assemble_context(const Snapshot& files, const std::vector<NoteFile>& themes,
                         const std::vector<LogFile>& logs, std::uint64_t max_tokens) {
  std::vector<ContextItem> items;
  const FileSnapshot* global = files.find(kGlobalPath);
  if (global != nullptr && global->exists()) {
    const std::string_view bytes = global->text();
    const std::vector<ReadOrderItem> order = read_order(bytes);
    std::vector<std::string> texts(order.size());
    // Each line goes to the found item with the latest heading among those containing it.
    std::size_t pos = 0;
    while (pos < bytes.size()) {
      const std::size_t lf = bytes.find('\n', pos);
      const std::size_t next = lf == std::string_view::npos ? bytes.size() : lf + 1;
      std::optional<std::size_t> owner;
      for (std::size_t i = 0; i < order.size(); ++i) {
        if (!order[i].found() || pos < order[i].begin || pos >= order[i].end) continue;
        if (!owner || order[i].begin > order[*owner].begin) owner = i;
      }
      if (owner) texts[*owner].append(bytes.substr(pos, next - pos));
      pos = next;
    }
    for (std::size_t i = 0; i < order.size(); ++i) {
      if (!order[i].found()) continue;
      items.push_back(ContextItem{"global", order[i].section, std::string(kGlobalPath),
                                  std::string(strip_w(texts[i]))});
    }
  }
  auto add_file = [&](const char* kind, const std::string& name, const std::string& path) {
    const FileSnapshot* file = files.find(path);
    if (file == nullptr || !file->exists()) return;
    items.push_back(ContextItem{kind, name, path, std::string(strip_w(file->text()))});
  };
  for (const NoteFile& note : themes) add_file("theme", note.theme, note.path);
  for (const LogFile& log : logs) add_file("log", log.date, log.path);
  std::erase_if(items, [](const ContextItem& item) { return item.text.empty(); });
  for (ContextItem& item : items) item.tokens = estimate_tokens(item.text);

  // Items are stripped and joined by W, which the estimate counts as nothing and which ends every
  // run, so the context's estimate is the sum of its items' (compaction.md §4): dropping is
  // decided on sums, and the text is made once.
  std::vector<bool> kept(items.size(), true);
  std::uint64_t total = 0;
  for (const ContextItem& item : items) total += item.tokens;
  auto render = [&] {
    std::string text;
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (!kept[i]) continue;
      if (!text.empty()) text += "\n\n";
      text += items[i].text;
    }
    if (!text.empty()) text += "\n";
    return text;
  };
  Context context;
  while (total > max_tokens) {
    std::optional<std::size_t> last;
    for (std::size_t i = items.size(); i-- > 0;) {
      const bool mission = items[i].kind == "global" && items[i].name == "Active Mission";
      if (kept[i] && !mission) {
        last = i;
        break;
      }
    }
    if (!last) {
      context.over_budget = true;
      break;
    }
    kept[*last] = false;
    total -= items[*last].tokens;
  }
  context.text = render();
  context.tokens_used = estimate_tokens(context.text);
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!kept[i]) context.dropped.push_back(items[i]);
  }
  return context;
}

}  // namespace memkit::tiers
