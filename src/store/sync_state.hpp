// The sync state of an agent root as MemoryBox sync reads and writes it (spec memorybox.md §9):
// .memkit/sync.json, .memkit/sync/base.tsv, .memkit/sync/scan.cache and
// .memkit/sync/conflicts.jsonl. Their bytes are src/memorybox/sync_files.hpp's; this is their I/O.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "memkit/memorybox/sync.hpp"
#include "memkit/result.hpp"
#include "parallel/run_both.hpp"
#include "store/agent_root.hpp"

namespace memkit {

// A state file as read, told apart from another read by its XXH3-128 (its bytes are not kept).
struct SyncFileMark {
  std::size_t size = 0;
  std::array<std::uint8_t, 16> digest{};
  friend bool operator==(const SyncFileMark&, const SyncFileMark&) = default;
};

// The sync state as read: sync.json, the base and the open conflicts.
struct SyncStateRead {
  SyncFiles files;  // files.base dropped once parsed: base_read tells it apart
  std::optional<SyncFileMark> base_read;
  std::optional<memorybox::SyncState> sync;
  memorybox::SyncBase base;
  // memorybox::sync_base_needs_rewrite: the next change writes base.tsv whole.
  bool base_rewrite = false;
  std::vector<memorybox::SyncRecord> conflicts;
  // .memkit/sync/scan.cache, when there is a base and the file is a scan cache (its blocks up to
  // the first that does not read whole); else the scans read every entry in full, which gives the
  // same answers.
  std::optional<memorybox::ScanCache> cache;
  [[nodiscard]] const memorybox::ScanCache* scan_cache() const noexcept {
    return cache ? &*cache : nullptr;
  }
};

// .memkit/sync.json alone (in `sync`; nothing else is read).
[[nodiscard]] Result<SyncStateRead> read_sync_json(const AgentRoot& root);

// The state files read and parsed, all but the modification times (which need the root's files).
// `earlier`, when given, is a state read before: when the base file has not changed since, its
// parsed base (and scan cache) are moved from it rather than parsed again.
[[nodiscard]] Result<SyncStateRead> read_sync_state(const AgentRoot& root,
                                                    SyncStateRead* earlier = nullptr);

// read_sync_state, with the modification times of `inputs`' synced files.
[[nodiscard]] Result<SyncStateRead> read_sync_state(const AgentRoot& root,
                                                    const memorybox::Inputs& inputs);

// Sets `changes` (digests made as the base's are) in .memkit/sync/base.tsv: appended (a sync of
// 100 entries writes 100 lines), or the whole base written when there is none yet (its first line
// says its version) or `state.base_rewrite`.
[[nodiscard]] Status write_sync_base(AgentRoot& root, const SyncStateRead& state,
                                     const memorybox::SyncBase& changes);

// The scan cache of a scan, once a sync has written its base, when the scan read bullets in full
// (`read` of `all`): appended as a block to the cache it was given; or, when there was none that
// read whole or it would hold more than twice the bullets found, all written anew in `caching`
// (joined by its owner; `root` and `all` must outlive it). A cache that cannot be written is left
// as it was: it only makes scans faster, and the base settles every hit.
void write_scan_cache(AgentRoot& root, const SyncStateRead& state,
                      const std::vector<memorybox::CachedEntry>& all,
                      const std::vector<memorybox::CachedEntry>& read,
                      std::optional<detail::Background>& caching);

// .memkit/sync/conflicts.jsonl and .memkit/sync.json, written whole.
[[nodiscard]] Status write_sync_conflicts(AgentRoot& root,
                                          const std::vector<memorybox::SyncRecord>& conflicts);
[[nodiscard]] Status write_sync_json(AgentRoot& root, const memorybox::SyncState& sync);

}  // namespace memkit
