// Test helpers for the pure planners: a memory folder as a map of files, and the bytes a plan
// would write to one of them.
#pragma once

#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "memkit/audit.hpp"
#include "memkit/compact.hpp"
#include "memkit/plan.hpp"

namespace memkit::testing {

// A snapshot of docs/memory holding exactly `files` (path -> bytes).
inline CustodianInputs inputs_of(const std::map<std::string, std::string>& files,
                                 bool memory_dir_exists = true) {
  CustodianInputs in;
  in.memory_dir = "docs/memory";
  in.memory_dir_exists = memory_dir_exists;
  std::vector<FileSnapshot> snaps;
  for (const auto& [path, bytes] : files) {
    snaps.push_back(
        FileSnapshot{path, EntryState::file, std::make_shared<const std::string>(bytes), ""});
  }
  in.snapshot = Snapshot(std::move(snaps));
  return in;
}

// The bytes `plan` writes to `path`; fails the test when the plan is absent or skips the path.
inline std::string output_of(const std::optional<Plan>& plan, const std::string& path) {
  REQUIRE(plan.has_value());
  for (const PlanOperation& op : plan->operations()) {
    if (op.path == path) return op.output.render();
  }
  FAIL("no operation for " << path);
  return {};
}

// Every candidate of an inbox compaction, copied out of the list's walk.
inline std::vector<Candidate> candidates_of(const InboxCompaction& report) {
  std::vector<Candidate> out;
  report.candidates.for_each([&](const Candidate& c) { out.push_back(c); });
  return out;
}

}  // namespace memkit::testing
