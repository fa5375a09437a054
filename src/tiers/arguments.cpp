// The arguments of the tiers commands (tiers3.md §3, §5, §7, §10): each is checked before anything
// is built, so a refused command writes nothing (§9).
#include <nlohmann/json.hpp>

#include "codec/bounded_json.hpp"
#include "memkit/text.hpp"
#include "memkit/tiers.hpp"
#include "text/shown_text.hpp"

namespace memkit::tiers {
namespace {

bool is_ascii_lower_or_digit(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

bool has_line_break(std::string_view text) noexcept {
  return text.find_first_of("\r\n") != std::string_view::npos;
}

// The MK-ARG-001 of a text argument that is not valid UTF-8 or holds a NUL, else nullopt.
std::optional<Finding> plain_text(std::string_view what, std::string_view text) {
  if (Status checked = check_plain_text(what, text); !checked.ok()) {
    return refusal("MK-ARG-001", checked.message());
  }
  return std::nullopt;
}

}  // namespace

std::string_view global_skeleton() noexcept {
  return "# Global Memory\n"
         "\n"
         "Read Order: Active Mission -> Key Constraints -> Research Index -> User Preferences\n"
         "\n"
         "## 1. Active Mission\n"
         "### Mission Snapshot\n"
         "### Key Constraints (Immutable)\n"
         "### Next Useful Reads\n"
         "\n"
         "## 2. Research Index\n"
         "\n"
         "## 3. Decisions\n"
         "\n"
         "## 4. User Preferences\n";
}

Finding refusal(std::string code, std::string message) {
  return make_fatal(std::move(code), "", std::move(message));
}

bool is_reserved_name(std::string_view name) noexcept {
  return name == "sessions" || name == "data" || name == "archive" ||
         (!name.empty() && name.front() == '.');
}

bool is_theme_name(std::string_view name) noexcept {
  if (name.empty() || name.size() > 64 || !is_ascii_lower_or_digit(name.front())) return false;
  for (char c : name) {
    if (!is_ascii_lower_or_digit(c) && c != '_' && c != '-') return false;
  }
  return !is_reserved_name(name);
}

Checked check_theme(std::string_view raw) {
  std::string theme(strip_w(raw));
  for (char& c : theme) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  if (theme == "auto") {
    return {theme, refusal("MK-TIERS-003",
                           "--theme: theme detection does not exist; pass the theme to write to")};
  }
  if (!is_theme_name(theme)) {
    const std::string shown = shown_text(raw);
    return {theme,
            refusal("MK-TIERS-002",
                    "--theme: '" + shown +
                        "' is not a theme: expected 1-64 of a-z, 0-9, '_' and "
                        "'-' starting with a letter or digit, and not sessions, data or archive")};
  }
  return {std::move(theme), std::nullopt};
}

Checked check_data_name(std::string_view raw) {
  auto bad = [&](const std::string& why) {
    return Checked{{}, refusal("MK-ARG-001", "--name: " + why)};
  };
  if (std::optional<Finding> text = plain_text("--name", raw)) return {{}, std::move(text)};
  std::string name(strip_w(raw));
  if (name.empty()) return bad("the data file name is empty");
  std::size_t pos = 0;
  while (pos < name.size()) {
    const char32_t cp = decode_utf8(name, pos);
    if (cp == U'/' || cp == U'\\') return bad("'" + shown_text(name) + "' holds a path separator");
    if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F))
      return bad("the data file name holds a control character");
  }
  if (name == "." || name == ".." || name.front() == '.') {
    return bad("'" + shown_text(name) + "' starts with '.'");
  }
  // The suffix in any case is written ".csv", which list-data's `*.csv` finds: PEOPLE.CSV is
  // stored (and read) as PEOPLE.csv.
  const bool has_suffix =
      name.size() >= 4 &&
      starts_with_ascii_ci(std::string_view(name).substr(name.size() - 4), ".csv");
  if (has_suffix) name.replace(name.size() - 4, 4, ".csv");
  if (!has_suffix) name += ".csv";
  if (name.size() > 255) return bad("the data file name is longer than 255 bytes");
  return {std::move(name), std::nullopt};
}

