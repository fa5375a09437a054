// The writes of curated memory (curated.md §4-§6): add, append, edit, reclassify, delete and
// restore, each planned as a pure function. Every argument is checked before anything is built;
// then the row is found, its new values computed, and a write whose row state does not change is
// a no-op (no history, `Updated` kept). A change edits its entry in place, inserts a new one at
// its sorted place, or moves it to another type file, and appends one history record. The
// Planner below gathers the splices per file and refuses, with no operation at all, a write that
// would touch a file it must not (an invalid entry, a link, an unreadable file).
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codec/bounded_json.hpp"
#include "codec/canonical.hpp"
#include "curated/words.hpp"
#include "curated/write_plan.hpp"
#include "memkit/curated.hpp"
#include "memkit/curated/log.hpp"
#include "memkit/curated/write.hpp"
#include "memkit/markdown.hpp"
#include "memkit/text.hpp"

namespace memkit::curated {
namespace write_detail {
namespace {

std::string_view terminator_of(bool crlf) noexcept { return crlf ? "\r\n" : "\n"; }

// `text` with every line ending in `crlf`'s terminator: a moved entry takes its new file's style.
std::string retarget(std::string_view text, bool crlf) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    if (text[i] == '\n') {
      out += terminator_of(crlf);
    } else {
      out += text[i];
    }
  }
  return out;
}

// Why a log file cannot be written, as a refusal, or nullopt.
std::optional<Finding> unwritable(const FileSnapshot* file, const std::string& path) {
  if (file == nullptr) return std::nullopt;
  switch (file->state) {
    case EntryState::symlink: {
      const std::string named(link_path(*file));
      return make_finding("MK-IO-002", Severity::blocker, named,
                          named + ": a symbolic link; memkit never writes through one",
                          "replace the link with what it points to");
    }
    case EntryState::not_a_file:
      return make_fatal("MK-IO-001", path, path + ": not a regular file");
    case EntryState::unreadable:
      return make_fatal("MK-IO-001", path, path + ": " + file->error);
    case EntryState::file:
    case EntryState::missing:
      break;
  }
  return std::nullopt;
}

// Calls `visit(line_without_terminator, line_with_terminator)` for each line of a JSON Lines file.
template <class Visit>
void for_each_line(std::string_view bytes, Visit visit) {
  while (!bytes.empty()) {
    const std::size_t lf = bytes.find('\n');
    const std::size_t size = lf == std::string_view::npos ? bytes.size() : lf + 1;
    visit(bytes.substr(0, lf), bytes.substr(0, size));
    bytes.remove_prefix(size);
  }
}

// Whether a JSON Lines line is an object whose "name" is `name` (history and access records).
bool names(std::string_view line, std::string_view name) {
  const nlohmann::json value = detail::parse_bounded_json(line);
  if (value.is_discarded() || !value.is_object()) return false;
  const auto it = value.find("name");
  return it != value.end() && it->is_string() && it->get_ref<const std::string&>() == name;
}

// The lines of `bytes` that are not `name`'s records, each kept byte for byte.
std::string without_records(std::string_view bytes, std::string_view name) {
  std::string out;
  for_each_line(bytes, [&](std::string_view line, std::string_view whole) {
    if (!names(line, name)) out += whole;
  });
  return out;
}

// access-snapshot.json without `name`'s entry, canonical as compaction writes it ("" when no
// entry is left); nullopt when there is nothing to remove (or it does not read as an object).
std::optional<std::string> snapshot_without(std::string_view bytes, std::string_view name) {
  if (bytes.empty()) return std::nullopt;
  nlohmann::json value = detail::parse_bounded_json(bytes);
  if (value.is_discarded() || !value.is_object()) return std::nullopt;
  if (value.erase(std::string(name)) == 0) return std::nullopt;
  if (value.empty()) return std::string();
  std::string out = detail::canonical_dump(value);
  out.push_back('\n');
  return out;
}

PlanOperation replace_whole(const std::string& path, const FileSnapshot& file, std::string bytes) {
  return plan_write(path, file.bytes, true,
                    {Splice{.begin = 0, .end = file.text().size(), .insert = std::move(bytes)}});
}

}  // namespace

