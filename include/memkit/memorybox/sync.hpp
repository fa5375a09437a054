// The pure core of MemoryBox file <-> remote sync (spec memorybox.md §9): sync records, UUIDv7
// identities, the sync state, the base, the conflict rules and the SYNC_CONFLICTS.md block, the
// local scan and the push and pull plans. The bytes of the files sync keeps (sync.json, base.tsv,
// scan.cache, conflicts.jsonl, a folder remote's lines) are src/memorybox/sync_files.hpp's. No files, no database, no clock: the shell passes times and random
// bytes in.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "memkit/clock.hpp"
#include "memkit/findings.hpp"
#include "memkit/memorybox.hpp"
#include "memkit/plan.hpp"
#include "memkit/result.hpp"

namespace memkit::memorybox {

// §9: the three remote tables.
enum class SyncTable : std::uint8_t { memories, session_logs, daily_logs };
[[nodiscard]] std::string_view sync_table_name(SyncTable table) noexcept;  // "memories", ...
[[nodiscard]] std::optional<SyncTable> parse_sync_table(std::string_view name) noexcept;
// session_logs and daily_logs.
[[nodiscard]] bool is_log_table(SyncTable table) noexcept;

// §9 Records: one synced entry.
struct SyncRecord {
  std::string id;            // the entry's `Id` field, unchanged (lossless)
  std::string workspace_id;  // a canonical lower-case UUID
  SyncTable table = SyncTable::memories;
  std::string file;                         // the entry's current path, "memory/LONG_TERM.md"
  std::optional<std::string> category;      // §3 category, or null
  std::string text;                         // the entry's bytes without field lines
  std::optional<std::uint32_t> confidence;  // hundredths 0-100; null for a log record
  std::optional<std::string> verified;      // YYYY-MM-DD, or null
  std::string updated_at;                   // RFC 3339 UTC with milliseconds
  bool deleted = false;
  friend bool operator==(const SyncRecord&, const SyncRecord&) = default;
};

// The first of parse_record_line's value rules that `record` breaks, in its words ("id is not a
// valid Id value", "a memories record lacks confidence or verified", ...), or nullopt. The one
// statement of the rules: the line reader and every adapter check records with it. Strings are
// not checked for UTF-8 here.
[[nodiscard]] std::optional<std::string> record_problem(const SyncRecord& record);

// RFC 9562 UUIDv7: the low 48 bits of `unix_millis` big-endian, version 7, variant 10, and the
// remaining 74 bits from `random` (rand_a = 12 bits, rand_b = 62 bits). Canonical lower-case
// 8-4-4-4-12.
[[nodiscard]] std::string uuid_v7(std::uint64_t unix_millis,
                                  const std::array<std::uint8_t, 10>& random);

// Returns true iff `text` is a UUID in canonical form: 8-4-4-4-12 lower-case hex digits (any
// version). Upper-case digits are refused, so that workspace ids compare bytewise.
[[nodiscard]] bool is_uuid(std::string_view text) noexcept;

// §9: .memkit/sync.json. OUR DECISION beyond the spec's four keys: `pull_cursor`, the remote's
// opaque position after the last pull (see sync_remote.hpp: pulling by `updated_at`, the writer's
// clock, would miss a record pushed late by a machine whose clock is behind).
struct SyncState {
  std::string workspace_id;                 // is_uuid
  std::optional<std::string> last_pull_at;  // is_utc_millis, or null before the first pull
  std::optional<std::string> last_push_at;  // is_utc_millis, or null before the first push
  bool last_push_ok = false;
  std::string pull_cursor;  // "" before the first pull
  friend bool operator==(const SyncState&, const SyncState&) = default;
};

// §9 Conflict rules: what a pull does with one id present on both sides.
enum class MergeOutcome : std::uint8_t { take_local, take_remote, conflict };
[[nodiscard]] std::string_view merge_outcome_name(MergeOutcome outcome) noexcept;

// Which rule decided.
enum class MergeRule : std::uint8_t {
  same,                 // the same content (all but updated_at): the newer, local on a tie or canon
  only_local_changed,   // only the local side changed since the last sync
  only_remote_changed,  // only the remote side changed since the last sync
  canon,                // a canon entry (rule 5): any difference is a conflict
  log_newer,            // rule 1: the newer updated_at
  log_tie,              // rule 1: equal timestamps
  fact_newer,           // rule 2: newer exists, higher is none or the same side
  fact_higher,          // rule 2: newer is none, higher exists
  fact_ambiguous,       // rule 2: newer and higher disagree, or both tie
};
[[nodiscard]] std::string_view merge_rule_name(MergeRule rule) noexcept;

struct MergeDecision {
  MergeOutcome outcome = MergeOutcome::take_local;
  MergeRule rule = MergeRule::same;
  friend bool operator==(const MergeDecision&, const MergeDecision&) = default;
};

struct MergeInput {
  // Whether each side changed since the last sync: its record_digest differs from the one both
  // sides had then (the SyncBase), or there was no sync of this id yet (both changed).
  bool local_changed = true;
  bool remote_changed = true;
  // Each side's effective confidence today (§6, computed by the caller), for memory facts. When
  // either is null (a tombstone without a confidence), *higher* is none.
  std::optional<std::uint32_t> local_effective;
  std::optional<std::uint32_t> remote_effective;
  bool canon = false;  // the entry lives in a Maven canon file (rule 5)
};

// Decides one id present on both sides (a record on one side only is simply that side's). The
// table of `local` chooses the rule. Deletions take part as updates at their updated_at (rule 4).
// REQUIRES: local.id == remote.id; both updated_at values are is_utc_millis.
[[nodiscard]] MergeDecision merge(const SyncRecord& local, const SyncRecord& remote,
                                  const MergeInput& input);

// The shortest backtick fence (at least 3) that is longer than every backtick run of `text`.
[[nodiscard]] std::string fence_for(std::string_view text);

// §9 rule 3: the memory/SYNC_CONFLICTS.md block of a truly ambiguous record, both versions with
// every field, so that a reader sees how they differ even when the texts agree:
//   ## <id> — <today>\n\nLocal:\n\n- file: <file>\n- category: <category|none>\n
//   - confidence: <0.95|none>\n- verified: <date|none>\n- updated_at: <time>\n
//   - deleted: <yes|no>\n\n<fence>\n<text>\n<fence>\n\nRemote:\n\n(the same)
// Each text is written byte for byte (empty for a deletion); an LF is added before the closing
// fence only when the text is non-empty and does not end with one. All four fences have one
// length: longer than every backtick run of either text (at least 3).
[[nodiscard]] std::string conflict_block(std::string_view id, std::string_view today,
                                         const SyncRecord& local, const SyncRecord& remote);

// The file where truly ambiguous records are written down (rule 3).
inline constexpr std::string_view kSyncConflictsFile = "memory/SYNC_CONFLICTS.md";

// ---- The local side: the tier files as records (§9 Identity, Records) ----

// The table a tier file's entries sync to: memory/LONG_TERM.md, SOP_LIBRARY.md, PATTERNS.md,
// MISTAKES.md and DECISIONS.md -> memories; memory/SESSION_LOG.md -> session_logs;
// memory/daily/YYYY-MM-DD.md (a valid date) -> daily_logs; nullopt for any other path.
[[nodiscard]] std::optional<SyncTable> sync_table_of(std::string_view path) noexcept;

// How a base's record digests are made (OUR DECISION). Version 2, a base.tsv that starts with
// its version line (every base memkit starts now): XXH3-128, a tenth of SHA-256's cost per entry,
// enough since the base never leaves the root and a collision could only hide a change. Version
// 1, a base.tsv without that line (memkit before it): the first 128 bits of SHA-256; such a base
// is read and appended to as it is.
enum class BaseDigests : std::uint8_t { sha256 = 1, xxh3 = 2 };

// What "changed since the last sync" compares (32 hex digits): every field of the record but
// workspace_id and updated_at, so a file's modification time moving (the updated_at of an entry
// without `Updated`) is no change.
[[nodiscard]] std::string record_digest(const SyncRecord& record,
                                        BaseDigests digests = BaseDigests::xxh3);

// The tombstone a push sends for an entry deleted locally: no text, no scores, deleted.
[[nodiscard]] SyncRecord tombstone(std::string id, std::string workspace_id, SyncTable table,
                                   std::string file, std::string updated_at);

// What both sides held at the last sync, per id (.memkit/sync/base.tsv, OUR DECISION): the table,
// the file and the record_digest. An id whose entry was deleted locally keeps its tombstone's
// digest, so that it is pushed once.
struct BaseEntry {
  SyncTable table = SyncTable::memories;
  std::string file;
  std::string digest;
  friend bool operator==(const BaseEntry&, const BaseEntry&) = default;
};
// The base: BaseEntry per id, held compactly (OUR DECISION, for roots of millions of entries):
// the ids in one buffer; per id 16 bytes (where its id lies, its file's number, its table); and
// per id a slot of one open-addressing table (the id's hash and its digest as 16 bytes). Nothing
// of the parsed base.tsv is kept, parsing allocates nothing per line, and the scan's question
// (does the base hold this id with this digest?) is answered from the table alone. At 100,000
// ids that is 11 MB, where the base.tsv alone is 10 MB.
class SyncBase final {
 public:
  SyncBase() = default;
  explicit SyncBase(BaseDigests digests) noexcept : digests_(digests) {}
  SyncBase(std::initializer_list<std::pair<std::string_view, BaseEntry>> entries);

