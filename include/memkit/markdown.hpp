// The lossless Markdown model (spec compaction.md §2 text model, §6 units and sections).
// A Document partitions a file's lines into units and views them in one shared buffer: parsing
// allocates per unit, never per line, and rendering the units gives back every input byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/result.hpp"

namespace memkit {

// §6.4: the kinds of line range a file is partitioned into.
enum class UnitKind : std::uint8_t {
  front_matter,
  bullet_unit,
  fence,
  comment,
  heading,
  blank,
  text
};

// "front_matter", "bullet_unit", ...: the names `memkit markdown units` prints.
[[nodiscard]] std::string_view unit_kind_name(UnitKind kind) noexcept;

// One range of whole lines. Byte offsets index Document::bytes(); `end` is just past the last
// line's terminator (or its last byte, when unterminated).
struct Unit {
  UnitKind kind;
  std::uint8_t heading_level;  // 1..6 for a heading, 0 otherwise
  std::uint32_t first_line;    // 1-based, inclusive
  std::uint32_t last_line;     // inclusive
  std::size_t begin;
  std::size_t end;
  friend bool operator==(const Unit&, const Unit&) = default;
};

enum class SectionKind : std::uint8_t { preamble, section };

// §6.2: the preamble (line 1 up to the first H2 line) or one H2 section, whose trailing
// non-opaque blank lines are excluded. Sections need not cover every line.
struct Section {
  SectionKind kind;
  std::uint32_t first_line;
  std::uint32_t last_line;
  std::size_t begin;
  std::size_t end;
  std::size_t first_unit;  // index into Document::units()
  std::size_t unit_count;  // the units the section spans
  friend bool operator==(const Section&, const Section&) = default;
};

// What can make a file unreadable as structure (§2.3) or suspicious as text (§2.1).
enum class TextProblem : std::uint8_t { unclosed_fence, unclosed_comment, invalid_utf8 };

struct TextIssue {
  TextProblem problem;
  std::uint32_t line;  // 1-based: the opener's line, or the line of the first ill-formed sequence
  friend bool operator==(const TextIssue&, const TextIssue&) = default;
};

// "<path>:<line>: unclosed code fence" and the like: the one wording of each issue.
[[nodiscard]] std::string describe_issue(const TextIssue& issue, std::string_view path);

// One line of a file, viewed in place.
struct Line {
  std::uint32_t number;         // 1-based
  std::size_t begin;            // offset of the content's first byte
  std::string_view content;     // without terminator (and without the BOM on line 1)
  std::string_view terminator;  // "", "\n" or "\r\n"
};

namespace detail {
// Fills `line` for the line that starts at `pos` and whose LF is at `lf` (npos: it runs to `end`
// unterminated); returns the offset of the next line. The one definition of a line's parts
// (spec compaction.md §2.1), shared by every line walker.
inline std::size_t fill_line(std::string_view bytes, std::size_t pos, std::size_t lf,
                             std::size_t end, std::uint32_t number, Line& line) noexcept {
  line.number = number;
  line.begin = pos;
  if (lf == std::string_view::npos) {
    line.content = bytes.substr(pos, end - pos);
    line.terminator = {};
    return end;
  }
  const bool crlf = lf > pos && bytes[lf - 1] == '\r';
  const std::size_t content_end = crlf ? lf - 1 : lf;
  line.content = bytes.substr(pos, content_end - pos);
  line.terminator = bytes.substr(content_end, lf + 1 - content_end);
  return lf + 1;
}
}  // namespace detail

// Walks the lines of bytes[begin, end) without allocating.
// REQUIRES: begin is the start of a line (0, or the offset after a BOM, or after an LF).
class LineCursor final {
 public:
  LineCursor(std::string_view bytes, std::size_t begin, std::size_t end,
             std::uint32_t first_number) noexcept
      : bytes_(bytes), pos_(begin), end_(end), number_(first_number) {}
  // Returns true and fills `line` while lines remain. Inline: it runs once per line.
  bool next(Line& line) noexcept {
    if (pos_ >= end_) return false;
    const void* nl = std::memchr(bytes_.data() + pos_, '\n', end_ - pos_);
    const std::size_t lf =
        nl == nullptr ? std::string_view::npos
                      : static_cast<std::size_t>(static_cast<const char*>(nl) - bytes_.data());
    pos_ = detail::fill_line(bytes_, pos_, lf, end_, number_++, line);
    return true;
  }

 private:
  std::string_view bytes_;
  std::size_t pos_;
  std::size_t end_;
  std::uint32_t number_;
};

class Document final {
 public:
  [[nodiscard]] std::string_view bytes() const noexcept;
  [[nodiscard]] bool has_bom() const noexcept;
  [[nodiscard]] std::size_t content_begin() const noexcept { return has_bom() ? 3 : 0; }
  [[nodiscard]] std::uint32_t line_count() const noexcept;

  // Returns true iff no fence or comment is left unclosed (§2.3). Only then are units() and
  // sections() filled; mutating operations must refuse an unparseable file.
  [[nodiscard]] bool parseable() const noexcept { return !parse_error().has_value(); }
  [[nodiscard]] const std::optional<TextIssue>& parse_error() const noexcept;
  [[nodiscard]] const std::optional<TextIssue>& utf8_error() const noexcept;

  [[nodiscard]] std::span<const Unit> units() const noexcept;
  [[nodiscard]] std::span<const Section> sections() const noexcept;

  // Returns true iff an H1 line follows the first H2 line, which makes the layout unsupported
  // for archival (§6.2).
  [[nodiscard]] bool h1_after_h2() const noexcept;

