// Compaction planning for the custodian layout (spec compaction.md §8-§11): pure functions from
// what the shell read to a report and, when something can be removed, a Plan.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "memkit/audit.hpp"
#include "memkit/clock.hpp"
#include "memkit/edit.hpp"
#include "memkit/findings.hpp"
#include "memkit/layouts.hpp"
#include "memkit/plan.hpp"
#include "memkit/result.hpp"
#include "memkit/text.hpp"
#include "memkit/tokens.hpp"

namespace memkit {

// An inbox item left for a person or the host to review. memkit never classifies it. The views
// point into the inbox's bytes, which the CandidateList keeps alive.
struct Candidate {
  std::uint32_t index;                         // 1-based, in file order
  std::string_view label;                      // the first line's text after the marker, stripped
  std::vector<std::string_view> continuation;  // the unit's later lines, verbatim
  std::uint32_t line;                          // 1-based line of the bullet
};

// The candidates of an inbox, found again in its bytes each time they are walked: an inbox can
// hold millions, and keeping each would take more memory than the inbox itself. Candidates are
// the bullet units that are neither removed nor empty.
class CandidateList final {
 public:
  CandidateList() = default;
  // `skipped`: the sorted offsets of the bullet units that are not candidates.
  CandidateList(std::shared_ptr<const std::string> inbox, std::vector<std::size_t> skipped,
                std::uint64_t count, bool valid_utf8) noexcept
      : inbox_(std::move(inbox)),
        skipped_(std::move(skipped)),
        count_(count),
        valid_utf8_(valid_utf8) {}

  [[nodiscard]] std::uint64_t size() const noexcept { return count_; }
  // Returns true iff the whole inbox is well-formed UTF-8, so no candidate text needs repair.
  [[nodiscard]] bool valid_utf8() const noexcept { return valid_utf8_; }
  [[nodiscard]] bool empty() const noexcept { return count_ == 0; }

  // Calls visit(const Candidate&) for every candidate in file order. The Candidate is reused
  // between calls, so a visitor that keeps one copies it. A visitor that returns bool stops the
  // walk by returning false (a report listing only the first candidates reads no further).
  template <class Visit>
  void for_each(Visit&& visit) const;

