// The five gates (spec memorybox.md §4): the order, the outcomes, fail-closed judgement, and the
// answers hosts give in text form.
#include <fmt/format.h>

#include "memkit/memorybox/gate.hpp"
#include "memkit/text.hpp"
#include "memorybox/gate_write.hpp"

namespace memkit::memorybox {
namespace {

std::size_t slot(Gate gate) noexcept { return static_cast<std::size_t>(gate); }

// The run so far: the verdict being filled, and how a gate ends it.
class GateRun final {
 public:
  GateRun() {
    for (Gate gate : kGates) verdict_.gates[slot(gate)].gate = gate;
  }
  void pass(Gate gate, std::string detail) {
    verdict_.gates[slot(gate)] = GateStep{gate, "pass", std::move(detail)};
  }
  GateVerdict stop(Gate gate, std::string result, Outcome outcome, std::string detail) {
    verdict_.gates[slot(gate)] = GateStep{gate, std::move(result), std::move(detail)};
    verdict_.stopped_at = gate;
    verdict_.outcome = outcome;
    return finish();
  }
  GateVerdict needs_judgement(Gate gate, std::string detail) {
    verdict_.findings.push_back(
        make_finding("MK-BOX-003", Severity::info, "",
                     fmt::format("{}: {}; nothing is written", gate_name(gate), detail)));
    return stop(gate, "needs_judgement", Outcome::needs_judgement, std::move(detail));
  }
  GateVerdict refuse(Finding finding) {
    GateVerdict refused;
    refused.refusal = std::move(finding);
    return refused;
  }
  GateVerdict finish() {
    sort_findings(verdict_.findings);
    return std::move(verdict_);
  }
  GateVerdict& verdict() noexcept { return verdict_; }

