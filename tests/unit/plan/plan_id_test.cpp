// The Plan ID test vectors of spec compaction.md §20.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <thread>

#include "memkit/plan.hpp"

using namespace memkit;

TEST_CASE("plan: the §20 inbox vector has Plan ID 3d36af5e83bd5ddb") {
  const auto inbox =
      std::make_shared<const std::string>("# Inbox\n\n- Use tabs\n- use tabs  \n- Keep CRLF\n");
  const Document doc = parse_markdown(inbox);
  std::vector<Splice> splices = removal_splices(doc, std::vector<UnitSpan>{{3, 3}});
  std::vector<PlanOperation> ops;
  ops.push_back(plan_write("inbox.md", inbox, true, std::move(splices)));
  const Plan plan =
      Plan::create("custodian compact", {{"memory_dir", "docs/memory"}, {"target", "inbox.md"}},
                   std::move(ops), {});
  CHECK(plan.canonical_json() ==
        R"({"arguments":{"memory_dir":"docs/memory","target":"inbox.md"},"budget_results":[],)"
        R"("command":"custodian compact","operations":[{"base_sha256":)"
        R"("dd200bb0529fe9bf762e157308c38e31ba69473aaa52f51b73b5ba75d6d87687",)"
        R"("expected_output_sha256":)"
        R"("8f1df89ff7437abfd2f19899e03f687dc19a92f3590cf8725dafe06a8e891d48",)"
        R"("operation":"replace","path":"inbox.md"}],"plan_schema":1})");
  CHECK(plan.id() == "3d36af5e83bd5ddb");
  CHECK(plan.operations()[0].output.render() == "# Inbox\n\n- Use tabs\n- Keep CRLF\n");
}

TEST_CASE("plan: the §20 changelog archival vector has Plan ID 6d7b146d885f8313") {
  std::string x = "-";
  for (int i = 0; i < 300; ++i) x += " x";
  const auto changelog = std::make_shared<const std::string>(
      "# Memory Changelog\n\n## 2026-03-07\n" + x + "\n\n## 2026-03-06\n" + x +
      "\n\n## 2026-03-05\n" + x + "\n");
  const std::string archive =
      "# Archived Memory: changelog.md\n\nComplete entries moved out of active memory by reviewed "
      "compaction.\nLoad this file only when explicitly asked; it is not part of normal task "
      "context.\n\n## 2026-03-05\n" +
      x + "\n";
  const Document doc = parse_markdown(changelog);
  const Section& oldest = doc.sections().back();
  std::vector<PlanOperation> ops;
  ops.push_back(plan_write(
      "changelog.md", changelog, true,
      removal_splices(doc, std::vector<UnitSpan>{
                               {oldest.first_unit, oldest.first_unit + oldest.unit_count - 1}})));
  ops.push_back(
      plan_write("archive/changelog-2026-03-07.md", nullptr, false, {Splice{0, 0, archive}}));
  std::vector<BudgetResult> budgets = {{"changelog.md", 927, 619, 800, BudgetState::ok}};
  const Plan plan =
      Plan::create("custodian compact", {{"memory_dir", "docs/memory"}, {"target", "changelog.md"}},
                   std::move(ops), std::move(budgets));
  CHECK(to_hex(plan.operations()[0].output_sha256()) ==
        "b53c79e01eab86c1de8a2b59c8ec3fb93f8ca591fa84ec6cef300e833cf6853a");
  CHECK(to_hex(plan.operations()[1].base_sha256()) ==
        "6f9f8db1c532cbb7299a7a4cf9b9260b8cefc1223face2cd0f828f09ea904431");
  CHECK(to_hex(plan.operations()[1].output_sha256()) ==
        "86787e8a744e05b5cc41eb69903fb30f8e029afec95b0f32966c2c19b5d4b043");
  CHECK(plan.id() == "6d7b146d885f8313");
}

