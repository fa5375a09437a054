// The local side of sync (spec memorybox.md §9 Identity, Records): which files sync to which
// table, the tier files read as records with their Ids (assigning missing ones), the base of the
// last sync, and what a push sends.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <unordered_map>
#include <unordered_set>

#include "markdown/line_kinds.hpp"
#include "memkit/digest.hpp"
#include "memkit/memorybox_sync.hpp"
#include "memkit/text.hpp"
#include "memorybox/field_editor.hpp"
#include "memorybox/field_line.hpp"
#include "memorybox/sync_entries.hpp"

namespace memkit::memorybox {

namespace {

constexpr std::string_view kDailyPrefix = "memory/daily/";

// Length-prefixed, so that no two different records hash the same bytes.
void add_field(Sha256Hasher& hasher, std::string_view bytes) {
  hasher.update(fmt::format("{}:", bytes.size()));
  hasher.update(bytes);
}

void add_optional(Sha256Hasher& hasher, const std::optional<std::string>& value) {
  if (value) {
    add_field(hasher, *value);
  } else {
    hasher.update("-");
  }
}

std::string_view table_key(SyncTable table) noexcept { return sync_table_name(table); }

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

std::string record_digest(const SyncRecord& record) {
  Sha256Hasher hasher;
  add_field(hasher, record.id);
  add_field(hasher, table_key(record.table));
  add_field(hasher, record.file);
  add_optional(hasher, record.category);
  add_field(hasher, record.text);
  add_optional(hasher, record.confidence
                           ? std::optional<std::string>(std::to_string(*record.confidence))
                           : std::nullopt);
  add_optional(hasher, record.verified);
  hasher.update(record.deleted ? "D" : "L");
  return to_hex(hasher.finish()).substr(0, 32);
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

std::string render_sync_base(const SyncBase& base) {
  std::vector<const SyncBase::value_type*> sorted;
  sorted.reserve(base.size());
  for (const auto& item : base) sorted.push_back(&item);
  std::sort(sorted.begin(), sorted.end(),
            [](const auto* a, const auto* b) { return a->first < b->first; });
  std::string out;
  out.reserve(base.size() * 110);
  for (const auto* item : sorted) {
    const std::string& id = item->first;
    const BaseEntry& entry = item->second;
    out += entry.digest;
    out += '\t';
    out += table_key(entry.table);
    out += '\t';
    out += entry.file;
    out += '\t';
    out += id;
    out += '\n';
  }
  return out;
}

Result<SyncBase> parse_sync_base(std::string_view bytes) {
  SyncBase base;
  std::size_t line_number = 0;
  std::size_t at = 0;
  while (at < bytes.size()) {
    ++line_number;
    const std::size_t lf = bytes.find('\n', at);
    const auto bad = [&](std::string_view what) {
      return Status(Errc::parse, fmt::format(".memkit/sync/base.tsv:{}: {}", line_number, what));
    };
    if (lf == std::string_view::npos) return bad("the last line has no LF");
    const std::string_view line = bytes.substr(at, lf - at);
    at = lf + 1;
    const std::size_t t1 = line.find('\t');
    const std::size_t t2 = t1 == std::string_view::npos ? t1 : line.find('\t', t1 + 1);
    const std::size_t t3 = t2 == std::string_view::npos ? t2 : line.find('\t', t2 + 1);
    if (t3 == std::string_view::npos) return bad("expected digest, table, file and id");
    const std::string_view digest = line.substr(0, t1);
    if (digest.size() != 32 || !std::all_of(digest.begin(), digest.end(), [](char c) {
          return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
        })) {
      return bad("the digest is not 32 lower-case hex digits");
    }
    const std::optional<SyncTable> table = parse_sync_table(line.substr(t1 + 1, t2 - t1 - 1));
    if (!table) return bad("unknown table");
    const std::string_view file = line.substr(t2 + 1, t3 - t2 - 1);
    const std::string_view id = line.substr(t3 + 1);
    if (file.empty() || id.empty()) return bad("empty file or id");
    const auto [_, fresh] = base.try_emplace(
        std::string(id), BaseEntry{*table, std::string(file), std::string(digest)});
    if (!fresh) return bad("the id is listed twice");
  }
  return base;
}

Result<LocalScan> scan_local(const Inputs& inputs, std::string_view workspace_id,
                             const ModifiedTimes& modified, const ClockReading& now) {
  LocalScan scan;
  const std::string now_text = now.utc_rfc3339_millis();
  const CivilDate today = now.local_date();
  // The first holder of each Id: its file and entry ID, for MK-BOX-022.
  std::unordered_map<std::string, std::string> holders;
  const auto hold = [&](const std::string& id, const std::string& path, const Entry& entry) {
    const auto [first, fresh] = holders.try_emplace(id, entry.id);
    if (fresh) return;
    scan.findings.push_back(
        make_finding("MK-BOX-022", Severity::blocker, path,
                     fmt::format("the Id {} is held by {} and {}", id, first->second, entry.id),
                     "delete the Id: line of the copy; the next sync gives it a new Id"));
  };
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
    const Document doc = parse_markdown(file->bytes);
    if (const auto& issue = doc.parse_error()) {
      return Status(Errc::parse, describe_issue(*issue, path));
    }
    if (const auto& issue = doc.utf8_error()) {
      return Status(Errc::invalid_utf8, describe_issue(*issue, path));
    }
    const auto mtime = modified.find(path);
    const std::string& file_time = mtime != modified.end() ? mtime->second : now_text;
    std::vector<Splice>* splices = nullptr;
    for (Entry& entry : read_entries(path, doc)) {
      std::optional<std::string_view> id = entry.field("Id");
      if (id && id->empty()) id.reset();  // an empty Id line holds no Id: one is assigned
      LocalRecord local;
      local.record.workspace_id = std::string(workspace_id);
      local.record.table = *table;
      local.record.file = path;
      if (*table == SyncTable::memories) {
        const std::optional<std::string_view> c = entry.field("Confidence");
        const std::optional<std::string_view> v = entry.field("Verified");
        const std::optional<std::uint32_t> stored = c ? parse_confidence(*c) : std::nullopt;
        const std::optional<CivilDate> verified = v ? parse_iso_date(*v) : std::nullopt;
        if (!stored || !verified) {  // unscored: does not sync now (§9 Records)
          if (id) {
            scan.dormant.emplace(*id);
            hold(std::string(*id), path, entry);
          }
          continue;
        }
        local.record.confidence = stored;
        local.record.verified = std::string(*v);
        local.record.category = entry.category;
        local.effective = detail::effective_on(*stored, *verified, today);
      }
      local.record.text = detail::record_text(doc, entry);
      const std::optional<std::string_view> updated = entry.field("Updated");
      local.record.updated_at =
          updated && is_utc_millis(*updated) ? std::string(*updated) : file_time;
      if (id) {
        local.record.id = std::string(*id);
      } else {
        const std::string seed =
            fmt::format("memkit-id\n{}\n{}\n{}\n{}", now_text, path, entry.begin,
                        doc.bytes().substr(entry.begin, entry.end - entry.begin));
        const Sha256 h = sha256(seed);
        std::array<std::uint8_t, 10> random{};
        std::copy_n(h.begin(), random.size(), random.begin());
        local.record.id = uuid_v7(static_cast<std::uint64_t>(now.unix_millis()), random);
        local.assigned = true;
        if (splices == nullptr) splices = &scan.id_splices[path];
        for (Splice& s : id_splices(doc, entry, local.record.id)) splices->push_back(std::move(s));
      }
      hold(local.record.id, path, entry);
      local.entry = std::move(entry);
      scan.records.push_back(std::move(local));
    }
  }
  sort_findings(scan.findings);
  return scan;
}

PushSelection select_push(const Inputs& inputs, const LocalScan& local, const SyncBase& base,
                          const std::set<std::string, std::less<>>& open_conflicts,
                          std::string_view workspace_id, const ClockReading& now) {
  PushSelection selection;
  selection.splices = local.id_splices;
  const std::string now_text = now.utc_rfc3339_millis();
  std::map<std::string, Document, std::less<>> docs;  // files with an entry to stamp
  std::unordered_set<std::string_view> present;
  present.reserve(local.records.size());
  for (const LocalRecord& r : local.records) {
    present.insert(r.record.id);
    if (open_conflicts.contains(r.record.id)) {
      selection.held.push_back(r.record.id);
      continue;
    }
    const auto known = base.find(r.record.id);
    if (known != base.end() && known->second.digest == record_digest(r.record)) continue;
    selection.records.push_back(r.record);
    if (known == base.end() || r.entry.kind == EntryKind::daily) continue;
    // Changed since the last sync: stamped now.
    selection.records.back().updated_at = now_text;
    auto doc = docs.find(r.record.file);
    if (doc == docs.end()) {
      doc = docs.emplace(r.record.file, parse_markdown(inputs.snapshot.find(r.record.file)->bytes))
                .first;
    }
    detail::FieldEditor editor(r.entry, doc->second);
    editor.set("Updated", now_text);
    for (Splice& s : editor.splices()) selection.splices[r.record.file].push_back(std::move(s));
  }
  for (auto& [path, splices] : selection.splices) {
    std::stable_sort(splices.begin(), splices.end(),
                     [](const Splice& a, const Splice& b) { return a.begin < b.begin; });
  }
  std::vector<SyncRecord> tombstones;
  for (const auto& [id, entry] : base) {
    if (present.contains(id) || local.dormant.contains(id)) continue;
    if (open_conflicts.contains(id)) {
      selection.held.push_back(id);
      continue;
    }
    SyncRecord gone = tombstone(id, std::string(workspace_id), entry.table, entry.file, now_text);
    if (record_digest(gone) != entry.digest) tombstones.push_back(std::move(gone));
  }
  std::sort(tombstones.begin(), tombstones.end(),
            [](const SyncRecord& a, const SyncRecord& b) { return a.id < b.id; });
  for (SyncRecord& t : tombstones) selection.records.push_back(std::move(t));
  std::sort(selection.held.begin(), selection.held.end());
  return selection;
}

}  // namespace memkit::memorybox
