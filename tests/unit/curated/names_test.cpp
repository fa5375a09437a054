// The words of curated memory (spec curated.md §2, §3, §4): enum spellings both ways, workspace
// names, slugs per type with the rule that failed, initiative normalisation and its derivation
// from a project ref, and the field keys.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "memkit/curated.hpp"

using namespace memkit::curated;

namespace {

using Opt = std::optional<std::string>;

// Returns the message of a refused slug, failing the test when the slug is accepted.
std::string problem(std::string_view name, RowType type) {
  const std::optional<std::string> p = slug_problem(name, type);
  REQUIRE_MESSAGE(p.has_value(), "slug accepted: " << name);
  return *p;
}

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

}  // namespace

TEST_CASE("curated names: each enum's words are the spec's, and parse back") {
  const std::vector<std::pair<RowType, std::string_view>> types{
      {RowType::project, "project"},   {RowType::user, "user"},
      {RowType::feedback, "feedback"}, {RowType::atom, "atom"},
      {RowType::decision, "decision"}, {RowType::negative, "negative"}};
  for (const auto& [value, word] : types) {
    CHECK(name_of(value) == word);
    CHECK(parse_row_type(word) == value);
  }
  const std::vector<std::pair<RowClass, std::string_view>> classes{
      {RowClass::anchor, "anchor"}, {RowClass::thread, "thread"}, {RowClass::log, "log"}};
  for (const auto& [value, word] : classes) {
    CHECK(name_of(value) == word);
    CHECK(parse_row_class(word) == value);
  }
  const std::vector<std::pair<RowStatus, std::string_view>> statuses{
      {RowStatus::open, "open"},
      {RowStatus::carry_forward, "carry_forward"},
      {RowStatus::graduated, "graduated"},
      {RowStatus::closed, "closed"}};
  for (const auto& [value, word] : statuses) {
    CHECK(name_of(value) == word);
    CHECK(parse_status(word) == value);
  }
  const std::vector<std::pair<Audience, std::string_view>> audiences{
      {Audience::orchestrator, "orchestrator"},
      {Audience::executor, "executor"},
      {Audience::any, "any"}};
  for (const auto& [value, word] : audiences) {
    CHECK(name_of(value) == word);
    CHECK(parse_audience(word) == value);
  }
  const std::vector<std::pair<LinkKind, std::string_view>> kinds{
      {LinkKind::relates_to, "relates_to"},
      {LinkKind::supersedes, "supersedes"},
      {LinkKind::derived_from, "derived_from"},
      {LinkKind::graduated_to, "graduated_to"}};
  for (const auto& [value, word] : kinds) {
    CHECK(name_of(value) == word);
    CHECK(parse_link_kind(word) == value);
  }
}

TEST_CASE("curated names: parsing an enum word is exact") {
  // Case, surrounding space, another enum's word and the hyphenated spelling are all refused.
  for (std::string_view text :
       {"", "Project", "PROJECT", " project", "project ", "projects", "anchor"}) {
    CAPTURE(text);
    CHECK_FALSE(parse_row_type(text).has_value());
  }
  CHECK_FALSE(parse_row_class("Thread").has_value());
  CHECK_FALSE(parse_row_class("open").has_value());
  CHECK_FALSE(parse_status("carry-forward").has_value());
  CHECK_FALSE(parse_status("carry forward").has_value());
  CHECK_FALSE(parse_status("Open").has_value());
  CHECK_FALSE(parse_audience("all").has_value());
  CHECK_FALSE(parse_audience("Any").has_value());
  CHECK_FALSE(parse_link_kind("relates-to").has_value());
  CHECK_FALSE(parse_link_kind("supersede").has_value());
  CHECK_FALSE(parse_link_kind(std::string_view("supersedes\0", 11)).has_value());
}

TEST_CASE("curated names: the field keys, in the order memkit writes them") {
  const std::vector<std::pair<Field, std::string_view>> keys{
      {Field::type, "Type"},
      {Field::row_class, "Class"},
      {Field::status, "Status"},
      {Field::initiative, "Initiative"},
      {Field::audience, "Audience"},
      {Field::description, "Description"},
      {Field::project_ref, "Project-Ref"},
      {Field::origin_session, "Origin-Session"},
      {Field::created, "Created"},
      {Field::updated, "Updated"},
      {Field::deleted, "Deleted"},
      {Field::link, "Link"}};
  for (const auto& [field, key_] : keys) {
    const auto& key = key_;  // clang 14 cannot capture a structured binding
    CAPTURE(key);
    CHECK(key_of(field) == key);
  }
  // The enum's order is the §4 write order.
  for (std::size_t i = 1; i < keys.size(); ++i) CHECK(keys[i - 1].first < keys[i].first);
}

