// `memkit memorybox gate` (memorybox.md §4): the candidate and the host's judgements as flags, the
// verdict as data, and with --apply the WRITE written directly (it is additive).
#include "memkit/memorybox/gate.hpp"

#include <fmt/format.h>

#include <map>

#include "commands/flow.hpp"
#include "json/json.hpp"
#include "memkit/text.hpp"

namespace memkit::commands_detail {
namespace {

using memorybox::Gate;
using memorybox::GateAnswer;

// The judgements given as flags, checked for conflicts, as answers per gate.
struct FlagJudgements {
  std::array<std::optional<GateAnswer>, 5> answers;
};

template <class Fill>
GateAnswer answer(Fill&& fill) {
  GateAnswer a;
  fill(a);
  return a;
}

Result<FlagJudgements> judgements_of(const CommandRequest& inv) {
  FlagJudgements out;
  auto set = [&](Gate gate, GateAnswer answer) {
    out.answers[static_cast<std::size_t>(gate)] = std::move(answer);
  };
  auto conflict = [](std::string_view flags) {
    return Status(Errc::invalid_argument, fmt::format("give at most one of {}", flags));
  };
  if (const std::optional<std::string> value = option(inv, "--value")) {
    if (*value != "yes" && *value != "no") {
      return Status(Errc::invalid_argument, "--value: expected yes or no, got '" + *value + "'");
    }
    set(Gate::value, answer([&](GateAnswer& a) { a.value = *value == "yes"; }));
  }
  const std::optional<std::string> category = option(inv, "--category");
  const std::optional<std::string> created = option(inv, "--new-category");
  const bool no_category = has_flag(inv, "--no-category");
  if (int(category.has_value()) + int(created.has_value()) + int(no_category) > 1) {
    return conflict("--category, --new-category and --no-category");
  }
  if (category) {
    set(Gate::alignment, answer([&](GateAnswer& a) {
          a.alignment = memorybox::Alignment::existing;
          a.category = *category;
        }));
  } else if (created) {
    set(Gate::alignment, answer([&](GateAnswer& a) {
          a.alignment = memorybox::Alignment::create;
          a.category = *created;
        }));
  } else if (no_category) {
    set(Gate::alignment, answer([&](GateAnswer& a) { a.alignment = memorybox::Alignment::none; }));
  }
  const std::optional<std::string> redundant = option(inv, "--redundant-with");
  if (redundant && has_flag(inv, "--not-redundant")) {
    return conflict("--redundant-with and --not-redundant");
  }
  if (redundant)
    set(Gate::redundancy, answer([&](GateAnswer& a) { a.redundant_with = *redundant; }));
  if (has_flag(inv, "--not-redundant")) set(Gate::redundancy, GateAnswer{});
  const std::optional<std::string> trigger = option(inv, "--decay-trigger");
  if (trigger && has_flag(inv, "--stable")) return conflict("--stable and --decay-trigger");
  if (trigger) set(Gate::freshness, answer([&](GateAnswer& a) { a.decay_trigger = *trigger; }));
  if (has_flag(inv, "--stable"))
    set(Gate::freshness, answer([&](GateAnswer& a) { a.stable = true; }));
  const std::optional<std::string> tier = option(inv, "--tier");
  const std::optional<std::string> file = option(inv, "--file");
  if (tier.has_value() != file.has_value()) {
    return Status(Errc::invalid_argument, "--tier and --file: give both (PLACEMENT) or neither");
  }
  if (tier) {
    if (tier->size() != 1 || (*tier)[0] < '0' || (*tier)[0] > '9') {
      return Status(Errc::invalid_argument, "--tier: expected 1 to 5, got '" + *tier + "'");
    }
    set(Gate::placement, answer([&](GateAnswer& a) {
          a.tier = (*tier)[0] - '0';
          a.file = *file;
        }));
  }
  return out;
}

// The candidate's flags; a confidence outside the §3 form is the fatal MK-BOX-001.
Result<memorybox::Candidate> candidate_of(const CommandRequest& inv, Finding& refusal) {
  memorybox::Candidate candidate;
  const std::optional<std::string> text = option(inv, "--text");
  if (!text) return Status(Errc::invalid_argument, "--text: required");
  if (Status plain = check_plain_text("--text", *text); !plain.ok()) return plain;
  candidate.text = *text;
  const std::optional<std::string> confidence = option(inv, "--confidence");
  if (!confidence) return Status(Errc::invalid_argument, "--confidence: required");
  const std::optional<std::uint32_t> parsed = memorybox::parse_confidence(*confidence);
  if (!parsed) {
    refusal = make_fatal(
        "MK-BOX-001", "",
        "--confidence: expected 0 to 1 with at most two decimals, got '" + *confidence + "'");
    return Status(Errc::invalid_argument, refusal.message);
  }
  candidate.confidence = *parsed;
  for (auto [flag, slot] :
       {std::pair{"--title", &candidate.title}, std::pair{"--source", &candidate.source},
        std::pair{"--client", &candidate.client}}) {
    if (const std::optional<std::string> value = option(inv, flag)) {
      if (Status plain = check_plain_text(flag, *value); !plain.ok()) return plain;
      *slot = *value;
    }
  }
  return candidate;
}

// A question as a key: its gate and everything it shows the host.
std::string question_key(const memorybox::GateQuestion& q) {
  std::string key = std::to_string(static_cast<int>(q.gate));
  auto add = [&key](std::string_view part) {
    key += '\0';
    key += part;
  };
  for (const std::string& c : q.categories) add(c);
  add("|");
  for (const memorybox::NearDuplicate& d : q.near_duplicates) {
    add(d.entry_id);
    add(std::to_string(d.similarity));
  }
  add("|");
  for (const std::string& e : q.category_entries) add(e);
  add("|");
  add(q.category);
  return key;
}

std::string gate_text(const memorybox::GateVerdict& verdict, bool applied) {
  std::string out = fmt::format("Outcome: {}\n", memorybox::outcome_name(verdict.outcome));
  for (const memorybox::GateStep& step : verdict.gates) {
    const std::string line = fmt::format("  {:<11} {:<15} {}", memorybox::gate_name(step.gate),
                                         step.result, step.detail);
    out += std::string(rstrip_w(line)) + "\n";
  }
  if (!verdict.near_duplicates.empty()) {
    out += "Near-duplicates:\n";
    for (const memorybox::NearDuplicate& d : verdict.near_duplicates) {
      out += fmt::format("  {}.{:02}  {}\n", d.similarity / 100, d.similarity % 100, d.entry_id);
    }
  }
  if (verdict.entry_id) out += "Entry: " + *verdict.entry_id + "\n";
  if (verdict.outcome == memorybox::Outcome::write) {
    out += fmt::format("{} {} (tier {}):\n", applied ? "Wrote to" : "Would write to", *verdict.file,
                       *verdict.tier);
    for (std::string_view rest = *verdict.entry_text; !rest.empty();) {
      const std::size_t lf = rest.find('\n');
      out += "  | " + std::string(rest.substr(0, lf)) + "\n";
      rest = lf == std::string_view::npos ? std::string_view() : rest.substr(lf + 1);
    }
    if (!applied) out += "Run again with --apply to write it.\n";
  }
  return out;
}

}  // namespace

void run_memorybox_gate(MemoryBoxRun& run) {
  CommandReply& reply = run.reply;
  Finding refusal;
  const Result<memorybox::Candidate> candidate = candidate_of(run.inv, refusal);
  if (!candidate) {
    reply.findings.push_back(refusal.code.empty() ? finding_from(candidate.status()) : refusal);
    return;
  }
  const Result<FlagJudgements> flags = judgements_of(run.inv);
  if (!flags) {
    reply.findings.push_back(finding_from(flags.status()));
    return;
  }
  // The host's answers of the first run, by question, so that the run under the lock asks the
  // host again only what it was not asked before (a question changes when another writer added
  // an entry meanwhile).
  std::map<std::string, std::optional<GateAnswer>> asked;
  // A flag answers its gate; the host's judge, if any, answers the rest.
  const memorybox::Judge judge =
      [&flags, &asked, &host = run.inv.judge](
          const memorybox::GateQuestion& q) -> Result<std::optional<GateAnswer>> {
    const std::optional<GateAnswer>& given = flags->answers[static_cast<std::size_t>(q.gate)];
    if (given || !host) return given;
    const std::string key = question_key(q);
    if (const auto known = asked.find(key); known != asked.end()) return known->second;
    Result<std::optional<GateAnswer>> answered = host(q);
    if (answered) asked.emplace(key, *answered);
    return answered;
  };
  auto gates = [&](const memorybox::Inputs& inputs) -> std::optional<memorybox::GateVerdict> {
    const Result<memorybox::GateIndex> index = memorybox::GateIndex::build(inputs);
    if (!index) {
      reply.findings.push_back(make_finding("MK-PARSE-001", Severity::blocker, "",
                                            index.status().message() + "; no gate runs"));
      return std::nullopt;
    }
    memorybox::GateVerdict verdict =
        memorybox::run_gates(inputs, *index, *candidate, judge, run.now);
    if (verdict.refusal) {
      reply.findings.push_back(*verdict.refusal);
      return std::nullopt;
    }
    return verdict;
  };
  std::optional<memorybox::GateVerdict> verdict = gates(run.inputs);
  if (!verdict) return;
  std::vector<std::string> written;
  if (has_flag(run.inv, "--apply") && verdict->outcome == memorybox::Outcome::write) {
    // Only a WRITE takes the lock (any other outcome leaves no .memkit/ behind); under it the
    // gates run again over the files as they are now, so that an entry another process wrote
    // meanwhile is neither lost nor written twice.
    const std::unique_ptr<LockHandle> lock = lock_for_write(run);
    if (!lock) return;
    const Result<memorybox::Inputs> inputs = run.root.read_memorybox_inputs();
    if (!inputs) {
      reply.findings.push_back(finding_from(inputs.status()));
      return;
    }
    verdict = gates(*inputs);
    if (!verdict) return;
    if (verdict->outcome == memorybox::Outcome::write) {
      const FileSnapshot* file = inputs->snapshot.find(*verdict->file);
      const std::string_view base = verdict->creates_file || file == nullptr
                                        ? std::string_view()
                                        : std::string_view(*file->bytes);
      if (Status saved =
              run.root.write_file(*verdict->file, apply_splices(base, verdict->splices), true);
          !saved.ok()) {
        reply.findings.push_back(finding_from(saved));
        return;
      }
      written.push_back(*verdict->file);
      reply.applied = true;
    }
  }
  reply.findings.insert(reply.findings.end(), verdict->findings.begin(), verdict->findings.end());
  reply.data = fixed(memorybox_gate_json(*verdict, reply.applied, written));
  if (run.inv.format == OutputFormat::text) reply.text = fixed(gate_text(*verdict, reply.applied));
}

}  // namespace memkit::commands_detail
