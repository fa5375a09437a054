// The local side of sync (spec memorybox.md §9 Identity, Records): which files sync to which
// table, the tier files read as records with their Ids (assigning missing ones), the base of the
// last sync, and what a push sends.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "markdown/line_kinds.hpp"
#include "memkit/digest.hpp"
#include "memkit/memorybox/sync.hpp"
#include "memkit/text.hpp"
#include "memorybox/field_editor.hpp"
#include "memorybox/field_line.hpp"
#include "memorybox/sync_entries.hpp"
#include "parallel/run_both.hpp"

namespace memkit::memorybox {

namespace {

using detail::field_value;
using detail::record_text_view;

constexpr std::string_view kDailyPrefix = "memory/daily/";

// The Id line an entry without one (or with an empty one) gets (§3: Id is the last field).
std::vector<Splice> id_splices(const Document& doc, const Entry& entry, std::string_view id) {
  const std::string line = detail::field_line("Id", id);
  if (entry.kind != EntryKind::daily) {
    detail::FieldEditor editor(entry, doc);
    editor.set("Id", std::string(id));
    return editor.splices();
  }
  if (!entry.fields.empty()) {  // an empty Id line at the top: its content is the Id now
    const Field& empty = entry.fields.front();
    return {detail::replace_line_content(empty.begin + empty.indent, empty.content_end, line)};
  }
  // §9: the daily file's first line (after a BOM), then one empty line.
  const std::string t(new_line_terminator(doc));
  return {Splice{doc.content_begin(), doc.content_begin(), line + t + t}};
}

}  // namespace

std::optional<SyncTable> sync_table_of(std::string_view path) noexcept {
  if (path == "memory/LONG_TERM.md" || path == "memory/SOP_LIBRARY.md" ||
      path == "memory/PATTERNS.md" || path == "memory/MISTAKES.md" ||
      path == "memory/DECISIONS.md") {
    return SyncTable::memories;
  }
  if (path == "memory/SESSION_LOG.md") return SyncTable::session_logs;
  if (path.rfind(kDailyPrefix, 0) == 0) {
    const std::string_view name = path.substr(kDailyPrefix.size());
    if (name.size() == 13 && name.substr(10) == ".md" && parse_iso_date(name.substr(0, 10))) {
      return SyncTable::daily_logs;
    }
  }
  return std::nullopt;
}

std::string record_digest(const SyncRecord& record, BaseDigests digests) {
  std::string scratch;
  const std::optional<std::string_view> category =
      record.category ? std::optional<std::string_view>(*record.category) : std::nullopt;
  const std::optional<std::string_view> verified =
      record.verified ? std::optional<std::string_view>(*record.verified) : std::nullopt;
  const std::array<char, 32> digest = detail::digest_of({.id = record.id,
                                                         .table = record.table,
                                                         .file = record.file,
                                                         .category = category,
                                                         .text = record.text,
                                                         .confidence = record.confidence,
                                                         .verified = verified,
                                                         .deleted = record.deleted},
                                                        scratch, digests);
  return std::string(digest.data(), digest.size());
}

SyncRecord tombstone(std::string id, std::string workspace_id, SyncTable table, std::string file,
                     std::string updated_at) {
  return SyncRecord{.id = std::move(id),
                    .workspace_id = std::move(workspace_id),
                    .table = table,
                    .file = std::move(file),
                    .category = std::nullopt,
                    .text = {},
                    .confidence = std::nullopt,
                    .verified = std::nullopt,
                    .updated_at = std::move(updated_at),
                    .deleted = true};
}

namespace {

// An entry holding an Id, for MK-BOX-022: the Id (a view of its file's bytes or of the base's
// ids) and where the entry begins in its file (which names it if the Id turns out to be held
// twice).
struct Holder {
  std::string_view id;
  std::uint32_t in_base = 0;  // the Id's position in the base when it holds the entry unchanged
  std::size_t begin = 0;
};

// The holders of one part, in file order.
struct HolderRun {
  std::string_view path;  // as kept in LocalScan::documents
  std::vector<Holder> holders;
};

// The entry of `path` that `holder` is, by its first line: "memory/LONG_TERM.md:12" (two copies
// of an entry have one entry ID, so only their lines tell them apart).
std::string entry_name(const LocalScan& scan, std::string_view path, const Holder& holder) {
  const Document& doc = scan.documents.find(path)->second;
  for (const Entry& entry : read_entries(path, doc)) {
    if (entry.begin == holder.begin) return fmt::format("{}:{}", path, entry.first_line);
  }
  return std::string(path);
}

// What reading some entries of a file gives, in file order.
struct Part {
  std::vector<LocalRecord> records;
  std::vector<std::string_view> unchanged;
  std::vector<std::string_view> dormant;
  std::vector<Holder> holders;
  std::vector<Splice> splices;     // the Id lines of the assigned Ids
  std::string text_scratch;        // an entry's record text when it is not one piece of its file
  std::string digest_scratch;      // digest_of's
  std::vector<CachedEntry> cache;  // LocalScan::cache's, in file order
  std::vector<CachedEntry> cache_read;  // LocalScan::cache_read's
};

// Reads the entries of one synced file into a Part. It writes nothing but the Part it is given,
// so two threads may read two shares of one file into two parts.
struct FileReader {
  const Document& doc;
  std::string_view path;
  SyncTable table;
  std::string_view file_time;
  std::string_view workspace_id;
  std::string_view now_text;
  CivilDate today;
  std::int64_t now_millis;
  const ScanFocus& focus;
  BaseDigests digests;  // the base's, so that its digests and these compare
  bool cached;          // a file of bullets: its bullets go into LocalScan::cache

