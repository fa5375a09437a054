// The client lifecycle of a Maven root (spec memorybox.md §10 "Client lifecycle", §11 `client
// set`): the transitions, the Lifecycle line's bytes, and the archive moves byte for byte.
#include <vector>

#include "memkit/memorybox/clients.hpp"
#include "moves_support.hpp"

using namespace moves_test;

namespace {

const std::string kBrain = "brain/clients/acme.md";
const std::string kArchived = "memory/ARCHIVES/clients/acme/acme.md";

// What the shell reads of a client: every file given, as regular files.
Snapshot client_files(const std::map<std::string, std::string>& files) {
  std::vector<FileSnapshot> snaps;
  for (const auto& [path, bytes] : files) {
    snaps.push_back(
        FileSnapshot{path, EntryState::file, std::make_shared<const std::string>(bytes), ""});
  }
  return Snapshot(std::move(snaps));
}

ClientSet planned(const std::map<std::string, std::string>& files, Lifecycle to,
                  const std::string& client = "acme") {
  Result<ClientSet> set = plan_client_set(Profile::maven, client_files(files), client, to);
  REQUIRE(set);
  return std::move(set).value();
}

std::string updated(const std::string& profile, Lifecycle to) {
  const std::vector<Splice> splices = lifecycle_splices(parse_markdown(profile), to);
  return apply_splices(profile, splices);
}

Errc refusal(const std::map<std::string, std::string>& files, Lifecycle to,
             const std::string& client = "acme", Profile profile = Profile::maven) {
  const Result<ClientSet> set = plan_client_set(profile, client_files(files), client, to);
  REQUIRE_FALSE(set);
  return set.status().code();
}

}  // namespace

TEST_CASE("clients: a client key is file-name safe and never hidden") {
  for (const char* good : {"acme", "Acme_2", "a.b-c", "0", "x."})
    CHECK_MESSAGE(is_client_key(good), good);
  for (const char* bad : {"", ".", "..", ".hidden", "a/b", "a b", "../x", "é", "a\\b", "a:b"}) {
    CHECK_FALSE_MESSAGE(is_client_key(bad), bad);
  }
  CHECK(client_profile_path("acme") == kBrain);
  CHECK(archived_profile_path("acme") == kArchived);
  CHECK(client_memory_folder("acme") == "memory/clients/acme");
  CHECK(client_archive_folder("acme") == "memory/ARCHIVES/clients/acme");
}

TEST_CASE("clients: the §10 transitions, and only those") {
  const Lifecycle a = Lifecycle::active;
  const Lifecycle m = Lifecycle::maintenance;
  const Lifecycle r = Lifecycle::archived;
  CHECK(lifecycle_transition_allowed(a, m));
  CHECK(lifecycle_transition_allowed(m, r));
  CHECK(lifecycle_transition_allowed(m, a));
  CHECK(lifecycle_transition_allowed(r, a));
  CHECK_FALSE(lifecycle_transition_allowed(a, r));  // must pass through maintenance
  CHECK_FALSE(lifecycle_transition_allowed(r, m));
  for (Lifecycle s : {a, m, r}) CHECK_FALSE(lifecycle_transition_allowed(s, s));
}

TEST_CASE("clients: the Lifecycle line is replaced in place, terminator and all else kept") {
  CHECK(updated("# Acme\nLifecycle: active\nBrand: bold\n", Lifecycle::maintenance) ==
        "# Acme\nLifecycle: maintenance\nBrand: bold\n");
  CHECK(updated("# Acme\r\nLifecycle:active  \r\nBrand\r\n", Lifecycle::maintenance) ==
        "# Acme\r\nLifecycle: maintenance\r\nBrand\r\n");
  CHECK(updated("# Acme\nLifecycle: paused", Lifecycle::active) == "# Acme\nLifecycle: active");
  // The first column-0 line only, as client_lifecycle reads it; an indented one is text.
  CHECK(updated("# Acme\n  Lifecycle: x\nLifecycle: active\nLifecycle: active\n",
                Lifecycle::maintenance) ==
        "# Acme\n  Lifecycle: x\nLifecycle: maintenance\nLifecycle: active\n");
  // Already exact: nothing to write.
  CHECK(lifecycle_splices(parse_markdown(std::string("# Acme\nLifecycle: active\n")),
                          Lifecycle::active)
            .empty());
}

