// The monthly hygiene checklist (spec memorybox.md §8): ten items, evaluated, never repaired.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "memkit/memorybox.hpp"
#include "memkit/memorybox/canon.hpp"
#include "memkit/text.hpp"

namespace memkit::memorybox {
namespace {

const Document* parsed(const Inputs& inputs, std::string_view path,
                       std::vector<std::pair<std::string, Document>>& cache) {
  for (const auto& [p, doc] : cache) {
    if (p == path) return &doc;
  }
  const FileSnapshot* entry = inputs.snapshot.find(path);
  if (entry == nullptr || entry->state != EntryState::file) return nullptr;
  cache.emplace_back(std::string(path), parse_markdown(entry->bytes));
  return cache.back().second.parseable() ? &cache.back().second : nullptr;
}

std::uint64_t lines_of(const Inputs& inputs, std::string_view path) {
  const FileSnapshot* entry = inputs.snapshot.find(path);
  return entry != nullptr && entry->state == EntryState::file ? line_count(entry->text()) : 0;
}

std::string_view directory_of(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
}

// "a/./b/../c" -> "a/c"; nullopt when it climbs out of the root.
std::optional<std::string> normalised(std::string_view path) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t slash = std::min(path.find('/', start), path.size());
    const std::string_view part = path.substr(start, slash - start);
    if (part == "..") {
      if (parts.empty()) return std::nullopt;
      parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    start = slash + 1;
  }
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += '/';
    out.append(parts[i]);
  }
  return out;
}

std::string percent_decoded(std::string_view text) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex(text[i + 1]) >= 0 && hex(text[i + 2]) >= 0) {
      out += static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

bool ends_with_ci(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         starts_with_ascii_ci(text.substr(text.size() - suffix.size()), suffix);
}

std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  return out;
}

// The line with code spans blanked out (a backtick run up to the next run of the same length).
std::string without_code_spans(std::string_view line) {
  std::string out(line);
  std::size_t i = 0;
  while (i < out.size()) {
    if (out[i] != '`') {
      ++i;
      continue;
    }
    std::size_t run = 0;
    while (i + run < out.size() && out[i + run] == '`') ++run;
    std::size_t j = i + run;
    std::size_t close = std::string::npos;
    while (j < out.size()) {
      if (out[j] == '`') {
        std::size_t other = 0;
        while (j + other < out.size() && out[j + other] == '`') ++other;
        if (other == run) {
          close = j;
          break;
        }
        j += other;
      } else {
        ++j;
      }
    }
    if (close == std::string::npos) {
      i += run;
      continue;
    }
    std::fill(out.begin() + static_cast<std::ptrdiff_t>(i),
              out.begin() + static_cast<std::ptrdiff_t>(close + run), ' ');
    i = close + run;
  }
  return out;
}

