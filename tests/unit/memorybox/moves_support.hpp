// What the tests of the MemoryBox moves share: inputs made of strings, a fixed clock, and the
// files a plan leaves behind.
#pragma once

#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "memkit/memorybox/moves.hpp"

namespace moves_test {

using namespace memkit;
using namespace memkit::memorybox;

// Local date 2026-11-30.
inline const ClockReading kNow = *ClockReading::parse_rfc3339("2026-11-30T10:00:00+01:00");

inline ClockReading at(const char* rfc3339) { return *ClockReading::parse_rfc3339(rfc3339); }

// Every file is read; daily and archive files are listed as the shell lists them.
inline Inputs inputs_of(const std::map<std::string, std::string>& files) {
  Inputs in;
  std::vector<FileSnapshot> snaps;
  for (const auto& [path, bytes] : files) {
    snaps.push_back(
        FileSnapshot{path, EntryState::file, std::make_shared<const std::string>(bytes), ""});
    if (path.rfind("memory/daily/", 0) == 0) in.daily_files.push_back(path);
    if (path.rfind("memory/ARCHIVES/", 0) == 0) in.archive_files.push_back(path);
    in.all_files.push_back(path);
  }
  in.snapshot = Snapshot(std::move(snaps));
  return in;
}

// The files after the plan: written ones replaced, deleted ones gone.
inline std::map<std::string, std::string> applied(std::map<std::string, std::string> files,
                                                  const Plan& plan) {
  for (const PlanOperation& op : plan.operations()) {
    if (op.kind == OperationKind::remove) {
      files.erase(op.path);
    } else {
      const std::string out = op.output.render();
      CHECK(sha256(out) == op.output_sha256());  // the digest is of exactly these bytes
      files[op.path] = out;
    }
  }
  return files;
}

// An entry's ID by its position in a file.
inline std::string id_of(const std::string& path, const std::string& bytes, std::size_t n) {
  return read_entries(path, parse_markdown(bytes)).at(n).id;
}

inline const std::string kPreambleTail =
    "\n\nComplete entries moved out of active memory by reviewed compaction.\n"
    "Load this file only when explicitly asked; it is not part of normal task context.\n\n";

// The canonical preamble of an archive of `source` (compaction.md §10 lines 1-4), LF.
inline std::string preamble(const std::string& source) {
  return "# Archived Memory: " + source + kPreambleTail;
}

}  // namespace moves_test
