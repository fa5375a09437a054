// The body and description rules of a write (curated.md §4 "Body rules on write", "Body ending",
// "Description"): what a host sends is checked before anything is built, so a refused write
// writes nothing, and a body that passes cannot change the structure of its row file.
#include <cstdint>
#include <string>

#include "markdown/line_kinds.hpp"
#include "memkit/curated.hpp"
#include "memkit/markdown.hpp"
#include "memkit/text.hpp"

namespace memkit::curated {
namespace {

// The name a body's places are given in messages ("body:3: unclosed code fence").
constexpr std::string_view kBody = "body";

std::optional<Finding> plain_text(std::string_view what, std::string_view text) {
  if (Status checked = check_plain_text(what, text); !checked.ok()) {
    return make_fatal("MK-ARG-001", "", checked.message());
  }
  return std::nullopt;
}

// "body:3: ", the start of a message about a body's line.
std::string place(std::uint32_t line) {
  return std::string(kBody) + ":" + std::to_string(line) + ": ";
}

Finding body_refusal(std::string message, std::string remediation) {
  return make_fatal("MK-CUR-005", "", std::move(message), std::move(remediation));
}

// The fence or comment left open in the body, as the body reads inside its row file: there it
// is never line 1, so it has no front matter and no BOM, and a leading "---" is a thematic
// break. One empty line in front gives parse_markdown that position.
std::optional<TextIssue> unclosed_region(std::string_view body) {
  std::string placed;
  placed.reserve(body.size() + 1);
  placed.push_back('\n');
  placed.append(body);
  const Document doc = parse_markdown(std::move(placed));
  std::optional<TextIssue> issue = doc.parse_error();
  if (issue) --issue->line;  // back to the body's own numbering
  return issue;
}

}  // namespace

CheckedBody check_body(std::string_view body) {
  auto refuse = [](Finding finding) {
    return CheckedBody{.body = {}, .refused = std::move(finding)};
  };
  if (std::optional<Finding> text = plain_text(kBody, body)) return refuse(std::move(*text));
  if (strip_w(body).empty()) {
    return refuse(body_refusal("the body is empty", "send a body with some text in it"));
  }
  if (const std::optional<TextIssue> issue = unclosed_region(body)) {
    return refuse(body_refusal(describe_issue(*issue, kBody),
                               "close every code fence and HTML comment within the body"));
  }
  // One walk: the entry-heading check on visible lines, and the end of the last non-blank line.
  // Blank is compaction.md §2.2's (empty, or only spaces and tabs), the row file reader's own
  // notion of the gap after an entry, so the stored body reads back exactly as returned.
  detail::RegionTracker regions;
  LineCursor cursor(body, 0, body.size(), 1);
  Line line{};
  Line heading{};  // the previous line, when it was a visible entry heading (number != 0)
  std::size_t kept = 0;
  while (cursor.next(line)) {
    const bool opaque = regions.is_opaque(line.content);
    if (heading.number != 0 && line.content.starts_with("Type: ")) {
      return refuse(body_refusal(place(heading.number) + "'" + std::string(heading.content) +
                                     "' followed by a 'Type: ' line would start a new entry",
                                 "change the heading or the line after it, or indent them"));
    }
    heading.number = 0;
    if (!opaque && is_entry_heading(line.content)) heading = line;
    if (!detail::is_blank(line.content)) kept = line.begin + line.content.size();
  }
  return CheckedBody{.body = std::string(body.substr(0, kept)), .refused = std::nullopt};
}

std::optional<Finding> check_description(std::string_view description) {
  if (std::optional<Finding> text = plain_text("description", description)) return text;
  if (description.find_first_of("\r\n") != std::string_view::npos) {
    return make_fatal("MK-CUR-006", "", "the description holds a line break",
                      "send the description as one line; put the rest in the body");
  }
  return std::nullopt;
}

// §4 "Entry boundary": a column-0 H2 line (compaction.md §2.4) whose heading text is a slug. Read
// liberally (a tab after "##", W around the slug): whatever a reader could take for an entry
// heading is refused here, so a stored body never splits its entry.
bool is_entry_heading(std::string_view content) noexcept {
  if (detail::is_blank(content) || detail::is_indented(content)) return false;
  return detail::heading_level(content) == 2 && is_slug(heading_text(content));
}

}  // namespace memkit::curated
