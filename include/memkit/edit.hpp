// The editing rules (spec compaction.md §7): removals that touch only the removed lines and the
// blank gap around them, and insertions at well-defined places with the file's own terminators.
// An edit is a list of splices over the original bytes, so a planner can hash the result from
// the kept slices without building it.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "memkit/digest.hpp"
#include "memkit/markdown.hpp"

namespace memkit {

// Replace bytes [begin, end) of the original with `insert`.
struct Splice {
  std::size_t begin;
  std::size_t end;
  std::string insert;
  friend bool operator==(const Splice&, const Splice&) = default;
};

// `splice` alone, as the vector plan_write takes, its text moved in (a braced list would copy it:
// a whole file's new bytes, for a replacement).
[[nodiscard]] inline std::vector<Splice> only_splice(Splice splice) {
  std::vector<Splice> out;
  out.push_back(std::move(splice));
  return out;
}

// Units first_unit..last_unit (indices into Document::units(), inclusive) removed as one piece:
// a bullet unit, or a whole H2 section.
struct UnitSpan {
  std::size_t first_unit;
  std::size_t last_unit;
};

// §7.1: deletes exactly the spans' lines plus the blank gap rule around each run of spans.
// REQUIRES: doc.parseable(); spans sorted, non-overlapping, and none of them blank units.
[[nodiscard]] std::vector<Splice> removal_splices(const Document& doc,
                                                  std::span<const UnitSpan> spans);

// A range of whole lines [begin, end) of a file.
struct ByteRange {
  std::size_t begin;
  std::size_t end;
};

// The same rule for removed units known by their byte ranges, for callers that read a file with a
// UnitReader and keep no Document. The blank units around a non-blank unit are exactly the blank
// lines next to it (a non-blank unit starts and ends with a non-blank line, and blank runs are
// maximal), so the gaps are found by looking at the neighbouring lines.
// REQUIRES: each range is one or more consecutive non-blank units of a parseable file; sorted,
// non-overlapping. content_begin is 3 after a BOM, else 0.
[[nodiscard]] std::vector<Splice> removal_splices(std::string_view bytes, std::size_t content_begin,
                                                  std::span<const ByteRange> removed);

// §7.2: "\r\n" if the file's first terminated line ends in CRLF, else "\n".
[[nodiscard]] std::string_view new_line_terminator(const Document& doc) noexcept;

// §7.3 insert-before(L, block): `lines` are the block's lines without terminators.
// REQUIRES: unit_index < doc.units().size(); L is that unit's first line.
[[nodiscard]] Splice insert_before(const Document& doc, std::size_t unit_index,
                                   std::span<const std::string> lines);

// §7.3 append of bytes kept as they are (moved entries): `block` is given the file's terminator
// when its last line has none; otherwise as append_block.
[[nodiscard]] Splice append_bytes(const Document& doc, std::string_view block, bool bullet);

// §7.3 append(block); `bullet` makes the append tight after a top-level bullet unit.
[[nodiscard]] Splice append_block(const Document& doc, std::span<const std::string> lines,
                                  bool bullet);

// Tight after a unit: the block directly after its last line (which first gets a terminator when
// it is the file's unterminated last line). REQUIRES: unit_index < doc.units().size().
[[nodiscard]] Splice insert_after(const Document& doc, std::size_t unit_index,
                                  std::span<const std::string> lines);

// §7.3 insert-into-section(H, bullet): before the section's first bullet unit, else after H.
// REQUIRES: section_index names an H2 section (not the preamble).
[[nodiscard]] Splice insert_into_section(const Document& doc, std::size_t section_index,
                                         std::span<const std::string> lines);

// Where a new H2 entry goes (spec §13 for decisions and tombstones): insert-before the first H2
// line or bullet line after the title (line 1, when it is an H1), else append.
[[nodiscard]] Splice insert_entry(const Document& doc, std::span<const std::string> lines);

// The bytes after the splices. REQUIRES: splices sorted by begin and non-overlapping.
[[nodiscard]] std::string apply_splices(std::string_view bytes, std::span<const Splice> splices);

// SHA-256 of apply_splices(bytes, splices), computed from the kept slices without building it.
// The result of applying splices as the pieces it is made of, in order: slices of `bytes` and the
// splices' inserts, none empty. Views into both, so they must outlive the pieces.
[[nodiscard]] std::vector<std::string_view> splice_pieces(std::string_view bytes,
                                                          std::span<const Splice> splices);

[[nodiscard]] Sha256 sha256_of_splices(std::string_view bytes, std::span<const Splice> splices);

}  // namespace memkit