  [[nodiscard]] std::size_t size() const noexcept { return items_.size(); }
  // How its digests are made: xxh3 for a new base, sha256 for a base.tsv of version 1.
  [[nodiscard]] BaseDigests digests() const noexcept { return digests_; }
  [[nodiscard]] bool empty() const noexcept { return items_.empty(); }
  [[nodiscard]] bool contains(std::string_view id) const noexcept;
  // The entry of `id`, or nullopt.
  [[nodiscard]] std::optional<BaseEntry> find(std::string_view id) const;
  // The entry of `id`. Throws std::out_of_range when there is none.
  [[nodiscard]] BaseEntry at(std::string_view id) const;
  // The digest held for `id` (32 hex digits), or nullopt.
  [[nodiscard]] std::optional<std::array<char, 32>> digest(std::string_view id) const noexcept;
  // Whether the base holds the id of fast_hash `id_hash` with `digest` (32 hex digits), as the
  // id's position among the ids (1 to size()), 0 when it does not: the scan's question, answered
  // from the table alone. The id is known by its hash; the digest, which covers the id, settles it.
  [[nodiscard]] std::uint32_t holding(std::uint64_t id_hash,
                                      std::string_view digest) const noexcept;
  // The same for a digest as 16 bytes (the 32 hex digits' values).
  [[nodiscard]] std::uint32_t holding(std::uint64_t id_hash,
                                      const std::array<std::uint8_t, 16>& digest) const noexcept;
  // The id at `position` (1 to size(), as holding and position give). The view lasts until the
  // base changes.
  [[nodiscard]] std::string_view id_at(std::uint32_t position) const noexcept {
    return id_of(items_[position - 1]);
  }
  // The position of `id` among the ids (1 to size()) whatever its digest, 0 when absent.
  [[nodiscard]] std::uint32_t position(std::string_view id) const noexcept;
  // Starts fetching the table slot of the id of fast_hash `id_hash` into the cache, so that a
  // holding(id_hash, ...) after some other work (the scan digests the entry in between) does not
  // wait for memory.
  void prefetch(std::uint64_t id_hash) const noexcept;
  // Throws std::length_error for an id of 16 MiB or more.
  void insert_or_assign(std::string_view id, const BaseEntry& entry);
  // Calls visit(id, table, file, digest) for each id, in no particular order. The views last
  // until the base changes, the digest's until visit returns.
  template <typename Visit>
  void for_each(Visit&& visit) const {
    for (const Slot& slot : slots_) {
      if (slot.tag == 0) continue;
      const Item& item = items_[(slot.tag >> 32) - 1];
      const std::array<char, 32> hex = hex_of(slot.digest);
      visit(id_of(item), item.table, std::string_view(files_[item.file]),
            std::string_view(hex.data(), hex.size()));
    }
  }
  friend bool operator==(const SyncBase& a, const SyncBase& b);