TEST_CASE("curated names: workspace names match ^[a-z0-9][a-z0-9_-]{0,63}$") {
  for (const std::string& good :
       {std::string("ws1"), std::string("a"), std::string("0"), std::string("my-team_2"),
        std::string("a-"), std::string("9_"), std::string("a") + std::string(63, '-')}) {
    CAPTURE(good);
    CHECK(is_workspace_name(good));
  }
  for (const std::string& bad :
       {std::string(), std::string("-a"), std::string("_a"), std::string("Ws"), std::string("w s"),
        std::string("a.b"), std::string("a/b"), std::string(" ws"), std::string("ws\n"),
        std::string("caf\xC3\xA9"), std::string(65, 'a'),
        std::string("a") + std::string(64, '-')}) {
    CAPTURE(bad);
    CHECK_FALSE(is_workspace_name(bad));
  }
  CHECK(is_workspace_name(std::string(64, 'a')));
}

TEST_CASE("curated names: every slug matches ^[a-z0-9][a-z0-9_]{0,127}$") {
  CHECK_FALSE(slug_problem("project_x", RowType::project).has_value());
  CHECK_FALSE(slug_problem("x", RowType::user).has_value());
  CHECK_FALSE(slug_problem("0", RowType::feedback).has_value());
  CHECK_FALSE(slug_problem("fix_2_", RowType::feedback).has_value());
  CHECK_FALSE(slug_problem(std::string(128, 'a'), RowType::project).has_value());
  CHECK_FALSE(slug_problem("atom_" + std::string(123, 'a'), RowType::atom).has_value());
  for (const std::string& bad :
       {std::string(), std::string("_x"), std::string("Project_x"), std::string("a-b"),
        std::string("a b"), std::string("a.b"), std::string(" a"), std::string("a\n"),
        std::string("caf\xC3\xA9"), std::string(129, 'a'), "atom_" + std::string(124, 'a')}) {
    CAPTURE(bad);
    for (RowType type : {RowType::project, RowType::user, RowType::feedback, RowType::atom,
                         RowType::decision, RowType::negative}) {
      CHECK(contains(problem(bad, type), "^[a-z0-9][a-z0-9_]{0,127}$"));
    }
  }
}

TEST_CASE("curated names: atom, decision and negative slugs start with '<type>_' and more") {
  CHECK_FALSE(slug_problem("atom_x", RowType::atom).has_value());
  CHECK_FALSE(slug_problem("atom__", RowType::atom).has_value());
  CHECK_FALSE(slug_problem("decision_use_files", RowType::decision).has_value());
  CHECK_FALSE(slug_problem("negative_sqlite_1", RowType::negative).has_value());
  // The prefix is the type itself: another prefixed type's prefix is no better than none.
  const std::vector<std::pair<std::string, RowType>> bad{{"x", RowType::atom},
                                                         {"atom", RowType::atom},
                                                         {"atom_", RowType::atom},
                                                         {"atomx", RowType::atom},
                                                         {"decision_x", RowType::atom},
                                                         {"atom_x", RowType::decision},
                                                         {"decision", RowType::decision},
                                                         {"decisions_x", RowType::decision},
                                                         {"negative_", RowType::negative},
                                                         {"project_x", RowType::negative}};
  for (const auto& [name_, type] : bad) {
    const auto& name = name_;  // clang 14 cannot capture a structured binding
    CAPTURE(name);
    const std::string message = problem(name, type);
    const std::string prefix = std::string(name_of(type)) + "_";
    CHECK(contains(message, "^" + prefix + "[a-z0-9_]+$"));
    CHECK(contains(message, "'" + name + "'"));
    CHECK(contains(message, "type " + std::string(name_of(type))));
  }
}

TEST_CASE("curated names: project, user and feedback slugs may not take a typed prefix") {
  for (RowType type : {RowType::project, RowType::user, RowType::feedback}) {
    CAPTURE(name_of(type));
    CHECK(contains(problem("atom_x", type), "'atom_' is reserved for atom slugs"));
    CHECK(contains(problem("decision_x", type), "'decision_' is reserved for decision slugs"));
    CHECK(contains(problem("negative_x", type), "'negative_' is reserved for negative slugs"));
    // The bare prefix is refused too: it starts with the reserved prefix.
    CHECK(contains(problem("atom_", type), "'atom_' is reserved"));
    // Near misses are ordinary slugs.
    for (std::string_view fine : {"atom", "atomx", "decisions", "negativex_", "my_atom_x"}) {
      CAPTURE(fine);
      CHECK_FALSE(slug_problem(fine, type).has_value());
    }
  }
}