bool refuses(const std::vector<Finding>& findings) noexcept {
  return std::any_of(findings.begin(), findings.end(), [](const Finding& f) {
    return f.fatal || f.severity == Severity::blocker || f.severity == Severity::error;
  });
}

std::optional<std::optional<std::string>> one_line(std::string_view option,
                                                   const std::optional<std::string>& raw,
                                                   std::vector<Finding>& findings) {
  if (!raw) return std::nullopt;
  if (Status text = check_plain_text(option, *raw); !text.ok()) {
    findings.push_back(make_fatal("MK-ARG-001", "", text.message()));
    return std::nullopt;
  }
  if (raw->find_first_of("\r\n") != std::string::npos) {
    findings.push_back(make_fatal("MK-ARG-001", "",
                                  std::string(option) + ": expected one line, got a line break"));
    return std::nullopt;
  }
  const std::string_view value = strip_w(*raw);
  if (value.empty()) return std::optional<std::string>();
  return std::optional<std::string>(std::string(value));
}

std::optional<std::optional<std::string>> description_argument(
    const std::optional<std::string>& raw, std::vector<Finding>& findings) {
  if (!raw) return std::nullopt;
  if (std::optional<Finding> refused = check_description(*raw)) {
    findings.push_back(std::move(*refused));
    return std::nullopt;
  }
  const std::string_view value = strip_w(*raw);
  if (value.empty()) return std::optional<std::string>();
  return std::optional<std::string>(std::string(value));
}

std::optional<std::string> initiative_argument(const std::optional<std::string>& raw,
                                               std::vector<Finding>& findings) {
  if (!raw) return std::nullopt;
  if (Status text = check_plain_text("--initiative", *raw); !text.ok()) {
    findings.push_back(make_fatal("MK-ARG-001", "", text.message()));
    return std::nullopt;
  }
  std::optional<std::string> key = normalize_initiative(*raw);
  if (!key) {
    findings.push_back(make_fatal(
        "MK-ARG-001", "",
        "--initiative: '" + std::string(*raw) + "' normalises to nothing (no letter or digit)",
        "give an initiative with at least one ASCII letter or digit, or omit it"));
  }
  return key;
}

void check_slug(std::string_view option, std::string_view name, std::vector<Finding>& findings) {
  if (is_slug(name)) return;
  findings.push_back(make_fatal(
      "MK-CUR-003", "", std::string(option) + ": '" + to_valid_utf8(name) + "' is not a slug",
      "use lower-case letters, digits and '_', starting with a letter or digit, at most 128"));
}

// ---- Planner ------------------------------------------------------------------------------------

Planner::Planner(const Snapshot& files, const WriteContext& context)
    : context_(context), files_(files), loaded_(load_workspace(files, context.workspace, context.parsed)) {
  // A row file that cannot be read hides rows: a name's uniqueness cannot be known, so no write.
  for (const LoadedFile& file : loaded_.files) {
    if (file.readable) continue;
    if (file.file->state == EntryState::symlink) {
      const std::string named(link_path(*file.file));  // a linked folder once for its files
      if (std::none_of(write_.findings.begin(), write_.findings.end(), [&](const Finding& f) {
            return f.code == "MK-IO-002" && f.path == named;
          })) {
        write_.findings.push_back(
            make_finding("MK-IO-002", Severity::blocker, named,
                         named + ": a symbolic link; memkit neither reads nor writes through one",
                         "replace the link with what it points to"));
      }
    } else {
      write_.findings.push_back(make_fatal(
          "MK-IO-001", file.path,
          file.path + ": " +
              (file.file->state == EntryState::not_a_file ? std::string("not a regular file")
                                                          : file.file->error)));
    }
  }
  // §4: unknown fields are reported by every command.
  for (const LoadedFile& file : loaded_.files) {
    for (const Finding& finding : file.parsed->findings) {
      if (finding.code == "MK-CUR-030") write_.findings.push_back(finding);
    }
  }
}

