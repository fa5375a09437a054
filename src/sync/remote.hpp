// The remote side of MemoryBox sync (spec memorybox.md §9): the adapter interface the sync
// commands talk to, and the directory adapter. The PostgreSQL adapter lives in its own library
// target (memkit::postgres, include/memkit/sync_postgres.hpp).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/memorybox/sync.hpp"
#include "memorybox/sync_files.hpp"
#include "memkit/result.hpp"

namespace memkit::sync {

// What a pull returns: the records that reached the remote after the cursor it was given, and
// the cursor to give next time.
struct Pulled {
  std::vector<memorybox::SyncRecord> records;  // every table; at most one record per (table, id)
  std::string cursor;                          // opaque; "" means "from the beginning"
};

// One record a push could not store, and why.
using Refusal = memorybox::PushRefusal;

// The adapter interface of §9. A remote holds the rows of many workspaces; every call names one
// workspace and never reads or writes another's rows.
//
// Ordering: a remote orders what it receives. A pull returns the records of `workspace_id` whose
// latest version reached the remote after `cursor` (all of them for ""), each at most once, with
// the cursor that follows the last of them; a record pushed while a pull runs is either in its
// result or after its cursor, never lost. (memkit does not pull by `updated_at`: that is the
// writer's clock, and a record pushed late by a machine whose clock is behind would be missed.)
//
// Pushing is an idempotent upsert keyed by (workspace_id, table, id), all or nothing per call: a
// record is stored when the remote has no row for its id or an older one (`updated_at` earlier);
// it is acknowledged when stored or when the remote already holds exactly this record (a push
// repeated after a timeout). A record whose remote row is newer, or equally new but different,
// is refused, not overwritten: the next pull merges it.
class Remote {
 public:
  virtual ~Remote() = default;

  // A short description for messages ("directory /srv/memory-remote", "PostgreSQL"): never a
  // password or connection string.
  [[nodiscard]] virtual std::string describe() const = 0;

  // REQUIRES: memorybox::is_uuid(workspace_id).
  [[nodiscard]] virtual Result<Pulled> pull(std::string_view workspace_id,
                                            std::string_view cursor) = 0;

  // Stores `records` (each with record.workspace_id == workspace_id) and returns those refused;
  // every other record is acknowledged. A failure (connection lost, ...) acknowledges nothing
  // that the caller may count on: the whole call is retried later.
  [[nodiscard]] virtual Result<std::vector<Refusal>> push(
      std::string_view workspace_id, std::span<const memorybox::SyncRecord> records) = 0;

  // Readies what a push soon after will need, so that the push itself does less (the PostgreSQL
  // adapter creates its session's incoming table): called while the caller prepares the records.
  // Optional, and never an error: a push does whatever this did not.
  virtual void prepare_push() {}
};

// The directory adapter (§9): one JSON Lines file per table in `folder` (memories.jsonl,
// session_logs.jsonl, daily_logs.jsonl), each line a record_line(). A push appends the records it
// stores, under an exclusive lock of `folder/.lock`, in one write per file; a later line of an id
// supersedes earlier ones. Lines of other workspaces are skipped and never changed. A final line
// without its LF (a push that crashed mid-write) is ignored and cut off by the next push. The
// cursor is the byte length of each file that was read.
// Fails with Errc::not_found when `folder` does not exist.
[[nodiscard]] Result<std::unique_ptr<Remote>> open_directory_remote(std::string folder);

}  // namespace memkit::sync