bool has_scheme(std::string_view dest) {
  const std::size_t colon = dest.find(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  for (std::size_t i = 0; i < colon; ++i) {
    const char c = dest[i];
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (i > 0 && ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'));
    if (!ok) return false;
  }
  return true;
}

// Item 9: the links of one visible line.
void find_orphans(const std::string& file, const Line& line, const std::set<std::string>& files,
                  const std::set<std::string>& names, std::vector<Orphan>& out) {
  static constexpr std::string_view kAttachments[] = {".png", ".jpg", ".jpeg", ".gif", ".svg",
                                                      ".pdf", ".csv", ".json", ".txt"};
  const std::string text = without_code_spans(line.content);
  for (std::size_t at = 0; at < text.size(); ++at) {
    if (text.compare(at, 2, "[[") == 0) {
      const std::size_t close = text.find("]]", at + 2);
      if (close == std::string::npos) break;
      const std::size_t start = at > 0 && text[at - 1] == '!' ? at - 1 : at;
      std::string_view inner = std::string_view(text).substr(at + 2, close - at - 2);
      inner = inner.substr(0, std::min(inner.find('#'), inner.find('|')));
      const std::string link(line.content.substr(start, close + 2 - start));
      at = close + 1;
      const std::string target(strip_w(inner));
      if (target.empty()) continue;
      bool attachment = ends_with_ci(target, ".md");
      for (std::string_view ext : kAttachments)
        attachment = attachment || ends_with_ci(target, ext);
      const std::string with_ext = attachment ? target : target + ".md";
      if (with_ext.find('/') != std::string::npos) {
        const std::optional<std::string> path = normalised(with_ext);
        if (!path || files.count(*path) == 0) {
          out.push_back(Orphan{file, line.number, link, path.value_or(with_ext)});
        }
      } else if (names.count(ascii_lower(with_ext)) == 0) {
        out.push_back(Orphan{file, line.number, link, with_ext});
      }
      continue;
    }
    if (text[at] == '[') {  // [text](dest), images included
      const std::size_t text_end = text.find("](", at + 1);
      if (text_end == std::string::npos) continue;
      const std::size_t close = text.find(')', text_end + 2);
      if (close == std::string::npos) continue;
      std::string_view dest =
          strip_w(std::string_view(text).substr(text_end + 2, close - text_end - 2));
      const std::string link(line.content.substr(at, close + 1 - at));
      at = close;
      if (!dest.empty() && dest.front() == '<') {  // <a destination with spaces>
        const std::size_t end = dest.find('>');
        if (end == std::string_view::npos) continue;
        dest = dest.substr(1, end - 1);
      } else if (const std::size_t space = dest.find(' '); space != std::string_view::npos) {
        dest = dest.substr(0, space);  // a title follows
      }
      if (dest.empty() || dest[0] == '#' || dest[0] == '/' || has_scheme(dest)) continue;
      const std::string decoded = percent_decoded(dest.substr(0, dest.find('#')));
      if (decoded.empty()) continue;
      const std::string joined =
          directory_of(file).empty() ? decoded : std::string(directory_of(file)) + "/" + decoded;
      const std::optional<std::string> path = normalised(joined);
      if (!path || files.count(*path) == 0) {
        out.push_back(Orphan{file, line.number, link, path.value_or(joined)});
      }
    }
  }
}

// Item 9: every wiki link and relative Markdown link of one parseable file. Front matter, fences
// and HTML comments (their opener and closing lines too) hold no links (compaction.md §2.3).
void find_orphans(const std::string& file, const Document& doc, const std::set<std::string>& files,
                  const std::set<std::string>& names, std::vector<Orphan>& out) {
  for (const Unit& unit : doc.units()) {
    if (unit.kind == UnitKind::front_matter || unit.kind == UnitKind::fence ||
        unit.kind == UnitKind::comment) {
      continue;
    }
    detail::RegionTracker regions;
    LineCursor cursor = doc.lines(unit);
    Line line{};
    while (cursor.next(line)) {
      if (!regions.in_region(line.content)) find_orphans(file, line, files, names, out);
    }
  }
}
}  // namespace

Hygiene memorybox_hygiene(const Inputs& inputs, const ClockReading& now, const SyncHygiene* sync) {
  Hygiene hygiene;
  std::vector<std::pair<std::string, Document>> cache;
  cache.reserve(64);
  const CivilDate today = now.local_date();
  auto item = [&](int n, std::string check) -> HygieneItem& {
    hygiene.items.push_back(HygieneItem{n, std::move(check), "PASS", {}, {}, {}});
    return hygiene.items.back();
  };
  auto stay_under = [](HygieneItem& it, std::uint64_t value, std::uint64_t limit) {
    it.value = value;
    it.limit = limit;
    it.result = value < limit ? "PASS" : "FAIL";
  };

  // An item that reads a file it cannot parse does not pass: it fails, its value unknown where
  // the file was all it counts, with a detail naming the file (and MK-PARSE-001 below).
  const auto unparseable = [&](HygieneItem& it, const std::string& path, bool counted) {
    const auto doc = std::find_if(cache.begin(), cache.end(),
                                  [&](const auto& cached) { return cached.first == path; });
    if (doc == cache.end() || doc->second.parseable()) return;
    it.result = "FAIL";
    if (counted) it.value.reset();
    HygieneDetail d;
    d.path = path;
    d.reason = "unparseable";
    it.details.push_back(std::move(d));
  };

  stay_under(item(1, "SESSION_LOG.md under 200 lines"), lines_of(inputs, "memory/SESSION_LOG.md"),
             200);
  {
    const Document* tasks = parsed(inputs, "memory/ACTIVE_TASKS.md", cache);
    HygieneItem& it = item(2, "ACTIVE_TASKS.md under 50 items");
    stay_under(it, tasks ? item_count("memory/ACTIVE_TASKS.md", *tasks).value_or(0) : 0, 50);
    unparseable(it, "memory/ACTIVE_TASKS.md", true);
  }
  for (const auto& [n, path, name] : {std::tuple{3, "memory/MISTAKES.md", "MISTAKES.md"},
                                      std::tuple{4, "memory/PATTERNS.md", "PATTERNS.md"}}) {
    HygieneItem& it = item(n, std::string(name) + " under 30 entries (no duplicates)");
    const Document* doc = parsed(inputs, path, cache);
    std::uint64_t count = 0;
    if (doc) {
      const std::vector<Entry> entries = read_entries(path, *doc);
      count = entries.size();
      std::set<std::string> seen;
      std::set<std::string> reported;
      for (const Entry& e : entries) {
        if (!seen.insert(e.id).second && reported.insert(e.id).second) {
          HygieneDetail d;
          d.entry_id = e.id;
          d.reason = "duplicate";
          it.details.push_back(std::move(d));
        }
      }
    }
    stay_under(it, count, 30);
    if (!it.details.empty()) it.result = "FAIL";
    unparseable(it, path, true);
  }
  {
    HygieneItem& it = item(5, "LONG_TERM.md: all facts still valid? Confidence scores current?");
    const DecayReport decay = memorybox_decay(inputs, now, std::string_view("memory/LONG_TERM.md"));
    const Document* doc = parsed(inputs, "memory/LONG_TERM.md", cache);
    if (doc) {
      for (const Entry& e : read_entries("memory/LONG_TERM.md", *doc)) {
        std::vector<std::string> reasons;
        const auto scored = std::find_if(decay.entries.begin(), decay.entries.end(),
                                         [&](const Decay& d) { return d.entry_id == e.id; });
        if (scored == decay.entries.end()) {
          reasons.emplace_back("unscored");
        } else {
          const Decay& d = *scored;
          const bool interval = review_interval_passed(d.band, d.days);
          const auto flagged = [&](std::string_view flag) {
            return std::find(d.flags.begin(), d.flags.end(), flag) != d.flags.end();
          };
          if (interval) reasons.emplace_back("review_interval");
          if (d.penalty > 0) reasons.emplace_back("penalty");
          if (d.band == Band::low) reasons.emplace_back("low_band");
          if (d.band == Band::speculation) reasons.emplace_back("speculation_band");
          if (flagged("contradicted")) reasons.emplace_back("contradicted");
          if (flagged("trigger_reached")) reasons.emplace_back("trigger_reached");
        }
        if (!reasons.empty()) {
          HygieneDetail detail;
          detail.entry_id = e.id;
          detail.reasons = std::move(reasons);
          it.details.push_back(std::move(detail));
        }
      }
    }
    it.value = it.details.size();
    it.result = it.details.empty() ? "PASS" : "REVIEW";
    unparseable(it, "memory/LONG_TERM.md", true);
  }
  {
    HygieneItem& it = item(6, "SOP_LIBRARY.md: all SOPs still relevant? Success rates accurate?");
    if (const Document* doc = parsed(inputs, "memory/SOP_LIBRARY.md", cache)) {
      for (const Entry& e : read_entries("memory/SOP_LIBRARY.md", *doc)) {
        const std::optional<std::string_view> text = e.field("Verified");
        const std::optional<CivilDate> verified = text ? parse_iso_date(*text) : std::nullopt;
        const std::int64_t days = verified ? days_between(*verified, today) : 0;
        if (verified && days < 30) continue;
        HygieneDetail detail;
        detail.entry_id = e.id;
        if (verified) {
          detail.verified = std::string(*text);
          detail.days = static_cast<std::uint64_t>(std::max<std::int64_t>(0, days));
        }
        it.details.push_back(std::move(detail));
      }
    }
    it.value = it.details.size();
    it.result = it.details.empty() ? "PASS" : "REVIEW";
    unparseable(it, "memory/SOP_LIBRARY.md", true);
  }
  {
    HygieneItem& it = item(7, "daily/: older than 30 days archived?");
    for (const std::string& path : inputs.daily_files) {
      const std::optional<CivilDate> date = daily_date(path.substr(path.rfind('/') + 1));
      const std::int64_t days = date ? days_between(*date, today) : 0;
      if (days > 30) {
        HygieneDetail detail;
        detail.path = path;
        detail.days = static_cast<std::uint64_t>(days);
        it.details.push_back(std::move(detail));
      }
    }
    stay_under(it, it.details.size(), 1);
  }
  {
    std::uint64_t sum = 0;
    for (const std::string& path : inputs.brain_files) sum += lines_of(inputs, path);
    stay_under(item(8, "brain/ files under 2500 lines combined?"), sum, 2500);
  }
  {
    HygieneItem& it = item(9, "No orphaned references (links to deleted files)?");
    const std::set<std::string> files(inputs.all_files.begin(), inputs.all_files.end());
    std::set<std::string> names;
    for (const std::string& path : inputs.all_files) {
      names.insert(
          ascii_lower(path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1)));
    }
    std::vector<std::string> tier_files = tier_files_1_to_4(inputs);
    std::sort(tier_files.begin(), tier_files.end());
    for (const std::string& path : tier_files) {
      if (const Document* doc = parsed(inputs, path, cache)) {
        find_orphans(path, *doc, files, names, hygiene.orphans);
      }
    }
    stay_under(it, hygiene.orphans.size(), 1);
    for (const std::string& path : tier_files) unparseable(it, path, false);
  }
  {
    HygieneItem& it = item(10, "Supabase sync current (if available)?");
    if (sync == nullptr) {
      it.result = "N/A";  // no remote is configured: this root never synced (memorybox.md §9)
    } else {
      // Changed since the last successful push: every synced file when there was none.
      const bool pushed = sync->last_push_ok && sync->last_push_at;
      for (const std::string& path : pushed ? sync->changed_files : sync->synced_files) {
        HygieneDetail d;
        d.path = path;
        it.details.push_back(std::move(d));
      }
      for (const std::string& id : sync->open_conflicts) {
        HygieneDetail d;
        d.entry_id = id;
        it.details.push_back(std::move(d));
      }
      stay_under(it, it.details.size(), 1);
    }
  }
  for (const HygieneItem& it : hygiene.items) {
    if (it.result == "FAIL") {
      hygiene.findings.push_back(
          make_finding("MK-BOX-013", Severity::error, "",
                       fmt::format("hygiene item {} failed: {}", it.n, it.check)));
    } else if (it.result == "REVIEW") {
      hygiene.findings.push_back(
          make_finding("MK-BOX-014", Severity::warning, "",
                       fmt::format("hygiene item {} needs review: {}", it.n, it.check)));
    }
  }
  for (const auto& [path, doc] : cache) {
    if (const std::optional<TextIssue>& issue = doc.parse_error()) {
      hygiene.findings.push_back(
          make_finding("MK-PARSE-001", Severity::error, path,
                       describe_issue(*issue, path) + "; hygiene cannot count what it holds",
                       "close the fence or comment, then run hygiene again"));
    }
  }
  // §10: on a Maven root, hygiene runs `canon verify` too.
  if (inputs.profile == Profile::maven) {
    for (Finding& f : verify_canon(inputs).findings) hygiene.findings.push_back(std::move(f));
  }
  sort_findings(hygiene.findings);
  return hygiene;
}

}  // namespace memkit::memorybox
