// `memkit tiers ...` (tiers3.md §8-§11): the three-tier session memory over a TiersWorkspace.
// Reads never write. A write is planned from the files as they are, refused with nothing written
// when any argument or file is wrong, then planned again from the files read under .memkit/lock
// and written as one transaction in commit order (§9), so concurrent turns never interleave.
#include <fmt/format.h>

#include <memory>

#include "commands/flow.hpp"
#include "commands/text_view.hpp"
#include "json/json.hpp"
#include "store/tiers_workspace.hpp"
#include "text/shown_text.hpp"

namespace memkit::commands_detail {
namespace {

using tiers::Change;
using tiers::Written;

struct TiersRun {
  const CommandRequest& inv;
  const CommandEnvironment& env;
  ClockReading now;
  TiersWorkspace& ws;
  CommandReply& reply;
};

void refuse(TiersRun& run, std::string code, std::string message) {
  run.reply.findings.push_back(tiers::refusal(std::move(code), std::move(message)));
}

bool failed(TiersRun& run, const Status& status) {
  if (status.ok()) return false;
  run.reply.findings.push_back(finding_from(status));
  return true;
}

// A count argument (count_option), or nullopt with the refusal (MK-ARG-001, or `code`) said.
std::optional<std::uint64_t> tiers_count(TiersRun& run, std::string_view name,
                                         std::uint64_t fallback, const char* code = "MK-ARG-001") {
  const Result<std::uint64_t> value = count_option(run.inv, name, fallback);
  if (!value) {
    refuse(run, code, value.status().message());
    return std::nullopt;
  }
  return *value;
}

tiers::TurnArguments turn_arguments(const CommandRequest& inv) {
  return tiers::TurnArguments{option(inv, "--entry-type"), option(inv, "--session-id"),
                              option(inv, "--tools")};
}

// The required option `name`, or a refusal.
std::optional<std::string> required(TiersRun& run, std::string_view name) {
  std::optional<std::string> value = option(run.inv, name);
  if (!value) {
    refuse(run, "MK-ARG-001",
           "tiers " + run.inv.command + ": " + std::string(name) + " is required");
  }
  return value;
}

// A file read for a report: nullopt when missing; a link or an unreadable file is a finding.
std::optional<std::shared_ptr<const std::string>> report_file(TiersRun& run,
                                                              const FileSnapshot& file) {
  switch (file.state) {
    case EntryState::file:
      return file.bytes;
    case EntryState::missing:
      return std::nullopt;
    case EntryState::symlink:
      run.reply.findings.push_back(make_fatal(
          "MK-LAYOUT-001", file.path, file.path + ": a symbolic link; memkit does not follow it"));
      return std::nullopt;
    case EntryState::not_a_file:
      run.reply.findings.push_back(
          make_fatal("MK-LAYOUT-001", file.path, file.path + ": not a regular file"));
      return std::nullopt;
    case EntryState::unreadable:
      run.reply.findings.push_back(
          make_fatal("MK-IO-001", file.path, file.path + ": " + file.error));
      return std::nullopt;
  }
  return std::nullopt;
}

std::string written_text(const std::vector<std::string>& written) {
  if (written.empty()) return "Nothing written.\n";
  std::string out = "Written:\n";
  for (const std::string& path : written) out += "  " + path + "\n";
  return out;
}

// The files a write may read: `whole`, and `tails`, the L1 log and the L2 note, which a turn only
// appends to, so that only their end is read (a turn costs what it adds, not the day's log).
struct TurnInputs {
  std::vector<std::string> whole;
  std::vector<std::string> tails;
};

// The write flow of §9. `inputs` names the files `plan` may read; `plan` is pure.
using ChangePlanner = std::function<Change(const Snapshot&, Written&)>;

// Returns the paths written, or nullopt when the command was refused or failed.
std::optional<std::vector<std::string>> write_change(TiersRun& run, const TurnInputs& inputs,
                                                     const ChangePlanner& plan, Written& written) {
  const std::string command = "tiers " + run.inv.command;
  {
    const Result<Snapshot> files = run.ws.read(inputs.whole, inputs.tails);
    if (!files) {
      failed(run, files.status());
      return std::nullopt;
    }
    Written first;
    Change change = plan(*files, first);
    if (change.refused()) {
      for (Finding& f : change.findings) run.reply.findings.push_back(std::move(f));
      return std::nullopt;
    }
  }
  Result<std::unique_ptr<LockHandle>> lock = run.ws.lock(run.inv.lock_timeout_seconds);
  if (!lock) {
    failed(run, lock.status());
    return std::nullopt;
  }
  if (!finish_transactions([&](bool apply) { return run.ws.recover(apply, false); }, "tiers",
                           run.reply)) {
    return std::nullopt;
  }
  const Result<Snapshot> files = run.ws.read(inputs.whole, inputs.tails);
  if (!files) {
    failed(run, files.status());
    return std::nullopt;
  }
  Change change = plan(*files, written);
  for (Finding& f : change.findings) run.reply.findings.push_back(std::move(f));
  if (change.refused()) return std::nullopt;
  Result<std::vector<std::string>> done =
      run.ws.write(command, std::move(change.operations), run.now);
  if (!done) {
    failed(run, done.status());
    return std::nullopt;
  }
  return std::move(done).value();
}

// The files a turn may change: today's log and the note of `theme` this hour (at their end),
// global.md.
TurnInputs turn_paths(const TiersRun& run, const std::optional<std::string>& theme) {
  TurnInputs inputs{{std::string(tiers::kGlobalPath)}, {tiers::session_log_path(run.now)}};
  if (theme) {
    const tiers::Checked checked = tiers::check_theme(*theme);
    if (!checked.refused) inputs.tails.push_back(tiers::theme_note_path(checked.value, run.now));
  }
  return inputs;
}

void finish_write(TiersRun& run, const std::optional<std::vector<std::string>>& done,
                  const Written& written, bool replace = false) {
  if (!done) return;
  run.reply.applied = true;
  run.reply.data = fixed(tiers_write_json(run.inv.command, written, replace));
  if (run.inv.format == OutputFormat::text) run.reply.text = fixed(written_text(*done));
}

// A write command's whole run: the change written (§9), then its data and view.
void write_and_reply(TiersRun& run, const TurnInputs& paths, const ChangePlanner& plan,
                     bool replace = false) {
  Written written;
  const auto done = write_change(run, paths, plan, written);
  finish_write(run, done, written, replace);
}

void run_log_turn(TiersRun& run) {
  const std::optional<std::string> content = required(run, "--content");
  if (!content) return;
  const tiers::LogTurn request{turn_arguments(run.inv), *content};
  write_and_reply(run, turn_paths(run, std::nullopt), [&](const Snapshot& files, Written& w) {
    return tiers::plan_log_turn(files, request, run.now, w);
  });
}

void run_persist_turn(TiersRun& run) {
  const std::optional<std::string> raw = required(run, "--raw-content");
  if (!raw) return;
  tiers::PersistTurn request;
  request.turn = turn_arguments(run.inv);
  request.raw_content = *raw;
  request.extracted_content = option(run.inv, "--extracted-content");
  request.theme = option(run.inv, "--theme");
  request.templ = option(run.inv, "--template");
  request.title = option(run.inv, "--title");
  request.promote_global = has_flag(run.inv, "--promote-global");
  write_and_reply(run, turn_paths(run, request.theme), [&](const Snapshot& files, Written& w) {
    return tiers::plan_persist_turn(files, request, run.now, w);
  });
}

void run_write_theme(TiersRun& run) {
  const std::optional<std::string> theme = required(run, "--theme");
  const std::optional<std::string> content = required(run, "--content");
  if (!theme || !content) return;
  tiers::WriteTheme request;
  request.turn = turn_arguments(run.inv);
  request.theme = *theme;
  request.content = *content;
  request.templ = option(run.inv, "--template");
  request.title = option(run.inv, "--title");
  request.raw_content = option(run.inv, "--raw-content");
  request.promote_global = has_flag(run.inv, "--promote-global");
  write_and_reply(run, turn_paths(run, request.theme), [&](const Snapshot& files, Written& w) {
    return tiers::plan_write_theme(files, request, run.now, w);
  });
}

void run_write_global(TiersRun& run) {
  const std::optional<std::string> content = required(run, "--content");
  if (!content) return;
  const bool replace = has_flag(run.inv, "--replace");
  if (replace && has_flag(run.inv, "--append")) {
    refuse(run, "MK-ARG-001", "--append, --replace: give one of them (append is the default)");
    return;
  }
  tiers::WriteGlobal request;
  request.turn = turn_arguments(run.inv);
  request.content = *content;
  request.raw_content = option(run.inv, "--raw-content");
  request.replace = replace;
  TurnInputs paths = turn_paths(run, std::nullopt);
  if (replace) {
    const std::string backups = std::string(tiers::kArchiveDir) + "/global";
    const Result<std::vector<std::string>> names = run.ws.file_names(backups);
    if (failed(run, names.status())) return;
    for (const std::string& name : *names) paths.whole.push_back(backups + "/" + name);
  }
  write_and_reply(
      run, paths,
      [&](const Snapshot& files, Written& w) {
        return tiers::plan_write_global(files, request, run.now, w);
      },
      replace);
}

void run_write_data(TiersRun& run) {
  const std::optional<std::string> name = required(run, "--name");
  if (!name) return;
  const std::optional<std::string> inline_csv = option(run.inv, "--csv-content");
  const std::optional<std::string> source = option(run.inv, "--source-file");
  if (inline_csv.has_value() == source.has_value()) {
    refuse(run, "MK-TIERS-010", "give exactly one of --csv-content and --source-file");
    return;
  }
  tiers::WriteData request;
  request.turn = turn_arguments(run.inv);
  request.name = *name;
  if (inline_csv) {
    request.csv = *inline_csv;
  } else {
    // Resolved against the current directory, not the workspace (§10); it is only read.
    Result<std::string> bytes = read_input(run.env, "--source-file", *source);
    if (!bytes) {
      refuse(run, "MK-ARG-001", shown_text(bytes.status().message()));
      return;
    }
    request.csv = std::move(bytes).value();
  }
  request.description = option(run.inv, "--description");
  request.source_label = option(run.inv, "--source-label");
  request.columns_json = option(run.inv, "--columns-json");
  request.raw_content = option(run.inv, "--raw-content");
  request.replace = has_flag(run.inv, "--replace");
  TurnInputs paths = turn_paths(run, std::nullopt);
  const tiers::Checked data_name = tiers::check_data_name(*name);
  if (!data_name.refused) {
    paths.whole.push_back(std::string(tiers::kDataDir) + "/" + data_name.value);
  }
  paths.whole.emplace_back(tiers::kManifestPath);
  write_and_reply(run, paths, [&](const Snapshot& files, Written& w) {
    return tiers::plan_write_data(files, request, run.now, w);
  });
}

// Reads the selected files; their bytes by path.
std::optional<Snapshot> read_files(TiersRun& run, const std::vector<std::string>& paths) {
  Result<Snapshot> files = run.ws.read(paths);
  if (failed(run, files.status())) return std::nullopt;
  return std::move(files).value();
}

std::optional<tiers::TiersTree> list_tree(TiersRun& run, TiersWorkspace::Listing parts) {
  Result<tiers::TiersTree> tree = run.ws.list(parts);
  if (failed(run, tree.status())) return std::nullopt;
  return std::move(tree).value();
}

std::vector<tiers::LogRead> read_logs(TiersRun& run, const std::vector<tiers::LogFile>& selected,
                                      const Snapshot& files, bool with_content) {
  std::vector<tiers::LogRead> logs;
  for (const tiers::LogFile& log : selected) {
    const auto bytes = report_file(run, *files.find(log.path));
    if (!bytes) continue;
    logs.push_back(tiers::LogRead{
        log, (*bytes)->size(), with_content ? std::optional<std::string>(**bytes) : std::nullopt});
  }
  return logs;
}

void run_read_logs(TiersRun& run) {
  const auto days = tiers_count(run, "--days-back", 7);
  const auto limit = tiers_count(run, "--limit", 20);
  if (!days || !limit) return;
  const auto tree =
      list_tree(run, {.sessions = true, .notes = false, .data = false, .theme = std::nullopt});
  if (!tree) return;
  const std::vector<tiers::LogFile> selected = tiers::select_logs(*tree, run.now, *days, *limit);
  std::vector<std::string> paths;
  for (const tiers::LogFile& log : selected) paths.push_back(log.path);
  const auto files = read_files(run, paths);
  if (!files) return;
  const std::vector<tiers::LogRead> logs = read_logs(run, selected, *files, true);
  run.reply.data = fixed(tiers_logs_json(logs));
  if (run.inv.format == OutputFormat::text) {
    std::string text;
    for (const tiers::LogRead& log : logs)
      text += "==> " + log.file.path + " <==\n" + *log.content + "\n";
    run.reply.text = fixed(text.empty() ? "No session logs in that window.\n" : text);
  }
}

void run_read_theme(TiersRun& run) {
  const std::optional<std::string> theme = required(run, "--theme");
  const auto hours = tiers_count(run, "--hours-back", 24);
  const auto limit = tiers_count(run, "--limit", 20);
  if (!theme || !hours || !limit) return;
  tiers::Checked checked = tiers::check_theme(*theme);
  if (checked.refused) {
    run.reply.findings.push_back(std::move(*checked.refused));
    return;
  }
  // A theme that is a link or not a folder is refused, not read as a theme without notes.
  if (const Result<bool> folder = run.ws.folder("memory/" + checked.value); !folder) {
    refuse(run, "MK-ARG-001", "--theme: " + shown_text(folder.status().message()));
    return;
  }
  const auto tree =
      list_tree(run, {.sessions = false, .notes = true, .data = false, .theme = checked.value});
  if (!tree) return;
  const std::vector<tiers::NoteFile> selected =
      tiers::select_notes(*tree, checked.value, run.now, *hours, *limit);
  std::vector<std::string> paths;
  for (const tiers::NoteFile& note : selected) paths.push_back(note.path);
  const auto files = read_files(run, paths);
  if (!files) return;
  std::vector<tiers::NoteRead> notes;
  for (const tiers::NoteFile& note : selected) {
    if (const auto bytes = report_file(run, *files->find(note.path))) {
      notes.push_back(tiers::NoteRead{note, **bytes});
    }
  }
  run.reply.data = fixed(tiers_theme_json(notes));
  if (run.inv.format == OutputFormat::text) {
    std::string text;
    for (const tiers::NoteRead& note : notes)
      text += "==> " + note.note.path + " <==\n" + note.content + "\n";
    run.reply.text = fixed(text.empty() ? "No notes of that theme in that window.\n" : text);
  }
}

std::optional<tiers::GlobalRead> read_global(TiersRun& run) {
  const auto files = read_files(run, {std::string(tiers::kGlobalPath)});
  if (!files) return std::nullopt;
  tiers::GlobalRead global;
  const std::size_t before = run.reply.findings.size();
  const auto bytes = report_file(run, *files->find(tiers::kGlobalPath));
  if (run.reply.findings.size() != before) return std::nullopt;
  global.exists = bytes.has_value();
  if (bytes) global.content = **bytes;
  global.order = tiers::read_order(global.content);
  return global;
}

void run_read_global(TiersRun& run) {
  const auto global = read_global(run);
  if (!global) return;
  run.reply.data = fixed(tiers_global_json(*global));
  if (run.inv.format == OutputFormat::text) {
    run.reply.text = fixed(global->exists ? global->content : "memory/global.md does not exist.\n");
  }
}

void run_list_themes(TiersRun& run) {
  const auto tree =
      list_tree(run, {.sessions = false, .notes = false, .data = false, .theme = std::nullopt});
  if (!tree) return;
  std::vector<std::string> not_themes;
  const std::vector<std::string> themes = tiers::theme_names(*tree, &not_themes);
  for (const std::string& name : not_themes) {
    const std::string path = std::string(tiers::kMemoryDir) + "/" + name;
    run.reply.findings.push_back(
        make_finding("MK-TIERS-005", Severity::warning, path,
                     path + ": not a theme name (1-64 of a-z, 0-9, '_' and '-'); not listed",
                     "rename the folder to a theme name, or move it out of memory/"));
  }
  run.reply.data = fixed(tiers_themes_json(themes));
  if (run.inv.format == OutputFormat::text) {
    std::string text;
    for (const std::string& theme : themes) text += theme + "\n";
    run.reply.text = fixed(text.empty() ? "No themes.\n" : text);
  }
}

std::optional<std::string> manifest_of(TiersRun& run) {
  const auto files = read_files(run, {std::string(tiers::kManifestPath)});
  if (!files) return std::nullopt;
  const FileSnapshot* manifest = files->find(tiers::kManifestPath);
  return manifest->exists() ? std::optional<std::string>(manifest->text()) : std::nullopt;
}

void run_read_data(TiersRun& run) {
  const std::optional<std::string> name = required(run, "--name");
  if (!name) return;
  std::optional<std::uint64_t> head;
  if (option(run.inv, "--head")) {
    head = tiers_count(run, "--head", 0);
    if (!head) return;
  }
  tiers::Checked checked = tiers::check_data_name(*name);
  if (checked.refused) {
    run.reply.findings.push_back(std::move(*checked.refused));
    return;
  }
  const std::string path = std::string(tiers::kDataDir) + "/" + checked.value;
  const auto files = read_files(run, {path});
  if (!files) return;
  const std::size_t before = run.reply.findings.size();
  const auto bytes = report_file(run, *files->find(path));
  if (run.reply.findings.size() != before) return;
  if (!bytes) {
    refuse(run, "MK-ARG-001", "--name: " + path + " does not exist");
    return;
  }
  tiers::DataFile data{checked.value, (*bytes)->size(), std::nullopt, **bytes, false};
  if (head) data.content = tiers::csv_head(**bytes, *head, data.truncated);
  if (const auto manifest = manifest_of(run))
    data.metadata = tiers::manifest_entry(*manifest, data.name);
  run.reply.data = fixed(tiers_data_json(data));
  if (run.inv.format == OutputFormat::text) run.reply.text = fixed(data.content);
}

void run_list_data(TiersRun& run) {
  const auto tree =
      list_tree(run, {.sessions = false, .notes = false, .data = true, .theme = std::nullopt});
  if (!tree) return;
  std::vector<std::string> paths;
  for (const std::string& name : tree->data_files)
    paths.push_back(std::string(tiers::kDataDir) + "/" + name);
  const auto files = read_files(run, paths);
  if (!files) return;
  const std::optional<std::string> manifest = manifest_of(run);
  std::vector<tiers::DataFile> data;
  for (const std::string& name : tree->data_files) {
    const auto bytes = report_file(run, *files->find(std::string(tiers::kDataDir) + "/" + name));
    if (!bytes) continue;
    tiers::DataFile file{name, (*bytes)->size(), std::nullopt, {}, false};
    if (manifest) file.metadata = tiers::manifest_entry(*manifest, name);
    data.push_back(std::move(file));
  }
  run.reply.data = fixed(tiers_data_list_json(data));
  if (run.inv.format == OutputFormat::text) {
    std::string text;
    for (const tiers::DataFile& file : data)
      text += fmt::format("{}  {} bytes\n", file.name, file.size);
    run.reply.text = fixed(text.empty() ? "No data files.\n" : text);
  }
}

void run_session_init(TiersRun& run) {
  const auto days = tiers_count(run, "--recent-days", 7);
  const auto theme_limit = tiers_count(run, "--theme-limit", 8);
  std::optional<std::uint64_t> max_tokens;
  if (option(run.inv, "--max-tokens")) {
    max_tokens = tiers_count(run, "--max-tokens", 0, "MK-TIERS-001");
    if (!max_tokens) return;
  }
  if (!days || !theme_limit) return;
  const bool log = !has_flag(run.inv, "--no-log");
  const std::optional<std::string> session_id = option(run.inv, "--session-id");
  if (session_id) {  // checked before anything is read or written
    Written unused;
    Change change = tiers::plan_session_entry(Snapshot(), session_id, run.now, unused);
    if (change.refused()) {
      for (Finding& f : change.findings) run.reply.findings.push_back(std::move(f));
      return;
    }
  }
  const auto tree =
      list_tree(run, {.sessions = true, .notes = true, .data = false, .theme = std::nullopt});
  if (!tree) return;
  const std::uint64_t hours = std::min<std::uint64_t>(*days, UINT64_MAX / 24) * 24;
  const std::vector<tiers::LogFile> logs = tiers::select_logs(*tree, run.now, *days, 3);
  const std::vector<tiers::NoteFile> notes =
      tiers::recent_notes(*tree, run.now, hours, *theme_limit);
  std::vector<std::string> paths{std::string(tiers::kGlobalPath)};
  for (const tiers::LogFile& l : logs) paths.push_back(l.path);
  for (const tiers::NoteFile& n : notes) paths.push_back(n.path);
  const auto files = read_files(run, paths);
  if (!files) return;
  tiers::SessionInitData data;
  const std::size_t before = run.reply.findings.size();
  if (const auto global = report_file(run, *files->find(tiers::kGlobalPath))) {
    data.global_exists = true;
    data.global_excerpt = tiers::first_code_points(**global, 2000);
  }
  data.recent_logs = read_logs(run, logs, *files, false);
  for (const tiers::NoteFile& note : notes) {
    if (const auto bytes = report_file(run, *files->find(note.path))) {
      data.recent_themes.push_back(tiers::NoteRead{note, tiers::note_preview(**bytes)});
    }
  }
  if (run.reply.findings.size() != before) return;
  data.l2_archive_due = tiers::archive_candidates(*tree, run.now, 90).size();
  if (max_tokens) {
    data.context = tiers::assemble_context(*files, notes, logs, *max_tokens);
    data.tokens_limit = *max_tokens;
    if (data.context->over_budget) {
      run.reply.findings.push_back(make_finding(
          "MK-TIERS-030", Severity::warning, std::string(tiers::kGlobalPath),
          fmt::format("{}: the Active Mission section alone is {} tokens, over --max-tokens {}",
                      tiers::kGlobalPath, data.context->tokens_used, *max_tokens),
          "shorten the Active Mission section, or raise --max-tokens"));
    }
  }
  if (log) {
    Written written;
    const auto done = write_change(
        run, turn_paths(run, std::nullopt),
        [&](const Snapshot& f, Written& w) {
          return tiers::plan_session_entry(f, session_id, run.now, w);
        },
        written);
    if (!done) return;
    data.log_path = written.l1_path;
    run.reply.applied = true;
  }
  run.reply.data = fixed(tiers_session_init_json(data));
  if (run.inv.format == OutputFormat::text) {
    std::string text = data.context ? data.context->text : data.global_excerpt;
    if (!text.empty() && text.back() != '\n') text += '\n';
    text += fmt::format("\nRecent logs: {}. Recent themes: {}. L2 notes due for archive: {}.\n",
                        data.recent_logs.size(), data.recent_themes.size(), data.l2_archive_due);
    run.reply.text = fixed(text);
  }
}

void run_init(TiersRun& run) {
  Result<std::unique_ptr<LockHandle>> lock = run.ws.lock(run.inv.lock_timeout_seconds);
  if (failed(run, lock.status())) return;
  if (!finish_transactions([&run](bool apply) { return run.ws.recover(apply, false); }, "tiers",
                           run.reply)) {
    return;
  }
  const Result<std::vector<std::string>> created = run.ws.init();
  if (failed(run, created.status())) return;
  run.reply.data = fixed(tiers_init_json(*created));
  if (run.inv.format == OutputFormat::text) {
    std::string text = created->empty() ? "Nothing to create: the layout exists.\n" : "Created:\n";
    for (const std::string& path : *created) text += "  " + path + "\n";
    run.reply.text = fixed(text);
  }
}

void run_template(TiersRun& run) {
  const std::vector<std::string>& words = run.inv.positionals;
  const std::optional<tiers::Template> templ =
      words.size() == 1 ? tiers::parse_template(words[0]) : std::nullopt;
  if (!templ) {
    refuse(run, "MK-ARG-001", "tiers template: expected one of decision, error or task");
    return;
  }
  run.reply.data = fixed(tiers_template_json(*templ));
  if (run.inv.format == OutputFormat::text)
    run.reply.text = fixed(std::string(tiers::template_body(*templ)));
}

void run_archive_themes(TiersRun& run) {
  const auto days = tiers_count(run, "--days", 90);
  if (!days) return;
  PlanWriter writer;
  writer.lock = [&run] { return run.ws.lock(run.inv.lock_timeout_seconds); };
  writer.ready = [&run](CommandReply& reply) {
    return finish_transactions([&run](bool apply) { return run.ws.recover(apply, false); }, "tiers",
                               reply);
  };
  writer.apply = [&run](const Plan& plan) { return run.ws.apply(plan, run.now); };
  run_planned(run.inv, run.reply, writer, [&](bool) -> Result<PlannedRun> {
    Result<tiers::TiersTree> tree =
        run.ws.list({.sessions = false, .notes = true, .data = false, .theme = std::nullopt});
    if (!tree) return tree.status();
    std::vector<tiers::NoteFile> candidates = tiers::archive_candidates(*tree, run.now, *days);
    std::vector<std::string> paths;
    for (const tiers::NoteFile& note : candidates) {
      paths.push_back(note.path);
      paths.push_back(tiers::archive_path_of(note));
    }
    Result<Snapshot> files = run.ws.read(paths);
    if (!files) return files.status();
    auto archive = std::make_shared<const tiers::ArchivePlan>(
        tiers::plan_archive_themes(*files, std::move(candidates), *days));
    PlannedRun made;
    made.findings = archive->findings;
    made.plan = archive->plan;
    made.data = [archive](bool applied, const std::vector<std::string>& written) {
      return fixed(tiers_archive_json(*archive, applied, written));
    };
    made.text = [archive](bool applied, const std::vector<std::string>& written) {
      std::string text =
          fmt::format("L2 notes older than the window: {}\n", archive->candidates.size());
      for (const tiers::NoteFile& note : archive->candidates) text += "  " + note.path + "\n";
      return fixed(text + "\n" + view::memorybox_plan_outcome(archive->plan, applied, written));
    };
    return made;
  });
}

void run_tiers_recover(TiersRun& run) {
  run_recover(
      run.inv, run.reply, [&] { return run.ws.lock(run.inv.lock_timeout_seconds); },
      [&](bool apply, bool rollback) { return run.ws.recover(apply, rollback); });
}

}  // namespace

void run_tiers(const CommandRequest& inv, const CommandEnvironment& env, CommandReply& reply) {
  if (inv.command == "search") {
    run_search_in(inv, env, reply, "--workspace", recall::Layout::tiers);
    return;
  }
  const std::optional<ClockReading> now =
      start_command(inv, env, reply, /*takes_positionals=*/inv.command == "template");
  if (!now) return;
  const std::string root = option(inv, "--workspace").value_or(env.current_directory);
  Result<TiersWorkspace> ws = TiersWorkspace::open(posix_file_system(), root);
  if (!ws) {
    reply.findings.push_back(finding_from(ws.status()));
    return;
  }
  TiersRun run{inv, env, *now, *ws, reply};
  static const std::map<std::string, void (*)(TiersRun&)> kCommands = {
      {"init", run_init},
      {"session-init", run_session_init},
      {"log-turn", run_log_turn},
      {"read-logs", run_read_logs},
      {"persist-turn", run_persist_turn},
      {"write-theme", run_write_theme},
      {"read-theme", run_read_theme},
      {"read-global", run_read_global},
      {"write-global", run_write_global},
      {"list-themes", run_list_themes},
      {"write-data", run_write_data},
      {"read-data", run_read_data},
      {"list-data", run_list_data},
      {"archive-themes", run_archive_themes},
      {"template", run_template},
      {"recover", run_tiers_recover},
  };
  kCommands.at(inv.command)(run);
}

}  // namespace memkit::commands_detail
