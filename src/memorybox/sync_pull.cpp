// §9 Session start: remote records merged into the local files by the conflict rules, as one plan;
// and `sync resolve`, which settles one open conflict.
#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "memkit/memorybox/moves.hpp"
#include "memkit/memorybox/sync.hpp"
#include "memorybox/field_editor.hpp"
#include "memorybox/gate_write.hpp"
#include "memorybox/move_set.hpp"
#include "memorybox/sync_entries.hpp"
#include "parallel/run_both.hpp"

namespace memkit::memorybox {

namespace {

constexpr std::string_view kConflictsFile = kSyncConflictsFile;

Status bad_record(const SyncRecord& r, std::string_view what) {
  return Status(Errc::parse, fmt::format("remote record {} ({} {}): {}", r.id,
                                         sync_table_name(r.table), r.file, what));
}

std::optional<std::uint32_t> remote_effective(const SyncRecord& r, const CivilDate& today) {
  if (!r.confidence || !r.verified) return std::nullopt;
  const std::optional<CivilDate> verified = parse_iso_date(*r.verified);
  if (!verified) return std::nullopt;
  return detail::effective_on(*r.confidence, *verified, today);
}

std::vector<detail::FieldText> kept_fields(const Document& doc, const Entry& entry,
                                           std::string_view drop = {}) {
  std::vector<detail::FieldText> kept;
  for (const Field& f : entry.fields) {
    if (f.key == drop) continue;
    kept.push_back(
        detail::FieldText{f.key, std::string(doc.bytes().substr(f.begin, f.indent)), f.value});
  }
  return kept;
}

// Builds the pull's (or a resolution's) file changes, file by file.
class Changes final {
 public:
  Changes(const Inputs& inputs, const LocalScan& local, const FileSnapshot* conflicts_file,
          const ClockReading& now, std::size_t parallel_bytes = std::size_t{1} << 20)
      : inputs_(&inputs),
        parsed_(&local.documents),
        conflicts_file_(conflicts_file),
        today_(now.local_date_iso()),
        today_date_(now.local_date()),
        parallel_bytes_(parallel_bytes) {}

  const Document& doc(const std::string& path) {
    auto it = docs_.find(path);
    if (it == docs_.end()) {
      if (const auto scanned = parsed_->find(path); scanned != parsed_->end()) {
        return scanned->second;
      }
      const FileSnapshot* f = file(path);
      it = docs_
               .emplace(path, f != nullptr && f->exists() ? parse_markdown(f->bytes)
                                                          : parse_markdown(std::string()))
               .first;
    }
    return it->second;
  }

  const FileSnapshot* file(const std::string& path) const {
    if (path == kConflictsFile) return conflicts_file_;
    return inputs_->snapshot.find(path);
  }

  void splice(const std::string& path, Splice s) { work_[path].splices.push_back(std::move(s)); }

  // The field lines of a local entry, as they are (without `drop`).
  std::vector<detail::FieldText> kept_of(const LocalRecord& local, std::string_view drop) {
    if (local.entry.kind == EntryKind::daily) return {};
    return kept_fields(doc(local.record.file), local.entry, drop);
  }

  // The local entry rewritten from `r` in place (its trailing blank lines stay).
  void replace(const LocalRecord& local, const SyncRecord& r, std::string_view drop_field = {}) {
    const Document& d = doc(local.record.file);
    const std::string_view t = new_line_terminator(d);
    const Entry& e = local.entry;
    if (e.kind == EntryKind::daily) {
      const std::size_t at = e.fields.empty() ? d.content_begin() : e.fields.front().begin;
      splice(local.record.file, Splice{at, d.bytes().size(), daily_bytes(r, t)});
      return;
    }
    const bool first =
        e.fields.empty() ? e.kind != EntryKind::bullet : e.fields.front().begin == e.first_line_end;
    const std::string indent = e.kind == EntryKind::bullet ? "  " : "";
    std::string bytes = detail::entry_with_fields(
        r.text, detail::record_fields(r, kept_fields(d, e, drop_field), indent), first, t, true);
    const std::size_t end = detail::content_end(d, e);
    if (end == d.bytes().size() && (end == 0 || d.bytes()[end - 1] != '\n')) {
      bytes.resize(bytes.size() - t.size());  // the file's unterminated last line stays so
    }
    splice(local.record.file, Splice{e.begin, end, std::move(bytes)});
  }