 private:
  friend Result<SyncBase> parse_sync_base(std::string_view bytes);
  struct Item {
    std::uint64_t id_at : 40;    // where the id begins in ids_
    std::uint64_t id_size : 24;  // its length
    std::uint32_t file = 0;      // its index in files_
    SyncTable table = SyncTable::memories;
  };
  // A slot of the table: (index + 1) << 32 | the id hash's high 32 bits (0 when empty), and the
  // item's digest as 16 bytes.
  struct Slot {
    std::uint64_t tag = 0;
    std::array<std::uint8_t, 16> digest{};
  };
  [[nodiscard]] static std::array<char, 32> hex_of(const std::array<std::uint8_t, 16>& digest);
  [[nodiscard]] std::string_view id_of(const Item& item) const noexcept {
    return std::string_view(ids_).substr(item.id_at, item.id_size);
  }
  // The slot holding `id` (of fast_hash `hash`), or the empty slot where it would go.
  // REQUIRES: !slots_.empty().
  [[nodiscard]] std::size_t probe(std::uint64_t hash, std::string_view id) const noexcept;
  [[nodiscard]] std::size_t slot_of(std::string_view id) const noexcept;  // or slots_.size()
  [[nodiscard]] std::uint32_t file_index(std::string_view file);
  // An item for `id` (appended to ids_). Throws std::length_error for an id of 16 MiB or more.
  [[nodiscard]] Item new_item(std::string_view id, std::uint32_t file, SyncTable table);
  void reserve_slots(std::size_t count);  // room for `count` ids, at most half full
  std::string ids_;                       // every item's id, one after another
  std::vector<std::string> files_;        // the files, once each
  std::map<std::string, std::uint32_t, std::less<>> file_indexes_;  // file -> index in files_
  std::vector<Item> items_;
  std::vector<Slot> slots_;  // open addressing, a power of two long, at most half full
  BaseDigests digests_ = BaseDigests::xxh3;
};

// `base` with each entry of `changes` set.
[[nodiscard]] SyncBase merged_base(SyncBase base, const SyncBase& changes);

// One synced entry of the local files.
struct LocalRecord {
  SyncRecord record;                       // record.id is the entry's Id (assigned if it had none)
  std::string digest;                      // record_digest(record)
  Entry entry;                             // where it is, in record.file (no entry ID: layout)
  std::optional<std::uint32_t> effective;  // memories: the effective confidence today (§6)
  bool assigned = false;                   // the Id is new: an Id line is to be written
  bool own_time = false;  // record.updated_at is the entry's `Updated` (not the file's time)
};

// Synced files parsed, by path.
using ParsedFiles = std::map<std::string, Document, std::less<>>;

// The synced tier 1-4 files of `inputs` that are there, parsed as scan_local parses them: a caller
// may parse them while it waits for something else (the base) and give them to scan_local.
[[nodiscard]] ParsedFiles parse_synced_files(const Inputs& inputs);

// The bullets a scan last read, by fingerprint (.memkit/sync/scan.cache, OUR DECISION): a bullet's
// fingerprint is XXH3-128 of its bytes with its table, file and category; with it go the fast_hash
// of its Id and its record digest (16 bytes). A later scan that meets a bullet of that fingerprint,
// whose Id the base holds with that digest, takes it as unchanged without reading its lines. Only
// an acceleration: a cache that is missing, damaged or stale costs full reads, never a wrong
// answer, since the base settles every hit.
// The Id's hash is the build's fast_hash (the base's table is keyed by it): a cache written by a
// build whose fast_hash differs only misses.
struct CachedEntry {
  std::array<std::uint8_t, 16> fingerprint{};
  std::uint64_t id_hash = 0;
  std::array<std::uint8_t, 16> digest{};
  friend bool operator==(const CachedEntry&, const CachedEntry&) = default;
};
class ScanCache final {
 public:
  ScanCache() = default;
  [[nodiscard]] std::size_t size() const noexcept { return count_; }  // entries read, repeats too
  // Whether every block of the file read whole (else the entries before the first that did not).
  [[nodiscard]] bool whole() const noexcept { return whole_; }
  // The entry of `fingerprint` (the last one read), or nullopt.
  [[nodiscard]] std::optional<CachedEntry> find(
      const std::array<std::uint8_t, 16>& fingerprint) const noexcept;
  // Start fetching into the cache what find(fingerprint) reads: its index slot, then (once that
  // slot is fetched) the entry it names, so that finds a few entries apart overlap.
  void prefetch_slot(const std::array<std::uint8_t, 16>& fingerprint) const noexcept;
  void prefetch_entry(const std::array<std::uint8_t, 16>& fingerprint) const noexcept;

