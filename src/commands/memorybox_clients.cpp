// `memkit memorybox client set --client C --to S [--apply --confirm-plan ID]` (memorybox.md §10,
// §11). active ↔ maintenance is a field update written directly, as `memorybox update` writes its
// events (memorybox.md §1: field updates apply directly); a move to or from archived is
// plan-confirmed (compaction.md §12.3) under the root's lock, like the other MemoryBox moves.
#include "memkit/memorybox/clients.hpp"

#include <fmt/format.h>

#include <memory>

#include "commands/flow.hpp"
#include "commands/text_view.hpp"
#include "json/json.hpp"

namespace memkit::commands_detail {
namespace {

using memorybox::ClientSet;

std::string client_set_text(const ClientSet& set, bool applied,
                            const std::vector<std::string>& written) {
  std::string out =
      fmt::format("Client: {}\nFrom: {}\nTo: {}\n\n", set.client,
                  memorybox::lifecycle_name(set.from), memorybox::lifecycle_name(set.to));
  if (!set.splices.empty()) {
    return out + (applied ? "Updated " + set.profile : "Nothing written.") + "\n";
  }
  if (!set.plan && set.findings.empty() && set.from == set.to) {
    return out + fmt::format("Nothing to change: the lifecycle of {} is {} already.\n", set.client,
                             memorybox::lifecycle_name(set.to));
  }
  return out + view::memorybox_plan_outcome(set.plan, applied, written);
}

PlannedRun planned_run(ClientSet planned) {
  auto set = std::make_shared<const ClientSet>(std::move(planned));
  PlannedRun made;
  made.findings = set->findings;
  made.plan = set->plan;
  made.data = [set](bool applied, const std::vector<std::string>& written) {
    return fixed(memorybox_client_set_json(*set, applied, written));
  };
  made.text = [set](bool applied, const std::vector<std::string>& written) {
    return fixed(client_set_text(*set, applied, written));
  };
  return made;
}

void refuse(MemoryBoxRun& run, std::string message) {
  run.reply.findings.push_back(finding_from(Status(Errc::invalid_argument, std::move(message))));
}

}  // namespace

void run_memorybox_client_set(MemoryBoxRun& run) {
  const std::vector<std::string>& words = run.inv.positionals;
  if (words.size() != 1 || words[0] != "set") {
    refuse(run, "memorybox client: expected `set --client C --to active|maintenance|archived`");
    return;
  }
  // The command's full name (§11), which is also its plan's command.
  run.reply.command = "memorybox client set";
  const std::optional<std::string> client = option(run.inv, "--client");
  const std::optional<std::string> to_name = option(run.inv, "--to");
  if (!client || !to_name) {
    refuse(run, "memorybox client set: --client and --to are required");
    return;
  }
  const std::optional<memorybox::Lifecycle> to = memorybox::parse_lifecycle(*to_name);
  if (!to) {
    refuse(run, "--to: expected active, maintenance or archived, got '" + *to_name + "'");
    return;
  }
  if (Status checked = memorybox::check_client_request(run.inputs.profile, *client);
      !checked.ok()) {
    run.reply.findings.push_back(finding_from(checked));
    return;
  }
  Snapshot files;
  auto plan_now = [&](memorybox::Profile profile) -> Result<ClientSet> {
    Result<Snapshot> read = run.root.read_client_files(*client);
    if (!read) return read.status();
    files = std::move(read).value();
    return memorybox::plan_client_set(profile, files, *client, *to);
  };
  Result<ClientSet> first = plan_now(run.inputs.profile);
  if (!first) {
    run.reply.findings.push_back(finding_from(first.status()));
    return;
  }
  const bool confirming = has_flag(run.inv, "--apply") || option(run.inv, "--confirm-plan");
  if (!first->splices.empty()) {
    if (confirming) {
      refuse(run, "--apply, --confirm-plan: " + *client + " goes from " +
                      std::string(memorybox::lifecycle_name(first->from)) + " to " + *to_name +
                      ", a field update that is written directly; give neither");
      return;
    }
    // Written under the lock, from the files read again there.
    const std::unique_ptr<LockHandle> lock = lock_for_write(run);
    if (!lock) return;
    const Result<memorybox::Inputs> inputs = run.root.read_memorybox_inputs();
    if (!inputs) {
      run.reply.findings.push_back(finding_from(inputs.status()));
      return;
    }
    Result<ClientSet> again = plan_now(inputs->profile);
    if (!again) {
      run.reply.findings.push_back(finding_from(again.status()));
      return;
    }
    // The client may have been archived (or set to the target) meanwhile: then no field is
    // written here, and the reply shows what there is to do now.
    Status written;
    if (!again->splices.empty()) {
      const FileSnapshot* profile = files.find(again->profile);
      written = run.root.write_file(again->profile, apply_splices(profile->text(), again->splices));
    }
    if (!written.ok()) run.reply.findings.push_back(finding_from(written));
    if (again->splices.empty()) {
      for (const Finding& f : again->findings) run.reply.findings.push_back(f);
    }
    const bool applied = written.ok() && !again->splices.empty();
    run.reply.applied = applied;
    const std::vector<std::string> paths =
        applied ? std::vector<std::string>{again->profile} : std::vector<std::string>{};
    run.reply.data = fixed(memorybox_client_set_json(*again, applied, paths));
    if (run.inv.format == OutputFormat::text) {
      run.reply.text = fixed(client_set_text(*again, applied, paths));
    }
    return;
  }
  run_planned(run.inv, run.reply, writer_of(run), [&](bool under_lock) -> Result<PlannedRun> {
    if (!under_lock) return planned_run(std::move(*first));
    const Result<memorybox::Inputs> inputs = run.root.read_memorybox_inputs();
    if (!inputs) return inputs.status();
    Result<ClientSet> again = plan_now(inputs->profile);
    if (!again) return again.status();
    if (!again->splices.empty()) {
      // The client left archived (or maintenance) since the dry run: what is left to do is a
      // field update, which is not the move that was confirmed.
      again->findings.push_back(make_finding(
          "MK-PLAN-001", Severity::blocker, "",
          "stale or mismatched plan: confirmed " + option(run.inv, "--confirm-plan").value_or("") +
              ", but " + *client + " is " + std::string(memorybox::lifecycle_name(again->from)) +
              " now, a field update that is written without --apply; no files written",
          "review the current dry run"));
    }
    return planned_run(std::move(again).value());
  });
}

}  // namespace memkit::commands_detail
