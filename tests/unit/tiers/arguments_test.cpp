// The arguments of the tiers commands (spec tiers3.md §3, §5, §7, §10): entry types, session ids,
// --tools JSON, content, theme names, data file names and templates, each checked before anything
// is written.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "memkit/tiers.hpp"
#include "tiers_support.hpp"

using namespace memkit;
using namespace memkit::tiers;
using tiers_test::check_refusal;
using tiers_test::has_code;

namespace {

// check_turn with only the L1 field under test set, on valid content.
struct TurnCheck {
  std::vector<Finding> findings;
  Turn turn;
};
TurnCheck turn_with(TurnArguments args, std::string_view content = "body") {
  TurnCheck out;
  out.findings = check_turn(args, "--content", content, out.turn);
  return out;
}

TurnArguments entry_type(std::string value) {
  TurnArguments args;
  args.entry_type = std::move(value);
  return args;
}
TurnArguments session_id(std::string value) {
  TurnArguments args;
  args.session_id = std::move(value);
  return args;
}
TurnArguments tools(std::string json) {
  TurnArguments args;
  args.tools_json = std::move(json);
  return args;
}

void check_refused_with(const std::vector<Finding>& findings, std::string_view code) {
  REQUIRE(findings.size() == 1);
  check_refusal(findings.front(), code);
}

}  // namespace

TEST_CASE("tiers arguments: the entry type defaults to turn and is written upper-cased") {
  const TurnCheck plain = turn_with({});
  CHECK(plain.findings.empty());
  CHECK(plain.turn.entry_type == "TURN");
  const TurnCheck mixed = turn_with(entry_type("assistant-Reply_2"));
  CHECK(mixed.findings.empty());
  CHECK(mixed.turn.entry_type == "ASSISTANT-REPLY_2");
  CHECK(turn_with(entry_type("x")).turn.entry_type == "X");
}

TEST_CASE("tiers arguments: the entry type is 1 to 32 of A-Z, a-z, 0-9, _ and -") {
  CHECK(turn_with(entry_type(std::string(32, 'a'))).findings.empty());
  CHECK(turn_with(entry_type(std::string(32, 'a'))).turn.entry_type == std::string(32, 'A'));
  for (const std::string& bad :
       {std::string(33, 'a'), std::string(), std::string("two words"), std::string("caf\xC3\xA9"),
        std::string("a.b"), std::string("line\nbreak"), std::string(" turn")}) {
    CAPTURE(bad);
    check_refused_with(turn_with(entry_type(bad)).findings, "MK-TIERS-001");
  }
}

TEST_CASE("tiers arguments: the session id is stripped and must be one non-empty line") {
  CHECK(turn_with(session_id("  s1  ")).turn.session_id == std::optional<std::string>("s1"));
  // W includes LF, NBSP and the ideographic space, so these only surround the id.
  CHECK(turn_with(session_id("\n\xC2\xA0s1\xE3\x80\x80\n")).turn.session_id ==
        std::optional<std::string>("s1"));
  CHECK(turn_with(session_id("with inner space")).turn.session_id ==
        std::optional<std::string>("with inner space"));
  CHECK_FALSE(turn_with({}).turn.session_id.has_value());
  for (const std::string_view bad : {"a\nb", "a\r\nb", "a\rb", "   ", "", "\t\n"}) {
    CAPTURE(bad);
    const TurnCheck checked = turn_with(session_id(std::string(bad)));
    check_refused_with(checked.findings, "MK-TIERS-001");
    CHECK_FALSE(checked.turn.session_id.has_value());
  }
}

TEST_CASE("tiers arguments: --tools is a JSON array of single-line strings") {
  const TurnCheck two = turn_with(tools(R"(["search","read"])"));
  CHECK(two.findings.empty());
  CHECK(two.turn.tools == std::vector<std::string>{"search", "read"});
  // An empty array is accepted and writes no Tools line (§4).
  const TurnCheck none = turn_with(tools("[]"));
  CHECK(none.findings.empty());
  CHECK(none.turn.tools.empty());
  // Non-ASCII names are strings like any other.
  CHECK(turn_with(tools(R"(["b\u00fcro"])")).turn.tools == std::vector<std::string>{"b\xC3\xBCro"});
}

TEST_CASE("tiers arguments: --tools refuses a string, an object, a number and multi-line names") {
  // The reference splits a JSON string into its characters (§12 defect 11); memkit refuses it.
  for (const std::string_view bad :
       {R"("search")", R"({"tool":"search"})", "3", "null", "true", R"(["a",1])", R"([["a"]])",
        R"(["line\nbreak"])", R"(["cr\rname"])", "[\"search\"", "search", ""}) {
    CAPTURE(bad);
    const TurnCheck checked = turn_with(tools(std::string(bad)));
    check_refused_with(checked.findings, "MK-TIERS-001");
    CHECK(checked.turn.tools.empty());
  }
}