std::optional<Located> Planner::find(std::string_view name) {
  std::optional<Located> found;
  std::vector<Finding> problems;
  for (std::size_t i = 0; i < loaded_.files.size(); ++i) {
    const LoadedFile& file = loaded_.files[i];
    for (const Entry& entry : file.parsed->entries) {
      if (entry.row.name != name) continue;
      if (entry.valid && !found) {
        found = Located{.file = i, .entry = &entry};
        continue;
      }
      problems.push_back(make_finding(
          "MK-CUR-004", Severity::blocker, file.path,
          file.path + ":" + std::to_string(entry.line) + ": entry " + std::string(name) +
              (entry.valid ? " is written a second time" : " is invalid") +
              "; memkit writes no copy of it until this is fixed",
          "fix the entry by hand, keeping one entry of that name"));
    }
  }
  if (problems.empty()) return found;
  for (Finding& f : problems) write_.findings.push_back(std::move(f));
  return std::nullopt;
}

std::size_t Planner::file_of(RowType type) const noexcept {
  for (std::size_t i = 0; i < loaded_.files.size(); ++i) {
    if (loaded_.files[i].type == type) return i;
  }
  return 0;
}

void Planner::splice(std::size_t file, std::vector<Splice> splices) {
  std::vector<Splice>& all = splices_[file];
  for (Splice& s : splices) all.push_back(std::move(s));
}

void Planner::insert(const Row& row) {
  const std::size_t i = file_of(row.type);
  const LoadedFile& file = loaded_.files[i];
  splice(i, insert_entry(*file.bytes, *file.parsed, row));
  written_.emplace_back(row.name, i);
}

void Planner::edit(const Located& at, const Row& row) {
  const LoadedFile& file = loaded_.files[at.file];
  splice(at.file, edit_entry(*file.bytes, *file.parsed, *at.entry, row));
  written_.emplace_back(row.name, at.file);
}

void Planner::remove(const Located& at) {
  splice(at.file, remove_entry(*loaded_.files[at.file].bytes, *at.entry));
}

void Planner::move(const Located& at, const Row& row) {
  remove(at);
  // The entry's own bytes, edited as a file of its own, so unknown lines travel with it (§4).
  std::string text = entry_text(at);
  if (!text.ends_with('\n')) text += loaded_.files[at.file].parsed->crlf ? "\r\n" : "\n";
  const RowFile alone = parse_row_file(text, loaded_.files[at.file].path);
  const std::string edited = apply_splices(text, edit_entry(text, alone, alone.entries[0], row));

  const std::size_t i = file_of(row.type);
  const LoadedFile& file = loaded_.files[i];
  std::vector<Splice> placed = insert_entry(*file.bytes, *file.parsed, row);
  // insert_entry renders the entry into its splice; put the moved bytes in its place.
  const std::string rendered = render_entry(row, file.parsed->crlf);
  Splice& s = placed.front();
  if (const std::size_t at_text = s.insert.find(rendered); at_text != std::string::npos) {
    s.insert.replace(at_text, rendered.size(), retarget(edited, file.parsed->crlf));
  }
  splice(i, std::move(placed));
  written_.emplace_back(row.name, i);
}

void Planner::record(HistoryRecord record) { records_.push_back(std::move(record)); }

void Planner::purge_logs(std::string_view name) {
  purge_ = true;
  purged_ = std::string(name);
}

std::string Planner::entry_text(const Located& at) const {
  const std::string& bytes = *loaded_.files[at.file].bytes;
  return bytes.substr(at.entry->begin, at.entry->end - at.entry->begin);
}