  // Field lines set (or, for nullopt, cleared) by the §3 rules, in one edit of the entry.
  void set_fields(
      const LocalRecord& local,
      std::initializer_list<std::pair<std::string_view, std::optional<std::string>>> fields) {
    const Entry& e = local.entry;
    if (e.kind == EntryKind::daily) return;  // a daily file has only its Id line (§3)
    detail::FieldEditor editor(e, doc(local.record.file));
    for (const auto& [key, value] : fields) {
      if (value) {
        editor.set(key, *value);
      } else {
        editor.clear(key);
      }
    }
    for (Splice& s : editor.splices()) splice(local.record.file, std::move(s));
  }

  // The local entry taken out of its file, with a copy in its archive (remote deletion), or
  // without one (a move: the entry lives on in its new file).
  void remove(const LocalRecord& local, bool archive) {
    const std::string& path = local.record.file;
    const Document& d = doc(path);
    const Entry& e = local.entry;
    if (e.kind == EntryKind::daily) {
      work_[path].deleted = true;
    } else {
      work_[path].removals.push_back(ByteRange{e.begin, e.end});
    }
    if (!archive) return;
    const std::string target = archive_path(path, today_date_);
    Archive& a = archives_[target];
    a.terminator = std::string(new_line_terminator(d));
    switch (e.kind) {
      case EntryKind::daily:
        a.label = std::string(kDailyFolder) + "/";
        a.layout = ArchiveLayout::daily;
        a.entries.push_back(ArchivedEntry{detail::daily_bytes(d), *daily_date(path.substr(13))});
        break;
      case EntryKind::session:
        a.label = path;
        a.layout = ArchiveLayout::sessions;
        a.entries.push_back(ArchivedEntry{detail::entry_bytes(d, e), detail::session_date(d, e)});
        break;
      case EntryKind::bullet:
      case EntryKind::section:
        a.label = path;
        a.layout = ArchiveLayout::appended;
        a.entries.push_back(ArchivedEntry{detail::entry_bytes(d, e), today_date_});
        break;
    }
  }

  // A new entry written from `r`; `kept` are the field lines of the local entry it replaces (a
  // move), kept as they were.
  void add(const SyncRecord& r, std::vector<detail::FieldText> kept = {}) {
    work_[r.file].additions.push_back(Addition{&r, std::move(kept)});
  }

  // A block for memory/SYNC_CONFLICTS.md; blocks are separated by one empty line.
  void conflict_note(std::string_view block) {
    if (!conflict_notes_.empty()) conflict_notes_ += '\n';
    conflict_notes_ += block;
  }

  [[nodiscard]] bool exists(const std::string& path) const {
    const FileSnapshot* f = file(path);
    return f != nullptr && f->exists();
  }

