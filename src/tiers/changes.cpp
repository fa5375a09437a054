// The writes of the tiers commands (tiers3.md §8-§11): every argument checked first, then the new
// bytes of each file, in the commit order of §9 (L1, then L2, then L3; or L1, the CSV file, then
// manifest.json). A refused command's Change holds no operation, so nothing is written.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "codec/bounded_json.hpp"
#include "memkit/markdown.hpp"
#include "memkit/text.hpp"
#include "memkit/tiers.hpp"
#include "tiers/stamps.hpp"

namespace memkit::tiers {
namespace {

bool refuses(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(), [](const Finding& f) {
    return f.fatal || f.severity == Severity::blocker || f.severity == Severity::error;
  });
}

void add(std::vector<Finding>& to, std::vector<Finding> more) {
  for (Finding& f : more) to.push_back(std::move(f));
}

void add(std::vector<Finding>& to, std::optional<Finding> more) {
  if (more) to.push_back(std::move(*more));
}

// The bytes of a file the command will change: nullopt when it is missing. A link, a folder or an
// unreadable file refuses the command; so does invalid UTF-8 (§9 step 1: any file the command would
// change, replaced ones included, so a replace never hides a broken file's repair from its owner).
std::optional<std::shared_ptr<const std::string>> base_of(const Snapshot& files,
                                                          const std::string& path,
                                                          std::vector<Finding>& findings) {
  const FileSnapshot* file = files.find(path);
  if (file == nullptr || file->state == EntryState::missing) return std::nullopt;
  switch (file->state) {
    case EntryState::symlink:
      findings.push_back(make_fatal("MK-LAYOUT-001", path,
                                    path + ": a symbolic link; memkit never writes through one"));
      return std::nullopt;
    case EntryState::not_a_file:
      findings.push_back(make_fatal("MK-LAYOUT-001", path, path + ": not a regular file"));
      return std::nullopt;
    case EntryState::unreadable:
      findings.push_back(make_fatal("MK-IO-001", path, path + ": " + file->error));
      return std::nullopt;
    default:
      break;
  }
  if (!file->whole()) {
    // A file only appended to, read at its end: its bytes before are kept as they are, never
    // rewritten, so only the end is checked; the first bytes read may be the tail of a character.
    std::string_view tail = file->text();
    std::size_t skipped = 0;
    while (skipped < 3 && skipped < tail.size() &&
           (static_cast<unsigned char>(tail[skipped]) & 0xC0) == 0x80) {
      ++skipped;
    }
    tail.remove_prefix(skipped);
    if (const std::optional<std::size_t> bad = find_invalid_utf8(tail)) {
      findings.push_back(make_finding("MK-UTF8-001", Severity::blocker, path,
                                      path + ": invalid UTF-8 sequence at byte " +
                                          std::to_string(file->offset + skipped + *bad),
                                      "repair the file's encoding before writing to it"));
    }
  } else if (const std::optional<std::size_t> bad = find_invalid_utf8(file->text())) {
    const auto line = static_cast<std::uint32_t>(1 + count_newlines(file->text().substr(0, *bad)));
    findings.push_back(make_finding("MK-UTF8-001", Severity::blocker, path,
                                    describe_issue({TextProblem::invalid_utf8, line}, path),
                                    "repair the file's encoding before writing to it"));
  }
  return file->bytes;
}

// The operation writing `bytes` to `path`: a splice at the end when they extend the base, and an
// append (OperationKind::append) for a file only appended to, read at its end (an L1 log, an L2
// note: TurnInputs), whose bytes before are neither read nor written.
PlanOperation write_op(const Snapshot& files, const std::string& path,
                       const std::optional<std::shared_ptr<const std::string>>& base,
                       std::string bytes) {
  auto empty = std::make_shared<const std::string>();
  const std::shared_ptr<const std::string>& from = base ? *base : empty;
  const bool extends =
      bytes.size() >= from->size() && std::string_view(bytes).substr(0, from->size()) == *from;
  if (const FileSnapshot* file = files.find(path);
      base && extends && file != nullptr && !file->whole()) {
    return plan_append(*file, bytes.substr(from->size()));
  }
  std::vector<Splice> splices;
  if (extends) {
    splices.push_back(Splice{from->size(), from->size(), bytes.substr(from->size())});
  } else {
    splices.push_back(Splice{0, from->size(), std::move(bytes)});
  }
  return plan_write(path, from, base.has_value(), std::move(splices));
}

std::optional<std::string_view> view(const std::optional<std::shared_ptr<const std::string>>& b) {
  if (!b) return std::nullopt;
  return std::string_view(**b);
}

// Appends the L1 entry of `turn` to today's log.
void log_entry(const Snapshot& files, const Turn& turn, const ClockReading& now, Change& change,
               Written& written) {
  written.l1_path = session_log_path(now);
  const auto base = base_of(files, written.l1_path, change.findings);
  change.operations.push_back(
      write_op(files, written.l1_path, base, append_session_entry(view(base), turn, now)));
}

// Appends a block to global.md (made from the skeleton when missing).
void global_block(const Snapshot& files, const std::string& block, Change& change) {
  const std::string path(kGlobalPath);
  const auto base = base_of(files, path, change.findings);
  change.operations.push_back(write_op(files, path, base, append_global_block(view(base), block)));
}

// --title (§3): stripped, single line; empty after stripping is absent.
std::optional<std::string> check_title(const std::optional<std::string>& raw,
                                       std::vector<Finding>& findings) {
  if (!raw) return std::nullopt;
  if (Status text = check_plain_text("--title", *raw); !text.ok()) {
    findings.push_back(refusal("MK-ARG-001", text.message()));
    return std::nullopt;
  }
  const std::string_view title = strip_w(*raw);
  if (title.find_first_of("\r\n") != std::string_view::npos) {
    findings.push_back(refusal("MK-TIERS-001", "--title: expected one line"));
    return std::nullopt;
  }
  if (title.empty()) return std::nullopt;
  return std::string(title);
}

std::optional<Template> check_template(const std::optional<std::string>& raw,
                                       std::vector<Finding>& findings) {
  if (!raw) return std::nullopt;
  const std::optional<Template> parsed = parse_template(*raw);
  if (!parsed) {
    findings.push_back(refusal("MK-ARG-001", "--template: expected decision, error or task, got '" +
                                                 to_valid_utf8(*raw) + "'"));
  }
  return parsed;
}

// The L2 note of a request, checked; `what` names the content argument.
Note check_note(const std::optional<std::string>& theme, std::string_view what,
                std::string_view content, const std::optional<std::string>& templ,
                const std::optional<std::string>& title, std::vector<Finding>& findings) {
  Note note;
  if (theme) {
    Checked checked = check_theme(*theme);
    add(findings, std::move(checked.refused));
    note.theme = std::move(checked.value);
  }
  Checked body = check_content(what, content);
  add(findings, std::move(body.refused));
  note.content = std::move(body.value);
  note.templ = check_template(templ, findings);
  note.title = check_title(title, findings);
  return note;
}

void note_entry(const Snapshot& files, const Note& note, const ClockReading& now, Change& change,
                Written& written) {
  const std::string path = theme_note_path(note.theme, now);
  const auto base = base_of(files, path, change.findings);
  change.operations.push_back(
      write_op(files, path, base, append_theme_entry(view(base), note, now)));
  written.l2_path = path;
  written.theme = note.theme;
}

// A refused change writes nothing; a refusal found twice (one content for L1 and L2) is told once.
Change finish(Change change) {
  if (change.refused()) change.operations.clear();
  std::vector<Finding> unique;
  for (Finding& f : change.findings) {
    if (std::find(unique.begin(), unique.end(), f) == unique.end()) unique.push_back(std::move(f));
  }
  change.findings = std::move(unique);
  return change;
}

}  // namespace