void Planner::check_row_files() {
  for (const auto& [i, splices] : splices_) {
    const LoadedFile& file = loaded_.files[i];
    // §4: a write touching a file with an invalid entry is refused with a BLOCKER.
    for (Finding f : file.invalid) {
      f.severity = Severity::blocker;
      if (std::find(write_.findings.begin(), write_.findings.end(), f) == write_.findings.end()) {
        write_.findings.push_back(std::move(f));
      }
    }
    if (file.parsed->parse_error) {
      Finding f = *file.parsed->parse_error;
      f.severity = Severity::blocker;
      write_.findings.push_back(std::move(f));
    }
    if (const std::optional<std::size_t> bad = find_invalid_utf8(*file.bytes)) {
      const auto line = static_cast<std::uint32_t>(
          1 + count_newlines(std::string_view(*file.bytes).substr(0, *bad)));
      write_.findings.push_back(make_finding(
          "MK-UTF8-001", Severity::blocker, file.path,
          describe_issue({.problem = TextProblem::invalid_utf8, .line = line}, file.path),
          "repair the file's encoding before writing to it"));
    }
  }
}

void Planner::check_log(const std::string& path) {
  std::optional<Finding> refused = unwritable(files_.find(path), path);
  if (refused &&
      std::none_of(write_.findings.begin(), write_.findings.end(), [&](const Finding& f) {
        return f.code == refused->code && f.path == refused->path;  // one linked folder, once
      })) {
    write_.findings.push_back(std::move(*refused));
  }
}

Write Planner::finish() {
  const bool changed = !records_.empty();
  if (changed && !refused()) {
    check_row_files();
    check_log(history_path(context_.workspace));
    if (purge_) {
      check_log(access_path(context_.workspace));
      check_log(snapshot_path(context_.workspace));
      // A purge rewrites the logs: write_inputs(ws, true) reads them whole.
      for (const std::string& path :
           {history_path(context_.workspace), access_path(context_.workspace),
            snapshot_path(context_.workspace)}) {
        const FileSnapshot* file = files_.find(path);
        if (file != nullptr && file->exists() && !file->whole()) {
          write_.findings.push_back(make_fatal(
              "MK-IO-001", path, path + ": only its end was read; a hard delete needs it whole"));
        }
      }
    }
  }
  Write out = std::move(write_);
  if (out.refused() || !changed) {
    out.operations.clear();
    out.entries.clear();
    out.changed = false;
    return out;
  }
  out.changed = true;

  // Row files, in path order (loaded_.files is sorted by path).
  // Of each row file, only the region its splices change, rendered alone: from the start of the
  // entry the first splice falls in (or the file's) to the start of the first entry after the
  // last one (or the file's end). An entry starts outside any fence or comment, so the region
  // parses as the file would there, and a written entry is found without building or parsing
  // the whole file again.
  std::map<std::size_t, std::string> after;
  for (auto& [i, splices] : splices_) {
    const LoadedFile& file = loaded_.files[i];
    std::stable_sort(splices.begin(), splices.end(),
                     [](const Splice& a, const Splice& b) { return a.begin < b.begin; });
    out.operations.push_back(plan_write(file.path, file.bytes, file.exists, splices));
    const std::string_view base(*file.bytes);
    std::size_t lo = 0;
    std::size_t hi = base.size();
    for (const Entry& entry : file.parsed->entries) {
      if (entry.begin <= splices.front().begin) lo = entry.begin;
      if (entry.begin >= splices.back().end) {
        hi = entry.begin;
        break;
      }
    }
    std::vector<Splice> shifted;
    shifted.reserve(splices.size());
    for (const Splice& splice : splices) {
      shifted.push_back(
          Splice{.begin = splice.begin - lo, .end = splice.end - lo, .insert = splice.insert});
    }
    after[i] = apply_splices(base.substr(lo, hi - lo), shifted);
  }
  for (const auto& [name, i] : written_) {
    const std::string& bytes = after[i];
    for (const Entry& entry : parse_row_file(bytes, loaded_.files[i].path).entries) {
      if (entry.row.name == name) {
        out.entries[name] = bytes.substr(entry.begin, entry.end - entry.begin);
        break;
      }
    }
  }

  // The log files, in path order: access-snapshot.json, access.jsonl, history.jsonl.
  const std::string history = history_path(context_.workspace);
  const FileSnapshot* history_file = files_.find(history);
  const bool history_exists = history_file != nullptr && history_file->exists();
  // What stays of the history: the file as it is (not copied: it grows with every write), or for
  // a purge the file without the purged row's records.
  std::string_view kept = history_exists ? history_file->text() : std::string_view();
  std::string purged_history;
  if (purge_) {
    for (const std::string& path :
         {snapshot_path(context_.workspace), access_path(context_.workspace)}) {
      const FileSnapshot* file = files_.find(path);
      if (file == nullptr || !file->exists()) continue;
      std::optional<std::string> bytes = path == access_path(context_.workspace)
                                             ? without_records(file->text(), purged_)
                                             : snapshot_without(file->text(), purged_);
      if (bytes && *bytes != file->text()) {
        out.operations.push_back(replace_whole(path, *file, std::move(*bytes)));
      }
    }
    purged_history = without_records(kept, purged_);
    kept = purged_history;
  }
  // A history whose last line has no LF gets one first, so the new record stays a line of its
  // own and the old last line keeps reading as it did.
  std::string lines;
  if (!kept.empty() && kept.back() != '\n') lines += '\n';
  for (const HistoryRecord& record : records_) lines += history_line(record);
  if (purge_ && history_exists) {
    out.operations.push_back(replace_whole(history, *history_file, std::string(kept) + lines));
  } else if (history_exists) {
    // An append: what the history already holds is neither read (beyond its end) nor rewritten.
    out.operations.push_back(plan_append(*history_file, std::move(lines)));
  } else {
    out.operations.push_back(plan_write(history, nullptr, false, {Splice{0, 0, std::move(lines)}}));
  }
  return out;
}

}  // namespace write_detail