  // The plan, after checking that every written record reads back as itself.
  Result<std::optional<Plan>> build(std::string command, PlanArguments arguments,
                                    const std::vector<const SyncRecord*>& written,
                                    std::vector<Finding>& findings) {
    std::map<std::string, std::string> after;  // path -> bytes
    for (auto& [path, w] : work_) {
      const FileSnapshot* f = file(path);
      if (w.deleted) continue;
      const Document& d = doc(path);
      std::vector<Splice> all = w.splices;
      if (!w.removals.empty()) {
        std::sort(w.removals.begin(), w.removals.end(),
                  [](const ByteRange& a, const ByteRange& b) { return a.begin < b.begin; });
        for (Splice& s : removal_splices(d.bytes(), d.content_begin(), w.removals)) {
          all.push_back(std::move(s));
        }
      }
      std::stable_sort(all.begin(), all.end(),
                       [](const Splice& a, const Splice& b) { return a.begin < b.begin; });
      for (std::size_t i = 1; i < all.size(); ++i) {
        if (all[i].begin < all[i - 1].end) {
          return Status(Errc::internal, path + ": overlapping sync edits");
        }
      }
      const std::string_view before = f != nullptr && f->exists() ? f->text() : std::string_view();
      std::string bytes = all.empty() ? std::string(before) : apply_splices(before, all);
      if (!w.additions.empty()) {
        Result<std::string> added = add_entries(path, std::move(bytes), w.additions);
        if (!added) return added.status();
        bytes = std::move(*added);
      }
      after[path] = std::move(bytes);
    }
    if (!conflict_notes_.empty()) {
      const std::string path(kConflictsFile);
      std::string bytes = exists(path) ? std::string(file(path)->text()) : "# SYNC_CONFLICTS\n";
      const Document d = parse_markdown(bytes);
      bytes = apply_splices(bytes, std::vector<Splice>{append_bytes(d, conflict_notes_, false)});
      after[path] = std::move(bytes);
    }
    for (auto& [path, a] : archives_) {
      const Document* existing = exists(path) ? &doc(path) : nullptr;
      after[path] =
          apply_splices(existing != nullptr ? std::string(existing->bytes()) : std::string(),
                        archive_splices(existing, a.label, a.layout, a.entries, a.terminator));
    }
    // Read back: each written record is exactly one entry of its file, with its text. Each
    // written file is parsed once; only the entries holding a written Id are kept.
    std::map<std::string_view, std::vector<const SyncRecord*>> by_file;
    for (const SyncRecord* r : written) by_file[r->file].push_back(r);
    for (const auto& [path, records] : by_file) {
      const auto bytes = after.find(std::string(path));
      if (bytes == after.end()) continue;
      // Parsed where it is, not copied: `d` views after's bytes (a shared_ptr that owns nothing)
      // and is gone before they change.
      const Document d = parse_markdown(
          std::shared_ptr<const std::string>(std::shared_ptr<void>(), &bytes->second));
      using Holders = std::unordered_map<std::string_view, std::vector<Entry>>;
      Holders holders;
      for (const SyncRecord* r : records) holders.try_emplace(r->id);
      const auto keep_in = [](Holders& into) {
        return [&into](Entry& e) {
          const std::optional<std::string_view> id = e.field("Id");
          if (!id) return;
          if (const auto held = into.find(*id); held != into.end()) {
            held->second.push_back(std::move(e));
          }
        };
      };
      if (d.parseable() && bytes->second.size() < parallel_bytes_) {
        visit_entry_layout(path, d, keep_in(holders));
      } else if (d.parseable()) {
        // A large file is laid out in two shares, one per core, joined in file order.
        Holders later = holders;
        const std::string_view file = path;  // clang 14 cannot capture a structured binding
        memkit::detail::run_both([&] { visit_entry_layout(file, d, 0, 2, keep_in(holders)); },
                                 [&] { visit_entry_layout(file, d, 1, 2, keep_in(later)); });
        for (auto& [id, entries] : later) {
          std::vector<Entry>& into = holders.find(id)->second;
          for (Entry& e : entries) into.push_back(std::move(e));
        }
      }
      for (const SyncRecord* r : records) {
        const auto held = holders.find(r->id);
        const bool same =
            held->second.size() == 1 && detail::record_text(d, held->second.front()) == r->text &&
            (r->table != SyncTable::memories || held->second.front().category == r->category);
        if (!same) {
          return bad_record(*r, "its text does not read back as one entry of " + r->file);
        }
      }
    }
    // Files a plan may not change: links, unreadable files, unparseable ones.
    detail::Documents docs(*inputs_, *parsed_);
    std::vector<PlanOperation> operations;
    for (const auto& [path, w] : work_) {
      if (!w.deleted) continue;
      if (const std::optional<Finding> no = detail::unchangeable(file(path), docs)) {
        findings.push_back(*no);
        continue;
      }
      operations.push_back(plan_remove(*file(path)));
    }
    for (auto& [path, bytes] : after) {
      const FileSnapshot* f = file(path);
      if (path != kConflictsFile) {
        if (const std::optional<Finding> no = detail::unchangeable(f, docs)) {
          findings.push_back(*no);
          continue;
        }
      } else if (f != nullptr && f->state != EntryState::file && f->state != EntryState::missing) {
        findings.push_back(make_finding("MK-LAYOUT-001", Severity::blocker, path,
                                        path + ": not a regular file memkit may write"));
        continue;
      }
      const bool was = f != nullptr && f->exists();
      if (was && f->text() == bytes) continue;
      std::shared_ptr<const std::string> base = was ? f->bytes : nullptr;
      const std::size_t size = was ? f->text().size() : 0;
      operations.push_back(
          plan_write(path, std::move(base), was, only_splice(Splice{0, size, std::move(bytes)})));
    }
    if (stops(findings)) return std::optional<Plan>();
    if (operations.empty()) return std::optional<Plan>();
    return std::optional<Plan>(
        Plan::create(std::move(command), std::move(arguments), std::move(operations), {}));
  }

