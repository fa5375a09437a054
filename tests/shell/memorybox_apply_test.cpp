// MemoryBox plans on disk (spec memorybox.md §7, compaction.md §12.3-§12.5): the agent root's
// lock and apply, no applied record, and an interrupted apply finished by the next confirmed one.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "commands/commands.hpp"
#include "faulty_file_system.hpp"
#include "memkit/memorybox/moves.hpp"
#include "store/agent_root.hpp"
#include "temp_dir.hpp"

namespace memkit::shell_test {
namespace {

const char* const kNowText = "2026-11-30T10:00:00+01:00";
const ClockReading kNow = *ClockReading::parse_rfc3339(kNowText);
const std::string kTasks = "# ACTIVE_TASKS\n- [ ] open\n- [x] shipped 2026-01-10\n";
const std::string kDay = "- worked\n";

void write_root(const fs::path& root) {
  write_bytes(root / "memory/ACTIVE_TASKS.md", kTasks);
  write_bytes(root / "memory/daily/2026-09-01.md", kDay);
}

memorybox::Compaction plan_of(FileSystem& fs, const fs::path& root) {
  Result<AgentRoot> agent = AgentRoot::open(fs, root.string());
  REQUIRE(agent.ok());
  Result<memorybox::Inputs> inputs = agent->read_memorybox_inputs();
  REQUIRE(inputs.ok());
  return memorybox::plan_memorybox_compaction(*inputs, {std::nullopt, true}, kNow);
}

// `memkit memorybox compact --force --apply --confirm-plan ID --root ROOT`.
CommandReply confirmed_compact(const fs::path& root, const std::string& id) {
  CommandRequest request;
  request.group = "memorybox";
  request.command = "compact";
  request.format = OutputFormat::json;
  request.now = kNowText;
  request.options = {{"--root", root.string()}, {"--confirm-plan", id}};
  request.flags = {"--force", "--apply"};
  CommandEnvironment env;
  env.system_clock = [] { return kNow; };
  return execute(request, env);
}

bool has_code(const CommandReply& reply, std::string_view code) {
  for (const Finding& f : reply.findings) {
    if (f.code == code) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("shell: a memorybox plan is written under the agent root, with no applied record") {
  TempDir dir;
  write_root(dir.path());
  const memorybox::Compaction compaction = plan_of(posix_file_system(), dir.path());
  REQUIRE(compaction.plan.has_value());
  Result<AgentRoot> agent = AgentRoot::open(posix_file_system(), dir.str());
  REQUIRE(agent.ok());
  Result<std::unique_ptr<LockHandle>> lock = agent->lock(1.0);
  REQUIRE(lock.ok());
  Result<Recovery> listed = agent->recover(false);
  REQUIRE(listed.ok());
  CHECK(listed->clean());
  Result<std::vector<std::string>> written = agent->apply(*compaction.plan, kNow);
  REQUIRE(written.ok());
  // Archives first: moved text is in its archive before it leaves its source.
  CHECK(*written == std::vector<std::string>{
                        "memory/ARCHIVES/daily-2026-09.md", "memory/ARCHIVES/tasks-2026-01.md",
                        "memory/ACTIVE_TASKS.md", "memory/daily/2026-09-01.md"});
  CHECK(read_bytes(dir.path() / "memory/ACTIVE_TASKS.md") == "# ACTIVE_TASKS\n- [ ] open\n");
  CHECK_FALSE(fs::exists(dir.path() / "memory/daily/2026-09-01.md"));
  CHECK(read_bytes(dir.path() / "memory/ARCHIVES/daily-2026-09.md")
            .find("## 2026-09-01\n\n- "
                  "worked\n") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.path() / ".memkit/applied"));
  CHECK(read_bytes(dir.path() / ".memkit/.gitignore") == "*\n");
}

TEST_CASE("shell: the agent root's lock refuses a linked .memkit") {
  TempDir dir;
  TempDir elsewhere;
  write_root(dir.path());
  fs::create_directory_symlink(elsewhere.path(), dir.path() / ".memkit");
  Result<AgentRoot> agent = AgentRoot::open(posix_file_system(), dir.str());
  REQUIRE(agent.ok());
  Result<std::unique_ptr<LockHandle>> lock = agent->lock(1.0);
  REQUIRE_FALSE(lock.ok());
  CHECK(lock.status().code() == Errc::unsafe_path);
  CHECK(fs::is_empty(elsewhere.path()));
}

TEST_CASE("shell: a sync state file is read only where no link or folder stands in the way") {
  TempDir dir;
  TempDir elsewhere;
  write_root(dir.path());
  Result<AgentRoot> agent = AgentRoot::open(posix_file_system(), dir.str());
  REQUIRE(agent.ok());
  // No .memkit/, then no .memkit/sync/: nothing, not an error.
  CHECK(agent->read_state_file("sync.json").value() == std::nullopt);
  write_bytes(dir.path() / ".memkit/sync.json", "{}");
  CHECK(agent->read_state_file("sync.json").value() == std::optional<std::string>("{}"));
  CHECK(agent->read_state_file("sync/base.tsv").value() == std::nullopt);
  // A linked .memkit/sync/, whatever it holds, is refused and not read through.
  write_bytes(elsewhere.path() / "base.tsv", "x");
  fs::create_directory_symlink(elsewhere.path(), dir.path() / ".memkit/sync");
  Result<std::optional<std::string>> linked = agent->read_state_file("sync/base.tsv");
  REQUIRE_FALSE(linked.ok());
  CHECK(linked.status().code() == Errc::unsafe_path);
  CHECK(linked.status().message().find(".memkit/sync: is a symbolic link") != std::string::npos);
  Result<SyncFiles> files = agent->read_sync_files();
  REQUIRE_FALSE(files.ok());
  CHECK(files.status().code() == Errc::unsafe_path);
  // A linked file, and a folder in a file's place.
  fs::remove(dir.path() / ".memkit/sync");
  fs::create_directories(dir.path() / ".memkit/sync/base.tsv");
  fs::create_symlink(elsewhere.path() / "base.tsv", dir.path() / ".memkit/sync/conflicts.jsonl");
  for (const char* name : {"sync/base.tsv", "sync/conflicts.jsonl"}) {
    Result<std::optional<std::string>> refused = agent->read_state_file(name);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.status().code() == Errc::unsafe_path);
    CHECK(refused.status().message() == std::string(".memkit/") + name + ": not a regular file");
  }
}

TEST_CASE("shell: the next confirmed apply finishes an interrupted memorybox apply first") {
  int renames = 0;
  {
    TempDir dir;
    write_root(dir.path());
    FaultyFileSystem counting;
    const memorybox::Compaction c = plan_of(counting, dir.path());
    Result<AgentRoot> agent = AgentRoot::open(counting, dir.str());
    auto lock = agent->lock(1.0);
    REQUIRE(agent->apply(*c.plan, kNow).ok());
    renames = counting.calls(Op::rename_replace) + counting.calls(Op::rename_no_replace);
  }
  REQUIRE(renames > 4);
  int interrupted = 0;
  for (int nth = 1; nth <= renames; ++nth) {
    for (const Op op : {Op::rename_replace, Op::rename_no_replace}) {
      CAPTURE(nth);
      TempDir dir;
      write_root(dir.path());
      FaultyFileSystem faulty;
      const memorybox::Compaction c = plan_of(faulty, dir.path());
      const Plan& plan = *c.plan;
      faulty.fail_nth(op, nth, Timing::after);
      {
        Result<AgentRoot> agent = AgentRoot::open(faulty, dir.str());
        auto lock = agent->lock(1.0);
        if (agent->apply(plan, kNow).ok()) continue;  // the fault never struck
      }
      Result<AgentRoot> agent = AgentRoot::open(posix_file_system(), dir.str());
      if (!agent->recover(false)->clean()) ++interrupted;
      const CommandReply reply = confirmed_compact(dir.path(), plan.id());
      CHECK_FALSE(has_code(reply, "MK-TXN-001"));
      CHECK_FALSE(has_code(reply, "MK-PLAN-001"));
      // Rolled forward, or dropped and then applied as confirmed: the plan's output either way.
      CHECK(read_bytes(dir.path() / "memory/ACTIVE_TASKS.md") == "# ACTIVE_TASKS\n- [ ] open\n");
      CHECK_FALSE(fs::exists(dir.path() / "memory/daily/2026-09-01.md"));
      CHECK(read_bytes(dir.path() / "memory/ARCHIVES/tasks-2026-01.md")
                .find("\n- [x] shipped 2026-01-10\n") != std::string::npos);
      CHECK(agent->recover(false)->clean());
    }
  }
  CHECK(interrupted > 0);
}

}  // namespace memkit::shell_test
