// Inbox mode (spec compaction.md §8): exact duplicates and exact tombstone matches go, everything
// else stays; candidates are listed for review, never classified.
#include <fmt/format.h>

#include <thread>
#include <unordered_set>

#include "compact/input_reader.hpp"
#include "compact/key_index.hpp"
#include "memkit/compact.hpp"
#include "memkit/text.hpp"

namespace memkit {
namespace {

// Returns the offset just past " — tombstone:" in text (ASCII case-insensitive), or npos.
std::size_t after_dash_tombstone(std::string_view text) noexcept {
  constexpr std::string_view kDash = " \xE2\x80\x94 ";  // U+2014 between spaces
  for (std::size_t at = text.find(kDash); at != std::string_view::npos;
       at = text.find(kDash, at + 1)) {
    const std::size_t rest = at + kDash.size();
    if (starts_with_ascii_ci(text.substr(rest), "tombstone:")) return rest + 10;
  }
  return std::string_view::npos;
}

}  // namespace

std::set<std::string> tombstone_keys(const Document& do_not_use) {
  std::set<std::string> keys;
  for (const Unit& unit : do_not_use.units()) {
    if (unit.kind == UnitKind::bullet_unit) {
      std::string key = *unit_key(do_not_use, unit);
      if (!key.empty()) keys.insert(std::move(key));
    }
  }
  for (const Section& section : do_not_use.sections()) {
    const std::optional<std::string_view> heading = section_heading(do_not_use, section);
    if (!heading) continue;
    std::string_view title;
    if (starts_with_ascii_ci(*heading, "tombstone:")) {
      title = heading->substr(heading->find(':') + 1);
    } else if (const std::size_t at = after_dash_tombstone(*heading);
               at != std::string_view::npos) {
      title = heading->substr(at);
    } else {
      continue;
    }
    std::string key = casefold(strip_w(title));
    if (!key.empty()) keys.insert(std::move(key));
  }
  return keys;
}

InboxCompaction plan_inbox_compaction(const CustodianInputs& inputs, const TokenCounter& counter,
                                      const ClockReading& now) {
  InboxCompaction report;
  report.memory_dir = inputs.memory_dir;
  std::vector<Finding>& out = report.findings;
  detail::InputReader reader(inputs, out);
  std::optional<Document> manifest;
  if (!detail::start_planning(inputs, reader, out, manifest, &report.protocol_version)) {
    return report;
  }
  const std::optional<Document> inbox = reader.read("inbox.md", true, true);
  const std::optional<Document> do_not_use = reader.read("do-not-use.md", false, false);
  // The changelog is written only when there is a plan; its UTF-8 is judged below.
  const std::optional<Document> changelog = reader.read("changelog.md", false, false);
  if (!inbox || !inbox->parseable() || (do_not_use && !do_not_use->parseable())) {
    sort_findings(out);
    return report;
  }

  report.source = inputs.snapshot.find("inbox.md")->bytes;
  const std::set<std::string> tombstones =
      do_not_use ? tombstone_keys(*do_not_use) : std::set<std::string>{};
  const std::span<const Unit> units = inbox->units();
  std::unordered_set<std::uint64_t> tombstone_hashes;
  for (const std::string& t : tombstones) {
    const std::uint64_t hash = fast_hash(t);
    tombstone_hashes.insert(hash == 0 ? 1 : hash);
  }
  // Pass 1: the key hash of every bullet unit (0 marks an empty key, which never matches). A
  // hash remapped from 0 to 1 only costs a comparison of keys, never a wrong answer.
  std::vector<std::size_t> bullets;
  for (std::size_t u = 0; u < units.size(); ++u) {
    if (units[u].kind == UnitKind::bullet_unit) bullets.push_back(u);
  }
  std::vector<std::uint64_t> hashes(bullets.size());
  auto hash_range = [&](std::size_t begin, std::size_t end) {
    std::string key;
    std::string scratch;
    for (std::size_t i = begin; i < end; ++i) {
      unit_key_into(*inbox, units[bullets[i]], key, scratch);
      const std::uint64_t hash = fast_hash(key);
      hashes[i] = key.empty() ? 0 : hash == 0 ? 1 : hash;  // 0 is reserved for "empty"
    }
  };
  // Keys are independent of each other, so a large inbox folds them on two cores; the result
  // is the same whichever thread computes which half.
  if (bullets.size() >= 65536) {
    std::thread second(hash_range, bullets.size() / 2, bullets.size());
    hash_range(0, bullets.size() / 2);
    second.join();
  } else {
    hash_range(0, bullets.size());
  }
  // Pass 2, in file order: duplicates, tombstones, candidates. Lookups run a few units ahead
  // of their prefetches, so the index's memory latency overlaps the work.
  detail::UnitKeyIndex seen(*inbox, bullets.size());
  std::vector<UnitSpan> removed;
  std::string key;
  std::string scratch;
  constexpr std::size_t kAhead = 16;
  for (std::size_t i = 0; i < bullets.size(); ++i) {
    if (i + kAhead < bullets.size() && hashes[i + kAhead] != 0) seen.prefetch(hashes[i + kAhead]);
    const std::size_t u = bullets[i];
    ++report.inbox_items;
    if (hashes[i] == 0) {
      ++report.empty_items;
      continue;
    }
    bool built = false;
    auto key_of = [&]() -> std::string_view {
      if (!built) unit_key_into(*inbox, units[u], key, scratch);
      built = true;
      return key;
    };
    if (seen.seen_or_insert(hashes[i], u, key_of)) {
      ++report.duplicates;
      removed.push_back(UnitSpan{u, u});
      continue;
    }
    if (tombstone_hashes.count(hashes[i]) != 0 && tombstones.count(std::string(key_of())) != 0) {
      ++report.tombstone_matches;
      removed.push_back(UnitSpan{u, u});
      continue;
    }
    Candidate candidate{
        static_cast<std::uint32_t>(report.candidates.size() + 1), {}, {}, units[u].first_line};
    LineCursor cursor = inbox->lines(units[u]);
    Line line{};
    cursor.next(line);
    candidate.label = strip_w(line.content.substr(2));
    while (cursor.next(line)) candidate.continuation.emplace_back(line.content);
    report.candidates.push_back(std::move(candidate));
  }

  if (removed.empty() || detail::blocked(out)) {
    sort_findings(out);
    return report;
  }
  if (changelog && changelog->utf8_error()) {
    // Only now is the changelog a file this command would change.
    for (Finding& f : out) {
      if (f.code == "MK-UTF8-001" && f.path == "changelog.md") {
        f.severity = Severity::blocker;
        f.remediation = "fix the encoding; memkit will not change this file";
      }
    }
    sort_findings(out);
    return report;
  }

  std::vector<PlanOperation> operations;
  std::vector<BudgetResult> budgets;
  const FileSnapshot* inbox_entry = inputs.snapshot.find("inbox.md");
  operations.push_back(
      plan_write("inbox.md", inbox_entry->bytes, true, removal_splices(*inbox, removed)));
  if (changelog) {
    const FileSnapshot* entry = inputs.snapshot.find("changelog.md");
    const std::string message = fmt::format(
        "inbox.md cleanup: removed {} exact duplicate(s) and {} exact tombstone match(es).",
        report.duplicates, report.tombstone_matches);
    PlanOperation op = plan_write("changelog.md", entry->bytes, true,
                                  {changelog_line(*changelog, now.local_date_iso(), message)});
    if (const std::optional<Budget> budget = custodian::budget_for("changelog.md")) {
      const std::uint64_t after = counter.count(op.output.render());
      budgets.push_back(BudgetResult{"changelog.md", counter.count(entry->text()), after,
                                     budget->limit(), budget->classify(after)});
    }
    operations.push_back(std::move(op));
  }
  report.plan =
      Plan::create("custodian compact", {{"memory_dir", inputs.memory_dir}, {"target", "inbox.md"}},
                   std::move(operations), std::move(budgets));
  sort_findings(out);
  return report;
}

}  // namespace memkit