  // The bullets of share `share` of `shares` that the focus cache and base show unchanged: a
  // bullet whose fingerprint the cache holds, with an Id the base holds with the cached digest
  // (which covers the Id). One pass takes every bullet's fingerprint; the lookups then run a few
  // bullets apart, each fetched into the cache ahead of use (each is a miss: the cache's index,
  // its entry, the base's slot); per bullet in order, its base position or 0.
  struct Located {
    std::size_t begin = 0;
    CachedEntry entry;
    std::uint32_t position = 0;
  };
  std::vector<Located> locate(std::size_t share, std::size_t shares, Part& out) const {
    std::vector<Located> bullets;
    visit_entry_layout(
        path, doc, share, shares, [](Entry&) {},
        [&](std::size_t begin, std::size_t end, const std::optional<std::string>& category) {
          Located& bullet = bullets.emplace_back();
          bullet.begin = begin;
          bullet.entry.fingerprint = detail::entry_fingerprint(
              table, path, category ? std::optional<std::string_view>(*category) : std::nullopt,
              doc.bytes().substr(begin, end - begin), out.digest_scratch);
          return true;
        });
    const ScanCache& cache = *focus.cache;
    const SyncBase& base = *focus.base;
    constexpr std::size_t kAhead = 8;
    const std::size_t n = bullets.size();
    std::vector<bool> found(n);
    for (std::size_t i = 0; i < n + 3 * kAhead; ++i) {
      if (i < n) cache.prefetch_slot(bullets[i].entry.fingerprint);
      if (i >= kAhead && i - kAhead < n) {
        cache.prefetch_entry(bullets[i - kAhead].entry.fingerprint);
      }
      if (i >= 2 * kAhead && i - 2 * kAhead < n) {
        Located& bullet = bullets[i - 2 * kAhead];
        if (const std::optional<CachedEntry> hit = cache.find(bullet.entry.fingerprint)) {
          bullet.entry = *hit;
          found[i - 2 * kAhead] = true;
          base.prefetch(hit->id_hash);
        }
      }
      if (i >= 3 * kAhead && i - 3 * kAhead < n && found[i - 3 * kAhead]) {
        Located& bullet = bullets[i - 3 * kAhead];
        bullet.position = base.holding(bullet.entry.id_hash, bullet.entry.digest);
        if (bullet.position != 0 && !focus.ids.empty() &&
            focus.ids.contains(base.id_at(bullet.position))) {
          bullet.position = 0;
        }
      }
    }
    return bullets;
  }