bool Change::refused() const noexcept { return refuses(findings); }

Change plan_log_turn(const Snapshot& files, const LogTurn& request, const ClockReading& now,
                     Written& written) {
  Change change;
  Turn turn;
  add(change.findings, check_turn(request.turn, "--content", request.content, turn));
  if (change.refused()) return finish(std::move(change));
  log_entry(files, turn, now, change, written);
  return finish(std::move(change));
}

Change plan_session_entry(const Snapshot& files, const std::optional<std::string>& session_id,
                          const ClockReading& now, Written& written) {
  Change change;
  Turn turn;
  TurnArguments args;
  args.entry_type = "SESSION_INIT";
  args.session_id = session_id;
  add(change.findings,
      check_turn(args, "--content", "Session initialized; memory context loaded.", turn));
  if (change.refused()) return finish(std::move(change));
  log_entry(files, turn, now, change, written);
  return finish(std::move(change));
}

Change plan_persist_turn(const Snapshot& files, const PersistTurn& request, const ClockReading& now,
                         Written& written) {
  Change change;
  Turn turn;
  add(change.findings, check_turn(request.turn, "--raw-content", request.raw_content, turn));
  std::optional<Note> note;
  if (request.extracted_content) {
    if (!request.theme) {
      change.findings.push_back(refusal(
          "MK-TIERS-004", "--extracted-content needs --theme: the theme is always the caller's"));
    }
    note = check_note(request.theme, "--extracted-content", *request.extracted_content,
                      request.templ, request.title, change.findings);
  } else {
    // Checked even when unused, so a bad value never passes silently.
    if (request.theme) add(change.findings, check_theme(*request.theme).refused);
    check_template(request.templ, change.findings);
    check_title(request.title, change.findings);
  }
  if (change.refused()) return finish(std::move(change));
  log_entry(files, turn, now, change, written);
  if (note) {
    note_entry(files, *note, now, change, written);
    if (request.promote_global) {
      global_block(files,
                   "## Persisted Turn Promotion - " + local_stamp(now, Stamp::minutes) + "\n\n" +
                       note->content,
                   change);
      written.global_updated = true;
    }
  }
  return finish(std::move(change));
}

