// The five-gate write filter of MemoryBox (spec memorybox.md §4): VALUE, ALIGNMENT, REDUNDANCY,
// FRESHNESS and PLACEMENT, run in order and stopped at the first that does not pass. The
// judgements are the host's (a Judge); memkit adds the exact-match and near-duplicate search, the
// tier rules, the advice and the bytes of a WRITE. Pure: the shell reads the files and the clock
// and writes what the verdict says.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "memkit/clock.hpp"
#include "memkit/edit.hpp"
#include "memkit/findings.hpp"
#include "memkit/memorybox.hpp"
#include "memkit/result.hpp"
#include "memkit/similarity.hpp"

namespace memkit::memorybox {

// What the host wants remembered. `confidence` is in hundredths (parse_confidence).
struct Candidate {
  std::string text;
  std::uint32_t confidence = 0;
  std::optional<std::string> title;   // required for section files and SESSION_LOG.md
  std::optional<std::string> source;  // becomes `Source:`
  std::optional<std::string> client;  // becomes `Client:`
};

enum class Gate : std::uint8_t { value, alignment, redundancy, freshness, placement };
inline constexpr std::array<Gate, 5> kGates = {Gate::value, Gate::alignment, Gate::redundancy,
                                               Gate::freshness, Gate::placement};
[[nodiscard]] std::string_view gate_name(Gate gate) noexcept;  // "VALUE", ...

enum class Outcome : std::uint8_t {
  do_not_store,
  discard,
  update_existing,
  needs_judgement,
  write,
  rejected
};
[[nodiscard]] std::string_view outcome_name(Outcome outcome) noexcept;  // "DO_NOT_STORE", ...

// One entry the near-duplicate search returned; similarity in hundredths, rounded down.
struct NearDuplicate {
  std::string entry_id;
  std::string file;
  std::uint32_t similarity = 0;
};

// What a gate asks the host. The spans are filled for the gate that uses them.
struct GateQuestion {
  Gate gate = Gate::value;
  const Candidate* candidate = nullptr;
  std::span<const std::string> categories;         // ALIGNMENT: every existing category
  std::span<const NearDuplicate> near_duplicates;  // REDUNDANCY, ranked
  std::span<const std::string> category_entries;   // REDUNDANCY: the chosen category's entry IDs
  std::string_view category;                       // REDUNDANCY on: the chosen category
};

enum class Alignment : std::uint8_t { existing, create, none };

// A host's answer to one question; only the gate's own members count.
struct GateAnswer {
  bool value = false;                         // VALUE: yes
  Alignment alignment = Alignment::none;      // ALIGNMENT
  std::string category;                       // ALIGNMENT existing or new
  std::optional<std::string> redundant_with;  // REDUNDANCY: an entry ID, or none
  bool stable = false;                        // FRESHNESS: stable ...
  std::optional<std::string> decay_trigger;   // ... or time-sensitive until this YYYY-MM-DD
  int tier = 0;                               // PLACEMENT
  std::string file;                           // PLACEMENT
};

// The host's judgement: an answer, nullopt when it has none (the run stops with
// NEEDS_JUDGEMENT), or a failure (the gate fails with MK-BOX-005; nothing is written).
using Judge = std::function<Result<std::optional<GateAnswer>>(const GateQuestion&)>;

// Parses an answer in the text form hosts outside C++ give (the C ABI's judge callback):
// VALUE "yes" | "no"; ALIGNMENT "existing <category>" | "new <name>" | "none"; REDUNDANCY
// "<entry ID>" | "none"; FRESHNESS "stable" | "time_sensitive <YYYY-MM-DD>"; PLACEMENT
// "<tier> <file>". Fails with Errc::invalid_argument naming the gate.
[[nodiscard]] Result<GateAnswer> parse_gate_answer(Gate gate, std::string_view text);

// The entries of every tier 1-4 file, indexed for REDUNDANCY: exact keys and the near-duplicate
// index, built once and queried per candidate.
class GateIndex final {
 public:
  // Fails with Errc::parse naming the first unparseable tier 1-4 file (the gate refuses then).
  [[nodiscard]] static Result<GateIndex> build(const Inputs& inputs);

