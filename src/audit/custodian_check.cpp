// `custodian check` (spec compaction.md §15): layout consistency, ERRORs and WARNINGs.
#include <fmt/format.h>

#include <cctype>
#include <unordered_map>

#include "audit/file_facts.hpp"
#include "memkit/digest.hpp"
#include "memkit/layouts.hpp"
#include "text/shown_text.hpp"

namespace memkit {
namespace {

Finding check_error(std::string code, const std::string& path, std::string message,
                    std::string remediation = {}) {
  return make_finding(std::move(code), Severity::error, path, std::move(message),
                      std::move(remediation));
}

Finding check_warning(std::string code, const std::string& path, std::string message,
                      std::string remediation = {}) {
  return make_finding(std::move(code), Severity::warning, path, std::move(message),
                      std::move(remediation));
}

bool exists(const detail::FileFacts* f) noexcept { return f != nullptr && f->doc.has_value(); }

void check_manifest_routes(const std::vector<detail::FileFacts>& facts,
                           const CustodianInputs& inputs, std::vector<Finding>& out) {
  const detail::FileFacts* manifest = detail::find_facts(facts, "manifest.md");
  if (!exists(manifest) || !manifest->doc->parseable()) return;
  const custodian::Manifest m = custodian::read_manifest(*manifest->doc);
  if (m.always_load_sections != 1) {
    out.push_back(check_error("MK-CHECK-002", "manifest.md",
                              fmt::format("manifest.md: {} '## Always load' sections; expected "
                                          "exactly one",
                                          m.always_load_sections)));
  }
  for (const auto& [heading, count] : m.task_subsections) {
    if (count == 1) continue;
    out.push_back(check_error(
        "MK-CHECK-003", "manifest.md",
        fmt::format("manifest.md: {} '### {}' subsections under '## Load by task'; expected "
                    "exactly one",
                    count, heading)));
  }
  auto check_route = [&](const custodian::Route& route, bool must_exist) {
    if (!custodian::is_safe_route(route.path)) {
      out.push_back(
          check_error("MK-CHECK-004", "manifest.md",
                      fmt::format("manifest.md:{}: unsafe route path '{}'", route.line, route.path),
                      "use a relative path to a .md file inside the memory directory"));
      return;
    }
    EntryState state = EntryState::missing;
    if (const FileSnapshot* held = inputs.snapshot.find(route.path)) {
      state = held->state;
    } else if (const auto it = inputs.route_targets.find(route.path);
               it != inputs.route_targets.end()) {
      state = it->second;
    }
    if (state == EntryState::symlink) {
      out.push_back(
          make_fatal("MK-LAYOUT-001", "manifest.md",
                     fmt::format("manifest.md:{}: route {} passes through a symbolic link",
                                 route.line, route.path)));
      return;
    }
    if (must_exist && state != EntryState::file) {
      out.push_back(check_error(
          "MK-CHECK-005", "manifest.md",
          fmt::format("manifest.md:{}: route file {} is missing", route.line, route.path)));
    }
  };
  for (const custodian::Route& route : m.routes) check_route(route, route.required);
  for (const custodian::Route& entry : m.module_index) check_route(entry, false);
  for (const detail::FileFacts& f : facts) {
    if (custodian::file_role(f.path) != custodian::FileRole::module || !exists(&f)) continue;
    bool indexed = false;
    for (const custodian::Route& entry : m.module_index) indexed = indexed || entry.path == f.path;
    if (!indexed) {
      out.push_back(
          check_error("MK-CHECK-007", f.path,
                      f.path + ": module missing from the manifest's optional module index",
                      fmt::format("add ``- `{}`: <when to load>`` under its '### Enabled' "
                                  "heading",
                                  f.path)));
    }
  }
}

// True iff the text names a machine-specific absolute path (§15).
bool has_machine_path(std::string_view text) noexcept {
  for (std::string_view marker : {"/Users/", "/home/", "/Volumes/"}) {
    if (text.find(marker) != std::string_view::npos) return true;
  }
  for (std::size_t i = 1; i + 1 < text.size(); ++i) {
    const char drive = text[i - 1];
    const bool letter = (drive >= 'A' && drive <= 'Z') || (drive >= 'a' && drive <= 'z');
    // A drive letter stands alone: "C:/" is a path, the "s:/" of "https://" is not.
    const bool word_start = i < 2 || !std::isalnum(static_cast<unsigned char>(text[i - 2]));
    if (letter && word_start && text[i] == ':' && (text[i + 1] == '\\' || text[i + 1] == '/')) {
      return true;
    }
  }
  return false;
}

// The seed's "same fact in several files" hint, exact keys only: one WARNING per later file that
// repeats a bullet unit first seen in another file.
void check_cross_file_duplicates(const std::vector<detail::FileFacts>& facts,
                                 std::vector<Finding>& out) {
  struct Seen {
    std::string key;
    const detail::FileFacts* file;
    std::uint32_t line;
  };
  std::unordered_multimap<std::uint64_t, Seen> seen;
  for (const detail::FileFacts& f : facts) {
    const bool compared = f.path == "constraints.md" || f.path == "preferences.md" ||
                          f.path == "inbox.md" ||
                          custodian::file_role(f.path) == custodian::FileRole::module;
    if (!compared || !exists(&f) || !f.doc->parseable()) continue;
    for (const Unit& unit : f.doc->units()) {
      if (unit.kind != UnitKind::bullet_unit) continue;
      std::string key = *unit_key(*f.doc, unit);
      if (key.empty()) continue;
      const std::uint64_t hash = fast_hash(key);
      const Seen* other = nullptr;
      bool same_file = false;
      for (auto [it, end] = seen.equal_range(hash); it != end; ++it) {
        if (it->second.key != key) continue;
        if (it->second.file == &f) same_file = true;
        if (it->second.file != &f && other == nullptr) other = &it->second;
      }
      if (other != nullptr && !same_file) {
        out.push_back(check_warning("MK-CHECK-012", f.path,
                                    fmt::format("{}:{}: the same bullet is also in {}:{}", f.path,
                                                unit.first_line, other->file->path, other->line),
                                    "keep the fact in one file"));
      }
      if (!same_file) seen.emplace(hash, Seen{std::move(key), &f, unit.first_line});
    }
  }
}

// Seed 003's "do not resurrect topics listed in do-not-use.md": a bullet of active memory
// (constraints, preferences, the modules) whose key is a tombstone's. The inbox is compaction's.
void check_tombstoned(const std::vector<detail::FileFacts>& facts, std::vector<Finding>& out) {
  const detail::FileFacts* do_not_use = detail::find_facts(facts, "do-not-use.md");
  if (!exists(do_not_use) || !do_not_use->doc->parseable()) return;
  std::unordered_map<std::string, custodian::Tombstone> by_key;
  for (custodian::Tombstone& t : custodian::tombstones(*do_not_use->doc)) {
    by_key.try_emplace(t.key, std::move(t));  // the first of a key names it
  }
  if (by_key.empty()) return;
  for (const detail::FileFacts& f : facts) {
    const bool active = f.path == "constraints.md" || f.path == "preferences.md" ||
                        custodian::file_role(f.path) == custodian::FileRole::module;
    if (!active || !exists(&f) || !f.doc->parseable()) continue;
    for (const Unit& unit : f.doc->units()) {
      if (unit.kind != UnitKind::bullet_unit) continue;
      const auto t = by_key.find(*unit_key(*f.doc, unit));
      if (t == by_key.end()) continue;
      out.push_back(check_error(
          "MK-CHECK-013", f.path,
          fmt::format("{}:{}: a tombstoned topic is back in active memory: '{}' (do-not-use.md:{})",
                      f.path, unit.first_line, shown_text(t->second.title), t->second.line),
          "remove the bullet; if the user reversed the decision, remove the tombstone instead"));
    }
  }
}

}  // namespace

CheckReport custodian_check(const CustodianInputs& inputs, const TokenCounter& counter) {
  CheckReport report;
  report.memory_dir = inputs.memory_dir;
  std::vector<Finding>& out = report.findings;
  if (!inputs.memory_dir_exists) {
    out.push_back(check_error("MK-LAYOUT-002", "",
                              fmt::format("{}: memory directory is missing", inputs.memory_dir),
                              "run `memkit custodian init`"));
  }
  const std::vector<detail::FileFacts> facts = detail::gather_facts(inputs, counter);
  detail::append_text_findings(facts, out);
  (void)detail::protocol_version(facts, out);
  check_manifest_routes(facts, inputs, out);
  check_tombstoned(facts, out);

  for (const detail::FileFacts& f : facts) {
    if (!exists(&f)) {
      if (custodian::file_role(f.path) == custodian::FileRole::core && inputs.memory_dir_exists &&
          !f.present_but_unusable()) {
        out.push_back(check_error("MK-CHECK-001", f.path, f.path + ": missing core file",
                                  "run `memkit custodian init` to create it"));
      }
      continue;
    }
    if (f.budget_state == BudgetState::over_budget) {
      out.push_back(check_error(
          "MK-BUDGET-001", f.path,
          fmt::format("{}: over budget ({} of {} tokens)", f.path, f.tokens, f.budget->limit()),
          fmt::format("run `memkit custodian compact --target {}`", f.path)));
    } else if (f.budget_state == BudgetState::near_limit) {
      out.push_back(check_warning(
          "MK-BUDGET-002", f.path,
          fmt::format("{}: near limit ({} of {} tokens)", f.path, f.tokens, f.budget->limit()),
          "maintenance recommended before the next write"));
    }
    for (const custodian::DecisionEntry& entry : f.long_decisions) {
      out.push_back(check_error("MK-CHECK-006", f.path,
                                fmt::format("{}:{}: decision '{}' is {} tokens, over the {}-token "
                                            "guide",
                                            f.path, entry.line, entry.title, entry.tokens,
                                            custodian::kDecisionEntryGuide),
                                "shorten it semantically; never truncate"));
    }
    if (f.needs_curation) {
      out.push_back(check_error("MK-CHECK-008", f.path,
                                f.path + ": needs curation: TODO(memkit) placeholders remain",
                                "replace the placeholders with the project's real summary"));
    }
    if (f.path == "inbox.md" && f.bullet_units && *f.bullet_units > custodian::kInboxItemTrigger) {
      out.push_back(check_warning("MK-CHECK-010", f.path,
                                  fmt::format("inbox.md: {} items, more than {}", *f.bullet_units,
                                              custodian::kInboxItemTrigger),
                                  "run `memkit custodian compact`"));
    }
    if (f.path == "preferences.md" && has_machine_path(f.snapshot->text())) {
      out.push_back(check_warning("MK-CHECK-011", f.path,
                                  "preferences.md: contains a machine-specific absolute path",
                                  "use a path relative to the project root"));
    }
  }
  if (inputs.unfinished_transactions > 0) {
    out.push_back(check_error(
        "MK-CHECK-009", "",
        fmt::format("{} unfinished transaction(s) in .memkit/txn", inputs.unfinished_transactions),
        "run `memkit custodian recover`"));
  }
  check_cross_file_duplicates(facts, out);
  sort_findings(out);
  report.passed = derive_status(out) != ReportStatus::fail;
  return report;
}

}  // namespace memkit