TEST_CASE("clients: a missing Lifecycle line is inserted after the first line") {
  CHECK(updated("# Acme\nBrand: bold\n", Lifecycle::maintenance) ==
        "# Acme\nLifecycle: maintenance\nBrand: bold\n");
  CHECK(updated("# Acme\r\nBrand\r\n", Lifecycle::maintenance) ==
        "# Acme\r\nLifecycle: maintenance\r\nBrand\r\n");
  CHECK(updated("\xEF\xBB\xBF# Acme\n", Lifecycle::archived) ==
        "\xEF\xBB\xBF# Acme\nLifecycle: archived\n");
  // An unterminated only line is ended first, with the LF a new file's lines get (§7.2).
  CHECK(updated("# Acme", Lifecycle::maintenance) == "# Acme\nLifecycle: maintenance\n");
  CHECK(updated("", Lifecycle::maintenance) == "Lifecycle: maintenance\n");
  CHECK(updated("\xEF\xBB\xBF", Lifecycle::maintenance) == "\xEF\xBB\xBFLifecycle: maintenance\n");
  for (Lifecycle to : {Lifecycle::active, Lifecycle::maintenance, Lifecycle::archived}) {
    CHECK(client_lifecycle(updated("# Acme\nBrand\n", to)) == to);
  }
}

TEST_CASE("clients: active <-> maintenance is a field update of the profile, no plan") {
  const std::string profile = "# Acme\nBrand: bold\n";
  const ClientSet down = planned({{kBrain, profile}}, Lifecycle::maintenance);
  CHECK(down.client == "acme");
  CHECK(down.from == Lifecycle::active);  // no Lifecycle line: active
  CHECK(down.to == Lifecycle::maintenance);
  CHECK(down.profile == kBrain);
  CHECK_FALSE(down.plan.has_value());
  CHECK(down.findings.empty());
  const std::string maintained = apply_splices(profile, down.splices);
  CHECK(maintained == "# Acme\nLifecycle: maintenance\nBrand: bold\n");

  const ClientSet up = planned({{kBrain, maintained}}, Lifecycle::active);
  CHECK(up.from == Lifecycle::maintenance);
  CHECK(apply_splices(maintained, up.splices) == "# Acme\nLifecycle: active\nBrand: bold\n");
  CHECK_FALSE(up.plan.has_value());
}

TEST_CASE("clients: a disallowed transition is MK-BOX-031 and writes nothing") {
  const ClientSet skip = planned({{kBrain, "# Acme\n"}}, Lifecycle::archived);
  CHECK(skip.from == Lifecycle::active);
  REQUIRE(skip.findings.size() == 1);
  CHECK(skip.findings[0].code == "MK-BOX-031");
  CHECK(skip.findings[0].severity == Severity::error);
  CHECK(skip.findings[0].path == kBrain);
  CHECK(skip.splices.empty());
  CHECK_FALSE(skip.plan.has_value());

  const ClientSet back =
      planned({{kArchived, "# Acme\nLifecycle: archived\n"}}, Lifecycle::maintenance);
  CHECK(back.from == Lifecycle::archived);
  REQUIRE(back.findings.size() == 1);
  CHECK(back.findings[0].code == "MK-BOX-031");
  CHECK(back.findings[0].path == kArchived);
  CHECK_FALSE(back.plan.has_value());
}

TEST_CASE("clients: the state a client is in already writes nothing and has no finding") {
  for (const auto& [files, state] :
       std::vector<std::pair<std::map<std::string, std::string>, Lifecycle>>{
           {{{kBrain, "# Acme\n"}}, Lifecycle::active},
           {{{kBrain, "# Acme\nLifecycle: maintenance\n"}}, Lifecycle::maintenance},
           {{{kArchived, "# Acme\nLifecycle: archived\n"}}, Lifecycle::archived}}) {
    const ClientSet same = planned(files, state);
    CHECK(same.from == state);
    CHECK(same.splices.empty());
    CHECK_FALSE(same.plan.has_value());
    CHECK(same.findings.empty());
  }
  // An unreadable value reads as active (as the tiers read it) and is rewritten on request.
  const ClientSet repaired = planned({{kBrain, "# Acme\nLifecycle: paused\n"}}, Lifecycle::active);
  CHECK(repaired.from == Lifecycle::active);
  CHECK(apply_splices("# Acme\nLifecycle: paused\n", repaired.splices) ==
        "# Acme\nLifecycle: active\n");
  const ClientSet refused = planned({{kBrain, "# Acme\nLifecycle: paused\n"}}, Lifecycle::archived);
  CHECK(refused.findings.at(0).code == "MK-BOX-031");
}