// ---- Write --------------------------------------------------------------------------------------

bool Write::refused() const noexcept { return write_detail::refuses(findings); }

std::vector<std::string> Write::files() const {
  std::vector<std::string> paths;
  for (const PlanOperation& op : operations) paths.push_back(op.path);
  std::sort(paths.begin(), paths.end());
  return paths;
}

namespace {

using write_detail::Located;
using write_detail::Planner;

using wordlist::kAudienceChoices;
using wordlist::kClassChoices;
using wordlist::kStatusChoices;
using wordlist::kTypeChoices;

// --status: nullopt when not given; a value holding nullopt for "null" (clear).
std::optional<std::optional<RowStatus>> status_argument(const std::optional<std::string>& raw,
                                                        std::vector<Finding>& findings) {
  if (!raw) return std::nullopt;
  if (*raw == "null") return std::optional<RowStatus>();
  const std::optional<RowStatus> status = write_detail::parse_argument<RowStatus>(
      "--status", raw, parse_status, kStatusChoices, findings);
  if (!status) return std::nullopt;
  return status;
}

// A checked body as the row file gives it back: lines joined with LF (a CR before an LF is part
// of a terminator, compaction.md §2.1), so the no-op test and history see the stored value.
std::string lf_only(std::string body) {
  std::string out;
  out.reserve(body.size());
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '\r' && i + 1 < body.size() && body[i + 1] == '\n') continue;
    out += body[i];
  }
  return out;
}

Finding not_found(std::string_view name, bool deleted) {
  return make_finding(
      "MK-CUR-011", Severity::error, "",
      "no row " + to_valid_utf8(name) + (deleted ? " (it is soft-deleted)" : ""),
      deleted ? "restore it first with `memkit curated restore`" : "check the name with `list`");
}

// The live row of `name` for append, edit and reclassify (§6: a soft-deleted row is missing).
std::optional<Located> live_row(Planner& planner, std::string_view name) {
  const std::optional<Located> at = planner.find(name);
  if (planner.refused()) return std::nullopt;
  if (!at || at->entry->row.deleted) {
    planner.write().findings.push_back(not_found(name, at.has_value()));
    return std::nullopt;
  }
  return at;
}

