// Appends journalled as appends (compaction.md §12.4, issue 31): a transaction that appends to
// one file, replaces another and creates a third, interrupted at every step the file system takes
// (before or after its effect, an append cut in half too), leaves after `recover` the old state
// or the new one, never a mix; and an append reads and writes only the end of its file.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "apply/apply.hpp"
#include "faulty_file_system.hpp"
#include "memkit/plan.hpp"
#include "temp_dir.hpp"

namespace memkit::shell_test {
namespace {

const ClockReading kNow = *ClockReading::parse_rfc3339("2026-12-04T10:00:00+00:00");
const std::string kTxid = "0123456789abcdef0123456789abcdef";

// A log long enough that the plan reads only its end.
std::string old_log() {
  std::string log;
  for (int i = 0; i < 200; ++i) log += "{\"n\":" + std::to_string(i) + "}\n";
  return log;
}
const std::string kOldNote = "# Note\n\nold\n";
const std::string kNewNote = "# Note\n\nnew\n";
const std::string kAppended = "{\"n\":200}\n{\"n\":201}\n";
const std::string kCreated = "# Made\n";

struct Store {
  TempDir dir;
  ApplyPaths paths{dir / "mem", dir / "mem/.memkit"};
  Store() {
    write_bytes(dir.path() / "mem/log.jsonl", old_log());
    write_bytes(dir.path() / "mem/note.md", kOldNote);
    fs::create_directories(dir.path() / "mem/.memkit");
  }
  [[nodiscard]] std::string log() const { return read_bytes(dir.path() / "mem/log.jsonl"); }
  [[nodiscard]] std::string note() const { return read_bytes(dir.path() / "mem/note.md"); }
  [[nodiscard]] bool created() const { return fs::exists(dir.path() / "mem/made.md"); }
  [[nodiscard]] bool old_state() const {
    return log() == old_log() && note() == kOldNote && !created();
  }
  [[nodiscard]] bool new_state() const {
    return log() == old_log() + kAppended && note() == kNewNote && created() &&
           read_bytes(dir.path() / "mem/made.md") == kCreated;
  }
};

// The log as an append plan reads it: its last 64 bytes only.
FileSnapshot log_tail() {
  const std::string log = old_log();
  FileSnapshot file;
  file.path = "log.jsonl";
  file.state = EntryState::file;
  file.offset = log.size() - 64;
  file.bytes = std::make_shared<const std::string>(log.substr(file.offset));
  return file;
}

Plan the_plan(bool append_only = false) {
  std::vector<PlanOperation> ops;
  ops.push_back(plan_append(log_tail(), kAppended));
  if (!append_only) {
    const auto note = std::make_shared<const std::string>(kOldNote);
    ops.push_back(plan_write("note.md", note, true, {Splice{0, note->size(), kNewNote}}));
    ops.push_back(plan_write("made.md", nullptr, false, {Splice{0, 0, kCreated}}));
  }
  return Plan::create("test append", {}, std::move(ops), {});
}

// Applies the plan in the order note.md, log.jsonl, made.md (operations are sorted by path:
// log.jsonl, made.md, note.md).
Result<std::vector<std::string>> apply(FileSystem& fs, const Store& store, const Plan& plan) {
  std::vector<std::size_t> order;
  for (const char* path : {"note.md", "log.jsonl", "made.md"}) {
    for (std::size_t i = 0; i < plan.operations().size(); ++i) {
      if (plan.operations()[i].path == path) order.push_back(i);
    }
  }
  return apply_plan_in_order(fs, store.paths, plan, order, kNow, kTxid);
}

Recovery recover(const Store& store, bool apply, bool rollback) {
  Result<Recovery> recovery =
      recover_transactions(posix_file_system(), store.paths, apply, rollback);
  REQUIRE(recovery.ok());
  return std::move(recovery).value();
}

}  // namespace

TEST_CASE("shell: an append plan reads and writes only the end of its file") {
  Store store;
  FaultyFileSystem counting;
  const Plan plan = the_plan();
  REQUIRE(apply(counting, store, plan).ok());
  CHECK(store.new_state());
  CHECK(recover(store, false, false).clean());
  // The log was never read whole: its end was read and appended to, never replaced.
  for (const LoggedCall& call : counting.log()) {
    CHECK_FALSE((call.op == Op::rename_replace && call.to.ends_with("log.jsonl")));
  }
  CHECK(counting.calls(Op::append_at) == 1);
  CHECK(counting.calls(Op::read_file) == 0);
  CHECK(counting.calls(Op::truncate_file) == 0);
}

TEST_CASE("shell: the Plan ID of an append names the length it appends at") {
  const Plan plan = the_plan(true);
  CHECK(plan.operations()[0].kind == OperationKind::append);
  CHECK(plan.operations()[0].base_size() == old_log().size());
  CHECK(plan.canonical_json().find("\"base_size\":" + std::to_string(old_log().size())) !=
        std::string::npos);
  CHECK(plan.canonical_json().find("\"operation\":\"append\"") != std::string::npos);
}

TEST_CASE("shell: an append alone goes through a journal, and leaves none behind") {
  Store store;
  FaultyFileSystem counting;
  REQUIRE(apply(counting, store, the_plan(true)).ok());
  CHECK(store.log() == old_log() + kAppended);
  CHECK(counting.calls(Op::create_directory) >= 1);  // .memkit/txn/<txid>
  CHECK_FALSE(fs::exists(store.dir.path() / "mem/.memkit/txn" / kTxid));
}

TEST_CASE("shell: an append to a file that changed since it was read writes nothing") {
  for (const std::string& change : {std::string("{\"n\":200}\n"), std::string()}) {
    Store store;
    // One line more (a writer beside memkit), or the same length with other last bytes.
    std::string changed = old_log() + change;
    if (change.empty()) changed[changed.size() - 5] = '7';  // {"n":799}
    write_bytes(store.dir.path() / "mem/log.jsonl", changed);
    const Result<std::vector<std::string>> done = apply(posix_file_system(), store, the_plan());
    REQUIRE_FALSE(done.ok());
    CHECK(done.status().message().find("log.jsonl: changed while the plan was being applied") !=
          std::string::npos);
    CHECK(store.log() == changed);
    CHECK(store.note() == kOldNote);
    CHECK_FALSE(store.created());
    CHECK(recover(store, false, false).clean());
  }
}

TEST_CASE("shell: an append never writes through a hard link") {
  Store store;
  fs::create_hard_link(store.dir.path() / "mem/log.jsonl", store.dir.path() / "outside.jsonl");
  const Result<std::vector<std::string>> done = apply(posix_file_system(), store, the_plan(true));
  REQUIRE_FALSE(done.ok());
  CHECK(done.status().message().find("hard links") != std::string::npos);
  CHECK(read_bytes(store.dir.path() / "outside.jsonl") == old_log());
  CHECK(recover(store, false, false).clean());
}

TEST_CASE("shell: an appending transaction interrupted at any step recovers to old or new") {
  // How many calls of each kind a clean apply makes: every one of them is a place to crash.
  std::array<int, kOpCount> calls{};
  {
    Store store;
    FaultyFileSystem counting;
    REQUIRE(apply(counting, store, the_plan()).ok());
    for (std::size_t op = 0; op < kOpCount; ++op) calls[op] = counting.calls(static_cast<Op>(op));
  }
  CHECK(calls[static_cast<std::size_t>(Op::append_at)] == 1);
  int crashes = 0;
  int committing = 0;
  int torn = 0;
  for (std::size_t op = 0; op < kOpCount; ++op) {
    for (int nth = 1; nth <= calls[op]; ++nth) {
      for (const Timing timing : {Timing::before, Timing::after}) {
        for (const bool tear : {false, true}) {
          if (tear && (static_cast<Op>(op) != Op::append_at || timing != Timing::after)) continue;
          for (const bool rollback : {false, true}) {
            CAPTURE(op_name(static_cast<Op>(op)));
            CAPTURE(nth);
            CAPTURE(timing == Timing::after);
            CAPTURE(tear);
            CAPTURE(rollback);
            Store store;
            FaultyFileSystem faulty;
            faulty.crash_on_fault();
            if (tear) faulty.tear_appends();
            faulty.fail_nth(static_cast<Op>(op), nth, timing);
            const Result<std::vector<std::string>> done = apply(faulty, store, the_plan());
            REQUIRE(faulty.fault_struck());
            // A fault after the last target is written (marking the journal committed, removing
            // it) leaves the write standing: the reply says it was applied.
            if (done.ok()) CHECK(store.new_state());
            ++crashes;
            if (tear) {
              ++torn;
              CHECK(store.log().size() > old_log().size());
              CHECK(store.log().size() < old_log().size() + kAppended.size());
            }
            const Recovery before = recover(store, false, false);
            if (before.clean()) {
              CHECK((store.old_state() || store.new_state()));
              continue;
            }
            REQUIRE(before.transactions.size() == 1);
            CHECK(before.transactions[0].complete_safe);
            CHECK(before.transactions[0].rollback_safe);
            // committing: finished or undone as asked; committed: every target is at its output.
            const std::string& phase = before.transactions[0].phase;
            const bool forward = (phase == "committing" && !rollback) || phase == "committed";
            committing += before.transactions[0].phase == "committing" ? 1 : 0;
            const Recovery after = recover(store, true, rollback);
            CHECK(after.clean());
            CHECK(after.findings.empty());
            if (before.transactions[0].targets.empty()) {
              // No journal: the crash came before it was written, or after it was removed (last,
              // once every target was written).
              CHECK((store.old_state() || store.new_state()));
            } else {
              CHECK((forward ? store.new_state() : store.old_state()));
            }
            CHECK(recover(store, false, false).clean());
          }
        }
      }
    }
  }
  CHECK(crashes > 40);
  CHECK(committing > 4);
  CHECK(torn == 2);
}

TEST_CASE("shell: an appended file changed after the crash is a conflict, left as it is") {
  Store store;
  FaultyFileSystem faulty;
  faulty.crash_on_fault();
  faulty.fail_nth(Op::append_at, 1, Timing::after);  // appended, then the process died
  REQUIRE_FALSE(apply(faulty, store, the_plan()).ok());
  const std::string edited = store.log() + "{\"by\":\"hand\"}\n";
  write_bytes(store.dir.path() / "mem/log.jsonl", edited);
  const Recovery after = recover(store, true, true);
  REQUIRE(after.transactions.size() == 1);
  CHECK_FALSE(after.transactions[0].rollback_safe);
  REQUIRE(after.findings.size() == 1);
  CHECK(after.findings[0].code == "MK-TXN-002");
  CHECK(after.findings[0].path == "log.jsonl");
  CHECK(store.log() == edited);
}

}  // namespace memkit::shell_test
