#include "store/sync_state.hpp"

#include <utility>

#include "memkit/digest.hpp"
#include "memorybox/sync_files.hpp"

namespace memkit {

namespace {

constexpr const char* kScanCacheFile = "sync/scan.cache";  // under .memkit

}  // namespace

Result<SyncStateRead> read_sync_json(const AgentRoot& root) {
  SyncStateRead state;
  Result<std::optional<std::string>> bytes = root.read_state_file("sync.json");
  if (!bytes) return bytes.status();
  if (*bytes) {
    Result<memorybox::SyncState> parsed = memorybox::parse_sync_state(**bytes);
    if (!parsed) return parsed.status();
    state.sync = std::move(*parsed);
  }
  return state;
}

Result<SyncStateRead> read_sync_state(const AgentRoot& root, SyncStateRead* earlier) {
  SyncStateRead state;
  Result<SyncFiles> files = root.read_sync_files();
  if (!files) return files.status();
  state.files = std::move(*files);
  if (state.files.state) {
    Result<memorybox::SyncState> parsed = memorybox::parse_sync_state(*state.files.state);
    if (!parsed) return parsed.status();
    state.sync = std::move(*parsed);
  }
  if (state.files.base) {
    const std::string_view bytes = *state.files.base;
    state.base_read = SyncFileMark{bytes.size(), xxh3_128(bytes)};
    if (earlier != nullptr && earlier->base_read == state.base_read) {
      state.base = std::move(earlier->base);
      state.base_rewrite = earlier->base_rewrite;
      state.cache = std::move(earlier->cache);
    } else {
      Result<memorybox::SyncBase> base = memorybox::parse_sync_base(bytes);
      if (!base) return base.status();
      state.base = std::move(*base);
      state.base_rewrite = memorybox::sync_base_needs_rewrite(bytes, state.base.size());
    }
    // Parsed, the base keeps none of its bytes: their memory (10 MB at 100,000 ids) goes back to
    // the heap for what the scan makes next.
    state.files.base.reset();
    if (!state.cache) {
      Result<std::optional<std::string>> cache = root.read_state_file(kScanCacheFile);
      if (cache && *cache) {
        Result<memorybox::ScanCache> parsed = memorybox::parse_scan_cache(std::move(**cache));
        if (parsed) state.cache = std::move(*parsed);
      }
    }
  }
  if (state.files.conflicts) {
    Result<std::vector<memorybox::SyncRecord>> conflicts =
        memorybox::parse_sync_conflicts(*state.files.conflicts);
    if (!conflicts) return conflicts.status();
    state.conflicts = std::move(*conflicts);
  }
  return state;
}

Result<SyncStateRead> read_sync_state(const AgentRoot& root, const memorybox::Inputs& inputs) {
  Result<SyncStateRead> state = read_sync_state(root, nullptr);
  if (!state) return state;
  Result<memorybox::ModifiedTimes> modified = root.modified_times(inputs);
  if (!modified) return modified.status();
  state->files.modified = std::move(*modified);
  return state;
}

Status write_sync_base(AgentRoot& root, const SyncStateRead& state,
                       const memorybox::SyncBase& changes) {
  if (changes.empty()) return Status();
  if (state.base_rewrite || !state.base_read || state.base_read->size == 0) {
    return root.write_state_file(
        "sync/base.tsv", memorybox::render_sync_base(memorybox::merged_base(state.base, changes)));
  }
  return root.append_state_file("sync/base.tsv", memorybox::render_sync_base_lines(changes));
}

void write_scan_cache(AgentRoot& root, const SyncStateRead& state,
                      const std::vector<memorybox::CachedEntry>& all,
                      const std::vector<memorybox::CachedEntry>& read,
                      std::optional<detail::Background>& caching) {
  if (read.empty()) return;
  const memorybox::ScanCache* given = state.scan_cache();
  if (given != nullptr && given->whole() && given->size() + read.size() <= 2 * all.size() + 1024) {
    (void)root.append_state_file(kScanCacheFile, memorybox::render_scan_cache_block(read));
    return;
  }
  caching.emplace([&root, &all] {
    (void)root.write_state_file(kScanCacheFile, memorybox::render_scan_cache(all));
  });
}

Status write_sync_conflicts(AgentRoot& root, const std::vector<memorybox::SyncRecord>& conflicts) {
  return root.write_state_file("sync/conflicts.jsonl", memorybox::render_sync_conflicts(conflicts));
}

Status write_sync_json(AgentRoot& root, const memorybox::SyncState& sync) {
  return root.write_state_file("sync.json", memorybox::render_sync_state(sync));
}

}  // namespace memkit
