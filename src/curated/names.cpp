// The words of curated memory (curated.md §2, §3): the enums' spellings, workspace names, slugs
// and the initiative key. Enum words are matched exactly (case-sensitively): they are values
// memkit wrote or the host typed from the spec, never prose.
#include <array>
#include <utility>

#include "curated/words.hpp"
#include "memkit/curated.hpp"
#include "memkit/text.hpp"
#include "text/shown_text.hpp"

namespace memkit::curated {
namespace {

bool is_lower_or_digit(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

using wordlist::parse_word;
using wordlist::word_of;
using wordlist::Words;

constexpr Words<RowType, 6> kRowTypes{{{RowType::project, "project"},
                                       {RowType::user, "user"},
                                       {RowType::feedback, "feedback"},
                                       {RowType::atom, "atom"},
                                       {RowType::decision, "decision"},
                                       {RowType::negative, "negative"}}};
constexpr Words<RowClass, 3> kRowClasses{
    {{RowClass::anchor, "anchor"}, {RowClass::thread, "thread"}, {RowClass::log, "log"}}};
constexpr Words<RowStatus, 4> kStatuses{{{RowStatus::open, "open"},
                                         {RowStatus::carry_forward, "carry_forward"},
                                         {RowStatus::graduated, "graduated"},
                                         {RowStatus::closed, "closed"}}};
constexpr Words<Audience, 3> kAudiences{{{Audience::orchestrator, "orchestrator"},
                                         {Audience::executor, "executor"},
                                         {Audience::any, "any"}}};
constexpr Words<LinkKind, 4> kLinkKinds{{{LinkKind::relates_to, "relates_to"},
                                         {LinkKind::supersedes, "supersedes"},
                                         {LinkKind::derived_from, "derived_from"},
                                         {LinkKind::graduated_to, "graduated_to"}}};
constexpr Words<Field, 12> kFieldKeys{{{Field::type, "Type"},
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
                                       {Field::link, "Link"}}};

}  // namespace

bool is_slug(std::string_view name) noexcept {
  if (name.empty() || name.size() > 128 || !is_lower_or_digit(name.front())) return false;
  for (char c : name) {
    if (!is_lower_or_digit(c) && c != '_') return false;
  }
  return true;
}

namespace {

// The types whose name is the slug's prefix (§3).
bool is_prefixed_type(RowType type) noexcept {
  return type == RowType::atom || type == RowType::decision || type == RowType::negative;
}

std::string quoted(std::string_view name) { return "'" + shown_text(name) + "'"; }

}  // namespace

std::string_view name_of(RowType value) noexcept { return word_of(kRowTypes, value); }
std::string_view name_of(RowClass value) noexcept { return word_of(kRowClasses, value); }
std::string_view name_of(RowStatus value) noexcept { return word_of(kStatuses, value); }
std::string_view name_of(Audience value) noexcept { return word_of(kAudiences, value); }
std::string_view name_of(LinkKind value) noexcept { return word_of(kLinkKinds, value); }

std::optional<RowType> parse_row_type(std::string_view text) noexcept {
  return parse_word(kRowTypes, text);
}
std::optional<RowClass> parse_row_class(std::string_view text) noexcept {
  return parse_word(kRowClasses, text);
}
std::optional<RowStatus> parse_status(std::string_view text) noexcept {
  return parse_word(kStatuses, text);
}
std::optional<Audience> parse_audience(std::string_view text) noexcept {
  return parse_word(kAudiences, text);
}
std::optional<LinkKind> parse_link_kind(std::string_view text) noexcept {
  return parse_word(kLinkKinds, text);
}

std::string_view key_of(Field field) noexcept { return word_of(kFieldKeys, field); }

bool is_workspace_name(std::string_view name) noexcept {
  if (name.empty() || name.size() > 64 || !is_lower_or_digit(name.front())) return false;
  for (char c : name) {
    if (!is_lower_or_digit(c) && c != '_' && c != '-') return false;
  }
  return true;
}

std::optional<std::string> slug_problem(std::string_view name, RowType type) {
  const std::string type_name(name_of(type));
  const std::string subject = "slug " + quoted(name) + " of type " + type_name;
  if (!is_slug(name)) {
    return subject +
           ": a slug is 1-128 of a-z, 0-9 and '_', starting with a letter or digit "
           "(^[a-z0-9][a-z0-9_]{0,127}$)";
  }
  if (is_prefixed_type(type)) {
    // The general grammar already limits the rest to [a-z0-9_]: only its presence is in question.
    const std::string prefix = type_name + "_";
    if (!name.starts_with(prefix) || name.size() == prefix.size()) {
      return subject + ": a " + type_name + " slug is '" + prefix +
             "' followed by at least one of a-z, 0-9 and '_' (^" + prefix + "[a-z0-9_]+$)";
    }
    return std::nullopt;
  }
  for (const RowType prefixed : {RowType::atom, RowType::decision, RowType::negative}) {
    const std::string prefix = std::string(name_of(prefixed)) + "_";
    if (name.starts_with(prefix)) {
      return subject + ": the prefix '" + prefix + "' is reserved for " +
             std::string(name_of(prefixed)) + " slugs";
    }
  }
  return std::nullopt;
}

std::optional<std::string> normalize_initiative(std::string_view raw) {
  // Byte-wise on purpose: the spec lower-cases ASCII only, so every byte of a non-ASCII
  // character is outside [a-z0-9] and joins the run it is in ("Ünïcode" -> "n_code").
  std::string key;
  bool in_run = false;
  for (char c : strip_w(raw)) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (is_lower_or_digit(c)) {
      key.push_back(c);
      in_run = false;
    } else if (!in_run) {
      key.push_back('_');
      in_run = true;
    }
  }
  const std::size_t first = key.find_first_not_of('_');
  if (first == std::string::npos) return std::nullopt;
  const std::size_t last = key.find_last_not_of('_');
  return key.substr(first, last + 1 - first);
}

std::optional<std::string> initiative_of_project_ref(std::string_view ref) {
  std::string_view r = strip_w(ref);
  while (r.ends_with('/')) r.remove_suffix(1);  // every trailing '/', so ".../gaia//" is gaia
  if (r.ends_with("/.git")) {
    r.remove_suffix(5);
  } else if (r.ends_with(".git")) {
    r.remove_suffix(4);
  }
  const std::size_t slash = r.rfind('/');
  return normalize_initiative(slash == std::string_view::npos ? r : r.substr(slash + 1));
}

}  // namespace memkit::curated
