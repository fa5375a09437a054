// Document accessors, line walking and rendering.
#include "markdown/document_impl.hpp"
#include "markdown/line_kinds.hpp"

namespace memkit {

std::string_view unit_kind_name(UnitKind kind) noexcept {
  switch (kind) {
    case UnitKind::front_matter:
      return "front_matter";
    case UnitKind::bullet_unit:
      return "bullet_unit";
    case UnitKind::fence:
      return "fence";
    case UnitKind::comment:
      return "comment";
    case UnitKind::heading:
      return "heading";
    case UnitKind::blank:
      return "blank";
    case UnitKind::text:
      return "text";
  }
  return "text";
}

std::string describe_issue(const TextIssue& issue, std::string_view path) {
  std::string_view what = "invalid UTF-8 sequence";
  if (issue.problem == TextProblem::unclosed_fence) what = "unclosed code fence";
  if (issue.problem == TextProblem::unclosed_comment) what = "unclosed HTML comment";
  std::string out(path);
  out += ':';
  out += std::to_string(issue.line);
  out += ": ";
  out += what;
  return out;
}

std::string_view Document::bytes() const noexcept { return *impl_->bytes; }
bool Document::has_bom() const noexcept { return impl_->bom; }
std::uint32_t Document::line_count() const noexcept { return impl_->line_count; }
const std::optional<TextIssue>& Document::parse_error() const noexcept {
  return impl_->parse_error;
}
const std::optional<TextIssue>& Document::utf8_error() const noexcept { return impl_->utf8_error; }
std::span<const Unit> Document::units() const noexcept { return impl_->units; }
std::span<const Section> Document::sections() const noexcept { return impl_->sections; }
bool Document::h1_after_h2() const noexcept { return impl_->h1_after_h2; }

std::string_view Document::text(const Unit& unit) const noexcept {
  return bytes().substr(unit.begin, unit.end - unit.begin);
}
std::string_view Document::text(const Section& section) const noexcept {
  return bytes().substr(section.begin, section.end - section.begin);
}
LineCursor Document::lines(const Unit& unit) const noexcept {
  return LineCursor(bytes(), unit.begin, unit.end, unit.first_line);
}
LineCursor Document::lines(const Section& section) const noexcept {
  return LineCursor(bytes(), section.begin, section.end, section.first_line);
}
LineCursor Document::lines() const noexcept {
  return LineCursor(bytes(), content_begin(), bytes().size(), 1);
}

Status check_editable(const Document& doc, std::string_view path) {
  if (const auto& issue = doc.parse_error()) {
    return Status(Errc::parse, describe_issue(*issue, path));
  }
  if (const auto& issue = doc.utf8_error()) {
    return Status(Errc::invalid_utf8, describe_issue(*issue, path));
  }
  return Status();
}

std::string render_markdown(const Document& doc) {
  if (!doc.parseable()) return std::string(doc.bytes());
  std::string out;
  out.reserve(doc.bytes().size());
  out.append(doc.bytes().substr(0, doc.content_begin()));
  for (const Unit& unit : doc.units()) out.append(doc.text(unit));
  return out;
}

namespace detail {

bool RegionTracker::is_opaque(std::string_view content) noexcept {
  switch (region_) {
    case Region::fence:
      if (closes_fence(content, fence_char_, fence_length_)) region_ = Region::none;
      return true;
    case Region::comment:
      if (contains_comment_close(content)) region_ = Region::none;
      return true;
    case Region::none:
      break;
  }
  if (const FenceOpener fence = fence_opener(content); fence.fence_char != 0) {
    region_ = Region::fence;
    fence_char_ = fence.fence_char;
    fence_length_ = fence.length;
  } else if (const std::size_t end = comment_opener_end(content); end != 0) {
    if (!contains_comment_close(content.substr(end))) region_ = Region::comment;
  }
  return false;  // an opener itself is not opaque
}

bool RegionTracker::in_region(std::string_view content) noexcept {
  if (region_ != Region::none) return is_opaque(content);
  const bool opener = fence_opener(content).fence_char != 0 || comment_opener_end(content) != 0;
  is_opaque(content);
  return opener;
}

}  // namespace detail
}  // namespace memkit