TEST_CASE("tiers arguments: content is stripped with W, must be non-empty, and is verbatim") {
  const Checked raw = check_content("--raw-content", "  Raw one  ");
  CHECK_FALSE(raw.refused.has_value());
  CHECK(raw.value == "Raw one");
  // No escape processing: a backslash-n typed in a shell stays two characters.
  CHECK(check_content("--content", "a\\nb").value == "a\\nb");
  // Inner line breaks and inner whitespace are kept.
  CHECK(check_content("--content", "\n line 1\n\n  line 2 \n").value == "line 1\n\n  line 2");
  for (const std::string_view empty : {"", "   ", "\n\t\r\n", "\xE3\x80\x80\xC2\x85"}) {
    CAPTURE(empty);
    check_refusal(check_content("--content", empty).refused, "MK-TIERS-001");
  }
  // check_turn refuses empty content the same way.
  check_refused_with(turn_with({}, " \n ").findings, "MK-TIERS-001");
}

TEST_CASE("tiers themes: stripped with W, then ASCII letters lower-cased") {
  CHECK(check_theme("Decision").value == "decision");
  CHECK(check_theme("  DeCiSiOn \n").value == "decision");
  CHECK(check_theme("\xE3\x80\x80project-X_2\xC2\xA0").value == "project-x_2");
  CHECK_FALSE(check_theme("Decision").refused.has_value());
  CHECK_FALSE(check_theme("0day").refused.has_value());
}

TEST_CASE("tiers themes: auto is MK-TIERS-003, after strip and lower-casing") {
  for (const std::string_view value : {"auto", "AUTO", " Auto\t"}) {
    CAPTURE(value);
    check_refusal(check_theme(value).refused, "MK-TIERS-003");
  }
  // A theme only starting with "auto" is an ordinary theme.
  CHECK_FALSE(check_theme("automation").refused.has_value());
}

TEST_CASE("tiers themes: the grammar and the reserved names refuse with MK-TIERS-002") {
  for (const std::string& bad : {std::string("../x"),
                                 std::string("a/b"),
                                 std::string("a\\b"),
                                 std::string("a.b"),
                                 std::string("."),
                                 std::string(".."),
                                 std::string(".hidden"),
                                 std::string("sessions"),
                                 std::string("data"),
                                 std::string("archive"),
                                 std::string("Sessions"),
                                 std::string(" DATA "),
                                 std::string("_x"),
                                 std::string("-x"),
                                 std::string(""),
                                 std::string("   "),
                                 std::string("two words"),
                                 std::string("caf\xC3\xA9"),
                                 std::string("\xC3\x89t\xC3\xA9"),
                                 std::string(65, 'a')}) {
    CAPTURE(bad);
    check_refusal(check_theme(bad).refused, "MK-TIERS-002");
  }
}

TEST_CASE("tiers themes: 64 characters are accepted, 65 are not") {
  const std::string longest = "a" + std::string(62, '_') + "z";
  REQUIRE(longest.size() == 64);
  CHECK_FALSE(check_theme(longest).refused.has_value());
  CHECK(check_theme(longest).value == longest);
  CHECK(check_theme(longest + "z").refused.has_value());
  // The limit counts the stripped value.
  CHECK_FALSE(check_theme("  " + longest + "  ").refused.has_value());
}

TEST_CASE("tiers themes: is_theme_name and is_reserved_name follow §2 and §7") {
  CHECK(is_theme_name("decision"));
  CHECK(is_theme_name("a"));
  CHECK(is_theme_name("9-lives_x"));
  CHECK_FALSE(is_theme_name("Decision"));  // list-themes sees folder names as they are
  CHECK_FALSE(is_theme_name("sessions"));
  CHECK_FALSE(is_theme_name("data"));
  CHECK_FALSE(is_theme_name("archive"));
  CHECK_FALSE(is_theme_name("_x"));
  CHECK_FALSE(is_theme_name(""));
  CHECK_FALSE(is_theme_name(std::string(65, 'a')));
  CHECK(is_reserved_name("sessions"));
  CHECK(is_reserved_name("data"));
  CHECK(is_reserved_name("archive"));
  CHECK(is_reserved_name(".git"));
  CHECK(is_reserved_name("."));
  CHECK_FALSE(is_reserved_name("decision"));
  CHECK_FALSE(is_reserved_name("Bad Name"));
}

