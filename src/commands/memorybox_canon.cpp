// `memkit memorybox canon add --file F --text T | verify` (memorybox.md §10): Maven's immutable
// canon. add writes the canon file, then the ledger, under the lock: a crash between the two
// leaves a file whose recorded prefix still verifies.
#include "memkit/memorybox/canon.hpp"

#include <fmt/format.h>

#include "commands/flow.hpp"
#include "json/json.hpp"

namespace memkit::commands_detail {
namespace {

std::string canon_text(const memorybox::CanonCheck& check,
                       const std::vector<std::string>& written) {
  std::string out;
  for (const std::string& path : written) out += "Wrote " + path + "\n";
  out += fmt::format("{} canon file(s) recorded, {} violation(s), {} unrecorded\n",
                     check.ledger.size(), check.violations.size(), check.unrecorded.size());
  for (const memorybox::CanonViolation& v : check.violations) {
    out += "  VIOLATION  " + v.path + ": " + v.reason + "\n";
  }
  for (const std::string& path : check.unrecorded) out += "  unrecorded " + path + "\n";
  return out;
}

void show(MemoryBoxRun& run, const memorybox::CanonCheck& check,
          const std::vector<std::string>& written) {
  run.reply.data = fixed(memorybox_canon_json(check, written));
  if (run.inv.format == OutputFormat::text) run.reply.text = fixed(canon_text(check, written));
}

void add(MemoryBoxRun& run) {
  CommandReply& reply = run.reply;
  const std::optional<std::string> file = option(run.inv, "--file");
  const std::optional<std::string> text = option(run.inv, "--text");
  if (!file || !text) {
    reply.findings.push_back(finding_from(
        Status(Errc::invalid_argument, "memorybox canon add: --file and --text are required")));
    return;
  }
  // Refused before the lock, so a default root gets no .memkit/ either.
  if (Status maven = memorybox::check_maven(run.inputs); !maven.ok()) {
    reply.findings.push_back(finding_from(maven));
    return;
  }
  // Planned first from the files read without the lock, so that a refusal leaves no .memkit/
  // behind either; then again from what is on disk under the lock.
  const Result<memorybox::CanonAddition> first =
      memorybox::plan_canon_add(run.inputs, *file, *text, run.now);
  if (!first) {
    reply.findings.push_back(finding_from(first.status()));
    return;
  }
  if (first->refusal) {
    reply.findings.push_back(*first->refusal);
    show(run, memorybox::verify_canon(run.inputs), {});
    return;
  }
  const std::unique_ptr<LockHandle> lock = lock_for_write(run);
  if (!lock) return;
  const Result<memorybox::Inputs> inputs = run.root.read_memorybox_inputs();
  if (!inputs) {
    reply.findings.push_back(finding_from(inputs.status()));
    return;
  }
  const Result<memorybox::CanonAddition> planned =
      memorybox::plan_canon_add(*inputs, *file, *text, run.now);
  if (!planned) {
    reply.findings.push_back(finding_from(planned.status()));
    return;
  }
  if (planned->refusal) {
    reply.findings.push_back(*planned->refusal);
    show(run, memorybox::verify_canon(*inputs), {});
    return;
  }
  std::vector<std::string> written;
  for (const auto& [path, bytes] :
       {std::pair<std::string, const std::string&>{planned->path, planned->bytes},
        {std::string(memorybox::kCanonLedger), planned->ledger}}) {
    if (Status saved = run.root.write_file(path, bytes, true); !saved.ok()) {
      reply.findings.push_back(finding_from(saved));
      return;
    }
    written.push_back(path);
  }
  reply.applied = true;
  reply.findings.insert(reply.findings.end(), planned->check.findings.begin(),
                        planned->check.findings.end());
  show(run, planned->check, written);
}

}  // namespace

void run_memorybox_canon(MemoryBoxRun& run) {
  const std::vector<std::string>& words = run.inv.positionals;
  if (words.size() != 1 || (words[0] != "add" && words[0] != "verify")) {
    run.reply.findings.push_back(finding_from(Status(
        Errc::invalid_argument, "memorybox canon: expected `add --file F --text T` or `verify`")));
    return;
  }
  run.reply.command = "memorybox canon " + words[0];  // as §11 names the two commands
  if (words[0] == "add") {
    add(run);
    return;
  }
  if (run.inv.options.count("--file") != 0 || run.inv.options.count("--text") != 0) {
    run.reply.findings.push_back(finding_from(
        Status(Errc::invalid_argument, "memorybox canon verify: takes no --file or --text")));
    return;
  }
  if (Status maven = memorybox::check_maven(run.inputs); !maven.ok()) {
    run.reply.findings.push_back(finding_from(maven));
    return;
  }
  const memorybox::CanonCheck check = memorybox::verify_canon(run.inputs);
  run.reply.findings = check.findings;
  show(run, check, {});
}

}  // namespace memkit::commands_detail
