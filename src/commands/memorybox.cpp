// The MemoryBox commands (memorybox.md §2-§8, §11) over an AgentRoot: init, status, decay, load,
// hygiene and update.
#include "memkit/memorybox.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>

#include "commands/flow.hpp"
#include "commands/text_view.hpp"
#include "memkit/text.hpp"
#include "store/agent_root.hpp"

namespace memkit::commands_detail {

using namespace view;  // NOLINT: the text views of the commands below

namespace {

// memorybox.md §6: exactly one event of `memorybox update`.
Result<memorybox::UpdateRequest> update_request(const CommandRequest& inv) {
  memkit::memorybox::UpdateRequest request;
  const auto entry = inv.options.find("--entry");
  if (entry == inv.options.end()) return Status(Errc::invalid_argument, "--entry: required");
  request.entry_id = entry->second;
  std::vector<memorybox::UpdateEvent> events;
  if (has_flag(inv, "--verify")) events.push_back(memorybox::UpdateEvent::verify);
  if (has_flag(inv, "--confirm")) events.push_back(memorybox::UpdateEvent::confirm);
  if (has_flag(inv, "--contradict")) events.push_back(memorybox::UpdateEvent::contradict);
  if (const auto resolve = inv.options.find("--resolve"); resolve != inv.options.end()) {
    // --resolve archive is a plan of its own (run_memorybox_resolve_archive).
    if (resolve->second != "keep") {
      return Status(Errc::invalid_argument,
                    "--resolve: expected keep or archive, got '" + resolve->second + "'");
    }
    events.push_back(memorybox::UpdateEvent::resolve_keep);
  }
  if (events.size() != 1) {
    return Status(Errc::invalid_argument,
                  "memorybox update: give exactly one of --verify, --confirm, --contradict and "
                  "--resolve keep|archive");
  }
  request.event = events[0];
  if (has_flag(inv, "--apply") || inv.options.count("--confirm-plan") != 0) {
    return Status(Errc::invalid_argument,
                  "--apply, --confirm-plan: only with --resolve archive; other events apply "
                  "directly");
  }
  if (const auto note = inv.options.find("--note"); note != inv.options.end()) {
    if (request.event != memorybox::UpdateEvent::contradict) {
      return Status(Errc::invalid_argument, "--note: only with --contradict");
    }
    if (Status text = check_plain_text("--note", note->second); !text.ok()) return text;
    request.note = note->second;
  }
  if (const auto confidence = inv.options.find("--confidence"); confidence != inv.options.end()) {
    if (request.event != memorybox::UpdateEvent::resolve_keep) {
      return Status(Errc::invalid_argument, "--confidence: only with --resolve keep");
    }
    request.confidence = memorybox::parse_confidence(confidence->second);
    if (!request.confidence) {
      return Status(Errc::invalid_argument,
                    "--confidence: expected 0 to 1 with at most two "
                    "decimals, got '" +
                        confidence->second + "'");
    }
  }
  return request;
}

}  // namespace

// memorybox.md §2 and §11: the MemoryBox layout under an agent root (--root, default ".").
void run_memorybox(const CommandRequest& inv, const CommandEnvironment& env, CommandReply& reply) {
  const Style style{env.stdout_is_terminal && !env.no_colour};
  const std::optional<ClockReading> now = start_command(
      inv, env, reply, inv.command == "canon" || inv.command == "client" || inv.command == "sync");
  if (!now) return;
  const auto given = inv.options.find("--root");
  const std::string root_path = given == inv.options.end() ? "." : given->second;
  std::optional<memorybox::Profile> profile;
  if (inv.command == "init") {
    if (const std::optional<std::string> name = option(inv, "--profile")) {
      profile = memorybox::parse_profile(*name);
      if (!profile) {
        reply.findings.push_back(finding_from(Status(
            Errc::invalid_argument, "--profile: expected default or maven, got '" + *name + "'")));
        return;
      }
    }
  }
  // `init` makes the root when it is missing, as `custodian init` makes its memory folder.
  Result<AgentRoot> root = inv.command == "init"
                               ? AgentRoot::create(posix_file_system(), root_path)
                               : AgentRoot::open(posix_file_system(), root_path);
  if (!root) {
    reply.findings.push_back(finding_from(root.status()));
    return;
  }
  if (inv.command == "recover") {
    // compaction.md §12.5 for the agent root: what a crash (or a failed write) left in
    // .memkit/txn. Other writes finish memorybox's own transactions themselves; this also rolls
    // them back, and says why one cannot be finished.
    run_recover(
        inv, reply, [&] { return root->lock(inv.lock_timeout_seconds); },
        [&](bool apply, bool rollback) { return root->recover(apply, rollback); });
    return;
  }
  if (inv.command == "init") {
    if (Status checked = root->check_init_folders(); !checked.ok()) {
      reply.findings.push_back(finding_from(checked));
      return;
    }
    // Like every write: under the lock, after what a crash left of memorybox's own transactions is
    // finished (MK-TXN-001 when it cannot be).
    const Result<std::unique_ptr<LockHandle>> lock = root->lock(inv.lock_timeout_seconds);
    if (!lock) {
      reply.findings.push_back(finding_from(lock.status()));
      return;
    }
    if (!finish_transactions([&](bool apply) { return root->recover(apply); }, "memorybox",
                             reply)) {
      return;
    }
    const Result<MemoryBoxInit> made = root->init_memorybox(profile);
    if (!made) {
      reply.findings.push_back(finding_from(made.status()));
      return;
    }
    reply.data = fixed(memorybox_init_json(*made));
    if (inv.format == OutputFormat::text) reply.text = fixed(memorybox_init_text(*made));
    return;
  }
  const Result<memorybox::Inputs> inputs = memorybox_reads_its_own_files(inv)
                                               ? Result<memorybox::Inputs>(memorybox::Inputs{})
                                               : root->read_memorybox_inputs();
  if (!inputs) {
    reply.findings.push_back(finding_from(inputs.status()));
    return;
  }
  MemoryBoxRun run{inv, env, *now, *root, *inputs, style, reply};
  if (inv.command == "gate") {
    run_memorybox_gate(run);
    return;
  }
  if (inv.command == "canon") {
    run_memorybox_canon(run);
    return;
  }
  if (inv.command == "log") {
    run_memorybox_log(run);
    return;
  }
  if (inv.command == "client") {
    run_memorybox_client_set(run);
    return;
  }
  if (inv.command == "sync") {
    run_memorybox_sync(run);
    return;
  }
  if (inv.command == "compact") {
    run_memorybox_compact(run);
    return;
  }
  if (inv.command == "promote") {
    run_memorybox_promote(run);
    return;
  }
  if (inv.command == "update" &&
      option(inv, "--resolve") == std::optional<std::string>("archive")) {
    run_memorybox_resolve_archive(run);
    return;
  }
  if (inv.command == "hygiene") {
    const Result<std::optional<memorybox::SyncHygiene>> sync = sync_hygiene_of(run);
    if (!sync) {
      reply.findings.push_back(finding_from(sync.status()));
      return;
    }
    const memorybox::Hygiene hygiene =
        memorybox::memorybox_hygiene(*inputs, *now, *sync ? &**sync : nullptr);
    reply.findings = hygiene.findings;
    reply.data = fixed(memorybox_hygiene_json(hygiene));
    if (inv.format == OutputFormat::text)
      reply.text = fixed(memorybox_hygiene_text(hygiene, style));
    return;
  }
  if (inv.command == "update") {
    const Result<memorybox::UpdateRequest> request = update_request(inv);
    if (!request) {
      // An invalid confidence argument has its own code (memorybox.md §12).
      const bool confidence = request.status().message().rfind("--confidence:", 0) == 0;
      reply.findings.push_back(confidence ? make_fatal("MK-BOX-001", "", request.status().message())
                                          : finding_from(request.status()));
      return;
    }
    // Planned first without the lock, so that a refusal leaves no .memkit/ behind; then again
    // from the files read under it, so that a write of another process is never undone.
    if (const Result<memorybox::UpdatePlanning> first =
            memorybox::plan_update(*inputs, *request, *now);
        !first) {
      reply.findings.push_back(finding_from(first.status()));
      return;
    }
    const std::unique_ptr<LockHandle> lock = lock_for_write(run);
    if (!lock) return;
    const Result<memorybox::Inputs> locked = root->read_memorybox_inputs();
    if (!locked) {
      reply.findings.push_back(finding_from(locked.status()));
      return;
    }
    const Result<memorybox::UpdatePlanning> update =
        memorybox::plan_update(*locked, *request, *now);
    if (!update) {
      reply.findings.push_back(finding_from(update.status()));
      return;
    }
    const FileSnapshot* file = locked->snapshot.find(update->path);
    if (Status written =
            root->write_file(update->path, apply_splices(file->text(), update->splices));
        !written.ok()) {
      reply.findings.push_back(finding_from(written));
      reply.data = fixed(memorybox_update_json(*update, {}));
      return;
    }
    reply.applied = true;
    reply.data = fixed(memorybox_update_json(*update, {update->path}));
    if (inv.format == OutputFormat::text) {
      reply.text = fixed("Updated " + update->entry_id + " in " + update->path + "\n");
    }
    return;
  }
  if (inv.command == "load") {
    std::optional<int> tier;
    if (const auto given_tier = inv.options.find("--tier"); given_tier != inv.options.end()) {
      const std::string& text = given_tier->second;
      if (text.size() != 1 || text[0] < '0' || text[0] > '9') {
        reply.findings.push_back(finding_from(
            Status(Errc::invalid_argument, "--tier: expected 1 to 5, got '" + text + "'")));
        return;
      }
      tier = text[0] - '0';
    }
    std::optional<std::string_view> file;
    if (const auto given_file = inv.options.find("--file"); given_file != inv.options.end()) {
      file = given_file->second;
    }
    const Result<std::vector<memorybox::LoadedFile>> loaded =
        memorybox::load_files(*inputs, tier, file, has_flag(inv, "--include-archive"));
    if (!loaded) {
      reply.findings.push_back(finding_from(loaded.status()));
      return;
    }
    reply.data = fixed(memorybox_load_json(*loaded));
    if (inv.format == OutputFormat::text) {
      std::string text;
      for (const memorybox::LoadedFile& f : *loaded) {
        text += "== " + f.path + " (tier " + std::to_string(f.tier) + ", " +
                std::to_string(f.lines) + " lines) ==\n" + *f.content;
        if (!f.content->empty() && f.content->back() != '\n') text += '\n';
      }
      reply.text = fixed(text.empty() ? "No file to load.\n" : text);
    }
    return;
  }
  if (inv.command == "decay") {
    std::optional<std::string> only;
    if (const auto file = inv.options.find("--file"); file != inv.options.end()) {
      only = file->second;
      const int tier = memorybox::tier_of(*inputs, *only);
      if (tier < 1 || tier > 4) {
        reply.findings.push_back(finding_from(
            Status(Errc::invalid_argument,
                   "--file: " + *only +
                       ": not a tier 1-4 file of this agent root (memory/LONG_TERM.md, "
                       "memory/daily/YYYY-MM-DD.md, ...)")));
        return;
      }
    }
    const memorybox::DecayReport decay = memorybox::memorybox_decay(*inputs, *now, only);
    reply.findings = decay.findings;
    reply.data = fixed(memorybox_decay_json(decay));
    if (inv.format == OutputFormat::text) reply.text = fixed(memorybox_decay_text(decay, style));
    return;
  }
  const memorybox::Report status = memorybox::memorybox_status(*inputs, *now);
  reply.findings = status.findings;
  reply.data = fixed(memorybox_status_json(status));
  if (inv.format == OutputFormat::text) reply.text = fixed(memorybox_status_text(status, style));
}

}  // namespace memkit::commands_detail