// §5: the class and status after a write that gives `row_class` and `status` (either may be
// absent) to a row that had `before` (nullopt on insert). MK-CUR-007 for a status on a non-thread.
void settle_class(const std::optional<RowClass>& row_class,
                  const std::optional<std::optional<RowStatus>>& status, Row& row,
                  std::vector<Finding>& findings) {
  if (row_class) row.row_class = *row_class;
  if (status) {
    row.status = *status;
  } else if (row.row_class != RowClass::thread) {
    row.status.reset();  // thread -> anchor/log clears the status
  }
  if (row.status && row.row_class != RowClass::thread) {
    findings.push_back(make_fatal("MK-CUR-007", "",
                                  "status " + std::string(name_of(*row.status)) +
                                      " given for class " + std::string(name_of(row.row_class)) +
                                      "; status applies only to class thread",
                                  "add --class thread, or omit --status"));
  }
}

void warn_statusless(const Row& row, std::vector<Finding>& findings) {
  if (row.row_class == RowClass::thread && !row.status) {
    findings.push_back(make_finding("MK-CUR-008", Severity::warning, "",
                                    "thread " + row.name + " has no status, so it is not live",
                                    "set one with `reclassify --status open`"));
  }
}

HistoryRecord change_record(const WriteContext& context, HistoryOp op, const Row* before,
                            const Row& after) {
  return HistoryRecord{.ts = context.now,
                       .name = after.name,
                       .op = op,
                       .before = before ? std::optional<RowState>(state_of(*before)) : std::nullopt,
                       .after = state_of(after),
                       .link_kind = std::nullopt,
                       .link_dst = {},
                       .actor = context.actor};
}

// Applies a computed row to an existing entry: a no-op when its state is unchanged; else
// Updated = now, an in-place edit (or a move for a type change) and one history record.
Write commit_change(Planner& planner, const Located& at, Row row, HistoryOp op) {
  const Row& before = at.entry->row;
  if (state_of(row) == state_of(before)) {
    Write out = planner.finish();
    out.row = before;
    out.entries[before.name] = planner.entry_text(at);
    return out;
  }
  row.updated = planner.context().now;
  if (row.type != before.type) {
    planner.move(at, row);
  } else {
    planner.edit(at, row);
  }
  planner.record(change_record(planner.context(), op, &before, row));
  Write out = planner.finish();
  if (!out.refused()) out.row = std::move(row);
  return out;
}

}  // namespace