 private:
  std::shared_ptr<const std::string> inbox_;
  std::vector<std::size_t> skipped_;
  std::uint64_t count_ = 0;
  bool valid_utf8_ = false;
};

// `memkit custodian compact` in inbox mode (§8).
struct InboxCompaction {
  std::string memory_dir;
  std::optional<std::string> protocol_version;
  std::uint64_t inbox_items = 0;
  std::uint64_t empty_items = 0;
  std::uint64_t duplicates = 0;
  std::uint64_t tombstone_matches = 0;
  CandidateList candidates;
  std::optional<Plan> plan;       // nullopt: nothing to apply
  std::vector<Finding> findings;  // sorted; a BLOCKER means no plan could be made
};

// REQUIRES for an inbox over 1 MiB: nothing else writes the snapshot's bytes meanwhile (the
// planner reads them on two threads).
[[nodiscard]] InboxCompaction plan_inbox_compaction(const CustodianInputs& inputs,
                                                    const TokenCounter& counter,
                                                    const ClockReading& now);

// `memkit custodian compact --target FILE` (§9).
enum class TargetAction : std::uint8_t { none, dedupe, archive, manual_review };
[[nodiscard]] std::string_view target_action_name(TargetAction action) noexcept;  // "manual-review"

struct TargetCompaction {
  std::string memory_dir;
  std::optional<std::string> protocol_version;
  std::string target;
  std::uint64_t tokens = 0;
  std::uint64_t limit = 0;
  BudgetState state = BudgetState::ok;
  std::vector<custodian::DecisionEntry> long_decisions;
  TargetAction action = TargetAction::none;
  std::string reason;
  std::uint64_t duplicates_removed = 0;                       // dedupe
  std::optional<std::uint64_t> projected_tokens;              // dedupe and archive
  std::uint64_t keep_entries = 0;                             // archive
  std::uint64_t archive_entries = 0;                          // archive
  std::string archive_path;                                   // archive
  std::vector<custodian::DecisionEntry> kept_long_decisions;  // archive of decisions.md
  std::optional<std::vector<std::string>> maintenance_preview;
  std::optional<Plan> plan;
  std::vector<Finding> findings;
};

// §9 target normalisation: strip, "\" to "/", then refuse absolute paths, drive letters, empty
// "." or ".." segments, non-.md names, manifest.md, inbox.md, archive/ and files without a
// budget. Fails with Errc::invalid_argument ("--target: ..."), reported as fatal MK-TARGET-001.
[[nodiscard]] Result<std::string> normalize_compaction_target(std::string_view target);

// archive/<stem>-<YYYY-MM-DD>.md for a target on the local date of `now` (§9 step 5).
[[nodiscard]] std::string archive_path_for(std::string_view target, const ClockReading& now);

// REQUIRES: target is normalised; the snapshot also holds archive/README.md and
// archive_path_for(target, now) when they exist.
[[nodiscard]] TargetCompaction plan_target_compaction(const CustodianInputs& inputs,
                                                      std::string_view target,
                                                      const TokenCounter& counter,
                                                      const ClockReading& now);

// The decision semantic gate (§9), checked at apply time: MK-GATE-001 for kept long decisions,
// MK-GATE-002 without --archive-oldest. Empty for every other target.
[[nodiscard]] std::vector<Finding> decision_gates(const TargetCompaction& report,
                                                  bool archive_oldest);

// §13 maintenance advice for a file at NEAR LIMIT or OVER BUDGET.
[[nodiscard]] std::vector<std::string> maintenance_advice(std::string_view target);

// §10: the archive file after `sections` (the active file's archived H2 sections, newest first,
// each from its heading to its last non-blank line) are added to `existing` (nullptr: a new
// file). `terminator` is used for generated lines when the archive is new.
[[nodiscard]] std::string archive_file_bytes(const Document* existing, std::string_view target,
                                             const std::vector<std::string>& sections,
                                             std::string_view terminator);

// §11: the splice that adds "- <message>" under "## <today>" in changelog.md: into today's first
// section if there is one, else a new dated section before the first H2, else appended.
// REQUIRES: changelog.parseable().
[[nodiscard]] Splice changelog_line(const Document& changelog, std::string_view today,
                                    std::string_view message);

// The same placement for any bullet lines (§11, and the inbox of §13): one section per date.
[[nodiscard]] Splice dated_bullet(const Document& doc, std::string_view today,
                                  std::span<const std::string> bullet);

template <class Visit>
void CandidateList::for_each(Visit&& visit) const {
  if (count_ == 0) return;
  const std::string_view bytes(*inbox_);
  UnitReader reader(bytes);
  Unit unit{};
  Candidate candidate{0, {}, {}, 0};
  auto skip = skipped_.begin();
  while (reader.next(unit)) {
    if (unit.kind != UnitKind::bullet_unit) continue;
    if (skip != skipped_.end() && *skip == unit.begin) {
      ++skip;
      continue;
    }
    ++candidate.index;
    candidate.line = unit.first_line;
    candidate.continuation.clear();
    if (unit.last_line == unit.first_line) {  // most items: the line is the unit
      std::string_view content = bytes.substr(unit.begin, unit.end - unit.begin);
      if (!content.empty() && content.back() == '\n') {
        content.remove_suffix(1);
        if (!content.empty() && content.back() == '\r') content.remove_suffix(1);
      }
      candidate.label = strip_w(content.substr(2));
    } else {
      LineCursor cursor(bytes, unit.begin, unit.end, unit.first_line);
      Line line{};
      cursor.next(line);
      candidate.label = strip_w(line.content.substr(2));
      while (cursor.next(line)) candidate.continuation.push_back(line.content);
    }
    if constexpr (std::is_same_v<std::invoke_result_t<Visit&, const Candidate&>, bool>) {
      if (!visit(std::as_const(candidate))) return;
    } else {
      visit(std::as_const(candidate));
    }
  }
}

}  // namespace memkit
