// What the pages of `memkit bench compaction --report` and `bench recall --report` share
// (memkit/bench.hpp): the page around the figures (head, inline style, header, footer), the
// command beside the machine, and the pieces both pages are built from.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "memkit/bench.hpp"

namespace memkit::bench::detail {

// From <!doctype html> to the end of the page's <header>: "memkit bench COMMAND: INPUT" as the
// title, "memkit bench COMMAND" over the heading, then `lede_html` (HTML: the caller escapes).
[[nodiscard]] std::string report_page_start(std::string_view command, const std::string& input,
                                            std::string_view heading, const std::string& lede_html);

// The command line as run, then `more_html`, beside the machine, whose last row says `runs`.
[[nodiscard]] std::string report_setup(const std::string& command, const std::string& more_html,
                                       const Machine& machine, const std::string& runs);

// The footer and the end of the page.
[[nodiscard]] std::string report_page_end(const Machine& machine);

// Terms and their values (HTML) as a two-column list.
[[nodiscard]] std::string report_facts(
    const std::vector<std::pair<std::string, std::string>>& rows);

// A figure read first: a label, a large value and a line under it (all HTML).
[[nodiscard]] std::string report_card(std::string_view label, const std::string& value,
                                      const std::string& sub);

[[nodiscard]] std::string report_figure(const std::string& svg, std::string_view caption);

// A square of the colour a series has in the plots, beside its name in a table.
[[nodiscard]] std::string report_swatch(const std::string& color);

[[nodiscard]] std::string report_runs_text(std::uint64_t runs);  // "1 timed run", "3 timed runs"
[[nodiscard]] std::string report_us(std::int64_t us);            // format_duration_us

}  // namespace memkit::bench::detail
