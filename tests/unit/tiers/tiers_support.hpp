// Shared helpers of the tiers unit tests: a clock reading at a local wall time, a snapshot of
// workspace files (nullopt: a missing file) and questions about findings and plan operations.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/tiers.hpp"

namespace tiers_test {

// "2026-03-07T14:05:09+00:00" and the like: local wall time is the text's.
inline memkit::ClockReading at(std::string_view rfc3339) {
  return memkit::ClockReading::parse_rfc3339(rfc3339).value();
}

// The §15 clock: 2026-03-07 14:05:09 local time.
inline memkit::ClockReading spec_now() { return at("2026-03-07T14:05:09+00:00"); }

// `tail`: each file read only at its end, as a write reads what it appends to (at most `tail`
// bytes, FileSnapshot::offset saying where they begin).
inline memkit::Snapshot snapshot(const std::map<std::string, std::optional<std::string>>& files,
                                 std::optional<std::size_t> tail = std::nullopt) {
  std::vector<memkit::FileSnapshot> snaps;
  for (const auto& [path, bytes] : files) {
    memkit::FileSnapshot file;
    file.path = path;
    if (bytes) {
      file.state = memkit::EntryState::file;
      file.offset = tail && bytes->size() > *tail ? bytes->size() - *tail : 0;
      file.bytes = std::make_shared<const std::string>(bytes->substr(file.offset));
    }
    snaps.push_back(std::move(file));
  }
  return memkit::Snapshot(std::move(snaps));
}

inline bool has_code(const std::vector<memkit::Finding>& findings, std::string_view code) {
  return std::any_of(findings.begin(), findings.end(),
                     [&](const memkit::Finding& f) { return f.code == code; });
}

inline const memkit::Finding* finding(const std::vector<memkit::Finding>& findings,
                                      std::string_view code) {
  for (const memkit::Finding& f : findings) {
    if (f.code == code) return &f;
  }
  return nullptr;
}

// A refusal of §3/§7/§10/§14: a fatal BLOCKER with the given code.
inline void check_refusal(const std::optional<memkit::Finding>& refused, std::string_view code) {
  REQUIRE(refused.has_value());
  CHECK(refused->code == code);
  CHECK(refused->severity == memkit::Severity::blocker);
  CHECK(refused->fatal);
}

inline std::vector<std::string> paths_of(const std::vector<memkit::PlanOperation>& operations) {
  std::vector<std::string> paths;
  for (const memkit::PlanOperation& op : operations) paths.push_back(op.path);
  return paths;
}

inline std::string bytes_at(const std::vector<memkit::PlanOperation>& operations,
                            std::string_view path) {
  for (const memkit::PlanOperation& op : operations) {
    if (op.path == path) return op.output.render();
  }
  FAIL("no operation writes " << path);
  return {};
}

}  // namespace tiers_test