  [[nodiscard]] std::string_view text(const Unit& unit) const noexcept;
  [[nodiscard]] std::string_view text(const Section& section) const noexcept;
  [[nodiscard]] LineCursor lines(const Unit& unit) const noexcept;
  [[nodiscard]] LineCursor lines(const Section& section) const noexcept;
  [[nodiscard]] LineCursor lines() const noexcept;  // the whole file

  struct Impl;

 private:
  friend Document parse_markdown(std::shared_ptr<const std::string> bytes);
  explicit Document(std::shared_ptr<const Impl> impl) noexcept : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;  // immutable, so copies share it
};

// The units of a file one at a time, in file order, without holding them all: the partition
// parse_markdown makes, for callers that keep only what they need of each unit (a large inbox
// has millions). It neither validates UTF-8 nor builds sections. Not thread-safe; `bytes` must
// outlive the reader.
class UnitReader final {
 public:
  explicit UnitReader(std::string_view bytes);
  UnitReader(UnitReader&&) noexcept;
  UnitReader& operator=(UnitReader&&) noexcept;
  ~UnitReader();

  // Returns true and fills `unit` while units remain. Inline: it runs once per unit.
  bool next(Unit& unit) {
    if (next_ == size_ && !refill()) return false;
    unit = batch_[next_++];
    return true;
  }

  // Valid once next() has returned false. With a parse error (an unclosed fence or comment,
  // §2.3) the units read are not a partition of the file, and a caller must discard them.
  [[nodiscard]] const std::optional<TextIssue>& parse_error() const noexcept;
  [[nodiscard]] std::uint32_t line_count() const noexcept;

 private:
  struct State;
  bool refill();
  std::unique_ptr<State> state_;
  const Unit* batch_ = nullptr;
  std::size_t next_ = 0;
  std::size_t size_ = 0;
};

// Parses any bytes. Never fails: problems are reported by parse_error() and utf8_error().
[[nodiscard]] Document parse_markdown(std::shared_ptr<const std::string> bytes);
[[nodiscard]] Document parse_markdown(std::string bytes);

// Returns OK iff memkit may change the file: a parse error (Errc::parse) or an ill-formed UTF-8
// sequence (Errc::invalid_utf8) makes every mutating operation refuse, with the message
// "<path>:<line>: ..." (spec compaction.md §2.1, §2.3). Reports read such files and go on.
[[nodiscard]] Status check_editable(const Document& doc, std::string_view path);

// The BOM followed by every unit's bytes in order: equal to the input for a parseable document
// (the units partition the file), and the input itself otherwise.
[[nodiscard]] std::string render_markdown(const Document& doc);

// §6.3 dedupe key of a bullet unit, casefold(strip(heading text)) of a heading, nullopt for
// every other kind. An empty key (a bare marker) never matches anything.
[[nodiscard]] std::optional<std::string> unit_key(const Document& doc, const Unit& unit);

// The same key written into `out` (replacing its contents), reusing its capacity and the
// caller's `scratch`, so that keying every unit of a large file allocates almost nothing.
// Returns false, leaving `out` empty, for kinds that have no key.
bool unit_key_into(const Document& doc, const Unit& unit, std::string& out, std::string& scratch);
// The same for a unit read from `bytes` by a UnitReader.
bool unit_key_into(std::string_view bytes, const Unit& unit, std::string& out,
                   std::string& scratch);

// The text of a heading line (§2.4): the content after the #s, stripped with W; closing #s stay.
[[nodiscard]] std::string_view heading_text(std::string_view heading_line_content) noexcept;

// §2.5: Returns true iff an H2 heading text starts a formal entry section ("MC-DEC-...", and
// the other formal kinds, ASCII case-insensitively).
[[nodiscard]] bool is_formal_entry_heading(std::string_view heading_text) noexcept;

// The heading text of a section's H2 line, or nullopt for the preamble.
[[nodiscard]] std::optional<std::string_view> section_heading(const Document& doc,
                                                              const Section& section);

// Calls visit(line) for every line of the section that is not opaque (§2.3): front matter and
// the inner and closing lines of fences and comments are skipped; their openers are visited.
template <class Visit>
void for_each_visible_line(const Document& doc, const Section& section, Visit&& visit);

// Implementation detail of for_each_visible_line: opaque-line tracking for one unit.
namespace detail {
class RegionTracker final {
 public:
  // Returns true iff `content` (the next line, in order) is opaque. A unit starts outside any
  // region, which holds for every unit kind but front matter.
  bool is_opaque(std::string_view content) noexcept;
  // The same walk, but true for every line of a fence or comment region, its opener line (a
  // comment opened and closed on one line included) and closing line too.
  bool in_region(std::string_view content) noexcept;

 private:
  enum class Region : std::uint8_t { none, fence, comment };
  Region region_ = Region::none;
  char fence_char_ = 0;
  std::size_t fence_length_ = 0;
};
}  // namespace detail

template <class Visit>
void for_each_visible_line(const Document& doc, const Section& section, Visit&& visit) {
  const auto units = doc.units().subspan(section.first_unit, section.unit_count);
  for (const Unit& unit : units) {
    if (unit.kind == UnitKind::front_matter) continue;
    detail::RegionTracker tracker;
    LineCursor cursor = doc.lines(unit);
    Line line{};
    while (cursor.next(line)) {
      if (line.number > section.last_line) return;
      if (!tracker.is_opaque(line.content)) visit(line);
    }
  }
}

}  // namespace memkit