std::optional<Template> parse_template(std::string_view name) noexcept {
  if (name == "decision") return Template::decision;
  if (name == "error") return Template::error;
  if (name == "task") return Template::task;
  return std::nullopt;
}

std::string_view template_name(Template t) noexcept {
  switch (t) {
    case Template::decision:
      return "decision";
    case Template::error:
      return "error";
    case Template::task:
      return "task";
  }
  return "decision";
}

std::string_view template_record(Template t) noexcept {
  switch (t) {
    case Template::decision:
      return "Decision Record";
    case Template::error:
      return "Error Record";
    case Template::task:
      return "Task Record";
  }
  return "Decision Record";
}

std::string_view template_body(Template t) noexcept {
  switch (t) {
    case Template::decision:
      return "**Context**: \n"
             "**Options**:\n"
             "1. \n"
             "**Decision**: \n"
             "**Rationale**: \n";
    case Template::error:
      return "**Symptom**: \n"
             "**Root Cause**: \n"
             "**Fix**: \n"
             "**Lesson**: \n";
    case Template::task:
      return "**Done**:\n"
             "- [x] \n"
             "**In Progress**: \n"
             "**Todo**:\n"
             "- [ ] \n";
  }
  return "";
}

Checked check_content(std::string_view what, std::string_view raw) {
  if (std::optional<Finding> text = plain_text(what, raw)) return {{}, std::move(text)};
  std::string content(strip_w(raw));
  if (content.empty()) {
    return {{}, refusal("MK-TIERS-001", std::string(what) + ": the content is empty")};
  }
  return {std::move(content), std::nullopt};
}

std::vector<Finding> check_turn(const TurnArguments& args, std::string_view what,
                                std::string_view content, Turn& out) {
  std::vector<Finding> refused;
  const std::string entry_type = args.entry_type.value_or("turn");
  bool type_ok = !entry_type.empty() && entry_type.size() <= 32;
  for (char c : entry_type) {
    type_ok =
        type_ok && (is_ascii_lower_or_digit(c) || (c >= 'A' && c <= 'Z') || c == '_' || c == '-');
  }
  if (!type_ok) {
    refused.push_back(refusal("MK-TIERS-001", "--entry-type: '" + shown_text(entry_type) +
                                                  "' is not 1-32 of A-Z, a-z, 0-9, '_' and '-'"));
  }
  out.entry_type = entry_type;
  for (char& c : out.entry_type) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  out.session_id.reset();
  if (args.session_id) {
    if (std::optional<Finding> text = plain_text("--session-id", *args.session_id)) {
      refused.push_back(std::move(*text));
    } else {
      const std::string_view id = strip_w(*args.session_id);
      if (id.empty() || has_line_break(id)) {
        refused.push_back(refusal("MK-TIERS-001", "--session-id: expected one non-empty line"));
      } else {
        out.session_id = std::string(id);
      }
    }
  }
  out.tools.clear();
  if (args.tools_json) {
    std::string too_deep;
    const nlohmann::json tools = detail::parse_bounded_json(*args.tools_json, &too_deep);
    bool ok = tools.is_array();
    if (ok) {
      for (const nlohmann::json& tool : tools) {
        if (!tool.is_string() || has_line_break(tool.get_ref<const std::string&>()) ||
            tool.get_ref<const std::string&>().find('\0') != std::string::npos) {
          ok = false;
          break;
        }
        out.tools.push_back(tool.get<std::string>());
      }
    }
    if (!too_deep.empty()) {
      out.tools.clear();
      refused.push_back(refusal("MK-TIERS-001", "--tools: " + too_deep));
    } else if (!ok) {
      out.tools.clear();
      refused.push_back(refusal("MK-TIERS-001",
                                "--tools: expected a JSON array of single-line strings, such as "
                                "'[\"search\",\"read\"]'"));
    }
  }
  Checked body = check_content(what, content);
  if (body.refused) refused.push_back(std::move(*body.refused));
  out.content = std::move(body.value);
  return refused;
}

}  // namespace memkit::tiers