Write plan_add(const Snapshot& files, const WriteContext& context, const AddRequest& request) {
  std::vector<Finding> refusals;
  using write_detail::parse_argument;
  const std::optional<RowType> type =
      parse_argument<RowType>("--type", request.type, parse_row_type, kTypeChoices, refusals);
  if (type) {
    if (std::optional<std::string> problem = slug_problem(request.name, *type)) {
      refusals.push_back(
          make_fatal("MK-CUR-003", "", *problem, "name the row with its type's slug rules (§3)"));
    }
  } else {
    write_detail::check_slug("--name", request.name, refusals);
  }
  CheckedBody body = check_body(request.body);
  if (body.refused) refusals.push_back(std::move(*body.refused));
  const auto description = write_detail::description_argument(request.description, refusals);
  const std::optional<RowClass> row_class = parse_argument<RowClass>(
      "--class", request.row_class, parse_row_class, kClassChoices, refusals);
  const auto status = status_argument(request.status, refusals);
  const std::optional<std::string> initiative =
      write_detail::initiative_argument(request.initiative, refusals);
  const auto project_ref = write_detail::one_line("--project-ref", request.project_ref, refusals);
  const std::optional<Audience> audience = parse_argument<Audience>(
      "--audience", request.audience, parse_audience, kAudienceChoices, refusals);
  const auto origin = write_detail::one_line("--origin-session", request.origin_session, refusals);

  Planner planner(files, context);
  Write& write = planner.write();
  if (write_detail::refuses(refusals)) {
    for (Finding& f : refusals) write.findings.push_back(std::move(f));
    return planner.finish();
  }
  const std::optional<Located> at = planner.find(request.name);
  if (planner.refused()) return planner.finish();

  Row row = at ? at->entry->row : Row{};
  row.name = request.name;
  row.type = *type;
  row.body = lf_only(std::move(body.body));
  if (description) row.description = *description;
  if (project_ref) row.project_ref = *project_ref;
  if (audience) row.audience = *audience;
  if (initiative) {
    row.initiative = initiative;
  } else if (project_ref && *project_ref) {
    // §3: a --project-ref given without --initiative names the initiative, on insert and update
    // alike (checkpoint does the same); a ref that derives nothing keeps the old one (§6).
    if (std::optional<std::string> derived = initiative_of_project_ref(**project_ref)) {
      row.initiative = std::move(derived);
    }
  }
  row.deleted.reset();  // an upsert resurrects a soft-deleted row
  if (!at && request.status && !request.row_class) {
    // §6: an insert is a log unless --class says otherwise, so any --status (`null` too) without
    // --class names a status for a log.
    write.findings.push_back(make_fatal("MK-CUR-007", "",
                                        "--status without --class on insert: " + request.name +
                                            " would be a log, and status applies only to threads",
                                        "add --class thread"));
    return planner.finish();
  }
  settle_class(row_class, status, row, write.findings);
  if (planner.refused()) return planner.finish();
  warn_statusless(row, write.findings);

  if (at) {
    Write out = commit_change(planner, *at, std::move(row), HistoryOp::update);
    if (!out.refused()) out.action = out.changed ? "updated" : "unchanged";
    return out;
  }
  if (origin) row.origin_session = *origin;
  row.created = context.now;
  row.updated = context.now;
  planner.insert(row);
  planner.record(change_record(context, HistoryOp::insert, nullptr, row));
  Write out = planner.finish();
  if (!out.refused()) {
    out.action = "inserted";
    out.row = std::move(row);
  }
  return out;
}

Write plan_append(const Snapshot& files, const WriteContext& context, std::string_view name,
                  std::string_view text) {
  Planner planner(files, context);
  CheckedBody added = check_body(text);
  if (added.refused) {
    planner.write().findings.push_back(std::move(*added.refused));
    return planner.finish();
  }
  const std::optional<Located> at = live_row(planner, name);
  if (!at) return planner.finish();
  Row row = at->entry->row;
  row.body += "\n\n";
  row.body += lf_only(std::move(added.body));
  // The parts pass on their own; the whole is checked too, so a stored body always passes.
  if (CheckedBody whole = check_body(row.body); whole.refused) {
    planner.write().findings.push_back(std::move(*whole.refused));
    return planner.finish();
  }
  return commit_change(planner, *at, std::move(row), HistoryOp::append);
}

Write plan_edit(const Snapshot& files, const WriteContext& context, const EditRequest& request) {
  std::vector<Finding> refusals;
  const bool is_body = request.field == "body";
  if (!is_body && request.field != "description") {
    refusals.push_back(make_fatal(
        "MK-ARG-001", "",
        "--field: expected description or body, got '" + to_valid_utf8(request.field) + "'"));
  }
  CheckedBody body;
  std::optional<std::optional<std::string>> description;
  if (is_body) {
    body = check_body(request.content);
    if (body.refused) refusals.push_back(std::move(*body.refused));
  } else if (request.field == "description") {
    description = write_detail::description_argument(request.content, refusals);
  }
  const std::optional<Audience> audience = write_detail::parse_argument<Audience>(
      "--audience", request.audience, parse_audience, kAudienceChoices, refusals);
  const std::optional<std::string> initiative =
      write_detail::initiative_argument(request.initiative, refusals);
  const auto project_ref = write_detail::one_line("--project-ref", request.project_ref, refusals);

  Planner planner(files, context);
  if (write_detail::refuses(refusals)) {
    for (Finding& f : refusals) planner.write().findings.push_back(std::move(f));
    return planner.finish();
  }
  const std::optional<Located> at = live_row(planner, request.name);
  if (!at) return planner.finish();
  Row row = at->entry->row;
  if (is_body) row.body = lf_only(std::move(body.body));
  if (description) row.description = *description;
  if (audience) row.audience = *audience;
  if (project_ref) row.project_ref = *project_ref;
  if (initiative) {
    row.initiative = initiative;
  } else if (project_ref && *project_ref) {
    if (std::optional<std::string> derived = initiative_of_project_ref(**project_ref)) {
      row.initiative = std::move(derived);  // §3, as add does
    }
  }
  return commit_change(planner, *at, std::move(row), HistoryOp::edit);
}

