// What the curated write planners share (curated.md §4, §6): the workspace's row files as read,
// and a Planner that gathers one write's splices per file and history records, then checks every
// file it would touch and builds the operations in commit order. Internal to src/curated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "memkit/curated.hpp"
#include "memkit/curated/log.hpp"
#include "memkit/curated/write.hpp"
#include "memkit/snapshot.hpp"
#include "memkit/text.hpp"

namespace memkit::curated::write_detail {

// One rows/<ws>/<type>.md as read.
struct LoadedFile {
  RowType type = RowType::project;
  std::string path;
  const FileSnapshot* file = nullptr;  // nullptr: the snapshot never looked at it (as missing)
  std::shared_ptr<const std::string> bytes;  // never null; empty for a missing file
  bool exists = false;
  bool readable = true;  // false: a link, not a regular file, or unreadable
  // Never null: the file's parse (empty when it is missing or cannot be read), perhaps shared
  // with the writes of a batch before (WriteContext::parsed).
  std::shared_ptr<const RowFile> parsed = std::make_shared<const RowFile>();
  std::vector<Finding> invalid;  // its MK-CUR-004 findings, duplicated names included
};

// The row files in path order, and their findings (load_workspace leaves workspace.rows empty:
// the writes plan over the parsed entries).
struct LoadedWorkspace {
  std::vector<LoadedFile> files;
  Workspace workspace;
};
// `parsed`, when given, supplies the parses of files read before with the very same bytes, and
// keeps the new ones.
[[nodiscard]] LoadedWorkspace load_workspace(const Snapshot& files, std::string_view workspace,
                                             ParsedRowFiles* parsed = nullptr);

// `file`, the parse of `before`, made the parse of `after` = `before` with `splices` (sorted by
// begin) applied, by parsing only the region they change and shifting the entries after it;
// false (and `file` unchanged) where that could differ from parse_row_file(after, path): a file
// with findings, or a region that does not parse cleanly on its own.
bool update_row_file(RowFile& file, std::string_view before, std::string_view after,
                     const std::vector<Splice>& splices, std::string_view path);

// Where a row's entry stands.
struct Located {
  std::size_t file = 0;  // index into LoadedWorkspace::files
  const Entry* entry = nullptr;
};

// Argument helpers shared by the planners; each adds its refusal to `findings`.
// An enum word, or MK-ARG-001 naming `option`.
template <class Enum, class Parse>
std::optional<Enum> parse_argument(std::string_view option, const std::optional<std::string>& raw,
                                   Parse parse, std::string_view expected,
                                   std::vector<Finding>& findings);
// A one-line text field (--description excepted, which is MK-CUR-006): stripped with W; empty is
// "unset" (nullopt inside the optional).
std::optional<std::optional<std::string>> one_line(std::string_view option,
                                                   const std::optional<std::string>& raw,
                                                   std::vector<Finding>& findings);
std::optional<std::optional<std::string>> description_argument(
    const std::optional<std::string>& raw, std::vector<Finding>& findings);
std::optional<std::string> initiative_argument(const std::optional<std::string>& raw,
                                               std::vector<Finding>& findings);
void check_slug(std::string_view option, std::string_view name, std::vector<Finding>& findings);

[[nodiscard]] bool refuses(const std::vector<Finding>& findings) noexcept;

// How plan_checkpoint plans its pending threads: each add and link over the store the steps before
// left (`each_step`, the reference), or, when every thread is a new row, all at once in linear
// time (`batch_when_new`, what plan_checkpoint does). Both give the same Checkpoint. `batched`,
// when given, tells whether the threads were planned at once.
enum class Stepping : std::uint8_t { each_step, batch_when_new };
[[nodiscard]] Checkpoint plan_checkpoint_stepping(const Snapshot& files,
                                                  const WriteContext& context,
                                                  std::string_view payload,
                                                  const std::optional<std::string>& initiative,
                                                  const std::optional<std::string>& project_ref,
                                                  Stepping mode, bool* batched = nullptr);

class Planner final {
 public:
  Planner(const Snapshot& files, const WriteContext& context);

  [[nodiscard]] Write& write() noexcept { return write_; }
  [[nodiscard]] const WriteContext& context() const noexcept { return context_; }
  [[nodiscard]] const LoadedWorkspace& loaded() const noexcept { return loaded_; }
  [[nodiscard]] bool refused() const noexcept { return write_.refused(); }

  // The valid entry of `name`, or nullopt. A name that also has an invalid or a second entry
  // cannot be written safely: MK-CUR-004 BLOCKER, and nullopt.
  [[nodiscard]] std::optional<Located> find(std::string_view name);

  // Every valid entry of the workspace, for the hard delete's link sweep.
  template <class Visit>
  void for_each_entry(Visit visit) const {
    for (std::size_t i = 0; i < loaded_.files.size(); ++i) {
      for (const Entry& entry : loaded_.files[i].parsed->entries) {
        if (entry.valid) visit(Located{.file = i, .entry = &entry});
      }
    }
  }

  // The changes of one write; at most one per entry.
  void insert(const Row& row);
  void edit(const Located& at, const Row& row);
  void move(const Located& at, const Row& row);  // to row.type's file, unknown lines kept
  void remove(const Located& at);
  void record(HistoryRecord record);
  // Hard delete: the history, access and snapshot files without `name`'s records.
  void purge_logs(std::string_view name);

  // The outcome: operations in commit order (row files by path, then the log files by path,
  // history.jsonl last) and the exact entries after the write, or no operation when refused.
  [[nodiscard]] Write finish();

  // The entry text of `at` as it stands now.
  [[nodiscard]] std::string entry_text(const Located& at) const;

 private:
  std::size_t file_of(RowType type) const noexcept;
  void splice(std::size_t file, std::vector<Splice> splices);
  void check_log(const std::string& path);
  void check_row_files();

  WriteContext context_;
  const Snapshot& files_;
  LoadedWorkspace loaded_;
  Write write_;
  std::map<std::size_t, std::vector<Splice>> splices_;        // by file
  std::vector<std::pair<std::string, std::size_t>> written_;  // (name, file) of rows written
  std::vector<HistoryRecord> records_;
  bool purge_ = false;
  std::string purged_;
};

template <class Enum, class Parse>
std::optional<Enum> parse_argument(std::string_view option, const std::optional<std::string>& raw,
                                   Parse parse, std::string_view expected,
                                   std::vector<Finding>& findings) {
  if (!raw) return std::nullopt;
  if (std::optional<Enum> value = parse(*raw)) return value;
  findings.push_back(make_fatal("MK-ARG-001", "",
                                std::string(option) + ": expected " + std::string(expected) +
                                    ", got '" + to_valid_utf8(*raw) + "'"));
  return std::nullopt;
}

}  // namespace memkit::curated::write_detail
