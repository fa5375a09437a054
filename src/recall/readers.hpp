// The readers of each layout's files, which read_units (units.cpp) picks between, and what they
// share. A reader is handed a file its layout reads, already checked to be UTF-8, and appends the
// file's units, or the one finding that says why its layout's parser refused the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/findings.hpp"
#include "memkit/markdown.hpp"
#include "memkit/recall.hpp"

namespace memkit::recall::detail {

// Whether the layout reads the file at `path` (relative to the layout's root).
[[nodiscard]] bool custodian_reads(std::string_view path);
[[nodiscard]] bool memorybox_reads(std::string_view path);
[[nodiscard]] bool tiers_reads(std::string_view path);
[[nodiscard]] bool curated_reads(std::string_view path);

void read_custodian(const Source& source, std::string_view bytes, FileUnits& out);
void read_memorybox(const Source& source, std::string_view bytes, FileUnits& out);
void read_tiers(const Source& source, std::string_view bytes, FileUnits& out);
void read_curated(const Source& source, std::string_view bytes, FileUnits& out);

// ---- shared by the readers ----------------------------------------------------------------------

// The '/'-separated parts of a path.
[[nodiscard]] std::vector<std::string_view> path_parts(std::string_view path);

// The 1-based line of the byte at `offset`.
[[nodiscard]] std::uint32_t line_at(std::string_view bytes, std::size_t offset) noexcept;

// The unit whose bytes are [begin, end) of the file, starting on `first_line`; its last line is
// the one that holds its last byte (a final line terminator ends that line, not a new one).
[[nodiscard]] Unit unit_at(std::string_view bytes, std::uint32_t first_line, std::size_t begin,
                           std::size_t end, std::string kind);

// MK-PARSE-001 as a WARNING naming the file: it is not searched, and the search goes on.
[[nodiscard]] Finding unparseable(const Source& source, std::string message);

// The Markdown document of a file, or nullopt with MK-PARSE-001 added to `out` when a fence or
// comment is left open (compaction.md §2.3).
[[nodiscard]] std::optional<Document> parse_or_refuse(const Source& source, std::string_view bytes,
                                                      FileUnits& out);

// "YYYY-MM-DD" when `text` starts with a valid calendar date not followed by a digit
// ("2026-11-20 - Title", "2026-11-30T09:00:00.000Z"), else nullopt.
[[nodiscard]] std::optional<std::string> leading_date(std::string_view text);

// Keeps in `latest` the later of it and `date` (dates compare as text).
void keep_latest(std::optional<std::string>& latest, std::optional<std::string> date);

}  // namespace memkit::recall::detail