Write plan_reclassify(const Snapshot& files, const WriteContext& context, std::string_view name,
                      const std::optional<std::string>& row_class,
                      const std::optional<std::string>& status) {
  std::vector<Finding> refusals;
  if (!row_class && !status) {
    refusals.push_back(make_fatal("MK-ARG-001", "", "reclassify needs --class or --status",
                                  "give --class, --status, or both"));
  }
  const std::optional<RowClass> new_class = write_detail::parse_argument<RowClass>(
      "--class", row_class, parse_row_class, kClassChoices, refusals);
  const auto new_status = status_argument(status, refusals);

  Planner planner(files, context);
  if (write_detail::refuses(refusals)) {
    for (Finding& f : refusals) planner.write().findings.push_back(std::move(f));
    return planner.finish();
  }
  const std::optional<Located> at = live_row(planner, name);
  if (!at) return planner.finish();
  Row row = at->entry->row;
  settle_class(new_class, new_status, row, planner.write().findings);
  if (planner.refused()) return planner.finish();
  warn_statusless(row, planner.write().findings);
  return commit_change(planner, *at, std::move(row), HistoryOp::reclassify);
}

Write plan_delete(const Snapshot& files, const WriteContext& context, std::string_view name,
                  bool hard) {
  Planner planner(files, context);
  const std::optional<Located> at = planner.find(name);
  if (planner.refused()) return planner.finish();
  if (!at) {
    planner.write().findings.push_back(not_found(name, false));
    return planner.finish();
  }
  if (!hard) {
    if (at->entry->row.deleted) {  // repeating a soft delete is a no-op
      Write out = planner.finish();
      out.row = at->entry->row;
      out.entries[at->entry->row.name] = planner.entry_text(*at);
      return out;
    }
    Row row = at->entry->row;
    row.deleted = context.now;
    return commit_change(planner, *at, std::move(row), HistoryOp::remove);
  }
  // Purge: the entry, every Link line pointing to it, and its records in the logs.
  planner.remove(*at);
  planner.for_each_entry([&](const Located& other) {
    if (other.entry == at->entry) return;
    const Row& row = other.entry->row;
    if (std::none_of(row.links.begin(), row.links.end(),
                     [&](const Link& link) { return link.dst == name; })) {
      return;
    }
    Row edited = row;
    std::erase_if(edited.links, [&](const Link& link) { return link.dst == name; });
    planner.edit(other, edited);
  });
  planner.purge_logs(name);
  planner.record(HistoryRecord{.ts = context.now,
                               .name = std::string(name),
                               .op = HistoryOp::purge,
                               .before = std::nullopt,
                               .after = std::nullopt,
                               .link_kind = std::nullopt,
                               .link_dst = {},
                               .actor = context.actor});
  return planner.finish();
}

Write plan_restore(const Snapshot& files, const WriteContext& context, std::string_view name) {
  Planner planner(files, context);
  const std::optional<Located> at = planner.find(name);
  if (planner.refused()) return planner.finish();
  if (!at) {
    planner.write().findings.push_back(not_found(name, false));
    return planner.finish();
  }
  Row row = at->entry->row;
  row.deleted.reset();
  return commit_change(planner, *at, std::move(row), HistoryOp::restore);
}

}  // namespace memkit::curated