TEST_CASE("clients: maintenance -> archived moves the profile and memory/clients/C/ verbatim") {
  const std::string profile = "\xEF\xBB\xBF# Acme\r\nLifecycle: maintenance\r\nBrand: bold";
  const std::string notes = "# Notes\n\n- launch 2026-10-01\n";
  const std::string data = std::string("binary\0\xFF\xFE bytes", 15);
  const std::map<std::string, std::string> before = {{kBrain, profile},
                                                     {"memory/clients/acme/notes.md", notes},
                                                     {"memory/clients/acme/q4/data.bin", data},
                                                     {"memory/clients/acme/q4/plan.md", "plan\n"}};
  const ClientSet set = planned(before, Lifecycle::archived);
  CHECK(set.from == Lifecycle::maintenance);
  CHECK(set.findings.empty());
  CHECK(set.splices.empty());
  REQUIRE(set.plan.has_value());
  const Plan& plan = *set.plan;
  CHECK(plan.command() == "memorybox client set");
  CHECK(plan.arguments() == PlanArguments{{"client", "acme"}, {"to", "archived"}});
  // Every moved file is created at its target and deleted at its source.
  std::vector<std::pair<std::string, OperationKind>> ops;
  for (const PlanOperation& op : plan.operations()) ops.emplace_back(op.path, op.kind);
  CHECK(ops == std::vector<std::pair<std::string, OperationKind>>{
                   {kBrain, OperationKind::remove},
                   {kArchived, OperationKind::create},
                   {"memory/ARCHIVES/clients/acme/notes.md", OperationKind::create},
                   {"memory/ARCHIVES/clients/acme/q4/data.bin", OperationKind::create},
                   {"memory/ARCHIVES/clients/acme/q4/plan.md", OperationKind::create},
                   {"memory/clients/acme/notes.md", OperationKind::remove},
                   {"memory/clients/acme/q4/data.bin", OperationKind::remove},
                   {"memory/clients/acme/q4/plan.md", OperationKind::remove}});
  // The profile leaves tier 2 (300 lines, stay under), so its deletion has a budget result.
  REQUIRE(plan.budget_results().size() == 1);
  CHECK(plan.budget_results()[0].path == kBrain);
  CHECK(plan.budget_results()[0].before == 3);
  CHECK(plan.budget_results()[0].after == 0);
  CHECK(plan.budget_results()[0].limit == 300);

  const std::map<std::string, std::string> after = applied(before, plan);
  CHECK(after == std::map<std::string, std::string>{
                     {kArchived, "\xEF\xBB\xBF# Acme\r\nLifecycle: archived\r\nBrand: bold"},
                     {"memory/ARCHIVES/clients/acme/notes.md", notes},
                     {"memory/ARCHIVES/clients/acme/q4/data.bin", data},
                     {"memory/ARCHIVES/clients/acme/q4/plan.md", "plan\n"}});

  // Reactivation is the reverse move; nothing is lost on the way and back.
  const ClientSet back = planned(after, Lifecycle::active);
  CHECK(back.from == Lifecycle::archived);
  REQUIRE(back.plan.has_value());
  CHECK(back.plan->arguments() == PlanArguments{{"client", "acme"}, {"to", "active"}});
  CHECK(back.plan->budget_results().empty());  // an active profile has only tier 1's combined limit
  std::map<std::string, std::string> restored = before;
  restored[kBrain] = "\xEF\xBB\xBF# Acme\r\nLifecycle: active\r\nBrand: bold";
  CHECK(applied(after, *back.plan) == restored);
}

TEST_CASE("clients: a profile without memory/clients/C/ moves alone, its Lifecycle line added") {
  const ClientSet set = planned({{kBrain, "# Acme\n"}}, Lifecycle::maintenance);
  const std::string maintained = apply_splices("# Acme\n", set.splices);
  const ClientSet archived = planned({{kBrain, maintained}}, Lifecycle::archived);
  REQUIRE(archived.plan.has_value());
  CHECK(applied({{kBrain, maintained}}, *archived.plan) ==
        std::map<std::string, std::string>{{kArchived, "# Acme\nLifecycle: archived\n"}});
}

TEST_CASE("clients: the Plan ID is the same for the same files and changes with their bytes") {
  const std::map<std::string, std::string> files = {{kBrain, "# Acme\nLifecycle: maintenance\n"},
                                                    {"memory/clients/acme/a.md", "a\n"}};
  const std::string id = planned(files, Lifecycle::archived).plan->id();
  CHECK(planned(files, Lifecycle::archived).plan->id() == id);
  std::map<std::string, std::string> changed = files;
  changed["memory/clients/acme/a.md"] = "b\n";
  CHECK(planned(changed, Lifecycle::archived).plan->id() != id);
}

