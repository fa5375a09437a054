// parse_markdown: one pass over the lines that partitions them into units (spec compaction.md
// §2.3 opaque regions, §6.1 bullet units, §6.4 the document model), then the section view (§6.2).
#include <cstring>

#include "markdown/document_impl.hpp"
#include "markdown/line_kinds.hpp"
#include "markdown/line_scanner.hpp"
#include "memkit/text.hpp"

namespace memkit {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

// Collects the partition in file order. Blank and text lines accumulate into a pending run that
// is flushed whenever any other range is emitted, which makes the runs maximal.
class Partition final {
 public:
  explicit Partition(std::vector<Unit>& out) noexcept : out_(out) {}

  void add_run_line(UnitKind kind, const Line& line, std::size_t line_end) {
    add_run(kind, line.number, line.number, line.begin, line_end);
  }

  // Adds lines first..last to the pending run of `kind`, starting a new run when the kind changes.
  void add_run(UnitKind kind, std::uint32_t first, std::uint32_t last, std::size_t begin,
               std::size_t end) {
    if (run_open_ && run_.kind == kind) {
      run_.last_line = last;
      run_.end = end;
      return;
    }
    flush_run();
    run_ = Unit{kind, 0, first, last, begin, end};
    run_open_ = true;
  }

  void emit(UnitKind kind, std::uint8_t level, std::uint32_t first, std::uint32_t last,
            std::size_t begin, std::size_t end) {
    flush_run();
    out_.push_back(Unit{kind, level, first, last, begin, end});
  }

  void flush_run() {
    if (run_open_) out_.push_back(run_);
    run_open_ = false;
  }

 private:
  std::vector<Unit>& out_;
  Unit run_{};
  bool run_open_ = false;
};

class Scanner final {
 public:
  Scanner(std::string_view bytes, std::size_t begin, Document::Impl& doc)
      : bytes_(bytes), begin_(begin), doc_(doc), partition_(doc.units) {}

  void run() {
    detail::LineScanner cursor(bytes_, begin_, 1);
    Line line{};
    bool have = cursor.next(line);
    if (have && skip_front_matter(cursor, line)) have = cursor.next(line);
    while (have) {
      last_line_ = line.number;
      scan_line(line, end_of(line));
      have = cursor.next(line);
    }
    finish();
  }

 private:
  enum class Region : std::uint8_t { none, fence, comment };

  std::size_t end_of(const Line& line) const noexcept {
    return line.begin + line.content.size() + line.terminator.size();
  }

  // §2.3.1: line 1 is "---" and a later line is "---" or "...". Returns true and moves `cursor`
  // past the closing line when the file has front matter; otherwise line 1 is scanned as an
  // ordinary line (a thematic break).
  bool skip_front_matter(detail::LineScanner& cursor, const Line& first) {
    if (!detail::equals_trimmed(first.content, "---")) return false;
    detail::LineScanner probe = cursor;
    Line line{};
    while (probe.next(line)) {
      if (detail::equals_trimmed(line.content, "---") ||
          detail::equals_trimmed(line.content, "...")) {
        last_line_ = line.number;
        partition_.emit(UnitKind::front_matter, 0, 1, line.number, first.begin, end_of(line));
        cursor = probe;
        return true;
      }
    }
    return false;
  }

  void scan_line(const Line& line, std::size_t line_end) {
    const std::string_view c = line.content;
    if (region_ != Region::none) {
      scan_opaque_line(line, line_end);
      return;
    }
    if (detail::is_blank(c)) {
      if (!unit_open_) partition_.add_run_line(UnitKind::blank, line, line_end);
      return;  // inside a unit, a blank line is interior or trailing: decided when it closes
    }
    const bool indented = detail::is_indented(c);
    if (open_region_if_opener(line, line_end, indented)) return;
    if (indented) {
      if (unit_open_) {
        extend_unit(line, line_end);
      } else {
        partition_.add_run_line(UnitKind::text, line, line_end);
      }
      return;
    }
    // A column-0 line: it closes any open unit (§6.1 rules 1 and 2).
    if (unit_open_) close_unit(line.number, line.begin);
    if (const std::uint8_t level = detail::heading_level(c); level != 0) {
      partition_.emit(UnitKind::heading, level, line.number, line.number, line.begin, line_end);
      if (level == 2) {
        seen_h2_ = true;
        in_formal_section_ = is_formal_entry_heading(heading_text(c));
      } else if (level == 1 && seen_h2_) {
        doc_.h1_after_h2 = true;
      }
      return;
    }
    if (!in_formal_section_ && detail::is_bullet_line(c)) {
      partition_.flush_run();
      unit_open_ = true;
      unit_first_ = line.number;
      unit_begin_ = line.begin;
      extend_unit(line, line_end);
      return;
    }
    partition_.add_run_line(UnitKind::text, line, line_end);
  }

  // Returns true iff the line opens a fence or an HTML comment (§2.3).
  bool open_region_if_opener(const Line& line, std::size_t line_end, bool indented) {
    const std::string_view c = line.content;
    const detail::FenceOpener fence = detail::fence_opener(c);
    std::size_t comment_end = 0;
    if (fence.fence_char == 0) {
      comment_end = detail::comment_opener_end(c);
      if (comment_end == 0) return false;
    }
    // The opener counts as a column-0 or indented line for the open unit (§2.3).
    region_in_unit_ = unit_open_ && indented;
    if (region_in_unit_) {
      extend_unit(line, line_end);
    } else if (unit_open_) {
      close_unit(line.number, line.begin);
    }
    region_first_ = line.number;
    region_begin_ = line.begin;
    if (fence.fence_char != 0) {
      region_ = Region::fence;
      fence_char_ = fence.fence_char;
      fence_length_ = fence.length;
    } else {
      region_ = Region::comment;
      if (detail::contains_comment_close(c.substr(comment_end))) close_region(line_end, line);
    }
    return true;
  }