Change plan_write_theme(const Snapshot& files, const WriteTheme& request, const ClockReading& now,
                        Written& written) {
  Change change;
  Turn turn;
  add(change.findings, check_turn(request.turn, request.raw_content ? "--raw-content" : "--content",
                                  request.raw_content.value_or(request.content), turn));
  const Note note = check_note(request.theme, "--content", request.content, request.templ,
                               request.title, change.findings);
  if (change.refused()) return finish(std::move(change));
  log_entry(files, turn, now, change, written);
  note_entry(files, note, now, change, written);
  if (request.promote_global) {
    global_block(
        files,
        "## Theme Memory Promotion - " + local_stamp(now, Stamp::minutes) + "\n\n" + note.content,
        change);
    written.global_updated = true;
  }
  return finish(std::move(change));
}

std::string global_backup_path(const ClockReading& now,
                               const std::function<bool(const std::string&)>& taken) {
  const std::string stem =
      std::string(kArchiveDir) + "/global/global-" + local_stamp(now, Stamp::compact);
  std::string path = stem + ".md";
  for (int n = 2; taken(path); ++n) path = stem + "-" + std::to_string(n) + ".md";
  return path;
}

Change plan_write_global(const Snapshot& files, const WriteGlobal& request, const ClockReading& now,
                         Written& written) {
  Change change;
  Turn turn;
  add(change.findings, check_turn(request.turn, request.raw_content ? "--raw-content" : "--content",
                                  request.raw_content.value_or(request.content), turn));
  Checked content = check_content("--content", request.content);
  add(change.findings, std::move(content.refused));
  if (change.refused()) return finish(std::move(change));
  log_entry(files, turn, now, change, written);
  const std::string path(kGlobalPath);
  if (!request.replace) {
    global_block(files, content.value, change);
    return finish(std::move(change));
  }
  // --replace: the old text is kept under memory/archive/global/ first (§6).
  const auto base = base_of(files, path, change.findings);
  if (base) {
    written.backup_path = global_backup_path(now, [&](const std::string& candidate) {
      const FileSnapshot* file = files.find(candidate);
      return file != nullptr && file->state != EntryState::missing;
    });
    change.operations.push_back(write_op(files, *written.backup_path, std::nullopt, **base));
  }
  change.operations.push_back(write_op(files, path, base, content.value + "\n"));
  return finish(std::move(change));
}

