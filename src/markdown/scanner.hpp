// The unit grammar (spec compaction.md §2.3 opaque regions, §6.1 bullet units, §6.4 the
// partition) as one resumable line walk, shared by parse_markdown and UnitReader.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "markdown/line_kinds.hpp"
#include "markdown/line_scanner.hpp"
#include "memkit/markdown.hpp"

namespace memkit::detail {

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

// What a whole scan learns besides the units (§2.3, §6.2).
struct ScanEnd {
  std::uint32_t line_count = 0;
  std::optional<TextIssue> parse_error;  // then the units emitted are not a partition
  bool h1_after_h2 = false;
};

// The one implementation of the unit grammar, resumable: scan() walks lines until `out` holds
// `want` units or the file ends, so a caller can hold every unit (parse_markdown) or a small
// batch at a time (UnitReader).
class Scanner final {
 public:
  Scanner(std::string_view bytes, std::size_t begin, std::vector<Unit>& out) noexcept
      : bytes_(bytes), cursor_(bytes, begin, 1), partition_(out), out_(out) {}

  // Returns false once the file has ended; end() is then final.
  bool scan(std::size_t want) {
    if (!started_) {
      started_ = true;
      have_ = cursor_.next(line_);
      if (have_ && skip_front_matter(cursor_, line_)) have_ = cursor_.next(line_);
    }
    while (have_ && out_.size() < want) {
      last_line_ = line_.number;
      scan_line(line_, end_of(line_));
      have_ = cursor_.next(line_);
    }
    if (!have_ && !finished_) {
      finished_ = true;
      finish();
    }
    return !finished_;
  }

  [[nodiscard]] const ScanEnd& end() const noexcept { return end_; }

 private:
  enum class Region : std::uint8_t { none, fence, comment };

  std::size_t end_of(const Line& line) const noexcept {
    return line.begin + line.content.size() + line.terminator.size();
  }

  // §2.3.1: line 1 is "---" and a later line is "---" or "...". Returns true and moves `cursor`
  // past the closing line when the file has front matter; otherwise line 1 is scanned as an
  // ordinary line (a thematic break).
  bool skip_front_matter(LineScanner& cursor, const Line& first) {
    if (!equals_trimmed(first.content, "---")) return false;
    LineScanner probe = cursor;
    Line line{};
    while (probe.next(line)) {
      if (equals_trimmed(line.content, "---") || equals_trimmed(line.content, "...")) {
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
    if (is_blank(c)) {
      if (!unit_open_) partition_.add_run_line(UnitKind::blank, line, line_end);
      return;  // inside a unit, a blank line is interior or trailing: decided when it closes
    }
    const bool indented = is_indented(c);
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
    if (const std::uint8_t level = heading_level(c); level != 0) {
      partition_.emit(UnitKind::heading, level, line.number, line.number, line.begin, line_end);
      if (level == 2) {
        seen_h2_ = true;
        in_formal_section_ = is_formal_entry_heading(heading_text(c));
      } else if (level == 1 && seen_h2_) {
        end_.h1_after_h2 = true;
      }
      return;
    }
    if (!in_formal_section_ && is_bullet_line(c)) {
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
    const FenceOpener fence = fence_opener(c);
    std::size_t comment_end = 0;
    if (fence.fence_char == 0) {
      comment_end = comment_opener_end(c);
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
      if (contains_comment_close(c.substr(comment_end))) close_region(line_end, line);
    }
    return true;
  }

  void scan_opaque_line(const Line& line, std::size_t line_end) {
    if (region_in_unit_) extend_unit(line, line_end);
    const bool closes = region_ == Region::fence
                            ? closes_fence(line.content, fence_char_, fence_length_)
                            : contains_comment_close(line.content);
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
    end_.line_count = last_line_;
    if (region_ != Region::none) {
      end_.parse_error = TextIssue{
          region_ == Region::fence ? TextProblem::unclosed_fence : TextProblem::unclosed_comment,
          region_first_};
      return;
    }
    if (unit_open_) close_unit(last_line_ + 1, bytes_.size());
    partition_.flush_run();
  }

  std::string_view bytes_;
  LineScanner cursor_;
  Partition partition_;
  std::vector<Unit>& out_;
  ScanEnd end_;
  Line line_{};
  bool started_ = false;
  bool have_ = false;
  bool finished_ = false;

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

}  // namespace memkit::detail