TEST_CASE("tiers data names: .csv is appended unless present in any ASCII case, then written .csv") {
  CHECK(check_data_name("sales").value == "sales.csv");
  CHECK(check_data_name("sales.csv").value == "sales.csv");
  // list-data lists `*.csv`: a name given as PEOPLE.CSV is stored (and read) as PEOPLE.csv.
  CHECK(check_data_name("PEOPLE.CSV").value == "PEOPLE.csv");
  CHECK(check_data_name("sales.Csv").value == "sales.csv");
  CHECK(check_data_name("  sales \n").value == "sales.csv");
  CHECK(check_data_name("sales.tsv").value == "sales.tsv.csv");
  CHECK(check_data_name("r\xC3\xA9sum\xC3\xA9 2026").value == "r\xC3\xA9sum\xC3\xA9 2026.csv");
  CHECK(check_data_name("a..b").value == "a..b.csv");  // only a leading '.' is refused
  CHECK_FALSE(check_data_name("sales").refused.has_value());
}

TEST_CASE("tiers data names: separators, control characters and dot names are MK-ARG-001") {
  for (const std::string& bad :
       {std::string("a/b"), std::string("/abs"), std::string("a\\b"), std::string("a\x01z"),
        std::string("a\tb"), std::string("a\nb"),
        std::string("a\x1F"
                    "b"),
        std::string("a\x7F"), std::string("a\xC2\x80z"), std::string("a\xC2\x85z"),
        std::string("a\xC2\x9Fz"), std::string("."), std::string(".."), std::string(".x"),
        std::string(".csv"), std::string("../x"), std::string(""), std::string("  ")}) {
    CAPTURE(bad);
    check_refusal(check_data_name(bad).refused, "MK-ARG-001");
  }
  // U+00A0 is the first code point after C1: not a control character.
  CHECK_FALSE(check_data_name("a\xC2\xA0z").refused.has_value());
}

TEST_CASE("tiers data names: at most 255 bytes, counted after .csv is appended") {
  CHECK(check_data_name(std::string(251, 'x')).value.size() == 255);
  check_refusal(check_data_name(std::string(252, 'x')).refused, "MK-ARG-001");
  CHECK_FALSE(check_data_name(std::string(251, 'x') + ".csv").refused.has_value());
  check_refusal(check_data_name(std::string(252, 'x') + ".CSV").refused, "MK-ARG-001");
  // Bytes, not code points: 125 two-byte letters and one ASCII letter are 251 bytes.
  std::string accented;
  for (int i = 0; i < 125; ++i) accented += "\xC3\xA9";
  CHECK_FALSE(check_data_name(accented + "a").refused.has_value());
  check_refusal(check_data_name(accented + "\xC3\xA9").refused, "MK-ARG-001");
}

TEST_CASE("tiers templates: decision, error and task, with their record names") {
  CHECK(parse_template("decision") == Template::decision);
  CHECK(parse_template("error") == Template::error);
  CHECK(parse_template("task") == Template::task);
  for (const std::string_view other : {"Decision", "TASK", "", "decisions", " task", "note"}) {
    CAPTURE(other);
    CHECK_FALSE(parse_template(other).has_value());
  }
  CHECK(template_record(Template::decision) == "Decision Record");
  CHECK(template_record(Template::error) == "Error Record");
  CHECK(template_record(Template::task) == "Task Record");
  for (const Template t : {Template::decision, Template::error, Template::task}) {
    CHECK(parse_template(template_name(t)) == t);
  }
}

TEST_CASE("tiers templates: each body lists the seed's fields in order") {
  const auto in_order = [](std::string_view body, std::vector<std::string_view> fields) {
    std::size_t from = 0;
    for (const std::string_view field : fields) {
      const std::size_t at = body.find(field, from);
      if (at == std::string_view::npos) return false;
      from = at + field.size();
    }
    return true;
  };
  CHECK(in_order(template_body(Template::decision),
                 {"**Context**:", "**Options**:", "1.", "**Decision**:", "**Rationale**:"}));
  CHECK(in_order(template_body(Template::error),
                 {"**Symptom**:", "**Root Cause**:", "**Fix**:", "**Lesson**:"}));
  CHECK(in_order(template_body(Template::task),
                 {"**Done**:", "- [x]", "**In Progress**:", "**Todo**:", "- [ ]"}));
  CHECK_FALSE(in_order(template_body(Template::error), {"**Fix**:", "**Symptom**:"}));
}