Change plan_write_data(const Snapshot& files, const WriteData& request, const ClockReading& now,
                       Written& written) {
  Change change;
  Checked name = check_data_name(request.name);
  add(change.findings, std::move(name.refused));
  Turn turn;
  const std::string raw = request.raw_content.value_or("Stored CSV memory data file " + name.value);
  add(change.findings,
      check_turn(request.turn, request.raw_content ? "--raw-content" : "--name", raw, turn));
  for (const auto& [what, text] : {std::pair{"--description", &request.description},
                                   std::pair{"--source-label", &request.source_label}}) {
    if (!*text) continue;
    if (Status ok = check_plain_text(what, **text); !ok.ok()) {
      change.findings.push_back(refusal("MK-ARG-001", ok.message()));
    }
  }
  std::optional<std::vector<std::string>> declared;
  if (request.columns_json) {
    std::string too_deep;
    const nlohmann::json columns = detail::parse_bounded_json(*request.columns_json, &too_deep);
    bool ok = columns.is_array();
    std::vector<std::string> names;
    for (const nlohmann::json& column : ok ? columns : nlohmann::json::array()) {
      if (!column.is_string()) {
        ok = false;
        break;
      }
      names.push_back(column.get<std::string>());
    }
    if (!too_deep.empty()) {
      change.findings.push_back(refusal("MK-ARG-001", "--columns-json: " + too_deep));
    } else if (!ok) {
      change.findings.push_back(
          refusal("MK-ARG-001",
                  "--columns-json: expected a JSON array of strings, such as '[\"a\",\"b\"]'"));
    } else if (!names.empty()) {
      declared = std::move(names);
    }
  }
  if (change.refused()) return finish(std::move(change));
  const std::string data_path = std::string(kDataDir) + "/" + name.value;
  if (const std::optional<std::size_t> bad = find_invalid_utf8(request.csv)) {
    const auto line = static_cast<std::uint32_t>(
        1 + count_newlines(std::string_view(request.csv).substr(0, *bad)));
    change.findings.push_back(make_finding(
        "MK-UTF8-001", Severity::blocker, data_path,
        describe_issue({TextProblem::invalid_utf8, line}, data_path), "store the data as UTF-8"));
    return finish(std::move(change));
  }
  const CsvParse parsed = parse_csv(request.csv, CsvScan{1});
  if (parsed.unterminated_line) {
    change.findings.push_back(make_finding(
        "MK-TIERS-012", Severity::error, data_path,
        data_path + ":" + std::to_string(*parsed.unterminated_line) + ": unterminated quoted field",
        "close the quoted field with '\"'; nothing was written"));
    return finish(std::move(change));
  }
  const auto data_base = base_of(files, data_path, change.findings);
  if (data_base && !request.replace) {
    change.findings.push_back(make_finding("MK-TIERS-011", Severity::error, data_path,
                                           data_path + ": exists already; nothing written",
                                           "pass --replace to overwrite it"));
  }
  DataEntry entry = data_entry(name.value, request.csv, parsed, now);
  entry.source_label = request.source_label;
  entry.description = request.description;
  entry.declared_columns = declared;
  if (declared && *declared != entry.detected_columns) {
    change.findings.push_back(
        make_finding("MK-TIERS-013", Severity::warning, data_path,
                     data_path + ": the declared columns differ from the header's columns",
                     "check --columns-json against the CSV header"));
  }
  const std::string manifest_path(kManifestPath);
  const auto manifest_base = base_of(files, manifest_path, change.findings);
  if (change.refused()) return finish(std::move(change));
  Result<std::string> manifest = manifest_with(view(manifest_base), entry);
  if (!manifest) {
    change.findings.push_back(make_finding("MK-PARSE-001", Severity::blocker, manifest_path,
                                           manifest.status().message()));
  }
  if (change.refused()) return finish(std::move(change));
  log_entry(files, turn, now, change, written);
  change.operations.push_back(write_op(files, data_path, data_base, request.csv));
  change.operations.push_back(write_op(files, manifest_path, manifest_base, *manifest));
  written.data_path = data_path;
  written.manifest_entry = std::move(entry);
  return finish(std::move(change));
}

std::string archive_path_of(const NoteFile& note) {
  const std::size_t slash = note.path.rfind('/');
  return std::string(kArchiveDir) + "/" + note.theme + "/" + note.path.substr(slash + 1);
}

ArchivePlan plan_archive_themes(const Snapshot& files, std::vector<NoteFile> candidates,
                                std::uint64_t days) {
  ArchivePlan archive;
  archive.candidates = std::move(candidates);
  std::vector<PlanOperation> operations;
  for (const NoteFile& note : archive.candidates) {
    const FileSnapshot* source = files.find(note.path);
    if (source == nullptr || !source->exists()) {
      archive.findings.push_back(
          make_fatal("MK-IO-001", note.path, note.path + ": could not be read"));
      continue;
    }
    const std::string target = archive_path_of(note);
    const FileSnapshot* existing = files.find(target);
    if (existing != nullptr && existing->state != EntryState::missing) {
      if (!existing->exists() || existing->text() != source->text()) {
        archive.findings.push_back(
            make_finding("MK-TIERS-020", Severity::blocker, target,
                         target + ": exists with other bytes than " + note.path + "; nothing moved",
                         "compare the two files and remove or rename one"));
        continue;
      }
    } else {
      operations.push_back(write_op(files, target, std::nullopt, std::string(source->text())));
    }
    operations.push_back(plan_remove(*source));
  }
  if (refuses(archive.findings) || operations.empty()) return archive;
  archive.plan = Plan::create("tiers archive-themes", {{"days", std::to_string(days)}},
                              std::move(operations), {});
  return archive;
}

}  // namespace memkit::tiers