TEST_CASE("plan: any change to an argument, a base byte or the command changes the ID") {
  const auto base = std::make_shared<const std::string>("- a\n- a\n");
  auto make = [&](const std::string& command, const std::string& dir,
                  std::shared_ptr<const std::string> bytes) {
    std::vector<PlanOperation> ops;
    ops.push_back(plan_write("inbox.md", bytes, true, {Splice{4, 8, {}}}));
    return Plan::create(command, {{"memory_dir", dir}, {"target", "inbox.md"}}, std::move(ops), {});
  };
  const std::string id = make("custodian compact", "docs/memory", base).id();
  CHECK(id.size() == 16);
  CHECK(make("custodian compact", "docs/memory", base).id() == id);
  CHECK(make("custodian forget", "docs/memory", base).id() != id);
  CHECK(make("custodian compact", "docs/agent", base).id() != id);
  CHECK(make("custodian compact", "docs/memory", std::make_shared<const std::string>("- a\n- A\n"))
            .id() != id);
}

TEST_CASE(
    "plan: digests and the ID, computed when first read, are the same from copies and threads") {
  // Above 1 MiB, so the two digests are computed on two cores.
  std::string text;
  for (int i = 0; i < 40000; ++i) text += "- entry " + std::to_string(i) + " of the file\n";
  const auto base = std::make_shared<const std::string>(text);
  const auto make = [](const std::shared_ptr<const std::string>& bytes) {
    std::vector<PlanOperation> ops;
    ops.push_back(plan_write("big.md", bytes, true, {Splice{2, 7, "ENTRY"}}));
    ops.push_back(plan_remove(FileSnapshot{
        "gone.md", EntryState::file, std::make_shared<const std::string>("- old\n"), {}}));
    return Plan::create("custodian compact", {{"target", "big.md"}}, std::move(ops), {});
  };
  const Plan plan = make(base);
  const Plan copy = plan;  // before anything was computed: the copy shares what is computed later
  std::string ids[2];
  Sha256 outputs[2];
  std::thread other([&] {
    ids[1] = copy.id();
    outputs[1] = copy.operations()[0].output_sha256();
  });
  ids[0] = plan.id();
  outputs[0] = plan.operations()[0].output_sha256();
  other.join();
  CHECK(ids[0] == ids[1]);
  CHECK(outputs[0] == outputs[1]);
  std::string expected = text;
  expected.replace(2, 5, "ENTRY");
  CHECK(outputs[0] == sha256(expected));
  CHECK(plan.operations()[0].base_sha256() == sha256(text));
  // plan_remove: the base is the file, the output nothing.
  CHECK(plan.operations()[1].base_sha256() == sha256("- old\n"));
  CHECK(plan.operations()[1].output_sha256() == sha256(""));
  // A plan made again has the same ID; with one base byte more, another.
  CHECK(make(base).id() == ids[0]);
  CHECK(make(std::make_shared<const std::string>(text + "\n")).id() != ids[0]);
}

TEST_CASE("plan: a copy shares the operations, and a moved-from plan has none") {
  // A 100 MiB inbox's plan holds tens of thousands of splices: a copy (into a reply, a run) must
  // not hold them twice.
  std::vector<PlanOperation> ops;
  ops.push_back(plan_write("inbox.md", std::make_shared<const std::string>("# Inbox\n- a\n- a\n"),
                           true, {Splice{12, 16, {}}}));
  Plan plan = Plan::create("custodian compact", {{"target", "inbox.md"}}, std::move(ops), {});
  const Plan copy = plan;  // NOLINT(performance-unnecessary-copy-initialization): the point
  CHECK(&copy.operations() == &plan.operations());
  CHECK(copy.id() == plan.id());
  const Plan moved = std::move(plan);
  CHECK(moved.operations().size() == 1);
  CHECK(plan.operations().empty());  // NOLINT(bugprone-use-after-move): what it holds then
}
