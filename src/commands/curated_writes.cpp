// The curated writes (curated.md §5-§7, §10): add, append, edit, reclassify, link and unlink,
// delete, restore, checkpoint and batch, each planned by src/curated and written by run_write().
//
// Each command is one function from its arguments to its Write (nullopt when it stopped before
// planning), which sets the reply's data and text. `batch` runs those same functions, one per
// operation of its file, each with a request built from the operation and a reply of its own, so
// an operation behaves exactly as the command would and a refusal of one never stops the next.
#include <algorithm>
#include <map>

#include "commands/curated_flow.hpp"
#include "json/curated_json.hpp"

namespace memkit::commands_detail {
namespace {

using Outcome = std::optional<curated::Write>;

bool refusal(const Finding& f) {
  return f.fatal || f.severity == Severity::blocker || f.severity == Severity::error;
}

std::string indented(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += "  " + line + "\n";
  return out;
}

// The human view of one write: what it did (or in a dry run would do), the files, and in a dry run
// the entry after the write when there is one.
void write_text(CuratedRun& run, const std::string& headline, bool dry_run,
                const curated::Write& write, const std::string* entry) {
  if (run.inv.format != OutputFormat::text) return;
  const std::vector<std::string> files = write.files();
  std::string text = headline + ": ";
  if (dry_run) {
    text += "dry run, nothing written\n";
    text += files.empty() ? "It would change nothing.\n" : "It would write:\n" + indented(files);
    if (entry != nullptr) {
      text += "\n" + *entry;
      if (!text.ends_with('\n')) text += "\n";
    }
  } else if (files.empty()) {
    text += "unchanged, nothing written\n";
  } else {
    text += "applied\nWritten:\n" + indented(files);
  }
  run.reply.text = fixed(std::move(text));
}

const std::string* entry_of(const curated::Write& write, const std::string& name) {
  const auto it = write.entries.find(name);
  return it == write.entries.end() ? nullptr : &it->second;
}

// The text of a required --file (checkpoint, batch).
std::optional<std::string> file_argument(CuratedRun& run) {
  const std::optional<std::string> file = curated_required(run, "--file");
  if (!file) return std::nullopt;
  return file_text(run, "--file", *file);
}

// ---- the commands -------------------------------------------------------------------------------

Outcome add_write(CuratedRun& run) {
  if (!positionals(run, 0, "add")) return std::nullopt;
  const std::optional<std::string> name = curated_required(run, "--name");
  if (!name) return std::nullopt;
  const std::optional<std::string> type = curated_required(run, "--type");
  if (!type) return std::nullopt;
  std::optional<std::string> body = text_argument(run, "--body", "--body-file", true);
  if (!body) return std::nullopt;
  curated::AddRequest request;
  request.name = *name;
  request.type = *type;
  request.body = std::move(*body);
  request.description = option(run.inv, "--description");
  request.row_class = option(run.inv, "--class");
  request.status = option(run.inv, "--status");
  request.initiative = option(run.inv, "--initiative");
  request.project_ref = option(run.inv, "--project-ref");
  request.audience = option(run.inv, "--audience");
  request.origin_session = option(run.inv, "--origin-session");
  const bool dry_run = is_dry_run(run);
  Outcome write =
      run_write(run, dry_run, [&](const Snapshot& files, const curated::WriteContext& context) {
        return curated::plan_add(files, context, request);
      });
  if (!write || write->refused()) return write;
  run.reply.data = fixed(curated_add_json(run.workspace, dry_run, *write));
  write_text(run, "add " + *name + " (" + write->action + ")", dry_run, *write,
             entry_of(*write, *name));
  return write;
}

// §6 append <name> (--body B | --body-file F).
Outcome append_write(CuratedRun& run) {
  if (!positionals(run, 1, "append <name>")) return std::nullopt;
  const std::string name = run.inv.positionals[0];
  const std::optional<std::string> text = text_argument(run, "--body", "--body-file", true);
  if (!text) return std::nullopt;
  const bool dry_run = is_dry_run(run);
  Outcome write =
      run_write(run, dry_run, [&](const Snapshot& files, const curated::WriteContext& context) {
        return curated::plan_append(files, context, name, *text);
      });
  if (!write || write->refused()) return write;
  run.reply.data = fixed(curated_append_json(run.workspace, dry_run, *write));
  write_text(run, "append " + name, dry_run, *write, entry_of(*write, name));
  return write;
}

// §6 edit --name N --field description|body (--content C | --body-file F) [--audience]
// [--initiative] [--project-ref].
Outcome edit_write(CuratedRun& run) {
  if (!positionals(run, 0, "edit")) return std::nullopt;
  const std::optional<std::string> name = curated_required(run, "--name");
  if (!name) return std::nullopt;
  const std::optional<std::string> field = curated_required(run, "--field");
  if (!field) return std::nullopt;
  std::optional<std::string> content = text_argument(run, "--content", "--body-file", true);
  if (!content) return std::nullopt;
  // A file's text ends with a line terminator; as a one-line description that final terminator is
  // the file's, not the description's (any other line break is still MK-CUR-006).
  if (*field == "description" && option(run.inv, "--body-file")) {
    if (content->ends_with("\r\n")) {
      content->resize(content->size() - 2);
    } else if (content->ends_with('\n')) {
      content->pop_back();
    }
  }
  curated::EditRequest request;
  request.name = *name;
  request.field = *field;
  request.content = std::move(*content);
  request.audience = option(run.inv, "--audience");
  request.initiative = option(run.inv, "--initiative");
  request.project_ref = option(run.inv, "--project-ref");
  const bool dry_run = is_dry_run(run);
  Outcome write =
      run_write(run, dry_run, [&](const Snapshot& files, const curated::WriteContext& context) {
        return curated::plan_edit(files, context, request);
      });
  if (!write || write->refused()) return write;
  run.reply.data = fixed(curated_edit_json(run.workspace, dry_run, *write));
  write_text(run, "edit " + *name + " --field " + *field, dry_run, *write, entry_of(*write, *name));
  return write;
}

// §5 reclassify <name> [--class C] [--status S|null]; neither is MK-ARG-001 (the planner's).
Outcome reclassify_write(CuratedRun& run) {
  if (!positionals(run, 1, "reclassify <name>")) return std::nullopt;
  const std::string name = run.inv.positionals[0];
  const std::optional<std::string> row_class = option(run.inv, "--class");
  const std::optional<std::string> status = option(run.inv, "--status");
  const bool dry_run = is_dry_run(run);
  Outcome write =
      run_write(run, dry_run, [&](const Snapshot& files, const curated::WriteContext& context) {
        return curated::plan_reclassify(files, context, name, row_class, status);
      });
  if (!write || write->refused()) return write;
  run.reply.data = fixed(curated_reclassify_json(run.workspace, dry_run, *write));
  write_text(run, "reclassify " + name, dry_run, *write, entry_of(*write, name));
  return write;
}

// §7 link <src> <dst> --kind K [--delete], and unlink <src> <dst> --kind K (link --delete).
Outcome link_write(CuratedRun& run) {
  const bool remove = run.inv.command == "unlink" || has_flag(run.inv, "--delete");
  if (!positionals(run, 2, run.inv.command + " <src> <dst>")) return std::nullopt;
  const std::string src = run.inv.positionals[0];
  const std::string dst = run.inv.positionals[1];
  const std::optional<std::string> kind = curated_required(run, "--kind");
  if (!kind) return std::nullopt;
  const bool dry_run = is_dry_run(run);
  Outcome write =
      run_write(run, dry_run, [&](const Snapshot& files, const curated::WriteContext& context) {
        return curated::plan_link(files, context, src, dst, *kind, remove);
      });
  if (!write || write->refused()) return write;
  run.reply.data =
      fixed(curated_link_json(run.workspace, dry_run, *write, remove, src, dst, *kind));
  write_text(run, std::string(remove ? "unlink " : "link ") + src + " " + dst + " --kind " + *kind,
             dry_run, *write, nullptr);
  return write;
}

// §6 delete <name> [--hard] [--yes]: without --yes a dry run.
Outcome delete_write(CuratedRun& run) {
  if (!positionals(run, 1, "delete <name>")) return std::nullopt;
  const std::string name = run.inv.positionals[0];
  const bool hard = has_flag(run.inv, "--hard");
  const bool dry_run = !has_flag(run.inv, "--yes");
  Outcome write = run_write(
      run, dry_run,
      [&](const Snapshot& files, const curated::WriteContext& context) {
        return curated::plan_delete(files, context, name, hard);
      },
      hard);
  if (!write || write->refused()) return write;
  run.reply.data = fixed(curated_delete_json(run.workspace, dry_run, *write, name, hard));
  write_text(run, std::string(hard ? "delete --hard " : "delete ") + name, dry_run, *write,
             hard ? nullptr : entry_of(*write, name));
  if (dry_run && run.inv.format == OutputFormat::text && write->changed) {
    run.reply.text = [text = std::move(run.reply.text)](const TextSink& sink) {
      text(sink);
      sink("\nPass --yes to delete.\n");
    };
  }
  return write;
}

// §6 restore <name>.
Outcome restore_write(CuratedRun& run) {
  if (!positionals(run, 1, "restore <name>")) return std::nullopt;
  const std::string name = run.inv.positionals[0];
  const bool dry_run = is_dry_run(run);
  Outcome write =
      run_write(run, dry_run, [&](const Snapshot& files, const curated::WriteContext& context) {
        return curated::plan_restore(files, context, name);
      });
  if (!write || write->refused()) return write;
  run.reply.data = fixed(curated_restore_json(run.workspace, dry_run, *write));
  write_text(run, "restore " + name, dry_run, *write, entry_of(*write, name));
  return write;
}

std::string checkpoint_text(const curated::Checkpoint& checkpoint, bool dry_run) {
  std::string text = "checkpoint: ";
  text += checkpoint.rejected        ? "rejected, nothing written\n"
          : dry_run                  ? "dry run, nothing written\n"
          : checkpoint.write.changed ? "applied\n"
                                     : "unchanged, nothing written\n";
  for (const curated::CheckpointOperation& op : checkpoint.operations) {
    text += "  " + op.op + " " + op.name + (op.dst ? " -> " + *op.dst : "") + ": " + op.result +
            (op.error ? " (" + *op.error + ")" : "") + "\n";
  }
  const std::vector<std::string> files = checkpoint.write.files();
  if (!checkpoint.rejected && !files.empty()) {
    text += std::string(dry_run ? "It would write:\n" : "Written:\n") + indented(files);
  }
  return text;
}

}  // namespace

void run_curated_add(CuratedRun& run) { (void)add_write(run); }
void run_curated_append(CuratedRun& run) { (void)append_write(run); }
void run_curated_edit(CuratedRun& run) { (void)edit_write(run); }
void run_curated_reclassify(CuratedRun& run) { (void)reclassify_write(run); }
void run_curated_link(CuratedRun& run) { (void)link_write(run); }
void run_curated_delete(CuratedRun& run) { (void)delete_write(run); }
void run_curated_restore(CuratedRun& run) { (void)restore_write(run); }

// §10 checkpoint --file F|- [--initiative I] [--project-ref R] [--dry-run]: one transaction.
void run_curated_checkpoint(CuratedRun& run) {
  if (!positionals(run, 0, "checkpoint")) return;
  const std::optional<std::string> payload = file_argument(run);
  if (!payload) return;
  const std::optional<std::string> initiative = option(run.inv, "--initiative");
  const std::optional<std::string> project_ref = option(run.inv, "--project-ref");
  const bool dry_run = is_dry_run(run);
  // run_write may plan twice (unlocked, then under the lock): the last plan is the one written.
  curated::Checkpoint checkpoint;
  const Outcome write =
      run_write(run, dry_run, [&](const Snapshot& files, const curated::WriteContext& context) {
        checkpoint = curated::plan_checkpoint(files, context, *payload, initiative, project_ref);
        return checkpoint.write;
      });
  if (!write) return;
  // A refused argument (--initiative, --project-ref) is refused like any command's, without data;
  // a rejected payload still reports its operations (§10).
  const bool rejected_payload =
      std::any_of(write->findings.begin(), write->findings.end(),
                  [](const Finding& f) { return f.code == "MK-CUR-020"; });
  if (checkpoint.rejected && !rejected_payload) return;
  run.reply.data = fixed(curated_checkpoint_json(run.workspace, dry_run, checkpoint, run.ts));
  if (run.inv.format == OutputFormat::text) {
    run.reply.text = fixed(checkpoint_text(checkpoint, dry_run));
  }
}

// What one pass over a batch's operations found: a result per operation, and the findings.
struct BatchPass {
  std::vector<CuratedBatchResult> results;
  std::vector<std::size_t> failed;
  std::vector<Finding> findings;
};

// Each operation of `batch` in order, as its command would run, planned over the files as the
// operations before it left them (`staged`) and staged there. Each runs from a request built from
// its keys (a key k is the option --k with "_" as "-"; name, src and dst are the positionals where
// the command takes them), with a reply of its own: its findings join the batch's (once each), and
// a refusal, fatal or not, fails that operation only and is kept as an ERROR of the batch, its
// message naming the operation. A delete needs "yes": true: a batch has no dry run to show, so a
// delete without it fails (MK-ARG-001) rather than doing nothing unseen.
BatchPass stage_batch(CuratedRun& run, const CuratedBatch& batch,
                      curated::StagedWrites& staged) {
  static const std::map<std::string, Outcome (*)(CuratedRun&)> kOps = {
      {"add", add_write},      {"append", append_write},
      {"edit", edit_write},    {"reclassify", reclassify_write},
      {"link", link_write},    {"unlink", link_write},
      {"delete", delete_write}};
  BatchPass pass;
  for (std::size_t index = 0; index < batch.items.size(); ++index) {
    const CuratedBatchItem& item = batch.items[index];
    CommandRequest request;
    request.group = run.inv.group;
    request.command = item.op;
    request.format = OutputFormat::json;  // no text view per operation
    request.now = run.inv.now;
    request.lock_timeout_seconds = run.inv.lock_timeout_seconds;
    const bool positional_name =
        item.op == "append" || item.op == "reclassify" || item.op == "delete";
    std::string name;
    std::string dst;
    for (const CuratedBatchArgument& argument : item.arguments) {
      if (argument.key == "name") name = argument.value;
      if (argument.key == "src") name = argument.value;
      if (argument.key == "dst") dst = argument.value;
      if ((argument.key == "name" && positional_name) || argument.key == "src" ||
          argument.key == "dst") {
        continue;
      }
      std::string key = "--" + argument.key;
      std::replace(key.begin(), key.end(), '_', '-');
      request.options[key] = argument.value;
    }
    if (positional_name || item.op == "link" || item.op == "unlink") {
      request.positionals.push_back(name);
    }
    if (item.op == "link" || item.op == "unlink") request.positionals.push_back(dst);
    if (item.hard) request.flags.emplace_back("--hard");
    if (item.yes) request.flags.emplace_back("--yes");

    CommandReply reply;
    reply.command = run.reply.command;
    CuratedRun op{.inv = request,
                  .env = run.env,
                  .now = run.now,
                  .ts = run.ts,
                  .store = run.store,
                  .workspace = run.workspace,
                  .config = run.config,
                  .actor = run.actor,
                  .reply = reply,
                  .staged = &staged};
    Outcome write;
    if (item.op == "delete" && !item.yes) {
      op.reply.findings.push_back(make_fatal(
          "MK-ARG-001", "",
          "\"yes\": true is required to delete in a batch, which has no dry run to show",
          "add \"yes\": true, or preview the delete with `memkit curated delete " + name + "`"));
    } else {
      write = kOps.at(item.op)(op);
    }
    CuratedBatchResult result{.index = index,
                              .op = item.op,
                              .name = name,
                              .result = "unchanged",
                              .error = {},
                              .files = {}};
    const auto refused = std::find_if(reply.findings.begin(), reply.findings.end(), refusal);
    if (!write || refused != reply.findings.end()) {
      result.result = "failed";
      result.error = refused != reply.findings.end() ? refused->code : "MK-CUR-022";
      pass.failed.push_back(index);
    } else if (write->changed) {
      result.result = "applied";
      result.files = write->files();
    }
    for (Finding& f : reply.findings) {
      if (refusal(f)) {
        // The operation's refusal stays in the reply under its own code, scoped to the operation.
        // It is an ERROR of the batch (exit 1, §10): the other operations ran, so the reply must
        // not read as a refused invocation (fatal, exit 2).
        f.message = "batch operation " + std::to_string(index) + " (" + item.op + " " + name +
                    "): " + f.message;
        f.severity = Severity::error;
        f.fatal = false;
      }
      if (std::find(pass.findings.begin(), pass.findings.end(), f) == pass.findings.end()) {
        pass.findings.push_back(std::move(f));
      }
    }
    pass.results.push_back(std::move(result));
  }
  return pass;
}

// §10 batch --file ops.json (the shape of the file: parse_curated_batch in
// memkit/curated_json.hpp). A malformed file is MK-ARG-001 and nothing runs. The operations are
// staged in order (stage_batch), then the ones that change something are written as one
// transaction, under the lock, from files read under it (staged again if they changed since):
// a crash leaves none or all of them. Any failure adds MK-CUR-022 ERROR.
void run_curated_batch(CuratedRun& run) {
  if (!positionals(run, 0, "batch")) return;
  const std::optional<std::string> file = file_argument(run);
  if (!file) return;
  const CuratedBatch batch = parse_curated_batch(*file);
  if (!batch.problem.empty()) {
    run.reply.findings.push_back(make_fatal(
        "MK-ARG-001", "", "--file: malformed batch: " + batch.problem,
        R"(send a JSON array of objects {"op": ..., and the command's options without "--", )"
        R"("_" for "-", as strings ("hard" and "yes" booleans)}; nothing was run)"));
    return;
  }
  // The writer boundary once for the whole batch (§11), rather than once per operation.
  if (!writer_allowed(
          run, "propose the operations one by one with --dry-run and let a writer apply them"))
    return;
  // A hard delete rewrites the logs, so a batch with one reads them whole.
  const bool purge = std::any_of(batch.items.begin(), batch.items.end(),
                                 [](const CuratedBatchItem& item) { return item.hard; });
  const curated::WriteInputs inputs = curated::write_inputs(run.workspace, purge);
  const std::optional<Snapshot> unlocked = read_inputs(run, inputs);
  if (!unlocked) return;
  curated::StagedWrites staged(*unlocked, inputs.tails);
  BatchPass pass = stage_batch(run, batch, staged);
  if (!staged.empty()) {
    std::optional<LockedInputs> locked = lock_and_read(run, inputs);
    if (!locked) return;
    if (!same_files(*unlocked, locked->files)) {
      staged = curated::StagedWrites(std::move(locked->files), inputs.tails);
      pass = stage_batch(run, batch, staged);
    }
  }
  if (!staged.empty()) {
    Result<std::vector<std::string>> done =
        run.store.write("curated batch", staged.operations(), run.now);
    if (done.ok()) {
      run.reply.applied = true;
    } else {
      // Nothing of the batch was written: the operations that would have been are failed too.
      const Finding why = curated_finding(done.status());
      for (CuratedBatchResult& result : pass.results) {
        if (result.result != "applied") continue;
        result.result = "failed";
        result.error = why.code;
        result.files.clear();
        pass.failed.push_back(result.index);
      }
      std::sort(pass.failed.begin(), pass.failed.end());
      pass.findings.push_back(why);
    }
  }
  for (Finding& f : pass.findings) run.reply.findings.push_back(std::move(f));
  const std::vector<CuratedBatchResult>& results = pass.results;
  if (!pass.failed.empty()) {
    std::string which;
    for (const std::size_t i : pass.failed) {
      which += (which.empty() ? "" : ", ") + std::to_string(i);
    }
    run.reply.findings.push_back(make_finding(
        "MK-CUR-022", Severity::error, "",
        "batch had failures: " + std::to_string(pass.failed.size()) + " of " +
            std::to_string(results.size()) + " operations failed (index " + which + ")",
        "see data.results and the findings; the other operations were applied"));
  }
  run.reply.data = fixed(curated_batch_json(run.workspace, results));
  if (run.inv.format == OutputFormat::text) {
    std::string text = "batch: " + std::to_string(results.size()) + " operations, " +
                       std::to_string(pass.failed.size()) + " failed\n";
    for (const CuratedBatchResult& r : results) {
      text += "  [" + std::to_string(r.index) + "] " + r.op + " " + r.name + ": " + r.result +
              (r.error.empty() ? "" : " (" + r.error + ")") + "\n";
    }
    run.reply.text = fixed(std::move(text));
  }
}

}  // namespace memkit::commands_detail
