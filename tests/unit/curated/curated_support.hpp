// What the curated row tests share. Internal to tests/unit/curated.
#pragma once

#include <doctest/doctest.h>

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

namespace curated_test {

// Four times, one hour apart on one day: kT1 < kT2 < kT3 < kT4.
constexpr const char* kT1 = "2026-11-30T09:00:00.000Z";
constexpr const char* kT2 = "2026-11-30T10:00:00.000Z";
constexpr const char* kT3 = "2026-11-30T11:00:00.000Z";
constexpr const char* kT4 = "2026-11-30T12:00:00.000Z";

// The files of workspace ws1, relative to the memory folder.
constexpr const char* kProject = "rows/ws1/project.md";
constexpr const char* kUser = "rows/ws1/user.md";
constexpr const char* kFeedback = "rows/ws1/feedback.md";
constexpr const char* kAtom = "rows/ws1/atom.md";
constexpr const char* kHistory = "log/ws1/history.jsonl";
constexpr const char* kAccess = "log/ws1/access.jsonl";
constexpr const char* kAccessSnapshot = "log/ws1/access-snapshot.json";

// The store-relative path the tests' row files are read as.
constexpr std::string_view kPath = kProject;

// The entry of `file` named `name`; fails the test when there is none.
inline const memkit::curated::Entry& entry_named(const memkit::curated::RowFile& file,
                                                 std::string_view name) {
  for (const memkit::curated::Entry& entry : file.entries) {
    if (entry.row.name == name) return entry;
  }
  FAIL("no entry " << name);
  return file.entries.front();
}

// A write in workspace ws1 at `now`, by no named actor.
inline memkit::curated::WriteContext at(std::string now) {
  return memkit::curated::WriteContext{
      .workspace = "ws1", .now = std::move(now), .actor = std::nullopt};
}

// An add request: `name` of `type` with `body`, every other field omitted (a log if it inserts).
inline memkit::curated::AddRequest add(std::string name, std::string type, std::string body) {
  memkit::curated::AddRequest request;
  request.name = std::move(name);
  request.type = std::move(type);
  request.body = std::move(body);
  return request;
}

// A store in memory: the files of workspace ws1, read as the shell would snapshot them.
struct Store {
  std::map<std::string, std::string> files;
  // Paths that are not regular files (links, folders, unreadable), to test the refusals.
  std::map<std::string, memkit::EntryState> odd;

  // When set, history.jsonl is snapshot as the shell reads it for a write: its last bytes only.
  std::optional<std::size_t> history_tail;

  // Every file a write may read (a hard delete's inputs), whole but for history_tail.
  [[nodiscard]] memkit::Snapshot snapshot() const {
    std::vector<memkit::FileSnapshot> out;
    for (const std::string& path : memkit::curated::write_inputs("ws1", true).whole) {
      memkit::FileSnapshot file;
      file.path = path;
      if (const auto it = files.find(path); it != files.end()) {
        file.state = memkit::EntryState::file;
        std::string_view bytes = it->second;
        if (history_tail && path == memkit::curated::history_path("ws1") &&
            bytes.size() > *history_tail) {
          file.offset = bytes.size() - *history_tail;
          bytes.remove_prefix(file.offset);
        }
        file.bytes = std::make_shared<const std::string>(bytes);
      } else if (const auto o = odd.find(path); o != odd.end()) {
        file.state = o->second;
        file.error = "permission denied";
      }
      out.push_back(std::move(file));
    }
    return memkit::Snapshot(std::move(out));
  }

  // Applies a write that was not refused, findings (warnings) and no-ops allowed; `applied` below
  // is the strict form.
  void apply(const memkit::curated::Write& write) {
    REQUIRE_FALSE(write.refused());
    for (const memkit::PlanOperation& op : write.operations) {
      if (op.kind == memkit::OperationKind::remove) {
        files.erase(op.path);
      } else if (op.kind == memkit::OperationKind::append) {
        REQUIRE(files[op.path].size() == op.base_size());
        files[op.path] += op.appended();
      } else {
        files[op.path] = op.output.render();
      }
    }
  }

  // The bytes of `path`; empty when it does not exist.
  [[nodiscard]] std::string at(const std::string& path) const {
    const auto it = files.find(path);
    return it == files.end() ? std::string() : it->second;
  }

  // The history records; the history must parse without a finding.
  [[nodiscard]] std::vector<memkit::curated::HistoryRecord> history() const {
    const memkit::curated::HistoryLog log = memkit::curated::parse_history(at(kHistory), kHistory);
    CHECK(log.findings.empty());
    return log.records;
  }

  // Every row of ws1, deleted ones included; the row files must read without a finding.
  [[nodiscard]] std::vector<memkit::curated::Row> rows() const {
    const memkit::curated::Workspace ws = memkit::curated::read_workspace(snapshot(), "ws1");
    CHECK(ws.findings.empty());
    std::vector<memkit::curated::Row> out;
    for (const memkit::curated::StoredRow& stored : ws.rows) out.push_back(stored.row);
    return out;
  }

  // The row named `name`, whatever else the row files hold; fails the test when there is none.
  [[nodiscard]] memkit::curated::Row row(std::string_view name) const {
    const memkit::curated::Workspace ws = memkit::curated::read_workspace(snapshot(), "ws1");
    const memkit::curated::StoredRow* stored = ws.find(name);
    REQUIRE(stored != nullptr);
    return stored->row;
  }
};

// Applies a write that must apply cleanly: no finding, not refused, something changed. Returns it.
inline memkit::curated::Write applied(Store& store, memkit::curated::Write write) {
  CHECK(write.findings.empty());
  REQUIRE_FALSE(write.refused());
  REQUIRE(write.changed);
  store.apply(write);
  return write;
}

}  // namespace curated_test
