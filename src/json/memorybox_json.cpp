// JSON of the `memkit memorybox` reports (spec memorybox.md §2, §11).
#include "codec/canonical.hpp"
#include "json/json.hpp"

namespace memkit {
namespace {

using detail::utf8;
using nlohmann::json;

json budget_fields(json row, const std::optional<Budget>& budget, BudgetState state) {
  row["limit"] = budget ? json(budget->limit()) : json(nullptr);
  row["bound"] = budget ? json("stay_under") : json(nullptr);
  row["state"] = budget ? json(std::string(budget_state_name(state))) : json(nullptr);
  return row;
}

}  // namespace

std::string memorybox_status_json(const memorybox::Report& status) {
  json tiers = json::array();
  for (const memorybox::Tier& tier : status.tiers) {
    json files = json::array();
    for (const memorybox::FileStatus& f : tier.files) {
      files.push_back(budget_fields(json{{"path", utf8(f.path)},
                                         {"exists", f.exists},
                                         {"lines", f.lines},
                                         {"items", f.items ? json(*f.items) : json(nullptr)}},
                                    f.budget, f.state));
    }
    json combined = nullptr;
    if (tier.combined) {
      combined = budget_fields(json{{"lines", tier.combined->lines}},
                               std::optional<Budget>(tier.combined->budget), tier.combined->state);
    }
    tiers.push_back(json{{"tier", tier.tier}, {"files", files}, {"combined", combined}});
  }
  json due = json::array();
  for (const std::string& rule : status.bloat_due) due.push_back(rule);
  return detail::canonical_dump(json{{"tiers", tiers}, {"bloat_due", due}});
}

std::string memorybox_decay_json(const memorybox::DecayReport& report) {
  json entries = json::array();
  for (const memorybox::Decay& d : report.entries) {
    json flags = json::array();
    for (const std::string& flag : d.flags) flags.push_back(flag);
    entries.push_back(json{{"entry_id", utf8(d.entry_id)},
                           {"file", utf8(d.file)},
                           {"stored", d.stored},
                           {"verified", utf8(d.verified)},
                           {"days", d.days},
                           {"penalty", d.penalty},
                           {"effective", d.effective},
                           {"band", std::string(memorybox::band_name(d.band))},
                           {"action", std::string(memorybox::band_action(d.band))},
                           {"review_due", d.review_due},
                           {"reliable", d.reliable},
                           {"flags", flags}});
  }
  json unscored = json::array();
  for (const std::string& id : report.unscored) unscored.push_back(utf8(id));
  return detail::canonical_dump(json{{"entries", entries}, {"unscored", unscored}});
}

std::string memorybox_load_json(const std::vector<memorybox::LoadedFile>& files) {
  json list = json::array();
  for (const memorybox::LoadedFile& f : files) {
    list.push_back(json{{"path", utf8(f.path)},
                        {"tier", f.tier},
                        {"lines", f.lines},
                        {"content", utf8(*f.content)}});
  }
  return detail::canonical_dump(json{{"files", list}});
}

namespace {

json confidence_state(const memorybox::ConfidenceState& state) {
  return json{
      {"stored", state.stored ? json(*state.stored) : json(nullptr)},
      {"verified", state.verified ? utf8(*state.verified) : json(nullptr)},
      {"effective", state.effective ? json(*state.effective) : json(nullptr)},
      {"band", state.band ? json(std::string(memorybox::band_name(*state.band))) : json(nullptr)},
      {"review", state.review ? utf8(*state.review) : json(nullptr)}};
}

}  // namespace

std::string memorybox_update_json(const memorybox::UpdatePlanning& update,
                                  const std::vector<std::string>& written) {
  json paths = json::array();
  for (const std::string& path : written) paths.push_back(utf8(path));
  return detail::canonical_dump(json{{"entry_id", utf8(update.entry_id)},
                                     {"before", confidence_state(update.before)},
                                     {"after", confidence_state(update.after)},
                                     {"written", paths}});
}

std::string memorybox_log_json(const memorybox::SessionLog& log,
                               const std::vector<std::string>& written) {
  json paths = json::array();
  for (const std::string& path : written) paths.push_back(utf8(path));
  return detail::canonical_dump(json{{"daily_entry_id", utf8(log.daily_entry_id)},
                                     {"daily_file", utf8(log.daily_file)},
                                     {"daily_text", utf8(log.daily_text)},
                                     {"session_entry_id", utf8(log.session_entry_id)},
                                     {"session_text", utf8(log.session_text)},
                                     {"written", paths}});
}

std::string memorybox_hygiene_json(const memorybox::Hygiene& hygiene) {
  json items = json::array();
  for (const memorybox::HygieneItem& it : hygiene.items) {
    json details = json::array();
    for (const memorybox::HygieneDetail& d : it.details) {
      if (d.reason == "unparseable") {  // a file the item could not read, on any item
        details.push_back(json{{"path", utf8(d.path)}, {"reason", utf8(d.reason)}});
      } else if (it.n == 3 || it.n == 4) {
        details.push_back(json{{"entry_id", utf8(d.entry_id)}, {"reason", utf8(d.reason)}});
      } else if (it.n == 5) {
        json reasons = json::array();
        for (const std::string& r : d.reasons) reasons.push_back(r);
        details.push_back(json{{"entry_id", utf8(d.entry_id)}, {"reasons", reasons}});
      } else if (it.n == 6) {
        details.push_back(json{{"entry_id", utf8(d.entry_id)},
                               {"verified", d.verified ? utf8(*d.verified) : json(nullptr)},
                               {"days", d.days ? json(*d.days) : json(nullptr)}});
      } else if (it.n == 7) {
        details.push_back(
            json{{"path", utf8(d.path)}, {"days", d.days ? json(*d.days) : json(nullptr)}});
      } else if (it.n == 10) {  // changed synced files, then open conflicts (§8)
        details.push_back(d.path.empty() ? json{{"id", utf8(d.entry_id)}}
                                         : json{{"path", utf8(d.path)}});
      }
    }
    if (it.n == 9) {
      for (const memorybox::Orphan& o : hygiene.orphans) {
        details.push_back(json{{"file", utf8(o.file)},
                               {"line", o.line},
                               {"link", utf8(o.link)},
                               {"target", utf8(o.target)}});
      }
    }
    items.push_back(json{{"n", it.n},
                         {"check", utf8(it.check)},
                         {"result", it.result},
                         {"value", it.value ? json(*it.value) : json(nullptr)},
                         {"limit", it.limit ? json(*it.limit) : json(nullptr)},
                         {"details", details}});
  }
  json orphans = json::array();
  for (const memorybox::Orphan& o : hygiene.orphans) {
    orphans.push_back(json{{"file", utf8(o.file)},
                           {"line", o.line},
                           {"link", utf8(o.link)},
                           {"target", utf8(o.target)}});
  }
  return detail::canonical_dump(json{{"items", items}, {"orphans", orphans}});
}

std::string memorybox_init_json(const MemoryBoxInit& init) {
  json created = json::array();
  for (const std::string& path : init.created) created.push_back(utf8(path));
  return detail::canonical_dump(json{{"created", created}});
}

namespace {

json near_duplicates_json(std::span<const memorybox::NearDuplicate> found) {
  json out = json::array();
  for (const memorybox::NearDuplicate& d : found) {
    out.push_back(
        json{{"entry_id", utf8(d.entry_id)}, {"file", utf8(d.file)}, {"similarity", d.similarity}});
  }
  return out;
}

json optional_text(const std::optional<std::string>& text) {
  return text ? utf8(*text) : json(nullptr);
}

}  // namespace

std::string memorybox_gate_json(const memorybox::GateVerdict& verdict, bool applied,
                                const std::vector<std::string>& written) {
  json gates = json::array();
  for (const memorybox::GateStep& step : verdict.gates) {
    gates.push_back(json{{"gate", std::string(memorybox::gate_name(step.gate))},
                         {"result", step.result},
                         {"detail", utf8(step.detail)}});
  }
  json budget = nullptr;
  if (verdict.budget) {
    const memorybox::GateBudget& b = *verdict.budget;
    budget =
        json{{"file", utf8(b.file)},
             {"lines_before", b.lines_before},
             {"lines_after", b.lines_after},
             {"limit", b.limit ? json(*b.limit) : json(nullptr)},
             {"state", b.state ? json(std::string(budget_state_name(*b.state))) : json(nullptr)}};
  }
  json written_paths = json::array();
  for (const std::string& path : written) written_paths.push_back(utf8(path));
  return detail::canonical_dump(
      json{{"outcome", std::string(memorybox::outcome_name(verdict.outcome))},
           {"near_duplicates", near_duplicates_json(verdict.near_duplicates)},
           {"stopped_at", verdict.stopped_at
                              ? json(std::string(memorybox::gate_name(*verdict.stopped_at)))
                              : json(nullptr)},
           {"gates", gates},
           {"entry_id", optional_text(verdict.entry_id)},
           {"tier", verdict.tier ? json(*verdict.tier) : json(nullptr)},
           {"file", optional_text(verdict.file)},
           {"category", optional_text(verdict.category)},
           {"entry_text", optional_text(verdict.entry_text)},
           {"budget", budget},
           {"applied", applied},
           {"written", written_paths}});
}

std::string memorybox_gate_question_json(const memorybox::GateQuestion& question) {
  json candidate = nullptr;
  if (question.candidate != nullptr) {
    const memorybox::Candidate& c = *question.candidate;
    candidate = json{{"text", utf8(c.text)},
                     {"confidence", c.confidence},
                     {"title", optional_text(c.title)},
                     {"source", optional_text(c.source)},
                     {"client", optional_text(c.client)}};
  }
  json categories = json::array();
  for (const std::string& c : question.categories) categories.push_back(utf8(c));
  json entries = json::array();
  for (const std::string& id : question.category_entries) entries.push_back(utf8(id));
  return detail::canonical_dump(
      json{{"gate", std::string(memorybox::gate_name(question.gate))},
           {"candidate", candidate},
           {"categories", categories},
           {"near_duplicates", near_duplicates_json(question.near_duplicates)},
           {"category_entries", entries},
           {"category", question.category.empty() ? json(nullptr) : utf8(question.category)}});
}

std::string memorybox_canon_json(const memorybox::CanonCheck& check,
                                 const std::vector<std::string>& written) {
  json ledger = json::array();
  for (const memorybox::CanonRecord& r : check.ledger) {
    ledger.push_back(json{{"path", utf8(r.path)},
                          {"length", r.length},
                          {"sha256", r.sha256},
                          {"recorded_at", utf8(r.recorded_at)}});
  }
  json violations = json::array();
  for (const memorybox::CanonViolation& v : check.violations) {
    violations.push_back(json{{"path", utf8(v.path)}, {"reason", utf8(v.reason)}});
  }
  json unrecorded = json::array();
  for (const std::string& path : check.unrecorded) unrecorded.push_back(utf8(path));
  json written_paths = json::array();
  for (const std::string& path : written) written_paths.push_back(utf8(path));
  return detail::canonical_dump(json{{"ledger", ledger},
                                     {"violations", violations},
                                     {"unrecorded", unrecorded},
                                     {"written", written_paths}});
}

}  // namespace memkit