  [[nodiscard]] const std::string& today() const noexcept { return today_; }

 private:
  struct Addition {
    const SyncRecord* record = nullptr;
    std::vector<detail::FieldText> kept;
  };
  struct Work {
    std::vector<Splice> splices;  // over the file's bytes
    std::vector<ByteRange> removals;
    std::vector<Addition> additions;
    bool deleted = false;  // a daily file, archived whole
  };
  struct Archive {
    std::string label;
    ArchiveLayout layout = ArchiveLayout::appended;
    std::string terminator;
    std::vector<ArchivedEntry> entries;
  };

  static std::string daily_bytes(const SyncRecord& r, std::string_view t) {
    std::string out = detail::field_line("Id", r.id);
    out += t;
    out += t;
    out += r.text;
    return out;
  }

  // New entries written into `bytes` (the file after the in-place edits) as a gate WRITE writes
  // them (§4): sections and sessions appended; bullets under their category's heading, or at the
  // end of a section file that holds bullets (§3: a section file without an H2).
  Result<std::string> add_entries(const std::string& path, std::string bytes,
                                  const std::vector<Addition>& additions) {
    const SyncTable table = additions.front().record->table;
    if (table == SyncTable::daily_logs) return daily_bytes(*additions.front().record, "\n");
    if (!exists(path) && bytes.empty()) bytes = init_file_bytes(path);
    Document d = parse_markdown(bytes);
    if (!d.parseable()) return Status(Errc::parse, path + ": unparseable after sync edits");
    const std::string t(new_line_terminator(d));
    const auto append = [&](std::string_view block, bool tight) {
      if (block.empty()) return;
      bytes = apply_splices(bytes, std::vector<Splice>{append_bytes(d, block, tight)});
      d = parse_markdown(bytes);
    };
    std::string sections;       // H2 entries and sessions
    std::string loose_bullets;  // bullets of a section file
    std::vector<std::optional<std::string>> order;
    std::map<std::optional<std::string>, std::string> groups;  // bullets by category
    for (const Addition& a : additions) {
      const SyncRecord& r = *a.record;
      const bool section =
          table != SyncTable::memories || (is_section_file(path) && r.text.rfind("## ", 0) == 0);
      // Fields kept from another entry shape take this one's indentation (§3).
      std::vector<detail::FieldText> kept = a.kept;
      for (detail::FieldText& f : kept) {
        if (section) {
          f.indent.clear();
        } else if (f.indent.empty()) {
          f.indent = "  ";
        }
      }
      if (section) {
        if (!sections.empty()) sections += t;
        sections +=
            detail::entry_with_fields(r.text, detail::record_fields(r, kept, ""), true, t, true);
        continue;
      }
      std::string bullet =
          detail::entry_with_fields(r.text, detail::record_fields(r, kept, "  "), false, t, true);
      if (is_section_file(path)) {
        loose_bullets += bullet;
        continue;
      }
      auto [it, fresh] = groups.try_emplace(r.category);
      if (fresh) order.push_back(r.category);
      it->second += bullet;
    }
    append(sections, false);
    append(loose_bullets, true);
    // Bullets, one category at a time, in the order their first record comes.
    for (const std::optional<std::string>& category : order) {
      const std::string& block = groups[category];
      Splice s{};
      const std::span<const Unit> units = d.units();
      const auto after_unit = [&](std::size_t u) {
        const bool open = units[u].end == d.bytes().size() && units[u].end > d.content_begin() &&
                          d.bytes()[units[u].end - 1] != '\n';
        return Splice{units[u].end, units[u].end, (open ? t : std::string()) + block};
      };
      if (!category) {
        // Before any H2: after the last non-blank unit ahead of the first H2 heading.
        std::optional<std::size_t> last;
        bool has_h2 = false;
        for (std::size_t u = 0; u < units.size(); ++u) {
          if (units[u].kind == UnitKind::heading && units[u].heading_level == 2) {
            has_h2 = true;
            break;
          }
          if (units[u].kind != UnitKind::blank) last = u;
        }
        s = !has_h2 ? append_bytes(d, block, true)
            : last  ? after_unit(*last)
                    : Splice{d.content_begin(), d.content_begin(), block + t};
      } else if (const std::optional<std::size_t> place = category_place(d, *category)) {
        s = after_unit(*place);
      } else {
        s = append_bytes(d, "## " + *category + t + t + block, false);
      }
      bytes = apply_splices(bytes, std::vector<Splice>{s});
      d = parse_markdown(bytes);
    }
    return bytes;
  }