TEST_CASE("curated names: a slug message names the slug and the type, lower case, no full stop") {
  const std::string message = problem("atom_x", RowType::feedback);
  CHECK(message == "slug 'atom_x' of type feedback: the prefix 'atom_' is reserved for atom slugs");
  for (const std::string& m : {problem("Bad", RowType::user), problem("x", RowType::negative),
                               problem("negative_y", RowType::project)}) {
    CAPTURE(m);
    CHECK(m.starts_with("slug '"));
    CHECK(m.back() != '.');
  }
  CHECK(contains(problem("Bad", RowType::user), "slug 'Bad' of type user"));
  // An invalid byte is shown escaped (shown_text), so the message is valid UTF-8 and says which.
  CHECK(contains(problem("a\xFF", RowType::user), "'a\\xff'"));
}

TEST_CASE("curated names: initiative normalisation follows the spec's examples") {
  CHECK(normalize_initiative("Diagram Builder") == Opt("diagram_builder"));
  CHECK(normalize_initiative("Gaia-System v2") == Opt("gaia_system_v2"));
  CHECK(normalize_initiative("\xC3\x9Cn\xC3\xAF"
                             "code") == Opt("n_code"));  // Ünïcode
  CHECK(normalize_initiative("  ") == std::nullopt);
}

TEST_CASE("curated names: initiative normalisation, step by step") {
  // 1. strip with W (NBSP, ideographic space, LF), 2. ASCII lower-case.
  CHECK(normalize_initiative("\xC2\xA0\n Demo\xE3\x80\x80") == Opt("demo"));
  CHECK(normalize_initiative("ABCxyz019") == Opt("abcxyz019"));
  // 3. a maximal run outside [a-z0-9] is one '_', whatever it holds ('_' itself included).
  CHECK(normalize_initiative("a - _ . b") == Opt("a_b"));
  CHECK(normalize_initiative("a__b") == Opt("a_b"));
  CHECK(normalize_initiative("a\xE2\x80\x94\xC3\xA9z") == Opt("a_z"));  // "a—éz"
  // Non-ASCII letters are not lower-cased or kept: only ASCII is.
  CHECK(normalize_initiative("\xC3\x89t\xC3\xA9") == Opt("t"));  // "Été"
  // 4. '_' stripped from both ends.
  CHECK(normalize_initiative("__init__") == Opt("init"));
  CHECK(normalize_initiative("(demo)") == Opt("demo"));
  // 5. nothing left: no initiative.
  CHECK(normalize_initiative("") == std::nullopt);
  CHECK(normalize_initiative("--") == std::nullopt);
  CHECK(normalize_initiative("_") == std::nullopt);
  CHECK(normalize_initiative("\xC3\x9C") == std::nullopt);  // "Ü"
  CHECK(normalize_initiative("\xE3\x80\x80") == std::nullopt);
}

TEST_CASE("curated names: the initiative of a project ref") {
  CHECK(initiative_of_project_ref("/srv/repos/gaia/.git") == Opt("gaia"));
  CHECK(initiative_of_project_ref("/srv/repos/gaia.git") == Opt("gaia"));
  CHECK(initiative_of_project_ref("/srv/repos/gaia") == Opt("gaia"));
  CHECK(initiative_of_project_ref("/srv/repos/gaia/") == Opt("gaia"));
  CHECK(initiative_of_project_ref("/srv/repos/gaia/.git/") == Opt("gaia"));
  CHECK(initiative_of_project_ref("/srv/repos/gaia//") == Opt("gaia"));
  CHECK(initiative_of_project_ref("  /srv/repos/gaia/.git\n") == Opt("gaia"));
  CHECK(initiative_of_project_ref("gaia") == Opt("gaia"));
  CHECK(initiative_of_project_ref("https://github.com/org/Gaia-System.git") == Opt("gaia_system"));
  CHECK(initiative_of_project_ref("git@host:org/Diagram Builder") == Opt("diagram_builder"));
  // Only one suffix goes: "/.git" first, else ".git", once.
  CHECK(initiative_of_project_ref("/srv/x.git/.git") == Opt("x_git"));
  CHECK(initiative_of_project_ref("/srv/x.git.git") == Opt("x_git"));
  // The last segment only.
  CHECK(initiative_of_project_ref("/srv/alpha/beta") == Opt("beta"));
  // Nothing left: no initiative (the one way to get null, §3).
  CHECK(initiative_of_project_ref("") == std::nullopt);
  CHECK(initiative_of_project_ref("/") == std::nullopt);
  CHECK(initiative_of_project_ref(".git") == std::nullopt);
  CHECK(initiative_of_project_ref("/srv/.git") == Opt("srv"));
  CHECK(initiative_of_project_ref("/srv/--/") == std::nullopt);
}
