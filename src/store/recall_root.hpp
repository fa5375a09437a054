// The memory under a search root (issue 28): which layouts are there and the files of each, read
// for recall::read_units. Shell: it lists and reads, never writes, and never follows a symbolic
// link (a linked file or folder is skipped, as every layout's reader skips it).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "files/file_system.hpp"
#include "memkit/recall.hpp"
#include "memkit/result.hpp"
#include "memkit/snapshot.hpp"

namespace memkit {

// One file of a layout found under the root: where it is, and its bytes (or why they are missing).
struct RecallFile {
  recall::Source source;
  FileSnapshot file;  // path: recall::display_path(source)
  // What stat said of the file as it was found (type none when it was not a regular file).
  FileStat stat;
  // MemoryBox: the file's place in its profile's tier 1-4 load order (memorybox.md §2); else none.
  std::optional<std::size_t> load_order;
};

// The layouts found at `root` (docs/memory/ for the custodian's, brain/ or memory/LONG_TERM.md for
// MemoryBox, else memory/global.md or memory/sessions/ for the three tiers, rows/ for a curated
// store) and every file each of them reads, sorted by path. A root that is not a folder fails with
// Errc::invalid_argument naming `option` ("--root: x: no such directory"). A file that cannot be
// read is an entry with EntryState::unreadable; a link is an EntryState::symlink entry and a FIFO,
// socket or device an EntryState::not_a_file one, neither followed nor opened.
// `custodian_dir` is where the custodian's memory folder is (its --memory-dir). With `only`, the
// root is that layout's (custodian read, tiers search): its folders are read without looking for
// the markers of the others. Without `read_bytes` a regular file is only stat()ed: its entry is
// EntryState::file with no bytes (MemoryBox's files are read all the same: its tiers come from
// them).
[[nodiscard]] Result<std::vector<RecallFile>> read_recall_files(
    FileSystem& fs, std::string root, const std::string& option,
    const std::string& custodian_dir = "docs/memory",
    std::optional<recall::Layout> only = std::nullopt, bool read_bytes = true);

}  // namespace memkit