  const Inputs* inputs_;
  const std::map<std::string, Document, std::less<>>* parsed_;  // the scan's
  const FileSnapshot* conflicts_file_;
  std::string today_;
  CivilDate today_date_;
  std::map<std::string, Document> docs_;
  std::map<std::string, Work> work_;
  std::map<std::string, Archive> archives_;
  std::string conflict_notes_;
  std::size_t parallel_bytes_;
};

// Writes the remote record over or beside the local entry: in place, moved, or deleted.
PullAction take_remote(Changes& changes, const LocalRecord& local, const SyncRecord& r,
                       std::vector<const SyncRecord*>& written, std::string_view drop_field = {}) {
  if (r.deleted) {
    changes.remove(local, true);
    return PullAction::deleted;
  }
  const bool moved =
      r.file != local.record.file || (r.table == SyncTable::memories && !is_section_file(r.file) &&
                                      r.category != local.record.category);
  written.push_back(&r);
  if (moved) {
    changes.remove(local, false);
    changes.add(r, changes.kept_of(local, drop_field));
    return PullAction::moved;
  }
  changes.replace(local, r, drop_field);
  return PullAction::updated;
}

}  // namespace

std::string_view pull_action_name(PullAction action) noexcept {
  switch (action) {
    case PullAction::unchanged:
      return "unchanged";
    case PullAction::added:
      return "added";
    case PullAction::updated:
      return "updated";
    case PullAction::moved:
      return "moved";
    case PullAction::deleted:
      return "deleted";
    case PullAction::kept_local:
      return "kept_local";
    case PullAction::conflict:
      return "conflict";
  }
  return "unchanged";
}

// The remote record's file is a synced path of its table: nothing from a remote can name a file
// outside the tier files (§9; README "Bad input").
Status check_pulled(const std::vector<SyncRecord>& remote, std::string_view workspace_id) {
  std::set<std::string_view> seen;
  for (const SyncRecord& r : remote) {
    if (r.workspace_id != workspace_id) return bad_record(r, "belongs to another workspace");
    if (sync_table_of(r.file) != r.table) {
      return bad_record(r, "its file is not a synced file of its table");
    }
    if (!seen.insert(r.id).second) return bad_record(r, "the remote holds this id twice");
  }
  return Status();
}

Result<PullPlanning> plan_pull(const PullInput& input, const ClockReading& now) {
  if (Status checked = check_pulled(input.remote, input.workspace_id); !checked.ok()) {
    return checked;
  }
  const LocalScan& local = *input.local;
  PullPlanning out;
  const SyncBase& base = *input.base;
  out.base_changes = SyncBase(base.digests());
  Changes changes(*input.inputs, local, input.conflicts_file, now, input.parallel_bytes);
  for (const auto& [path, splices] : local.id_splices) {
    for (const Splice& s : splices) changes.splice(path, s);
  }
  std::unordered_map<std::string_view, const LocalRecord*> by_id;
  std::unordered_map<std::string_view, const LocalRecord*> daily_by_file;
  for (const LocalRecord& r : local.records) {
    by_id.emplace(r.record.id, &r);
    if (r.record.table == SyncTable::daily_logs) daily_by_file.emplace(r.record.file, &r);
  }
  std::map<std::string, SyncRecord, std::less<>> conflicts;
  for (const SyncRecord& c : input.open_conflicts) conflicts.insert_or_assign(c.id, c);

  std::vector<const SyncRecord*> remote;
  remote.reserve(input.remote.size());
  for (const SyncRecord& r : input.remote) remote.push_back(&r);
  std::sort(remote.begin(), remote.end(), [](const SyncRecord* a, const SyncRecord* b) {
    return std::tie(a->table, a->id) < std::tie(b->table, b->id);
  });

  const CivilDate today = now.local_date();
  const std::string now_text = now.utc_rfc3339_millis();
  std::vector<const SyncRecord*> written;
  const auto open_conflict = [&](const SyncRecord& r, const SyncRecord& local_version,
                                 const LocalRecord* l) {
    if (!conflicts.contains(r.id) && l != nullptr) {
      changes.set_fields(*l, {{"Review", "sync conflict " + changes.today()}});
    }
    changes.conflict_note(conflict_block(r.id, changes.today(), local_version, r));
    conflicts.insert_or_assign(r.id, r);
  };
  for (const SyncRecord* rp : remote) {
    const SyncRecord& r = *rp;
    PullItem item{.id = r.id,
                  .table = r.table,
                  .file = r.file,
                  .action = PullAction::unchanged,
                  .rule = std::nullopt};
    const std::optional<std::array<char, 32>> base_digest = base.digest(r.id);
    const std::optional<std::string_view> known =
        base_digest ? std::optional<std::string_view>(
                          std::string_view(base_digest->data(), base_digest->size()))
                    : std::nullopt;
    const std::string digest = record_digest(r, base.digests());
    const bool remote_changed = !known || *known != digest;
    const auto found = by_id.find(r.id);
    const LocalRecord* l = found == by_id.end() ? nullptr : found->second;
    const auto remember = [&] {
      out.base_changes.insert_or_assign(r.id, BaseEntry{r.table, r.file, digest});
    };
    if (conflicts.contains(r.id)) {
      // Still open: the newest remote version is what `resolve --take remote` writes.
      if (remote_changed && conflicts.at(r.id) != r) conflicts.insert_or_assign(r.id, r);
      item.action = PullAction::conflict;
      if (l != nullptr) item.file = l->record.file;
    } else if (l == nullptr) {
      if (local.dormant.contains(r.id) || (known && !remote_changed)) {
        // Unscored here, or deleted here since the last sync (the push sends the tombstone).
      } else if (r.deleted) {
        remember();
      } else if (const auto clash = daily_by_file.find(r.file); clash != daily_by_file.end()) {
        // The day's file exists here under another Id: both texts kept, flagged for review.
        open_conflict(r, clash->second->record, nullptr);
        item.action = PullAction::conflict;
      } else {
        changes.add(r);
        written.push_back(&r);
        item.action = PullAction::added;
        remember();
      }
    } else {
      item.file = l->record.file;
      const std::string local_digest = digest_as(local, *l, base.digests());
      const bool local_changed = !known || *known != local_digest;
      if (local_digest == digest) {
        remember();
      } else if (!remote_changed) {
        item.action = PullAction::kept_local;
      } else {
        const MergeDecision d = merge(l->record, r,
                                      MergeInput{.local_changed = local_changed,
                                                 .remote_changed = remote_changed,
                                                 .local_effective = l->effective,
                                                 .remote_effective = remote_effective(r, today),
                                                 .canon = false});
        item.rule = d.rule;
        switch (d.outcome) {
          case MergeOutcome::take_remote:
            item.action = take_remote(changes, *l, r, written);
            item.file = r.file;
            remember();
            break;
          case MergeOutcome::take_local:
            item.action = PullAction::kept_local;
            // The push must win over the remote's version: not older, not equally new.
            if (l->record.updated_at <= r.updated_at && l->entry.kind != EntryKind::daily) {
              changes.set_fields(*l, {{"Updated", now_text}});
            }
            remember();
            break;
          case MergeOutcome::conflict:
            item.action = PullAction::conflict;
            open_conflict(r, l->record, l);
            break;
        }
      }
    }
    out.needs_confirmation = out.needs_confirmation || item.action == PullAction::updated ||
                             item.action == PullAction::moved || item.action == PullAction::deleted;
    out.items.push_back(std::move(item));
  }
  Result<std::optional<Plan>> plan =
      changes.build("memorybox sync pull", {}, written, out.findings);
  if (!plan) return plan.status();
  out.plan = std::move(*plan);
  for (auto& [id, r] : conflicts) out.conflicts.push_back(std::move(r));
  if (!out.conflicts.empty()) {
    out.findings.push_back(make_finding(
        "MK-BOX-021", Severity::warning, std::string(kConflictsFile),
        fmt::format("{} sync conflict{} open", out.conflicts.size(),
                    out.conflicts.size() == 1 ? " is" : "s are"),
        "settle each with `memkit memorybox sync resolve --id ID --take local|remote`"));
  }
  sort_findings(out.findings);
  return out;
}

Result<Resolution> plan_resolve(const PullInput& input, std::string_view id, bool take_remote_side,
                                const ClockReading& now) {
  const auto open = std::find_if(input.open_conflicts.begin(), input.open_conflicts.end(),
                                 [&](const SyncRecord& r) { return r.id == id; });
  if (open == input.open_conflicts.end()) {
    return Status(Errc::invalid_argument, "--id: " + std::string(id) + ": no open sync conflict");
  }
  const SyncRecord& r = *open;
  Resolution out;
  out.base_changes = SyncBase(input.base->digests());
  out.id = std::string(id);
  out.take = take_remote_side ? "remote" : "local";
  for (const SyncRecord& c : input.open_conflicts) {
    if (c.id != id) out.conflicts.push_back(c);
  }
  Changes changes(*input.inputs, *input.local, input.conflicts_file, now);
  const LocalRecord* l = nullptr;
  const LocalRecord* clash = nullptr;  // a daily file of the same day under another Id
  for (const LocalRecord& lr : input.local->records) {
    if (lr.record.id == id) l = &lr;
    if (r.table == SyncTable::daily_logs && lr.record.file == r.file && lr.record.id != id) {
      clash = &lr;
    }
  }
  std::vector<const SyncRecord*> written;
  out.file = l != nullptr ? l->record.file : r.file;
  if (take_remote_side) {
    if (l != nullptr) {
      take_remote(changes, *l, r, written, "Review");
      out.file = r.file;
    } else if (!r.deleted) {
      if (clash != nullptr) {
        changes.replace(*clash, r);  // the local day's text stays in SYNC_CONFLICTS.md
      } else {
        changes.add(r);
      }
      written.push_back(&r);
    }
  } else if (l != nullptr) {
    changes.set_fields(*l, {{"Review", std::nullopt}, {"Updated", now.utc_rfc3339_millis()}});
  }
  changes.conflict_note(
      fmt::format("Resolved {} \u2014 {}: took {}.\n", id, changes.today(), out.take));
  out.base_changes.insert_or_assign(
      out.id, BaseEntry{r.table, r.file, record_digest(r, input.base->digests())});
  std::vector<Finding> findings;
  Result<std::optional<Plan>> plan = changes.build(
      "memorybox sync resolve", {{"id", out.id}, {"take", out.take}}, written, findings);
  if (!plan) return plan.status();
  if (!findings.empty()) return Status(Errc::unsafe_path, findings.front().message);
  out.plan = std::move(*plan);
  return out;
}

}  // namespace memkit::memorybox