  struct Item {
    std::string entry_id;
    std::string file;
    std::optional<std::string> category;
    std::string key;  // §4 exact-match key
  };
  // Sorted by entry ID; an ID that occurs twice is kept once.
  [[nodiscard]] const std::vector<Item>& items() const noexcept { return items_; }
  // Every existing category, sorted bytewise: the entries' categories and every H2 (and
  // "H2 / H3") heading of the bullet files.
  [[nodiscard]] const std::vector<std::string>& categories() const noexcept { return categories_; }

  // The entry whose key equals `key`, the lowest ID first; nullptr when none or `key` is empty.
  [[nodiscard]] const Item* exact_match(std::string_view key) const noexcept;
  // The §4 near-duplicates of `text` at `threshold` hundredths, ranked.
  [[nodiscard]] std::vector<NearDuplicate> near_duplicates(std::string_view text,
                                                           std::uint32_t threshold) const;

 private:
  GateIndex(std::vector<Item> items, std::vector<std::string> categories,
            similarity::NearDuplicateIndex index);
  std::vector<Item> items_;
  std::vector<std::string> categories_;
  similarity::NearDuplicateIndex index_;
  std::unordered_map<std::string, std::size_t> by_key_;  // key -> the lowest ID's item
};

// §4 exact-match key of a candidate: the §6.3 key of `- <text>` as a WRITE writes it.
[[nodiscard]] std::string candidate_key(std::string_view text);

struct GateStep {
  Gate gate = Gate::value;
  std::string result = "skipped";  // "pass", "fail", "needs_judgement" or "skipped"
  std::string detail;
};

struct GateBudget {
  std::string file;
  std::uint64_t lines_before = 0;  // tier 1: the tier-1 combined total
  std::uint64_t lines_after = 0;
  std::optional<std::uint64_t> limit;
  std::optional<BudgetState> state;
};

struct GateVerdict {
  // Set when the gate refused to run or to finish: a bad answer or argument (MK-ARG-001, or
  // MK-BOX-001 for a decay trigger), an unparseable tier file (MK-PARSE-001) or a failed
  // judgement (MK-BOX-005). Nothing else in the verdict counts then, and nothing is written.
  std::optional<Finding> refusal;
  Outcome outcome = Outcome::needs_judgement;
  std::vector<NearDuplicate> near_duplicates;
  std::optional<Gate> stopped_at;
  std::array<GateStep, 5> gates;
  std::optional<std::string> entry_id;  // UPDATE_EXISTING: that entry; WRITE: the new one
  std::optional<int> tier;
  std::optional<std::string> file;
  std::optional<std::string> category;
  std::optional<std::string> entry_text;  // WRITE: the entry's lines as written
  std::optional<GateBudget> budget;
  std::vector<Finding> findings;  // sorted
  // WRITE: the splices over `file`'s bytes (or over "" when the file is created).
  bool creates_file = false;
  std::vector<Splice> splices;
};

struct GateOptions {
  std::uint32_t threshold = similarity::kDefaultThreshold;  // hundredths
};

// Runs the five gates for `candidate` on `now`'s local date. A refusal (see GateVerdict) comes
// for an answer that names an unknown category or entry, a tier outside 1-5, a decay trigger not
// later than today, a missing title, a text that would not read back as one entry, or a Judge
// that fails. REQUIRES: `index` was built from `inputs`.
[[nodiscard]] GateVerdict run_gates(const Inputs& inputs, const GateIndex& index,
                                    const Candidate& candidate, const Judge& judge,
                                    const ClockReading& now, const GateOptions& options = {});

}  // namespace memkit::memorybox