 private:
  friend Result<ScanCache> parse_scan_cache(std::string bytes);
  std::string bytes_;  // the file's, kept as read
  std::size_t count_ = 0;
  bool whole_ = true;
  std::vector<std::uint32_t> index_;  // open addressing: an entry's offset in bytes_ + 1, 0 empty
};

// Which entries a scan reads in full (OUR DECISION, so that an incremental sync costs the change,
// not the root): with a base, an entry whose record_digest equals the base's is only located,
// its Id kept in LocalScan::unchanged, unless `ids` names it. Entries without an Id and daily
// files are always read in full. Without a base, every entry is.
struct ScanFocus {
  const SyncBase* base = nullptr;
  std::unordered_set<std::string_view> ids;  // e.g. the ids of the pulled records
  // A file at least this large is laid out and read in two shares on two cores (the result is the
  // same either way; tests set 0 to read every file so).
  std::size_t parallel_bytes = std::size_t{1} << 20;
  // Files parsed already (parse_synced_files); one not there, or parsed from other bytes than the
  // inputs hold, is parsed by the scan.
  const ParsedFiles* parsed = nullptr;
  // With the base, the bullets of the last scan (ScanCache): one found there and held by the base
  // with its digest is only located, its lines not read.
  const ScanCache* cache = nullptr;
};

// What the local files hold for sync.
struct LocalScan {
  std::vector<LocalRecord> records;  // read in full: tier file order, then entry order
  // The Ids of the entries only located (ScanFocus), in file order: views of the inputs' bytes or
  // of the focus base's ids, valid while those are.
  std::vector<std::string_view> unchanged;
  // What a ScanCache of this scan holds: every bullet of a file of bullets that carries an Id, read
  // in full or found in the cache, with the digest of what it holds now; and those read in full
  // (which the cache the scan was given lacks).
  std::vector<CachedEntry> cache;
  std::vector<CachedEntry> cache_read;
  // The synced files as parsed, by path (for the edits a push or pull plans).
  ParsedFiles documents;
  // Ids of entries that carry an Id but do not sync now (an unscored memories entry): they are
  // neither pushed nor taken as deleted.
  std::set<std::string, std::less<>> dormant;
  // The Id lines to write for the assigned Ids, per file, as splices over its bytes (§3 field
  // order; a daily file's Id line and empty line at its top).
  std::map<std::string, std::vector<Splice>> id_splices;
  std::vector<Finding> findings;  // MK-BOX-022 (BLOCKER) for each Id held by two entries
  // How the records' digests were made: as the focus base's are (xxh3 without a base).
  BaseDigests digests = BaseDigests::xxh3;
};

// A scanned record's digest as `digests` make it: its own when the scan made them so.
[[nodiscard]] std::string digest_as(const LocalScan& scan, const LocalRecord& record,
                                    BaseDigests digests);

// The files' modification times, "path" -> UTC with milliseconds, for entries without `Updated`.
using ModifiedTimes = std::map<std::string, std::string, std::less<>>;

// Reads every synced entry of the tier 1-4 files (sync_table_of) into records of `workspace_id`:
// memories entries only when scored. An entry without an Id gets a UUIDv7 from `now` and its bytes
// (uuid_v7 of SHA-256 of them, so the same files at the same instant get the same Ids).
// Fails with Errc::parse (or invalid_utf8) for a synced file that cannot be read as entries.
[[nodiscard]] Result<LocalScan> scan_local(const Inputs& inputs, std::string_view workspace_id,
                                           const ModifiedTimes& modified, const ClockReading& now,
                                           const ScanFocus& focus = {});

// §9 push step 2: what to send. A record is sent when its digest differs from the base (or the
// base lacks it), unless its Id has an open conflict (`held`; also for `local.unchanged`); an id of
// the base that no local entry holds any longer (and is not dormant) is sent as a tombstone at
// `now`, once. An entry changed since the last sync (its digest differs from the base's) is sent
// with `updated_at` = now, and its `Updated` line is set to now in the file (OUR DECISION: an edit
// made by hand leaves `Updated` as it was; without this, the remote would refuse the edit as no
// newer than what it holds), unless its own `Updated` is later than `synced_at` (the later of
// last_push_at and last_pull_at; empty: none): then whatever changed it set its time, and it is
// sent with that time and its file left as it is. A daily file has no `Updated` line: its time is
// the file's.
struct PushSelection {
  std::vector<SyncRecord> records;  // local order, then tombstones by id
  std::vector<std::string> held;    // ids not sent because a conflict is open, sorted
  // What to write before sending: the scan's Id lines and the Updated lines, per file, sorted.
  std::map<std::string, std::vector<Splice>> splices;
};
[[nodiscard]] PushSelection select_push(const Inputs& inputs, const LocalScan& local,
                                        const SyncBase& base,
                                        const std::set<std::string, std::less<>>& open_conflicts,
                                        std::string_view workspace_id, const ClockReading& now,
                                        std::string_view synced_at = {});

// One record a remote did not store, and why (sync_remote.hpp's adapters return these).
struct PushRefusal {
  SyncTable table = SyncTable::memories;
  std::string id;
  std::string reason;  // "the remote holds a newer version", ...
  friend bool operator==(const PushRefusal&, const PushRefusal&) = default;
};

// What `sync push` did (§9 Session end).
struct PushReport {
  std::string workspace_id;
  std::vector<std::string> assigned;  // Ids written into the files before the push, file order
  std::uint64_t sent = 0;             // records sent (changed entries and tombstones)
  std::vector<PushRefusal> refused;   // not acknowledged
  std::vector<std::string> held;      // not sent: their conflict is open
  std::optional<std::string> last_push_at;
  bool last_push_ok = false;
};

// What `sync status` shows (§9): the state, and what waits on each side.
struct SyncStatus {
  std::optional<std::string> workspace_id;  // null before the first sync
  std::optional<std::string> last_pull_at;
  std::optional<std::string> last_push_at;
  bool last_push_ok = false;
  std::uint64_t pending_push = 0;           // what a push would send now
  std::vector<std::string> open_conflicts;  // ids, sorted
  // Remote records a pull would merge; null unless a remote was given.
  std::optional<std::uint64_t> pending_pull;
};

// ---- Pull (§9 Session start) ----

// What a pull did with one remote record.
enum class PullAction : std::uint8_t {
  unchanged,   // both sides already agree (or the remote did not change): nothing to write
  added,       // a new entry (or daily file) written from the remote
  updated,     // the local entry's text or fields replaced by the remote's
  moved,       // the remote moved the entry to another file: removed there, written here
  deleted,     // the remote deleted it: the local entry moved to its archive (§7 archive files)
  kept_local,  // the local version wins; it is pushed next
  conflict,    // truly ambiguous: Review: sync conflict, SYNC_CONFLICTS.md, held from push
};
[[nodiscard]] std::string_view pull_action_name(PullAction action) noexcept;

struct PullItem {
  std::string id;
  SyncTable table = SyncTable::memories;
  std::string file;  // where the entry is after the pull
  PullAction action = PullAction::unchanged;
  std::optional<MergeRule> rule;  // when both sides held the id
};

struct PullPlanning {
  std::vector<PullItem> items;  // one per remote record, by table then id
  // The file changes: new entries, replaced entries, moves, archive copies, Review lines,
  // memory/SYNC_CONFLICTS.md. nullopt when no file changes.
  std::optional<Plan> plan;
  // True when the plan replaces or removes local bytes (updated, moved, deleted): then it waits
  // for a confirmed Plan ID; a plan that only adds is written directly.
  bool needs_confirmation = false;
  SyncBase base_changes;              // what the pull sets in the base (merged_base gives after)
  std::vector<SyncRecord> conflicts;  // the open conflicts after the pull, by id
  std::vector<Finding> findings;      // MK-BOX-021 when conflicts are open; refusals
};

struct PullInput {
  const Inputs* inputs = nullptr;
  // scan_local of the same inputs (Ids assigned), focused on the ids of `remote` and
  // `open_conflicts` if on any.
  const LocalScan* local = nullptr;
  const SyncBase* base = nullptr;
  std::vector<SyncRecord> remote;          // the pulled records (of this workspace)
  std::vector<SyncRecord> open_conflicts;  // the remote versions of the conflicts still open
  std::string_view workspace_id;
  const FileSnapshot* conflicts_file = nullptr;  // memory/SYNC_CONFLICTS.md; nullptr: missing
  // A written file at least this large is read back in two shares, one per core (tests lower it).
  std::size_t parallel_bytes = std::size_t{1} << 20;
};

// The checks of pulled records that need no local file: each of `workspace_id`, naming a synced
// path of its table, and no id twice. Fails with Errc::parse naming the record. plan_pull makes
// them first; a pull makes them before it takes the lock.
[[nodiscard]] Status check_pulled(const std::vector<SyncRecord>& remote,
                                  std::string_view workspace_id);

// §9 steps 3-4: merges each remote record with the local entry of its id by the conflict rules
// and plans the file changes (with the Id lines of local.id_splices). Fails with Errc::parse
// naming the record for a remote record that cannot be written here (a file that is not a synced
// path of its table, a memories text that does not read back as one entry).
[[nodiscard]] Result<PullPlanning> plan_pull(const PullInput& input, const ClockReading& now);

// `sync resolve --id ID --take local|remote` (§9 rule 3).
struct Resolution {
  std::string id;
  std::string take;  // "local" or "remote"
  std::string file;  // the entry's file afterwards
  std::optional<Plan> plan;
  SyncBase base_changes;              // what the resolution sets in the base
  std::vector<SyncRecord> conflicts;  // the conflicts still open
};
// Clears the entry's `Review: sync conflict` line, appends "Resolved <id> — <today>: took <side>."
// to memory/SYNC_CONFLICTS.md, and with `take_remote` writes the remote version over the local
// entry; with local, sets `Updated` to now so the push wins over the remote's version.
// The base takes the remote's digest, so the local version (if kept) is pushed next.
// Fails with Errc::invalid_argument ("--id: ...") when the id has no open conflict.
[[nodiscard]] Result<Resolution> plan_resolve(const PullInput& input, std::string_view id,
                                              bool take_remote, const ClockReading& now);

}  // namespace memkit::memorybox