 private:
  GateVerdict verdict_;
};

Finding bad_answer(Gate gate, std::string message) {
  return make_fatal("MK-ARG-001", "", fmt::format("{}: {}", gate_name(gate), message));
}

// Asks the judge; a failure becomes the refusal MK-BOX-005.
Result<std::optional<GateAnswer>> ask(const Judge& judge, const GateQuestion& question) {
  if (!judge) return std::optional<GateAnswer>();
  Result<std::optional<GateAnswer>> answer = judge(question);
  if (!answer) {
    return Status(Errc::callback, fmt::format("{}: the host's judgement failed: {}",
                                              gate_name(question.gate), answer.status().message()));
  }
  return answer;
}

Finding judgement_failed(const Status& status) {
  return make_fatal("MK-BOX-005", "", status.message());
}

}  // namespace

std::string_view gate_name(Gate gate) noexcept {
  switch (gate) {
    case Gate::value:
      return "VALUE";
    case Gate::alignment:
      return "ALIGNMENT";
    case Gate::redundancy:
      return "REDUNDANCY";
    case Gate::freshness:
      return "FRESHNESS";
    case Gate::placement:
      return "PLACEMENT";
  }
  return "VALUE";
}

std::string_view outcome_name(Outcome outcome) noexcept {
  switch (outcome) {
    case Outcome::do_not_store:
      return "DO_NOT_STORE";
    case Outcome::discard:
      return "DISCARD";
    case Outcome::update_existing:
      return "UPDATE_EXISTING";
    case Outcome::needs_judgement:
      return "NEEDS_JUDGEMENT";
    case Outcome::write:
      return "WRITE";
    case Outcome::rejected:
      return "REJECTED";
  }
  return "NEEDS_JUDGEMENT";
}

Result<GateAnswer> parse_gate_answer(Gate gate, std::string_view text) {
  const std::string_view answer = strip_w(text);
  const std::size_t space = answer.find(' ');
  const std::string_view word = answer.substr(0, space);
  const std::string_view rest =
      space == std::string_view::npos ? std::string_view() : strip_w(answer.substr(space + 1));
  auto bad = [&](std::string_view expected) {
    return Status(Errc::invalid_argument,
                  fmt::format("{}: expected {}, got '{}'", gate_name(gate), expected, answer));
  };
  GateAnswer out;
  switch (gate) {
    case Gate::value:
      if (answer != "yes" && answer != "no") return bad("yes or no");
      out.value = answer == "yes";
      return out;
    case Gate::alignment:
      if (answer == "none") return out;
      if ((word != "existing" && word != "new") || rest.empty()) {
        return bad("existing <category>, new <name> or none");
      }
      out.alignment = word == "existing" ? Alignment::existing : Alignment::create;
      out.category = std::string(rest);
      return out;
    case Gate::redundancy:
      if (answer.empty()) return bad("an entry ID or none");
      if (answer != "none") out.redundant_with = std::string(answer);
      return out;
    case Gate::freshness:
      if (answer == "stable") {
        out.stable = true;
        return out;
      }
      if (word != "time_sensitive" || rest.empty()) {
        return bad("stable or time_sensitive <YYYY-MM-DD>");
      }
      out.decay_trigger = std::string(rest);
      return out;
    case Gate::placement: {
      if (word.size() != 1 || word[0] < '0' || word[0] > '9' || rest.empty()) {
        return bad("<tier> <file>");
      }
      out.tier = word[0] - '0';
      out.file = std::string(rest);
      return out;
    }
  }
  return bad("an answer");
}

GateVerdict run_gates(const Inputs& inputs, const GateIndex& index, const Candidate& candidate,
                      const Judge& judge, const ClockReading& now, const GateOptions& options) {
  GateRun run;
  const CivilDate today = now.local_date();
  if (strip_w(candidate.text).empty()) {
    return run.refuse(make_fatal("MK-ARG-001", "", "--text: empty"));
  }
  if (options.threshold > similarity::kMaxThreshold) {
    return run.refuse(make_fatal(
        "MK-ARG-001", "",
        fmt::format("threshold: expected 0 to 100 hundredths, got {}", options.threshold)));
  }
  // Preconditions: speculation is never stored.
  if (band_of(candidate.confidence) == Band::speculation) {
    run.verdict().outcome = Outcome::do_not_store;
    return run.finish();
  }
  GateQuestion question;
  question.candidate = &candidate;

  // 1. VALUE
  question.gate = Gate::value;
  Result<std::optional<GateAnswer>> answer = ask(judge, question);
  if (!answer) return run.refuse(judgement_failed(answer.status()));
  if (!*answer) return run.needs_judgement(Gate::value, "does this change how the agent acts?");
  if (!(*answer)->value) {
    return run.stop(Gate::value, "fail", Outcome::discard, "it does not change how the agent acts");
  }
  run.pass(Gate::value, "it changes how the agent acts");

  // 2. ALIGNMENT
  question.gate = Gate::alignment;
  question.categories = index.categories();
  answer = ask(judge, question);
  if (!answer) return run.refuse(judgement_failed(answer.status()));
  if (!*answer) {
    return run.needs_judgement(Gate::alignment,
                               "which existing category does it fit, or is a new one worthwhile?");
  }
  const GateAnswer& aligned = **answer;
  if (aligned.alignment == Alignment::none) {
    return run.stop(Gate::alignment, "fail", Outcome::discard, "no category is worth it");
  }
  const std::string category = aligned.category;
  const bool listed =
      std::binary_search(index.categories().begin(), index.categories().end(), category);
  if (aligned.alignment == Alignment::existing && !listed) {
    return run.refuse(bad_answer(
        Gate::alignment,
        fmt::format("'{}' is not an existing category; a new one needs --new-category", category)));
  }
  if (category.find_first_of("\r\n") != std::string::npos || strip_w(category) != category) {
    return run.refuse(bad_answer(
        Gate::alignment,
        fmt::format("a category is one line without surrounding spaces, got '{}'", category)));
  }
  run.pass(Gate::alignment, listed ? "fits the existing category '" + category + "'"
                                   : "creates the category '" + category + "'");
  question.category = category;
  run.verdict().category = category;

  // 3. REDUNDANCY
  if (const GateIndex::Item* same = index.exact_match(candidate_key(candidate.text))) {
    run.verdict().entry_id = same->entry_id;
    return run.stop(Gate::redundancy, "fail", Outcome::update_existing,
                    "the same text is already stored as " + same->entry_id);
  }
  run.verdict().near_duplicates = index.near_duplicates(candidate.text, options.threshold);
  std::vector<std::string> category_entries;
  for (const GateIndex::Item& item : index.items()) {
    if (item.category == category) category_entries.push_back(item.entry_id);
  }
  question.gate = Gate::redundancy;
  question.near_duplicates = run.verdict().near_duplicates;
  question.category_entries = category_entries;
  answer = ask(judge, question);
  if (!answer) return run.refuse(judgement_failed(answer.status()));
  if (!*answer && !run.verdict().near_duplicates.empty()) {
    return run.needs_judgement(
        Gate::redundancy,
        fmt::format("{} near-duplicate(s) to judge; does one of them already capture this?",
                    run.verdict().near_duplicates.size()));
  }
  if (*answer && (*answer)->redundant_with) {
    const std::string& id = *(*answer)->redundant_with;
    const auto known = std::lower_bound(
        index.items().begin(), index.items().end(), id,
        [](const GateIndex::Item& item, const std::string& key) { return item.entry_id < key; });
    if (known == index.items().end() || known->entry_id != id) {
      return run.refuse(
          bad_answer(Gate::redundancy, fmt::format("'{}' is not an entry of a tier 1-4 file", id)));
    }
    run.verdict().entry_id = id;
    return run.stop(Gate::redundancy, "fail", Outcome::update_existing,
                    "already captured by " + id + "; update that entry instead");
  }
  run.pass(Gate::redundancy, run.verdict().near_duplicates.empty()
                                 ? "no exact match and no near-duplicate"
                                 : "no exact match; the host judged the near-duplicates different");

  // 4. FRESHNESS
  question.gate = Gate::freshness;
  question.near_duplicates = {};
  question.category_entries = {};
  answer = ask(judge, question);
  if (!answer) return run.refuse(judgement_failed(answer.status()));
  if (!*answer) return run.needs_judgement(Gate::freshness, "is it stable or time-sensitive?");
  const GateAnswer freshness = **answer;
  if (!freshness.stable) {
    const std::string trigger = freshness.decay_trigger.value_or("");
    const std::optional<CivilDate> date = parse_iso_date(trigger);
    if (!date || days_between(today, *date) <= 0) {
      return run.refuse(make_fatal(
          "MK-BOX-001", "",
          fmt::format(
              "--decay-trigger: expected a date (YYYY-MM-DD) later than today ({}), got '{}'",
              now.local_date_iso(), trigger)));
    }
  }
  run.pass(Gate::freshness,
           freshness.stable ? "stable" : "time-sensitive until " + *freshness.decay_trigger);

  // 5. PLACEMENT
  question.gate = Gate::placement;
  answer = ask(judge, question);
  if (!answer) return run.refuse(judgement_failed(answer.status()));
  if (!*answer) return run.needs_judgement(Gate::placement, "which tier and file?");
  const GateAnswer placement = **answer;
  if (placement.tier < 1 || placement.tier > 5) {
    return run.refuse(bad_answer(Gate::placement,
                                 fmt::format("unknown tier {}; tiers are 1 to 5", placement.tier)));
  }
  run.verdict().tier = placement.tier;
  run.verdict().file = placement.file;
  if (std::optional<std::string> why = placement_rejection(inputs, placement, today)) {
    run.verdict().findings.push_back(
        make_finding("MK-BOX-004", Severity::error, placement.file, "PLACEMENT rejected: " + *why));
    return run.stop(Gate::placement, "fail", Outcome::rejected, *why);
  }
  WriteRequest write{candidate, category, freshness, placement.tier, placement.file, now};
  if (Status written = plan_gate_write(inputs, write, run.verdict()); !written.ok()) {
    if (written.code() == Errc::invalid_utf8) {  // compaction.md §17: a file it would change
      return run.refuse(make_finding("MK-UTF8-001", Severity::blocker, placement.file,
                                     written.message(),
                                     "fix the encoding; memkit will not change this file"));
    }
    return run.refuse(make_fatal("MK-ARG-001", "", written.message()));
  }
  run.pass(Gate::placement, fmt::format("tier {}, {}", placement.tier, placement.file));
  run.verdict().outcome = Outcome::write;
  return run.finish();
}

}  // namespace memkit::memorybox
