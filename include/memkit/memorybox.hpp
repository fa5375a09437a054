// The MemoryBox layout (spec memorybox.md §2, §3, §11): five tiers of files under an agent root,
// line budgets with the "stay under" bound, and the status report. Pure: the shell reads the
// files (read_memorybox_inputs) and the clock; everything here works on those values.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/budget.hpp"
#include "memkit/clock.hpp"
#include "memkit/edit.hpp"
#include "memkit/findings.hpp"
#include "memkit/markdown.hpp"
#include "memkit/result.hpp"
#include "memkit/snapshot.hpp"

namespace memkit::memorybox {

// One tier of a profile (§2): its fixed files, the limit of each file (tiers 2 and 3) and the
// combined limit of the files (tier 1), both in lines with the stay-under bound.
struct TierSpec {
  int tier;
  std::vector<std::string> files;  // paths relative to the agent root
  std::optional<std::uint64_t> file_limit;
  std::optional<std::uint64_t> combined_limit;
};

// The default profile's tiers 1 to 5 (§2). Tier 4 also holds memory/daily/YYYY-MM-DD.md and tier
// 5 every memory/ARCHIVES/*.md; those are found on disk.
[[nodiscard]] const std::vector<TierSpec>& default_tiers();

// §10: the profiles. `init --profile` records one in .memkit/profile; without it a root is default.
enum class Profile : std::uint8_t { standard, maven };
[[nodiscard]] std::string_view profile_name(Profile profile) noexcept;  // "default", "maven"
[[nodiscard]] std::optional<Profile> parse_profile(std::string_view name) noexcept;

// §10 client lifecycle, from a client profile's column-0 `Lifecycle:` line.
enum class Lifecycle : std::uint8_t { active, maintenance, archived };
[[nodiscard]] std::string_view lifecycle_name(Lifecycle lifecycle) noexcept;
[[nodiscard]] std::optional<Lifecycle> parse_lifecycle(std::string_view name) noexcept;
// The Lifecycle a client profile's bytes declare: active when there is no `Lifecycle:` line,
// nullopt when its value is none of the three.
[[nodiscard]] std::optional<Lifecycle> client_lifecycle(std::string_view bytes);

// A client profile brain/clients/<client>.md and its lifecycle.
struct ClientProfile {
  std::string path;
  Lifecycle lifecycle = Lifecycle::active;
};

// The tiers of a profile (§2, §10). Maven adds brain/MARKETING_CANON.md,
// brain/ATTRIBUTION_MODEL.md, brain/BENCHMARK.md, brain/OKRs.md, brain/RISK_REGISTER.md and the
// active clients' profiles to tier 1, and the clients in maintenance to tier 2 (loaded on demand,
// out of the tier-1 budget). `clients` are sorted by path.
[[nodiscard]] std::vector<TierSpec> profile_tiers(Profile profile,
                                                  const std::vector<ClientProfile>& clients);

// Returns true iff edits to the file are forbidden (§10): brain/MARKETING_CANON.md (append-only
// through `canon add`) and brain/canon/*.md (write-once).
[[nodiscard]] bool is_canon_file(std::string_view path) noexcept;

inline constexpr std::string_view kDailyFolder = "memory/daily";
inline constexpr std::string_view kArchiveFolder = "memory/ARCHIVES";

// §2: terminated lines, plus 1 for an unterminated last line; 0 for an empty file; the BOM is
// not a line.
[[nodiscard]] std::uint64_t line_count(std::string_view bytes) noexcept;

// The date of a daily file name "YYYY-MM-DD.md" (a valid calendar date), else nullopt.
[[nodiscard]] std::optional<CivilDate> daily_date(std::string_view file_name) noexcept;

// What the shell read under an agent root: every file of the tiers, memory-relative paths being
// relative to the root ("memory/LONG_TERM.md"). Missing fixed files are entries in the snapshot
// with EntryState::missing.
struct Inputs {
  Profile profile = Profile::standard;
  std::vector<TierSpec> tiers = default_tiers();    // profile_tiers() of the profile and clients
  std::vector<ClientProfile> clients;               // Maven: brain/clients/*.md, sorted
  std::vector<std::string> canon_files;             // Maven: brain/canon/*.md, sorted
  std::shared_ptr<const std::string> canon_ledger;  // Maven: .memkit/canon-ledger.jsonl, or null
  Snapshot snapshot;  // the tiers' fixed files, daily files, archives, brain/*.md
  std::vector<std::string> daily_files;    // "memory/daily/2026-11-30.md", sorted by date
  std::vector<std::string> archive_files;  // "memory/ARCHIVES/x.md", sorted bytewise
  std::vector<std::string> brain_files;    // every top-level brain/*.md, sorted bytewise
  std::vector<std::string> all_files;      // every file under the root but .git/ and .memkit/
};

struct FileStatus {
  std::string path;
  bool exists = false;
  std::uint64_t lines = 0;
  std::optional<std::uint64_t> items;  // §7's count for ACTIVE_TASKS, MISTAKES, PATTERNS
  std::optional<Budget> budget;        // the file's own limit (tiers 2 and 3)
  BudgetState state = BudgetState::ok;
};

struct Combined {
  std::uint64_t lines = 0;
  Budget budget;
  BudgetState state = BudgetState::ok;
};

struct Tier {
  int tier = 0;
  std::vector<FileStatus> files;
  std::optional<Combined> combined;  // tier 1 only
};

struct Report {
  std::vector<Tier> tiers;             // 1 to 5
  std::vector<std::string> bloat_due;  // §7 rule names whose threshold is breached, in §7 order
  std::vector<Finding> findings;       // sorted
};

// §7's count of a file's items: top-level bullet units of ACTIVE_TASKS.md; entries (H2 sections,
// or bullet units when there is no H2) of MISTAKES.md and PATTERNS.md; nullopt for other files
// and for an unparseable one.
[[nodiscard]] std::optional<std::uint64_t> item_count(std::string_view path, const Document& doc);

// `memkit memorybox status` (§2): lines, items and budget states per tier, and the §7 rules whose
// threshold is breached, judged on `now`'s local date.
[[nodiscard]] Report memorybox_status(const Inputs& inputs, const ClockReading& now);

// §3: what one entry of a tier file is.
enum class EntryKind : std::uint8_t { bullet, section, session, daily };

// A `Key: value` field line of an entry (§3); only the spec's keys are fields.
struct Field {
  std::string key;
  std::string value;  // stripped
  std::uint32_t line;
  std::size_t begin = 0;        // offset of the line
  std::size_t indent = 0;       // bytes of indentation before the key
  std::size_t content_end = 0;  // offset of the line's terminator
  std::size_t end = 0;          // offset after the terminator
};

struct Entry {
  EntryKind kind = EntryKind::bullet;
  std::string id;            // "<path>#<12 hex of SHA-256(identity key)>"
  std::string identity_key;  // §3
  std::uint32_t first_line = 0;
  std::uint32_t last_line = 0;
  std::size_t first_line_end = 0;       // offset after the first line (and its terminator, if any)
  std::size_t begin = 0;                // offset of the first line
  std::size_t end = 0;                  // offset after the last line and its terminator, if any
  std::optional<std::string> category;  // §3: the enclosing H2 (or "H2 / H3"), or a section
                                        // file's stem or Category field; none for sessions,
                                        // daily files and bullets before any H2
  std::vector<Field> fields;
  // The value of a field, or nullopt.
  [[nodiscard]] std::optional<std::string_view> field(std::string_view key) const noexcept;
};

// Returns true iff `key` is one of the field keys of §3 (case-sensitive).
[[nodiscard]] bool is_field_key(std::string_view key) noexcept;

// The §3 field keys, in the order memkit writes them.
inline constexpr std::array<std::string_view, 13> kFieldOrder = {
    "Confidence", "Verified", "Stable",   "Decay-Trigger", "Source",  "Status", "Last-Used",
    "Done",       "Client",   "Category", "Review",        "Updated", "Id"};

// A confidence (or a similarity) in hundredths as memkit writes it: "0.55", "1.00".
[[nodiscard]] std::string format_hundredths(std::uint32_t hundredths);

// A path's file name ("PATTERNS.md") and stem ("PATTERNS") for "memory/PATTERNS.md".
[[nodiscard]] std::string_view file_name(std::string_view path) noexcept;
[[nodiscard]] std::string_view file_stem(std::string_view path) noexcept;

// Returns true iff the file's entries are H2 sections (§3): SOP_LIBRARY.md, PATTERNS.md,
// MISTAKES.md and DECISIONS.md.
[[nodiscard]] bool is_section_file(std::string_view path) noexcept;

// §3: the entries of a tier file at `path` (relative to the agent root), in file order.
// REQUIRES: doc.parseable().
[[nodiscard]] std::vector<Entry> read_entries(std::string_view path, const Document& doc);
// The entries of read_entries one at a time, in file order, without `id` and `identity_key`
// (left empty): where the entries and their fields are, for a reader that does not name entries
// and keeps few of them (sync reads 100,000 per command). `visit` may move from the entry.
void visit_entry_layout(std::string_view path, const Document& doc,
                        const std::function<void(Entry&)>& visit);
// The same for share `share` of `shares` of the file, so that threads can each lay out one: the
// entries of shares 0, 1, ... one after another are those of visit_entry_layout, in order. A file
// of bullets is shared out bullet by bullet; any other file's entries all go to share 0.
// REQUIRES: share < shares.
void visit_entry_layout(std::string_view path, const Document& doc, std::size_t share,
                        std::size_t shares, const std::function<void(Entry&)>& visit);
// Asked of each bullet of a file of bullets (not of a section file) before its lines are read,
// with its bytes' range and its category; a bullet it takes (returns true for) is not visited.
using BulletSkip = std::function<bool(std::size_t begin, std::size_t end,
                                      const std::optional<std::string>& category)>;
// visit_entry_layout of share `share` of `shares`, the bullets `skip` takes left out.
void visit_entry_layout(std::string_view path, const Document& doc, std::size_t share,
                        std::size_t shares, const std::function<void(Entry&)>& visit,
                        const BulletSkip& skip);

// §3 `Confidence`: "0", "1", or 0-1 with one or two decimals, in hundredths; else nullopt.
[[nodiscard]] std::optional<std::uint32_t> parse_confidence(std::string_view text) noexcept;

// §5: the band of an effective confidence (hundredths) and the seed's action for it.
enum class Band : std::uint8_t { speculation, low, medium, high, verified };
[[nodiscard]] Band band_of(std::uint32_t hundredths) noexcept;
[[nodiscard]] std::string_view band_name(Band band) noexcept;    // "verified", ...
[[nodiscard]] std::string_view band_action(Band band) noexcept;  // the seed's text

// §6 and §5, the one statement of the rules: the penalty for an age in days (0, 10 or 30
// hundredths), the effective confidence, and whether a band's review interval has passed.
[[nodiscard]] std::uint32_t decay_penalty(std::uint64_t days) noexcept;
[[nodiscard]] std::uint32_t effective_confidence(std::uint32_t stored, std::uint64_t days) noexcept;
[[nodiscard]] bool review_interval_passed(Band band, std::uint64_t days) noexcept;

// §6: one scored entry's decay on a date.
struct Decay {
  std::string entry_id;
  std::string file;
  std::uint32_t stored = 0;  // hundredths
  std::string verified;      // YYYY-MM-DD
  std::uint64_t days = 0;
  std::uint32_t penalty = 0;
  std::uint32_t effective = 0;
  Band band = Band::verified;
  bool review_due = false;
  bool reliable = true;
  std::vector<std::string> flags;  // contradicted, trigger_reached, needs_verification,
                                   // future_verified, in that order
};

struct DecayReport {
  std::vector<Decay> entries;
  std::vector<std::string> unscored;  // entry IDs
  std::vector<Finding> findings;      // sorted
};

// `memkit memorybox decay [--file F]` (§6): every scored entry of the tier 1-4 files (or of
// `only_file`), in tier order, then file order, then entry order. Writes nothing.
[[nodiscard]] DecayReport memorybox_decay(const Inputs& inputs, const ClockReading& now,
                                          std::optional<std::string_view> only_file = {});

// `memkit memorybox update --entry ID ...` (§6 events): field updates, applied directly.
enum class UpdateEvent : std::uint8_t { verify, confirm, contradict, resolve_keep };

struct UpdateRequest {
  std::string entry_id;
  UpdateEvent event = UpdateEvent::verify;
  std::string note;                         // contradict
  std::optional<std::uint32_t> confidence;  // resolve keep, in hundredths
};

// An entry's confidence state before or after an update.
struct ConfidenceState {
  std::optional<std::uint32_t> stored;
  std::optional<std::string> verified;
  std::optional<std::uint32_t> effective;
  std::optional<Band> band;
  std::optional<std::string> review;
};

struct UpdatePlanning {
  std::string entry_id;
  std::string path;  // the entry's file
  ConfidenceState before;
  ConfidenceState after;
  std::vector<Splice> splices;  // over the file's bytes; applied directly (§1)
  std::vector<Finding> findings;
};

// Finds the entry (tier 1-4 files) and computes its field edits by the §3 rules: a field line's
// content is replaced in place, a missing one is inserted at its place in the field order, and a
// cleared `Review` line is deleted; `Updated` is set to `now`. Fails with Errc::invalid_argument
// for an unknown entry, an entry without fields (sessions, daily files), `confirm` on an entry
// with no valid `Confidence`, or an unparseable file (Errc::parse).
[[nodiscard]] Result<UpdatePlanning> plan_update(const Inputs& inputs, const UpdateRequest& request,
                                                 const ClockReading& now);

// `memkit memorybox hygiene` (§8): one item of the monthly checklist.
struct HygieneDetail {
  std::string entry_id;                 // items 3-6
  std::string reason;                   // items 3, 4: "duplicate"; any: "unparseable"
  std::vector<std::string> reasons;     // item 5
  std::optional<std::string> verified;  // item 6
  std::optional<std::uint64_t> days;    // items 6, 7
  std::string path;                     // items 7, 10; any, with "unparseable": the file
};

struct Orphan {
  std::string file;
  std::uint32_t line = 0;
  std::string link;    // the raw link text
  std::string target;  // what it resolved to, relative to the root
};

struct HygieneItem {
  int n = 0;
  std::string check;   // the seed's item
  std::string result;  // "PASS", "FAIL", "REVIEW" or "N/A"
  std::optional<std::uint64_t> value;
  std::optional<std::uint64_t> limit;
  std::vector<HygieneDetail> details;
};

struct Hygiene {
  std::vector<HygieneItem> items;  // 1 to 10
  std::vector<Orphan> orphans;
  std::vector<Finding> findings;  // MK-BOX-013 per FAIL, MK-BOX-014 per REVIEW; sorted
};

// What item 10 reads of sync (§8, §9), when a remote is configured (the root has synced).
struct SyncHygiene {
  std::optional<std::string> last_push_at;  // UTC with milliseconds
  bool last_push_ok = false;
  std::vector<std::string> synced_files;  // the synced files that exist, sorted
  // The synced files whose entries a push would send now (`memorybox sync status`'s pending push:
  // an entry added, changed or removed since the last acknowledged push), sorted. What memkit's
  // own writes change without changing an entry (a push's Id and Updated lines) does not count.
  std::vector<std::string> changed_files;
  std::vector<std::string> open_conflicts;  // ids, sorted
};

// `memkit memorybox hygiene` (§8): the ten items, evaluated on `now`'s local date; writes nothing.
// Item 10 is N/A without `sync`.
[[nodiscard]] Hygiene memorybox_hygiene(const Inputs& inputs, const ClockReading& now,
                                        const SyncHygiene* sync = nullptr);

// `memkit memorybox load` (§2, §11): one file of a tier, with its bytes.
struct LoadedFile {
  std::string path;
  int tier = 0;
  std::uint64_t lines = 0;
  std::shared_ptr<const std::string> content;
};

// The tier of a path under the agent root (1 to 5), or 0 when the path is in no tier.
[[nodiscard]] int tier_of(const Inputs& inputs, std::string_view path);

// Every tier 1-4 file in tier order: the tiers' lists, then the daily files by date.
[[nodiscard]] std::vector<std::string> tier_files_1_to_4(const Inputs& inputs);

// `load --tier N` (every existing file of the tier, in status order) or `load --file F`. Tier 5 is
// refused unless `include_archive` or F lies under memory/ARCHIVES/. Fails with
// Errc::invalid_argument naming the argument (--tier, --file).
[[nodiscard]] Result<std::vector<LoadedFile>> load_files(const Inputs& inputs,
                                                         std::optional<int> tier,
                                                         std::optional<std::string_view> file,
                                                         bool include_archive);

// `memkit memorybox init` (§11): the files of the tier 1-4 lists, each "# <stem>\n".
[[nodiscard]] std::string init_file_bytes(std::string_view path);

}  // namespace memkit::memorybox

namespace memkit {

// What `memkit memorybox init` made, sorted bytewise; folders end with "/".
struct MemoryBoxInit {
  std::vector<std::string> created;
};

}  // namespace memkit
