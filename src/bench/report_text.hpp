// The words and figures of the bench report (memkit/bench.hpp): user text made safe for HTML and
// SVG, and measurements with their units to three significant digits.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace memkit::bench::detail {

// `text` with & < > " ' as character references, so it is safe in element content and in quoted
// attributes alike. The command line and the folder are the user's: bytes that are not UTF-8 and
// control characters (other than tab, line feed and carriage return) become U+FFFD.
[[nodiscard]] std::string escape_html(std::string_view text);

// A non-negative figure to three significant digits, trailing zeros dropped: "1.5", "12.3", "850".
[[nodiscard]] std::string format_significant(double value);

[[nodiscard]] std::string format_duration_us(double microseconds);  // "850 µs", "1.23 ms", "12 s"
[[nodiscard]] std::string format_bytes(double bytes);  // binary units: "512 B", "64 KiB", "1.5 MiB"
[[nodiscard]] std::string format_rate(double bytes_per_second);  // decimal: "850 kB/s", "1.2 GB/s"
[[nodiscard]] std::string format_ratio(double ratio);            // "1.43×"
[[nodiscard]] std::string format_count(std::uint64_t count);     // "12,345"

}  // namespace memkit::bench::detail