TEST_CASE("clients: refused before anything is planned") {
  const std::map<std::string, std::string> maintained = {
      {kBrain, "# Acme\nLifecycle: maintenance\n"}};
  CHECK(refusal(maintained, Lifecycle::archived, "acme", Profile::standard) ==
        Errc::invalid_argument);
  CHECK(refusal(maintained, Lifecycle::archived, "../acme") == Errc::invalid_argument);
  CHECK(refusal(maintained, Lifecycle::archived, "beta") == Errc::invalid_argument);  // no such
  CHECK(refusal({{kBrain, "# Acme\n"}, {kArchived, "# Acme\n"}}, Lifecycle::active) ==
        Errc::invalid_argument);  // both profiles
  // An archived client lives under memory/ARCHIVES/clients/C/: a brain profile saying so is wrong.
  CHECK(refusal({{kBrain, "# Acme\nLifecycle: archived\n"}}, Lifecycle::active) ==
        Errc::invalid_argument);
  const Status message =
      plan_client_set(Profile::standard, client_files(maintained), "acme", Lifecycle::archived)
          .status();
  CHECK(message.message().find("profile is default") != std::string::npos);
  CHECK(message.message().find("init --profile maven") != std::string::npos);
}

TEST_CASE("clients: a move never overwrites or lands on the moved profile") {
  const std::string profile = "# Acme\nLifecycle: maintenance\n";
  // memory/clients/C/C.md would become the archived profile.
  CHECK(refusal({{kBrain, profile}, {"memory/clients/acme/acme.md", "x\n"}}, Lifecycle::archived) ==
        Errc::invalid_argument);
  CHECK(refusal({{kBrain, profile},
                 {"memory/clients/acme/a.md", "new\n"},
                 {"memory/ARCHIVES/clients/acme/a.md", "old\n"}},
                Lifecycle::archived) == Errc::invalid_argument);
  // A file where a target's folder must be.
  CHECK(refusal({{kBrain, profile},
                 {"memory/clients/acme/q4/a.md", "new\n"},
                 {"memory/ARCHIVES/clients/acme/q4", "a file\n"}},
                Lifecycle::archived) == Errc::invalid_argument);
  CHECK(refusal({{kArchived, "# Acme\n"},
                 {"memory/ARCHIVES/clients/acme/a.md", "old\n"},
                 {"memory/clients/acme/a.md", "new\n"}},
                Lifecycle::active) == Errc::invalid_argument);
  // Other files under the target folder stay where they are.
  const ClientSet set = planned({{kBrain, profile},
                                 {"memory/clients/acme/a.md", "a\n"},
                                 {"memory/ARCHIVES/clients/acme/other.md", "o\n"}},
                                Lifecycle::archived);
  CHECK(set.plan.has_value());
}

TEST_CASE("clients: a link or an uneditable profile stops the plan with a finding") {
  std::vector<FileSnapshot> snaps = {
      {kBrain, EntryState::file,
       std::make_shared<const std::string>("# Acme\nLifecycle: maintenance\n"), ""},
      {"memory/clients/acme/link.md", EntryState::symlink, nullptr, ""},
      {"memory/clients/acme/fifo", EntryState::not_a_file, nullptr, ""}};
  const Result<ClientSet> linked =
      plan_client_set(Profile::maven, Snapshot(snaps), "acme", Lifecycle::archived);
  REQUIRE(linked);
  CHECK_FALSE(linked->plan.has_value());
  REQUIRE(linked->findings.size() == 2);
  CHECK(linked->findings[0].code == "MK-IO-001");
  CHECK(linked->findings[1].code == "MK-LAYOUT-001");
  CHECK(linked->findings[1].path == "memory/clients/acme/link.md");

  const ClientSet fence =
      planned({{kBrain, "# Acme\nLifecycle: maintenance\n```\nopen fence\n"}}, Lifecycle::active);
  REQUIRE(fence.findings.size() == 1);
  CHECK(fence.findings[0].code == "MK-PARSE-001");
  CHECK(fence.findings[0].severity == Severity::blocker);
  CHECK(fence.splices.empty());
  const ClientSet utf8 = planned({{kBrain, "# Acme \xFF\n"}}, Lifecycle::maintenance);
  REQUIRE(utf8.findings.size() == 1);
  CHECK(utf8.findings[0].code == "MK-UTF8-001");

  // The profile itself as a link cannot even be read for its state.
  const Result<ClientSet> profile_link = plan_client_set(
      Profile::maven,
      Snapshot(std::vector<FileSnapshot>{{kBrain, EntryState::symlink, nullptr, ""}}), "acme",
      Lifecycle::maintenance);
  REQUIRE_FALSE(profile_link);
  CHECK(profile_link.status().code() == Errc::unsafe_path);
}