  void scan_opaque_line(const Line& line, std::size_t line_end) {
    if (region_in_unit_) extend_unit(line, line_end);
    const bool closes = region_ == Region::fence
                            ? detail::closes_fence(line.content, fence_char_, fence_length_)
                            : detail::contains_comment_close(line.content);
    if (closes) close_region(line_end, line);
  }

  void close_region(std::size_t line_end, const Line& line) {
    if (!region_in_unit_) {
      const UnitKind kind = region_ == Region::fence ? UnitKind::fence : UnitKind::comment;
      partition_.emit(kind, 0, region_first_, line.number, region_begin_, line_end);
    }
    region_ = Region::none;
  }

  void extend_unit(const Line& line, std::size_t line_end) noexcept {
    unit_last_line_ = line.number;
    unit_end_ = line_end;
  }

  // Emits the open unit up to its last line that is not a non-opaque blank line; the blank lines
  // between it and the closing point form a blank run.
  void close_unit(std::uint32_t closing_line, std::size_t closing_begin) {
    partition_.emit(UnitKind::bullet_unit, 0, unit_first_, unit_last_line_, unit_begin_, unit_end_);
    unit_open_ = false;
    if (unit_last_line_ + 1 < closing_line) {
      partition_.add_run(UnitKind::blank, unit_last_line_ + 1, closing_line - 1, unit_end_,
                         closing_begin);
    }
  }

  void finish() {
    doc_.line_count = last_line_;
    if (region_ != Region::none) {
      doc_.parse_error = TextIssue{
          region_ == Region::fence ? TextProblem::unclosed_fence : TextProblem::unclosed_comment,
          region_first_};
      doc_.units.clear();
      return;
    }
    if (unit_open_) close_unit(last_line_ + 1, bytes_.size());
    partition_.flush_run();
  }

  std::string_view bytes_;
  std::size_t begin_;
  Document::Impl& doc_;
  Partition partition_;

  std::uint32_t last_line_ = 0;

  Region region_ = Region::none;
  bool region_in_unit_ = false;
  char fence_char_ = 0;
  std::size_t fence_length_ = 0;
  std::uint32_t region_first_ = 0;
  std::size_t region_begin_ = 0;

  bool unit_open_ = false;
  std::uint32_t unit_first_ = 0;
  std::uint32_t unit_last_line_ = 0;
  std::size_t unit_begin_ = 0;
  std::size_t unit_end_ = 0;

  bool seen_h2_ = false;
  bool in_formal_section_ = false;
};

// §6.2 and §6.4: the preamble, then one section per H2 line ending at its last non-blank unit.
void build_sections(Document::Impl& doc) {
  const std::vector<Unit>& units = doc.units;
  std::size_t i = 0;
  while (i < units.size() && !(units[i].kind == UnitKind::heading && units[i].heading_level == 2)) {
    ++i;
  }
  if (i > 0) {
    doc.sections.push_back(Section{SectionKind::preamble, units[0].first_line,
                                   units[i - 1].last_line, units[0].begin, units[i - 1].end, 0, i});
  }
  while (i < units.size()) {
    std::size_t next = i + 1;
    while (next < units.size() &&
           !(units[next].kind == UnitKind::heading && units[next].heading_level == 2)) {
      ++next;
    }
    std::size_t last = next - 1;
    while (last > i && units[last].kind == UnitKind::blank) --last;
    doc.sections.push_back(Section{SectionKind::section, units[i].first_line, units[last].last_line,
                                   units[i].begin, units[last].end, i, last - i + 1});
    i = next;
  }
}

std::uint32_t line_of_offset(std::string_view bytes, std::size_t begin, std::size_t offset) {
  std::uint32_t line = 1;
  const char* p = bytes.data() + begin;
  const char* const stop = bytes.data() + offset;
  while (p < stop) {
    const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(stop - p));
    if (nl == nullptr) break;
    ++line;
    p = static_cast<const char*>(nl) + 1;
  }
  return line;
}

}  // namespace

bool is_formal_entry_heading(std::string_view text) noexcept {
  if (!starts_with_ascii_ci(text, "mc-")) return false;
  text.remove_prefix(3);
  for (std::string_view kind : {"dec-", "con-", "dnu-", "pref-", "area-", "inbox-", "tomb-"}) {
    if (starts_with_ascii_ci(text, kind)) return true;
  }
  return false;
}

Document parse_markdown(std::shared_ptr<const std::string> bytes) {
  auto impl = std::make_shared<Document::Impl>();
  if (!bytes) bytes = std::make_shared<const std::string>();
  impl->bytes = bytes;
  const std::string_view view(*bytes);
  impl->bom = view.substr(0, 3) == kBom;
  const std::size_t begin = impl->bom ? 3 : 0;

  if (const auto bad = find_invalid_utf8(view)) {
    impl->utf8_error = TextIssue{TextProblem::invalid_utf8, line_of_offset(view, begin, *bad)};
  }
  // Real memory files average about 95 bytes per unit. Reserving for one unit per 64 bytes means
  // the vector never grows (and never copies) on typical input; untouched pages cost nothing.
  impl->units.reserve(view.size() / 64 + 16);
  Scanner(view, begin, *impl).run();
  if (!impl->parse_error) build_sections(*impl);
  return Document(std::move(impl));
}

Document parse_markdown(std::string bytes) {
  return parse_markdown(std::make_shared<const std::string>(std::move(bytes)));
}

}  // namespace memkit
