// The words and figures of the bench report (report_text.hpp).
#include "bench/report_text.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>

namespace memkit::bench::detail {
namespace {

constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";

// The length of the well-formed UTF-8 sequence at `at`, or 0 (Unicode 15, table 3-7).
std::size_t report_utf8_sequence_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[at + i]); };
  const unsigned char lead = byte(0);
  std::size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // overlong
    if (lead == 0xED) high = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // past U+10FFFF
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  if (byte(1) < low || byte(1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  }
  return length;
}

struct ReportUnit {
  double scale;
  std::string_view name;
};

// `value` in the largest unit it reaches once rounded, so 999.7 µs reads "1 ms", not "1000 µs".
template <std::size_t N>
std::string format_in_units(double value, const std::array<ReportUnit, N>& units) {
  if (!std::isfinite(value) || value < 0) value = 0;
  std::size_t chosen = 0;
  for (std::size_t i = 0; i < N; ++i) {
    if (value >= units[i].scale * 0.9995) chosen = i;
  }
  // A no-break space, so that "64 KiB" never breaks across lines.
  return format_significant(value / units[chosen].scale) + "\u00A0" +
         std::string(units[chosen].name);
}

}  // namespace

std::string escape_html(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const std::size_t length = report_utf8_sequence_length(text, i);
      if (length == 0) {
        out += kReplacementCharacter;
        ++i;
      } else {
        out.append(text.substr(i, length));
        i += length;
      }
      continue;
    }
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      case '\t':
      case '\n':
      case '\r':
        out += static_cast<char>(c);
        break;
      default:
        if (c < 0x20 || c == 0x7F) {
          out += kReplacementCharacter;
        } else {
          out += static_cast<char>(c);
        }
    }
    ++i;
  }
  return out;
}

std::string format_significant(double value) {
  if (!std::isfinite(value) || value < 0) value = 0;
  if (value >= 999.5) return fmt::format("{:.0f}", value);
  const int decimals = value >= 99.95 ? 0 : value >= 9.995 ? 1 : value >= 0.9995 ? 2 : 3;
  std::string text = fmt::format("{:.{}f}", value, decimals);
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

std::string format_duration_us(double microseconds) {
  static constexpr std::array<ReportUnit, 3> kUnits{{{1, "µs"}, {1e3, "ms"}, {1e6, "s"}}};
  return format_in_units(microseconds, kUnits);
}

std::string format_bytes(double bytes) {
  static constexpr std::array<ReportUnit, 5> kUnits{{{1, "B"},
                                                     {1024.0, "KiB"},
                                                     {1024.0 * 1024, "MiB"},
                                                     {1024.0 * 1024 * 1024, "GiB"},
                                                     {1024.0 * 1024 * 1024 * 1024, "TiB"}}};
  return format_in_units(bytes, kUnits);
}

std::string format_rate(double bytes_per_second) {
  static constexpr std::array<ReportUnit, 5> kUnits{
      {{1, "B/s"}, {1e3, "kB/s"}, {1e6, "MB/s"}, {1e9, "GB/s"}, {1e12, "TB/s"}}};
  return format_in_units(bytes_per_second, kUnits);
}

std::string format_ratio(double ratio) { return format_significant(ratio) + "×"; }

std::string format_count(std::uint64_t count) {
  std::string digits = std::to_string(count);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace memkit::bench::detail
