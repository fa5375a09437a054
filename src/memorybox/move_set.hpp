// The moves of one MemoryBox plan (spec memorybox.md §6 `--resolve archive`, §7, §11 `promote`),
// gathered file by file and turned into plan operations once: removals by compaction.md §7.1,
// deleted daily files, entries added to archive files, and verbatim appends. Internal to
// src/memorybox.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "memkit/memorybox/moves.hpp"

namespace memkit::memorybox::detail {

// Each file of the inputs parsed at most once, for the rules and the plan alike.
class Documents final {
 public:
  explicit Documents(const Inputs& inputs) : inputs_(&inputs) {}
  // With documents parsed before (sync's scan keeps its own), which are not parsed again.
  Documents(const Inputs& inputs, const std::map<std::string, Document, std::less<>>& known)
      : inputs_(&inputs), known_(&known) {}
  // The file's snapshot entry, or nullptr when the shell never looked at it.
  [[nodiscard]] const FileSnapshot* file(const std::string& path) const {
    return inputs_->snapshot.find(path);
  }
  // REQUIRES: file(path) is a read file.
  [[nodiscard]] const Document& parsed(const std::string& path);

 private:
  const Inputs* inputs_;
  const std::map<std::string, Document, std::less<>>* known_ = nullptr;
  std::map<std::string, Document> parsed_;
};

// An entry's bytes from its first line to its last non-blank line.
[[nodiscard]] std::string_view entry_bytes(const Document& doc, const Entry& entry) noexcept;

// A session entry's date: the date its heading starts with (§3).
[[nodiscard]] CivilDate session_date(const Document& doc, const Entry& entry);

// A daily file's bytes after the BOM, to its last non-blank line (trailing blank lines are the
// file's end, as a removed entry's are its gap, compaction.md §7.1).
[[nodiscard]] std::string_view daily_bytes(const Document& doc) noexcept;

// A finding for a file a plan would change but must not: unparseable (MK-PARSE-001), ill-formed
// UTF-8 (MK-UTF8-001), a link (MK-LAYOUT-001) or not a readable file (MK-IO-001). nullopt when it
// may change (a missing file may be created).
[[nodiscard]] std::optional<Finding> unchangeable(const FileSnapshot* file, Documents& docs);

// The file part of an entry ID ("memory/LONG_TERM.md" of "memory/LONG_TERM.md#3f9a0c1d22be").
// Fails with Errc::invalid_argument for an ID without '#'.
[[nodiscard]] Result<std::string> entry_file(std::string_view entry_id);

// The first entry of `path` whose ID is `entry_id`, for the planners that move one entry. A file
// that cannot change gives its finding in `refused` and no entry; an ID that names no entry of
// the file fails with Errc::invalid_argument.
struct Located {
  const Document* doc = nullptr;
  std::optional<Entry> entry;
  std::optional<Finding> refused;
};
[[nodiscard]] Result<Located> locate_entry(Documents& docs, const std::string& path,
                                           std::string_view entry_id);

// An entry's confidence state as `update` reports it (§6), or an empty one for an entry that has
// no fields of its own to read (sessions, daily files).
[[nodiscard]] ConfidenceState confidence_state_of(const Inputs& inputs, const Entry& entry,
                                                  const ClockReading& now);

class MoveSet final {
 public:
  explicit MoveSet(Documents& docs) : docs_(&docs) {}

  // Takes an entry out of `path`; all of a file's removals become one §7.1 edit.
  void remove(const std::string& path, const Entry& entry);
  // Deletes a whole file: a daily file whose bytes an archive receives in the same plan.
  void delete_file(const std::string& path);
  // Adds an entry to the archive file `archive`, whose preamble names `source_label`; a new
  // archive's generated lines use `source_terminator`.
  void archive(const std::string& archive, std::string_view source_label, ArchiveLayout layout,
               std::string_view source_terminator, ArchivedEntry entry);
  // Appends verbatim bytes to `path` (compaction.md §7.3 append); `bullet` allows the tight
  // append after a bullet unit. At most one append per file.
  void append(const std::string& path, std::string_view bytes, bool bullet);

  [[nodiscard]] bool empty() const noexcept {
    return removals_.empty() && deletions_.empty() && archives_.empty() && appends_.empty();
  }

  // The plan (nullopt when there is nothing to write), or the findings of the files that cannot
  // change, added to `findings` (then no plan). REQUIRES: no path is both removed from and
  // appended or archived to.
  [[nodiscard]] std::optional<Plan> build(std::string command, PlanArguments arguments,
                                          std::vector<Finding>& findings) const;

 private:
  struct ArchiveTarget {
    std::string label;
    ArchiveLayout layout = ArchiveLayout::appended;
    std::string terminator;
    std::vector<ArchivedEntry> entries;
  };
  struct Append {
    std::string_view bytes;
    bool bullet = false;
  };

  Documents* docs_;
  std::map<std::string, std::vector<ByteRange>> removals_;
  std::set<std::string> deletions_;
  std::map<std::string, ArchiveTarget> archives_;
  std::map<std::string, Append> appends_;
};

}  // namespace memkit::memorybox::detail
