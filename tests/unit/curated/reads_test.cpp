// The read selections of curated memory (spec curated.md §8): the live pending set, get-relevant's
// digest (buckets, lines, the 60-code-point descriptions, the 800 budget footer included) and
// initiative mode, and the kernel block; with the §14 "Digest" and "Supersedes" vectors.
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "curated_support.hpp"
#include "memkit/curated/read.hpp"

using namespace memkit::curated;
using curated_test::kT1;
using curated_test::kT2;
using curated_test::kT3;
using curated_test::kT4;

namespace {

// A live thread: open, with `initiative` (or none), Updated `updated`, `description` (or none).
Row thread(std::string name, std::optional<std::string> initiative, std::string updated,
           std::optional<std::string> description = std::nullopt) {
  Row row;
  row.name = std::move(name);
  row.type = RowType::feedback;
  row.row_class = RowClass::thread;
  row.status = RowStatus::open;
  row.initiative = std::move(initiative);
  row.description = std::move(description);
  row.created = updated;
  row.updated = std::move(updated);
  row.body = "body of " + row.name;
  return row;
}

std::vector<std::string> names_of(const std::vector<const Row*>& rows) {
  std::vector<std::string> names;
  for (const Row* row : rows) names.push_back(row->name);
  return names;
}

// Code points counted from the UTF-8 lead bytes, independently of the module's decoder.
std::size_t code_points(std::string_view text) {
  std::size_t n = 0;
  for (const char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

using Names = std::vector<std::string>;

// §14 "Digest": feedback_a (demo, T3, 65 code points), feedback_b (demo, T1), project_x (none,
// T2, "x").
std::vector<Row> digest_vector_rows() {
  return {thread("feedback_a", "demo", kT3,
                 "Fix the flaky build on CI runners that time out after ten minutes"),
          thread("feedback_b", "demo", kT1), thread("project_x", std::nullopt, kT2, "x")};
}

}  // namespace

TEST_CASE("live pending: open and carry_forward threads only, not soft-deleted") {
  std::vector<Row> rows{
      thread("a_open", std::nullopt, kT1),      thread("b_carry", std::nullopt, kT1),
      thread("c_closed", std::nullopt, kT1),    thread("d_graduated", std::nullopt, kT1),
      thread("e_no_status", std::nullopt, kT1), thread("f_anchor", std::nullopt, kT1),
      thread("g_log", std::nullopt, kT1),       thread("h_deleted", std::nullopt, kT1)};
  rows[1].status = RowStatus::carry_forward;
  rows[2].status = RowStatus::closed;
  rows[3].status = RowStatus::graduated;
  rows[4].status = std::nullopt;
  rows[5].row_class = RowClass::anchor;  // a status on a non-thread: the class decides
  rows[6].row_class = RowClass::log;
  rows[7].deleted = kT2;
  CHECK(names_of(live_pending(rows)) == Names{"a_open", "b_carry"});
}

TEST_CASE("live pending: a supersedes link retires its dst (§14 Supersedes)") {
  std::vector<Row> rows{thread("feedback_b", std::nullopt, kT1),
                        thread("feedback_c", std::nullopt, kT2)};
  REQUIRE(names_of(live_pending(rows)) == Names{"feedback_c", "feedback_b"});
  rows[1].links.push_back({.kind = LinkKind::supersedes, .dst = "feedback_b", .created_at = kT3});
  CHECK(rows[0].status == RowStatus::open);
  CHECK(names_of(live_pending(rows)) == Names{"feedback_c"});

  SUBCASE("only supersedes retires") {
    for (const LinkKind kind :
         {LinkKind::relates_to, LinkKind::derived_from, LinkKind::graduated_to}) {
      rows[1].links = {{.kind = kind, .dst = "feedback_b", .created_at = kT3}};
      CHECK(names_of(live_pending(rows)) == Names{"feedback_c", "feedback_b"});
    }
  }
  SUBCASE("from any row of the workspace, a soft-deleted or non-thread src too") {
    Row old_anchor = thread("decision_x", std::nullopt, kT1);
    old_anchor.row_class = RowClass::anchor;
    old_anchor.status = std::nullopt;
    old_anchor.deleted = kT4;
    old_anchor.links = {{.kind = LinkKind::supersedes, .dst = "feedback_c", .created_at = kT3}};
    rows.push_back(old_anchor);
    CHECK(live_pending(rows).empty());
  }
  SUBCASE("the link's src is not retired by it") {
    rows[0].status = RowStatus::closed;
    CHECK(names_of(live_pending(rows)) == Names{"feedback_c"});
  }
}

TEST_CASE("live pending: Updated descending, then name, a row without Updated is the oldest") {
  std::vector<Row> rows{thread("m", std::nullopt, kT1),
                        thread("b", std::nullopt, kT2),
                        thread("a", std::nullopt, kT2),
                        thread("z", std::nullopt, kT3),
                        thread("n_no_updated", std::nullopt, kT1),
                        thread("c_no_updated", std::nullopt, kT1)};
  rows[4].updated = std::nullopt;
  rows[5].updated = std::nullopt;
  CHECK(names_of(live_pending(rows)) == Names{"z", "a", "b", "m", "c_no_updated", "n_no_updated"});
}

TEST_CASE("digest: the §14 vector") {
  const std::vector<Row> rows = digest_vector_rows();
  const Digest d = digest(rows);
  const std::string expected =
      "## Memory — live pending by initiative\n"
      "\n"
      "- feedback_a [demo]: Fix the flaky build on CI runners that time out after ten mi…\n"
      "  +1 more in demo\n"
      "- project_x [_none]: x";
  CHECK(d.block == expected);
  CHECK(code_points(d.block) == 163);  // LF-joined: no final LF
  CHECK(d.overflow_initiatives == 0);
  REQUIRE(d.items.size() == 2);
  CHECK(d.items[0].row == &rows[0]);
  CHECK(d.items[0].initiative == "demo");
  CHECK(d.items[0].description == "Fix the flaky build on CI runners that time out after ten mi…");
  CHECK(d.items[0].pending_count == 2);
  CHECK(d.items[1].row == &rows[2]);
  CHECK(d.items[1].initiative == std::string(kNoInitiative));
  CHECK(d.items[1].description == "x");
  CHECK(d.items[1].pending_count == 1);
}

TEST_CASE("digest: no live pending row gives no item and an empty block, without the footer") {
  std::vector<Row> rows{thread("closed", "demo", kT1)};
  rows[0].status = RowStatus::closed;
  for (const std::vector<Row>& set : {std::vector<Row>{}, rows}) {
    const Digest d = digest(set, 800, std::string("footer"));
    CHECK(d.items.empty());
    CHECK(d.block.empty());
    CHECK(d.overflow_initiatives == 0);
  }
}

TEST_CASE("digest: buckets by freshest Updated descending, then key, lines of each bucket") {
  const std::vector<Row> rows{
      thread("r_beta_old", "beta", kT1),     thread("r_beta_new", "beta", kT3),
      thread("r_alpha", "alpha", kT3),       thread("r_gamma", "gamma", kT4),
      thread("r_none_1", std::nullopt, kT2), thread("r_none_2", std::nullopt, kT2),
      thread("r_none_3", std::nullopt, kT1)};
  const Digest d = digest(rows);
  CHECK(d.block ==
        "## Memory — live pending by initiative\n"
        "\n"
        "- r_gamma [gamma]\n"
        "- r_alpha [alpha]\n"
        "- r_beta_new [beta]\n"
        "  +1 more in beta\n"
        "- r_none_1 [_none]\n"
        "  +2 more in _none");
  REQUIRE(d.items.size() == 4);
  CHECK(d.items[2].row->name == "r_beta_new");
  CHECK(d.items[2].pending_count == 2);
  CHECK(d.items[3].row->name == "r_none_1");  // same Updated as r_none_2: name ascending
  CHECK(d.items[3].pending_count == 3);
  CHECK(d.items[0].description.empty());
}

TEST_CASE("digest: a hand-written initiative is read as its normalised key") {
  const std::vector<Row> rows{thread("a", "Diagram Builder", kT2),
                              thread("b", "diagram_builder", kT1), thread("c", "  --  ", kT1)};
  const Digest d = digest(rows);
  REQUIRE(d.items.size() == 2);
  CHECK(d.items[0].initiative == "diagram_builder");
  CHECK(d.items[0].pending_count == 2);
  CHECK(d.items[1].initiative == "_none");
  CHECK(initiative_rows(rows, "diagram_builder").rows.size() == 2);
}

TEST_CASE("digest: descriptions are collapsed, cut to 60 code points, stripped, then '…'") {
  const std::string sixty(60, 'd');
  struct Case {
    std::string description;
    std::string desc;
  };
  const std::vector<Case> cases{
      {.description = sixty, .desc = sixty},
      {.description = sixty + "e", .desc = sixty + "…"},
      // collapse first: the runs of W count as one space, the ends go
      {.description = " \t a \t\t b  ", .desc = "a b"},
      {.description = "   ", .desc = ""},
      // a cut that ends in W is right-stripped before the ellipsis
      {.description = std::string(59, 'w') + " tail", .desc = std::string(59, 'w') + "…"},
      {.description = "", .desc = ""},
  };
  // code points, not bytes: 60 'é' (120 bytes) fit, 61 do not
  std::string e60;
  for (int i = 0; i < 60; ++i) e60 += "é";
  std::vector<Case> all = cases;
  all.push_back({.description = e60, .desc = e60});
  all.push_back({.description = e60 + "é", .desc = e60 + "…"});
  for (const Case& c : all) {
    CAPTURE(c.description);
    const std::vector<Row> rows{thread("a", "demo", kT1, c.description)};
    const Digest d = digest(rows);
    REQUIRE(d.items.size() == 1);
    CHECK(d.items[0].description == c.desc);
    const std::string line = c.desc.empty() ? "- a [demo]" : "- a [demo]: " + c.desc;
    CHECK(d.block == "## Memory — live pending by initiative\n\n" + line);
  }
}

TEST_CASE("digest: the first 10 buckets are shown, the rest counted") {
  std::vector<Row> rows;
  for (int i = 0; i < 12; ++i) {
    const std::string key = "k" + std::string(1, static_cast<char>('a' + i));
    rows.push_back(thread("r_" + key, key, kT1));
  }
  const Digest d = digest(rows, 100000, std::string("See memkit curated list."));
  CHECK(d.items.size() == 10);
  CHECK(d.overflow_initiatives == 2);
  CHECK(d.items.back().initiative == "kj");
  CHECK(d.block.ends_with("- r_kj [kj]\n\n+2 more initiatives\n\nSee memkit curated list."));
}

TEST_CASE("digest: the budget bounds the whole block, footer included, one bucket always shows") {
  // Lines longer than "+k more initiatives", so that each dropped bucket shortens the block.
  const std::string da = "first concern of the week";
  const std::string db = "second concern of the week";
  const std::string dc = "third concern of the week";
  const std::vector<Row> rows{thread("a", "ka", kT3, da), thread("b", "kb", kT2, db),
                              thread("c", "kc", kT1, dc)};
  const std::string head = "## Memory — live pending by initiative\n\n";
  const std::string la = "- a [ka]: " + da;
  const std::string lb = "- b [kb]: " + db;
  const std::string lc = "- c [kc]: " + dc;
  const std::string all3 = head + la + "\n" + lb + "\n" + lc;
  const std::string two = head + la + "\n" + lb + "\n\n+1 more initiatives";
  const std::string one = head + la + "\n\n+2 more initiatives";
  REQUIRE(code_points(two) < code_points(all3));
  REQUIRE(code_points(one) < code_points(two));

  CHECK(digest(rows).block == all3);
  CHECK(digest(rows, code_points(all3)).block == all3);  // at the budget: kept
  const Digest d2 = digest(rows, code_points(all3) - 1);
  CHECK(d2.block == two);
  CHECK(d2.items.size() == 2);
  CHECK(d2.overflow_initiatives == 1);
  const Digest d1 = digest(rows, code_points(two) - 1);
  CHECK(d1.block == one);
  CHECK(d1.overflow_initiatives == 2);
  const Digest over = digest(rows, 1);
  CHECK(over.block == one);  // over budget, still the first bucket
  REQUIRE(over.items.size() == 1);
  CHECK(over.items[0].row->name == "a");
  CHECK(over.items[0].pending_count == 1);

  const std::string footer = "Ask memkit for more.";
  const std::uint64_t with_footer = 2 + code_points(footer);  // "\n\n" + footer
  const Digest f = digest(rows, code_points(two) + with_footer, footer);
  CHECK(f.block == two + "\n\n" + footer);  // the footer's length pushed c out
  CHECK(f.overflow_initiatives == 1);
  CHECK(digest(rows, code_points(all3) + with_footer - 1, footer).block == f.block);
  CHECK(digest(rows, code_points(all3) + with_footer, footer).block == all3 + "\n\n" + footer);
}

TEST_CASE("digest: the budget rule is mechanical: a drop may add the overflow line") {
  // With short lines, "+1 more initiatives" is longer than the dropped bucket's line, so the
  // two-bucket block is still over and the rule drops on to the first bucket.
  const std::vector<Row> rows{thread("a", "ka", kT3, "x"), thread("b", "kb", kT2, "y"),
                              thread("c", "kc", kT1, "z")};
  const std::string head = "## Memory — live pending by initiative\n\n";
  const std::string all3 = head + "- a [ka]: x\n- b [kb]: y\n- c [kc]: z";
  const Digest d = digest(rows, code_points(all3) - 1);
  CHECK(d.block == head + "- a [ka]: x\n\n+2 more initiatives");
  CHECK(d.overflow_initiatives == 2);
}

TEST_CASE("initiative mode: the §14 sweep of demo") {
  const std::vector<Row> rows = digest_vector_rows();
  const InitiativeRows r = initiative_rows(rows, "demo");
  CHECK(names_of(r.rows) == Names{"feedback_a", "feedback_b"});
  CHECK(r.block ==
        "## Memory — live pending in demo\n"
        "\n"
        "- feedback_a: Fix the flaky build on CI runners that time out after ten minutes\n"
        "- feedback_b");
  const InitiativeRows none = initiative_rows(rows, kNoInitiative, std::string("footer"));
  CHECK(names_of(none.rows) == Names{"project_x"});
  CHECK(none.block == "## Memory — live pending in _none\n\n- project_x: x\n\nfooter");
}

TEST_CASE("initiative mode: uncapped, collapsed descriptions, live pending only") {
  std::vector<Row> rows;
  std::string long_text(300, 'y');
  for (int i = 0; i < 15; ++i) {
    rows.push_back(thread("r" + std::to_string(10 + i), "big", kT1, "a\t\tb " + long_text));
  }
  rows.push_back(thread("closed_one", "big", kT2));
  rows.back().status = RowStatus::closed;
  rows.push_back(thread("other", "small", kT2));
  const InitiativeRows r = initiative_rows(rows, "big");
  CHECK(r.rows.size() == 15);
  CHECK(r.block.find("- r10: a b " + long_text + "\n- r11:") != std::string::npos);
  CHECK(r.block.ends_with("- r24: a b " + long_text));
}

TEST_CASE("initiative mode: an unknown or empty initiative gives no row and an empty block") {
  const std::vector<Row> rows = digest_vector_rows();
  const InitiativeRows r = initiative_rows(rows, "unknown", std::string("footer"));
  CHECK(r.rows.empty());
  CHECK(r.block.empty());
}

namespace {

Row user_row(std::string name, std::string updated, Audience audience,
             std::optional<std::string> description = std::nullopt) {
  Row row = thread(std::move(name), std::nullopt, std::move(updated), std::move(description));
  row.type = RowType::user;
  row.row_class = RowClass::anchor;
  row.status = std::nullopt;
  row.audience = audience;
  return row;
}

}  // namespace

TEST_CASE("kernel: live user rows for the executor, by Updated descending then name") {
  std::vector<Row> rows{user_row("u_b", kT2, Audience::executor, "Prefers  short\tanswers"),
                        user_row("u_a", kT2, Audience::executor),
                        user_row("u_new", kT3, Audience::executor, "Uses metric units"),
                        user_row("u_any", kT4, Audience::any, "not the executor's"),
                        user_row("u_orch", kT4, Audience::orchestrator),
                        user_row("u_gone", kT4, Audience::executor),
                        user_row("u_feedback", kT4, Audience::executor)};
  rows[5].deleted = kT4;
  rows[6].type = RowType::feedback;
  const Kernel k = kernel(rows);
  CHECK(names_of(k.rows) == Names{"u_new", "u_a", "u_b"});
  const std::string block =
      "## Memory — how the user works\n"
      "\n"
      "- u_new: Uses metric units\n"
      "- u_a\n"
      "- u_b: Prefers short answers";
  CHECK(k.block == block);

  SUBCASE("max_chars drops rows from the end while over") {
    CHECK(kernel(rows, {}, code_points(block)).block == block);
    const Kernel two = kernel(rows, {}, code_points(block) - 1);
    CHECK(names_of(two.rows) == Names{"u_new", "u_a"});
    CHECK(two.block == "## Memory — how the user works\n\n- u_new: Uses metric units\n- u_a");
    const Kernel none = kernel(rows, {}, 10);
    CHECK(none.rows.empty());
    CHECK(none.block.empty());
  }
  SUBCASE("the filter is the configured one; an unset axis filters nothing") {
    const Kernel any = kernel(rows, {.type = RowType::user, .audience = Audience::any});
    CHECK(names_of(any.rows) == Names{"u_any"});
    const Kernel all_users = kernel(rows, {.type = RowType::user, .audience = std::nullopt});
    CHECK(names_of(all_users.rows) == Names{"u_any", "u_orch", "u_new", "u_a", "u_b"});
    const Kernel executors = kernel(rows, {.type = std::nullopt, .audience = Audience::executor});
    CHECK(names_of(executors.rows) == Names{"u_feedback", "u_new", "u_a", "u_b"});
  }
}

TEST_CASE("kernel: no matching row gives an empty block") {
  const std::vector<Row> rows = digest_vector_rows();
  const Kernel k = kernel(rows);
  CHECK(k.rows.empty());
  CHECK(k.block.empty());
}
