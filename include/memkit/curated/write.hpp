// Curated memory's writes (spec curated.md §4-§7): each command planned as a pure function from
// the workspace's row files and history to the bytes to write, in commit order (the row files, then
// history.jsonl), or refusals and nothing to write. The shell applies a plan as one transaction
// (§6 "Transactions").
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "memkit/curated.hpp"
#include "memkit/curated/log.hpp"
#include "memkit/findings.hpp"
#include "memkit/plan.hpp"
#include "memkit/snapshot.hpp"

namespace memkit::curated {

// The store-relative paths of a workspace (§2).
[[nodiscard]] std::string rows_path(std::string_view workspace,
                                    RowType type);                    // rows/<ws>/<type>.md
[[nodiscard]] std::string history_path(std::string_view workspace);   // log/<ws>/history.jsonl
[[nodiscard]] std::string access_path(std::string_view workspace);    // log/<ws>/access.jsonl
[[nodiscard]] std::string snapshot_path(std::string_view workspace);  // .../access-snapshot.json

// What a write reads, the paths a Snapshot for `workspace` must hold: every rows/<ws>/<type>.md
// whole (missing ones as missing entries), and history.jsonl, to which a write only appends, so
// that only its end is read (`tails`; FileSnapshot::offset). A hard delete (`purge`) rewrites the
// logs without the row's records: it reads history.jsonl, access.jsonl and access-snapshot.json
// whole.
struct WriteInputs {
  std::vector<std::string> whole;
  std::vector<std::string> tails;
};
[[nodiscard]] WriteInputs write_inputs(std::string_view workspace, bool purge = false);

// The rows of a workspace as read from its files: every valid entry of every type file, with where
// it lives. A name found twice (in two files, or twice in one) is MK-CUR-004 at the second place.
struct StoredRow {
  Row row;
  std::string path;  // its row file
};
struct Workspace {
  std::vector<StoredRow> rows;    // by name
  std::vector<Finding> findings;  // the row files' MK-CUR-004 and MK-CUR-030, and MK-IO-001 for an
                                  // unreadable file
  [[nodiscard]] const StoredRow* find(std::string_view name) const noexcept;
};
[[nodiscard]] Workspace read_workspace(const Snapshot& files, std::string_view workspace);

// Row files as parsed, kept between the writes of one batch (§10) so that each write parses only
// the files the writes before it changed: per path, the bytes parsed (the very string, not a copy)
// and what they parsed to.
struct ParsedRowFiles {
  struct Kept {
    std::shared_ptr<const std::string> bytes;
    std::shared_ptr<RowFile> parsed;  // a batch updates it as its writes are staged
  };
  std::map<std::string, Kept, std::less<>> files;
};

// Who writes, and when.
struct WriteContext {
  std::string workspace;
  std::string now;                   // RFC 3339 UTC with milliseconds
  std::optional<std::string> actor;  // null: the human owner
  ParsedRowFiles* parsed = nullptr;  // borrowed, may be null: parse every row file afresh
};

// The outcome of one planned write.
struct Write {
  std::vector<PlanOperation> operations;       // row files (path order), then the log files
  std::vector<Finding> findings;               // refusals (no operation then) and warnings
  bool changed = false;                        // false: "unchanged", nothing to write
  std::optional<Row> row;                      // the row after the write (add, append, edit,
                                               // reclassify, delete soft, restore)
  std::string action;                          // add: "inserted", "updated" or "unchanged"
  std::optional<std::string> link_created_at;  // link/unlink: the link's creation time
  std::map<std::string, std::string> entries;  // name -> the exact entry text after the write
  [[nodiscard]] bool refused() const noexcept;
  // The paths written, sorted bytewise (history.jsonl included); none when unchanged or refused.
  [[nodiscard]] std::vector<std::string> files() const;
};

// §6 add: an upsert by name. Strings as given; nullopt: not given. `status` "null" clears it.
struct AddRequest {
  std::string name;
  std::string type;
  std::string body;
  std::optional<std::string> description;
  std::optional<std::string> row_class;
  std::optional<std::string> status;
  std::optional<std::string> initiative;
  std::optional<std::string> project_ref;
  std::optional<std::string> audience;
  std::optional<std::string> origin_session;
};
[[nodiscard]] Write plan_add(const Snapshot& files, const WriteContext& context,
                             const AddRequest& request);

// §6 append: body := body + LF LF + text.
[[nodiscard]] Write plan_append(const Snapshot& files, const WriteContext& context,
                                std::string_view name, std::string_view text);

// §6 edit: overwrite the description or the body, optionally with audience, initiative and
// project_ref.
struct EditRequest {
  std::string name;
  std::string field;  // "description" or "body"
  std::string content;
  std::optional<std::string> audience;
  std::optional<std::string> initiative;
  std::optional<std::string> project_ref;
};
[[nodiscard]] Write plan_edit(const Snapshot& files, const WriteContext& context,
                              const EditRequest& request);

// §5 reclassify: at least one of class and status ("null" clears the status).
[[nodiscard]] Write plan_reclassify(const Snapshot& files, const WriteContext& context,
                                    std::string_view name,
                                    const std::optional<std::string>& row_class,
                                    const std::optional<std::string>& status);

// §7 link (remove: unlink).
[[nodiscard]] Write plan_link(const Snapshot& files, const WriteContext& context,
                              std::string_view src, std::string_view dst, std::string_view kind,
                              bool remove);

// §6 delete (soft, or hard: the purge of the row's entry, the links pointing to it, its history
// records, its access records and snapshot entry, then one purge record) and restore.
[[nodiscard]] Write plan_delete(const Snapshot& files, const WriteContext& context,
                                std::string_view name, bool hard);
[[nodiscard]] Write plan_restore(const Snapshot& files, const WriteContext& context,
                                 std::string_view name);

// §10 checkpoint: the session record (class anchor), its pending threads (class thread, status
// carry_forward, the record's type) and their derived_from links to the record, all or nothing.
struct CheckpointOperation {
  std::string op;                          // "upsert" or "link"
  std::string name;                        // the row; for a link, the thread
  std::string result;                      // "applied", "unchanged", "failed" or "not_attempted"
  std::optional<std::string> action;       // an applied upsert: "inserted" or "updated"
  std::optional<RowClass> row_class;       // an upsert that ran
  std::optional<RowStatus> memory_status;  // an upsert that ran, for a thread
  std::optional<std::string> error;        // the failed operation's finding code
  std::optional<std::string> dst;          // a link: the record
};
struct Checkpoint {
  bool rejected = false;  // a shape error, or an operation failed validation: nothing written
  std::vector<CheckpointOperation> operations;  // the record's upsert, each pending upsert, then
                                                // each pending link, in payload order
  Write write;  // the one transaction; its findings hold MK-CUR-020 when rejected
};
// `payload` is the JSON text of --file (§10 shape; the Spanish key aliases accepted). A shape
// error is MK-CUR-020 BLOCKER (fatal) with no operation; a failing operation is MK-CUR-020 ERROR.
[[nodiscard]] Checkpoint plan_checkpoint(const Snapshot& files, const WriteContext& context,
                                         std::string_view payload,
                                         const std::optional<std::string>& initiative,
                                         const std::optional<std::string>& project_ref);

// §10 batch: writes staged one after another, each planned over the files as the writes before it
// left them, then written together as one transaction (from the files as first read to as the
// last write left them). Pure: the shell reads the files, stages, then writes operations().
class StagedWrites final {
 public:
  // `tails`: the paths of `files` read only at their end (WriteInputs::tails).
  StagedWrites(Snapshot files, std::vector<std::string> tails);

  // The files as the staged writes leave them. A file read at its end keeps only its last bytes.
  [[nodiscard]] const Snapshot& files() const noexcept { return files_; }
  // The parses a write planned over files() may reuse (WriteContext::parsed).
  [[nodiscard]] ParsedRowFiles& parsed() noexcept { return parsed_; }

  // Stages a planned write's operations, planned over files().
  void stage(const std::vector<PlanOperation>& operations);
  [[nodiscard]] bool empty() const noexcept { return changes_.empty(); }

  // One operation per changed file, in commit order (row files by path, then the other files by
  // path): a file only appended to is one append of everything appended; any other change is a
  // create, replace or remove from the file as first read to how the last write left it.
  [[nodiscard]] std::vector<PlanOperation> operations() const;

 private:
  struct Change {
    bool rewritten = false;  // created, replaced or removed: `text` is all of it
    bool exists = true;      // when rewritten
    std::shared_ptr<const std::string> text;
    std::string appended;  // since then, or since it was read
  };
  Snapshot read_;   // as first read
  Snapshot files_;  // as staged
  std::vector<std::string> tails_;
  ParsedRowFiles parsed_;
  std::map<std::string, Change> changes_;
};

}  // namespace memkit::curated