  // BulletSkip over locate's bullets, met again in the same order: one it located is only kept
  // as unchanged.
  bool skip(std::size_t begin, const std::vector<Located>& bullets, std::size_t& next,
            Part& out) const {
    const Located& bullet = bullets[next++];
    if (bullet.begin != begin) throw std::logic_error("scan_local: the bullets moved");
    if (bullet.position == 0) return false;
    const std::string_view id = focus.base->id_at(bullet.position);
    out.holders.push_back(Holder{id, bullet.position, begin});
    out.unchanged.push_back(id);
    out.cache.push_back(bullet.entry);
    return true;
  }

  void read(Entry& entry, Part& out) const {
    std::optional<std::string_view> id;
    std::optional<std::string_view> confidence_text;
    std::optional<std::string_view> verified_text;
    std::optional<std::string_view> updated;
    for (const Field& f : entry.fields) {
      if (f.key == "Id" && !id) {
        id = field_value(doc, f);
      } else if (f.key == "Confidence" && !confidence_text) {
        confidence_text = field_value(doc, f);
      } else if (f.key == "Verified" && !verified_text) {
        verified_text = field_value(doc, f);
      } else if (f.key == "Updated" && !updated) {
        updated = field_value(doc, f);
      }
    }
    if (id && id->empty()) id.reset();  // an empty Id line holds no Id: one is assigned
    const bool focused =
        id && focus.base != nullptr && entry.kind != EntryKind::daily && !focus.ids.contains(*id);
    const std::uint64_t id_hash = focused ? fast_hash(*id) : 0;
    if (focused) focus.base->prefetch(id_hash);  // needed after the digest below
    std::optional<std::uint32_t> stored;
    std::optional<CivilDate> verified;
    if (table == SyncTable::memories) {
      stored = confidence_text ? parse_confidence(*confidence_text) : std::nullopt;
      verified = verified_text ? parse_iso_date(*verified_text) : std::nullopt;
      if (!stored || !verified) {  // unscored: does not sync now (§9 Records)
        if (id) {
          out.dormant.push_back(*id);
          out.holders.push_back(Holder{*id, 0, entry.begin});
        }
        return;
      }
    }
    const std::string_view text = record_text_view(doc, entry, out.text_scratch);
    const bool memories = table == SyncTable::memories;
    const std::optional<std::string_view> category =
        memories && entry.category ? std::optional<std::string_view>(*entry.category)
                                   : std::nullopt;
    std::optional<std::array<char, 32>> digest;
    if (id) {
      out.holders.push_back(Holder{*id, 0, entry.begin});
      digest = detail::digest_of({.id = *id,
                                  .table = table,
                                  .file = path,
                                  .category = category,
                                  .text = text,
                                  .confidence = stored,
                                  .verified = memories ? verified_text : std::nullopt,
                                  .deleted = false},
                                 out.digest_scratch, digests);
      if (cached && entry.kind == EntryKind::bullet) {
        out.cache.push_back(CachedEntry{
            detail::entry_fingerprint(table, path, category,
                                      doc.bytes().substr(entry.begin, entry.end - entry.begin),
                                      out.digest_scratch),
            focused ? id_hash : fast_hash(*id), detail::digest_value(*digest)});
        out.cache_read.push_back(out.cache.back());
      }
      if (focused) {
        const std::uint32_t at =
            focus.base->holding(id_hash, std::string_view(digest->data(), digest->size()));
        if (at != 0) {
          out.holders.back().in_base = at;
          out.unchanged.push_back(*id);
          return;
        }
      }
    }
    LocalRecord local;
    local.record.workspace_id = std::string(workspace_id);
    local.record.table = table;
    local.record.file = path;
    if (memories) {
      local.record.confidence = stored;
      local.record.verified = std::string(*verified_text);
      local.record.category = entry.category;
      local.effective = detail::effective_on(*stored, *verified, today);
    }
    local.record.text = std::string(text);
    local.own_time = updated && is_utc_millis(*updated);
    local.record.updated_at = local.own_time ? std::string(*updated) : std::string(file_time);
    if (id) {
      local.record.id = std::string(*id);
      local.digest = std::string(digest->data(), digest->size());
    } else {
      const std::string seed =
          fmt::format("memkit-id\n{}\n{}\n{}\n{}", now_text, path, entry.begin,
                      doc.bytes().substr(entry.begin, entry.end - entry.begin));
      const Sha256 h = sha256(seed);
      std::array<std::uint8_t, 10> random{};
      std::copy_n(h.begin(), random.size(), random.begin());
      local.record.id = uuid_v7(static_cast<std::uint64_t>(now_millis), random);
      local.digest = record_digest(local.record, digests);
      local.assigned = true;
      for (Splice& s : id_splices(doc, entry, local.record.id)) out.splices.push_back(std::move(s));
    }
    local.entry = std::move(entry);
    out.records.push_back(std::move(local));
  }
};

}  // namespace

ParsedFiles parse_synced_files(const Inputs& inputs) {
  ParsedFiles parsed;
  for (const std::string& path : tier_files_1_to_4(inputs)) {
    const FileSnapshot* file = inputs.snapshot.find(path);
    if (sync_table_of(path) && file != nullptr && file->state == EntryState::file) {
      parsed.emplace(path, parse_markdown(file->bytes));
    }
  }
  return parsed;
}

std::string digest_as(const LocalScan& scan, const LocalRecord& record, BaseDigests digests) {
  return scan.digests == digests ? record.digest : record_digest(record.record, digests);
}

Result<LocalScan> scan_local(const Inputs& inputs, std::string_view workspace_id,
                             const ModifiedTimes& modified, const ClockReading& now,
                             const ScanFocus& focus) {
  LocalScan scan;
  scan.digests = focus.base != nullptr ? focus.base->digests() : BaseDigests::xxh3;
  const std::string now_text = now.utc_rfc3339_millis();
  const CivilDate today = now.local_date();
  // Checked after the scan, so that an Id held twice is found without a node per Id: the parts'
  // lists in file order, kept as they are (a root of 100,000 entries holds 5 MB of them).
  std::vector<HolderRun> holder_runs;
  for (const std::string& path : tier_files_1_to_4(inputs)) {
    const std::optional<SyncTable> table = sync_table_of(path);
    if (!table) continue;
    const FileSnapshot* file = inputs.snapshot.find(path);
    if (file == nullptr || file->state == EntryState::missing) continue;
    if (file->state != EntryState::file) {
      const std::string why = file->state == EntryState::symlink      ? "a symbolic link"
                              : file->state == EntryState::unreadable ? "unreadable: " + file->error
                                                                      : "not a regular file";
      return Status(file->state == EntryState::unreadable ? Errc::io : Errc::unsafe_path,
                    path + ": " + why);
    }
    const Document* given = nullptr;
    if (focus.parsed != nullptr) {
      const auto found = focus.parsed->find(path);
      if (found != focus.parsed->end() && found->second.bytes().data() == file->bytes->data()) {
        given = &found->second;
      }
    }
    const Document& doc =
        scan.documents.emplace(path, given != nullptr ? *given : parse_markdown(file->bytes))
            .first->second;
    const std::string_view stored_path = scan.documents.find(path)->first;
    if (const auto& issue = doc.parse_error()) {
      return Status(Errc::parse, describe_issue(*issue, path));
    }
    if (const auto& issue = doc.utf8_error()) {
      return Status(Errc::invalid_utf8, describe_issue(*issue, path));
    }
    const auto mtime = modified.find(path);
    const std::string& file_time = mtime != modified.end() ? mtime->second : now_text;
    // A file of bullets, read with a base: its bullets go into the scan's cache, and those of the
    // focus cache are looked for there first.
    const bool cached = focus.base != nullptr && sync_table_of(path) == SyncTable::memories &&
                        !is_section_file(path);
    const FileReader reader{doc,          path,         *table, file_time,
                            workspace_id, now_text,     today,  now.unix_millis(),
                            focus,        scan.digests, cached};
    // A large file is laid out and read in two shares, one per core, each into its part.
    std::vector<Part> parts(file->bytes->size() < focus.parallel_bytes ? 1 : 2);
    // Room for every entry's Id at once (each unit or section is at most one entry), so that the
    // lists are not built again each time they double; the first part's unchanged Ids become the
    // scan's list, the other's appended (room reserved is not memory touched).
    const std::size_t entries = doc.units().size() + doc.sections().size();
    for (Part& part : parts) {
      part.holders.reserve(entries / parts.size() + 1);
      const bool becomes_scans = &part == &parts[0] && scan.unchanged.empty();
      if (focus.base != nullptr) {
        part.unchanged.reserve(becomes_scans ? entries + 1 : entries / parts.size() + 1);
      }
    }
    const auto read_share = [&](std::size_t share) {
      Part& part = parts[share];
      const auto read = [&](Entry& entry) { reader.read(entry, part); };
      if (cached && focus.cache != nullptr) {
        const std::vector<FileReader::Located> bullets = reader.locate(share, parts.size(), part);
        std::size_t next = 0;
        visit_entry_layout(path, doc, share, parts.size(), read,
                           [&](std::size_t begin, std::size_t, const std::optional<std::string>&) {
                             return reader.skip(begin, bullets, next, part);
                           });
      } else {
        visit_entry_layout(path, doc, share, parts.size(), read);
      }
    };
    if (parts.size() == 1) {
      read_share(0);
    } else {
      memkit::detail::run_both([&] { read_share(0); }, [&] { read_share(1); });
    }
    std::size_t located = scan.unchanged.size();
    for (const Part& part : parts) located += part.unchanged.size();
    if (scan.unchanged.empty()) scan.unchanged = std::move(parts[0].unchanged);
    scan.unchanged.reserve(located);
    for (Part& part : parts) {  // in file order
      for (LocalRecord& r : part.records) scan.records.push_back(std::move(r));
      scan.unchanged.insert(scan.unchanged.end(), part.unchanged.begin(), part.unchanged.end());
      for (const std::string_view id : part.dormant) scan.dormant.emplace(id);
      scan.cache.insert(scan.cache.end(), part.cache.begin(), part.cache.end());
      scan.cache_read.insert(scan.cache_read.end(), part.cache_read.begin(), part.cache_read.end());
      if (!part.holders.empty()) holder_runs.push_back({stored_path, std::move(part.holders)});
      if (!part.splices.empty()) {
        std::vector<Splice>& splices = scan.id_splices[path];
        for (Splice& splice : part.splices) splices.push_back(std::move(splice));
      }
    }
  }
  // An Id held twice: the holders go in file order, each claiming its Id; one whose Id is claimed
  // already is a copy, and the claimant, the first in file order, is named first. An Id the base
  // holds is claimed by its position there (known already for an unchanged entry, else looked up:
  // an edited copy of an unchanged entry is found too); any other in an open-addressing table of
  // (hash, index). So a root in step with its base is checked without a table entry per Id.
  const SyncBase* base = focus.base;
  std::vector<std::uint32_t> claimed(base != nullptr ? base->size() : 0);  // holder index + 1
  std::size_t others = 0;
  std::size_t count = 0;
  for (HolderRun& run : holder_runs) {
    count += run.holders.size();
    for (Holder& h : run.holders) {
      if (h.in_base == 0 && base != nullptr) h.in_base = base->position(h.id);
      if (h.in_base == 0) ++others;
    }
  }
  // The run and holder of an index over all runs (looked up for copies only).
  const auto holder_at = [&holder_runs](std::size_t index) -> std::pair<const HolderRun*, Holder> {
    for (const HolderRun& run : holder_runs) {
      if (index < run.holders.size()) return {&run, run.holders[index]};
      index -= run.holders.size();
    }
    throw std::logic_error("scan_local: no such holder");
  };
  struct Slot {
    std::uint64_t hash = 0;
    std::size_t holder = 0;  // index + 1; 0 when empty
  };
  std::vector<Slot> table(std::bit_ceil(2 * others + 2));
  const std::size_t mask = table.size() - 1;
  std::size_t run = 0;
  std::size_t in_run = 0;
  for (std::size_t i = 0; i < count; ++i, ++in_run) {
    while (in_run == holder_runs[run].holders.size()) {
      ++run;
      in_run = 0;
    }
    const Holder& second = holder_runs[run].holders[in_run];
    std::size_t first = 0;  // the claimant's index + 1
    if (second.in_base != 0) {
      std::uint32_t& claim = claimed[second.in_base - 1];
      if (claim == 0)
        claim = static_cast<std::uint32_t>(i + 1);
      else
        first = claim;
    } else {
      const std::uint64_t hash = fast_hash(second.id);
      std::size_t at = hash & mask;
      while (table[at].holder != 0 &&
             (table[at].hash != hash || holder_at(table[at].holder - 1).second.id != second.id)) {
        at = (at + 1) & mask;
      }
      if (table[at].holder == 0)
        table[at] = Slot{hash, i + 1};
      else
        first = table[at].holder;
    }
    if (first == 0) continue;
    const std::string_view path = holder_runs[run].path;
    const auto [claimant_run, claimant] = holder_at(first - 1);
    scan.findings.push_back(make_finding(
        "MK-BOX-022", Severity::blocker, std::string(path),
        fmt::format("the Id {} is held by {} and {}", second.id,
                    entry_name(scan, claimant_run->path, claimant), entry_name(scan, path, second)),
        "delete the Id: line of the copy; the next sync gives it a new Id"));
  }
  sort_findings(scan.findings);
  return scan;
}

PushSelection select_push(const Inputs& inputs, const LocalScan& local, const SyncBase& base,
                          const std::set<std::string, std::less<>>& open_conflicts,
                          std::string_view workspace_id, const ClockReading& now,
                          std::string_view synced_at) {
  PushSelection selection;
  selection.splices = local.id_splices;
  const std::string now_text = now.utc_rfc3339_millis();
  std::size_t in_base = local.unchanged.size();  // ids of the base held by a local entry
  for (const LocalRecord& r : local.records) {
    if (base.contains(r.record.id)) ++in_base;
    if (open_conflicts.contains(r.record.id)) {
      selection.held.push_back(r.record.id);
      continue;
    }
    const std::optional<std::array<char, 32>> known = base.digest(r.record.id);
    if (known &&
        std::string_view(known->data(), known->size()) == digest_as(local, r, base.digests())) {
      continue;
    }
    selection.records.push_back(r.record);
    if (!known || r.entry.kind == EntryKind::daily) continue;
    // Changed since the last sync: stamped now, unless what changed it set `Updated` since (both
    // are RFC 3339 UTC with milliseconds, which order as text).
    if (!synced_at.empty() && r.own_time && r.record.updated_at > synced_at) continue;
    selection.records.back().updated_at = now_text;
    auto doc = local.documents.find(r.record.file);
    const Document parsed = doc != local.documents.end()
                                ? doc->second
                                : parse_markdown(inputs.snapshot.find(r.record.file)->bytes);
    detail::FieldEditor editor(r.entry, parsed);
    editor.set("Updated", now_text);
    for (Splice& s : editor.splices()) selection.splices[r.record.file].push_back(std::move(s));
  }
  if (!open_conflicts.empty()) {
    for (const std::string_view id : local.unchanged) {
      if (open_conflicts.contains(id)) selection.held.emplace_back(id);
    }
  }
  for (const std::string& id : local.dormant) {
    if (base.contains(id)) ++in_base;
  }
  for (auto& [path, splices] : selection.splices) {
    std::stable_sort(splices.begin(), splices.end(),
                     [](const Splice& a, const Splice& b) { return a.begin < b.begin; });
  }
  std::vector<SyncRecord> tombstones;
  if (in_base != base.size()) {  // some id of the base is held by no entry now
    std::unordered_set<std::string_view> present(local.unchanged.begin(), local.unchanged.end());
    for (const LocalRecord& r : local.records) present.insert(r.record.id);
    base.for_each([&](std::string_view id, SyncTable table, std::string_view file,
                      std::string_view digest) {
      if (present.contains(id) || local.dormant.contains(id)) return;
      if (open_conflicts.contains(id)) {
        selection.held.emplace_back(id);
        return;
      }
      SyncRecord gone =
          tombstone(std::string(id), std::string(workspace_id), table, std::string(file), now_text);
      if (record_digest(gone, base.digests()) != digest) tombstones.push_back(std::move(gone));
    });
  }
  std::sort(tombstones.begin(), tombstones.end(),
            [](const SyncRecord& a, const SyncRecord& b) { return a.id < b.id; });
  for (SyncRecord& t : tombstones) selection.records.push_back(std::move(t));
  std::sort(selection.held.begin(), selection.held.end());
  return selection;
}

}  // namespace memkit::memorybox
