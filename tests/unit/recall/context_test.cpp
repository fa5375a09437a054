// Context under a budget: the custodian's load route for a task, and compile_context.
#include <doctest/doctest.h>

#include "memkit/tokens.hpp"
#include "recall_test_support.hpp"

namespace {

using memkit::recall::compile_context;
using memkit::recall::ContextPiece;
using memkit::recall::custodian_route;
using memkit::recall::RouteFile;
using memkit::recall::test::example_bytes;

std::vector<std::string> paths(const std::vector<RouteFile>& route) {
  std::vector<std::string> out;
  for (const RouteFile& r : route) out.push_back(r.path + (r.required ? "" : "?"));
  return out;
}

}  // namespace

TEST_CASE("context route: manifest, Always load, then the route of the task named") {
  const std::string manifest = example_bytes("project/docs/memory/manifest.md");
  const auto base = custodian_route(manifest, "");
  REQUIRE(base);
  CHECK(paths(*base) == std::vector<std::string>{"manifest.md", "brief.md", "constraints.md",
                                                 "do-not-use.md"});
  // A part of the heading, a word of it, the whole heading in another case: the same task.
  for (const char* task : {"debugging", "Implementation", "implementation / execution / debugging"}) {
    const auto route = custodian_route(manifest, task);
    REQUIRE(route);
    CHECK(paths(*route) == std::vector<std::string>{"manifest.md", "brief.md", "constraints.md",
                                                    "do-not-use.md", "decisions.md",
                                                    "preferences.md?"});
  }
  // inbox.md only when the task's route asks for it.
  const auto maintenance = custodian_route(manifest, "maintenance");
  REQUIRE(maintenance);
  CHECK(paths(*maintenance).back() == "changelog.md?");
  CHECK(paths(*maintenance)[4] == "inbox.md");
}

TEST_CASE("context route: a task named by no heading is refused, listing the tasks") {
  const auto route = custodian_route(example_bytes("project/docs/memory/manifest.md"), "cook");
  REQUIRE_FALSE(route);
  CHECK(route.status().message().starts_with(
      "--task: 'cook' names no task of manifest.md (tasks: Planning / architecture / "
      "refactoring; "));
  // An Always load route to inbox.md or archive/ is not loaded unasked.
  const auto plain = custodian_route("## Always load\n\n- inbox.md\n- archive/x.md\n- a.md\n", "");
  REQUIRE(plain);
  CHECK(paths(*plain) == std::vector<std::string>{"manifest.md", "a.md"});
}

TEST_CASE("context compile: in order while it fits, with the accounting of what is left out") {
  const std::vector<ContextPiece> pieces = {
      {"m.md", "manifest", "# M\n\nsmall\n", ""},
      {"big.md", "route", [] {
         std::string words;
         for (int i = 0; i < 200; ++i) words += "word ";
         return words;
       }(), ""},
      {"gone.md", "route", "", "no such file"},
      {"n.md", "route", "two words", ""},
      {"m.md", "route", "# M\n\nsmall\n", ""},
      {"n.md:1-1", "hit", "two", ""},
      {"o.md:3-4", "hit", "a \"quoted\" hit", ""},
  };
  const memkit::recall::Context context = compile_context(pieces, 80);
  REQUIRE(context.items.size() == 7);
  CHECK(context.items[0].dropped.empty());
  CHECK(context.items[1].dropped.starts_with("over budget: needs "));
  CHECK(context.items[2].dropped == "no such file");
  CHECK(context.items[3].dropped.empty());
  CHECK(context.items[4].dropped == "already in");
  CHECK(context.items[5].dropped == "already in: its file n.md");
  CHECK(context.items[6].dropped.empty());
  CHECK(context.block ==
        "<memory source=\"m.md\" kind=\"manifest\">\n# M\n\nsmall\n</memory>\n"
        "<memory source=\"n.md\" kind=\"route\">\ntwo words\n</memory>\n"
        "<memory source=\"o.md:3-4\" kind=\"hit\">\na \"quoted\" hit\n</memory>\n");
  // The accounting adds up, every included item's tokens are its block's, and the budget holds.
  std::uint64_t sum = 0;
  for (const auto& item : context.items) sum += item.dropped.empty() ? item.tokens : 0;
  CHECK(sum == context.tokens);
  CHECK(context.tokens == memkit::estimate_tokens(context.block));
  CHECK(context.tokens <= 80);
  // The same pieces give the same bytes; a budget of 0 holds nothing.
  CHECK(compile_context(pieces, 80) == compile_context(pieces, 80));
  CHECK(compile_context(pieces, 0).block.empty());
}
