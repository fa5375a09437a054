// The plots of the bench report on log-log axes (report_chart.hpp).
#include "bench/report_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>
#include <utility>

#include "bench/report_text.hpp"

namespace memkit::bench::detail {
namespace {

constexpr double kPlotLeft = 86;
constexpr double kPlotRight = kChartWidth - 220;
constexpr double kPlotTop = 20;
constexpr double kPlotBottom = kChartHeight - 58;
constexpr double kLegendLeft = kPlotRight + 24;
constexpr std::string_view kInkColor = "#1f2328";
constexpr std::string_view kMutedColor = "#57606a";
constexpr double kLog10Of2 = 0.30102999566398120;

// A coordinate with one decimal; never "nan" or "inf", which would break the whole drawing.
std::string chart_px(double value) {
  if (!std::isfinite(value)) value = 0;
  return fmt::format("{:.1f}", value);
}

std::string chart_dash(const std::string& dash) {
  return dash.empty() ? "" : " stroke-dasharray=\"" + escape_html(dash) + "\"";
}

// An axis in decades (log10 of the unit), mapped onto pixels from `px_low` to `px_high`.
struct ChartAxis {
  double low_log = 0;
  double high_log = 1;
  double px_low = 0;
  double px_high = 1;

  [[nodiscard]] bool holds(double value) const {
    const double l = std::log10(value);
    return l >= low_log - 1e-9 && l <= high_log + 1e-9;
  }
  // A value at or under 0, or under the axis, sits on its floor (log 0 has no place on it).
  [[nodiscard]] double at(double value) const {
    double l = value > 0 && std::isfinite(value) ? std::log10(value) : low_log;
    l = std::clamp(l, low_log, high_log);
    return px_low + (l - low_log) / (high_log - low_log) * (px_high - px_low);
  }
};

// The range a chart shows when it has nothing above 0 to show.
std::array<double, 2> chart_default_range(ChartUnit unit) {
  switch (unit) {
    case ChartUnit::bytes:
      return {1024.0, 1024.0 * 1024};
    case ChartUnit::microseconds:
      return {1, 1000};
    case ChartUnit::bytes_per_second:
      return {1e6, 1e9};
    case ChartUnit::ratio:
      return {0.5, 2};
    case ChartUnit::count:
      return {1, 100};
  }
  return {1, 10};
}

// At least one decade, so a single value (one size) still has ticks around it, and a margin on
// either side so that no marker sits on the frame.
ChartAxis chart_axis_over(const std::vector<double>& values, ChartUnit unit, double px_low,
                          double px_high) {
  double low = 0;
  double high = 0;
  for (const double v : values) {
    if (!(v > 0) || !std::isfinite(v)) continue;
    low = low > 0 ? std::min(low, v) : v;
    high = std::max(high, v);
  }
  if (!(low > 0)) {
    const std::array<double, 2> range = chart_default_range(unit);
    low = range[0];
    high = range[1];
  }
  if (unit == ChartUnit::count) low = std::min(low, 1.0);
  double low_log = std::log10(low);
  double high_log = std::log10(high);
  if (high_log - low_log < 1) {
    const double middle = (low_log + high_log) / 2;
    low_log = middle - 0.5;
    high_log = middle + 0.5;
  }
  const double margin = (high_log - low_log) * 0.06;
  ChartAxis axis;
  axis.low_log = low_log - margin;
  axis.high_log = high_log + margin;
  axis.px_low = px_low;
  axis.px_high = px_high;
  return axis;
}

struct ChartTicks {
  std::vector<double> major;  // labelled
  std::vector<double> minor;  // a fainter grid line only
};

// Powers of two, every first, second, fifth... of them so that at most eight are labelled, and
// picked so that 1 KiB and 1 MiB are among them whenever the stride allows.
ChartTicks chart_binary_ticks(const ChartAxis& axis) {
  const int first = static_cast<int>(std::ceil(axis.low_log / kLog10Of2 - 1e-9));
  const int last = static_cast<int>(std::floor(axis.high_log / kLog10Of2 + 1e-9));
  ChartTicks ticks;
  for (const int stride : {1, 2, 5, 10, 20}) {
    ticks = {};
    for (int k = first; k <= last; ++k) {
      const double value = std::ldexp(1.0, k);
      ((k % stride + stride) % stride == 0 ? ticks.major : ticks.minor).push_back(value);
    }
    if (ticks.major.size() <= 8) break;
  }
  if (ticks.major.size() < 2) {
    ticks.major.insert(ticks.major.end(), ticks.minor.begin(), ticks.minor.end());
    ticks.minor.clear();
    std::sort(ticks.major.begin(), ticks.major.end());
  }
  return ticks;
}

// Powers of ten when three or more fit (the decades between them a faint grid), else 1, 2 and 5
// of each decade.
ChartTicks chart_decimal_ticks(const ChartAxis& axis) {
  const int first = static_cast<int>(std::floor(axis.low_log)) - 1;
  const int last = static_cast<int>(std::ceil(axis.high_log)) + 1;
  std::vector<int> decades;
  for (int k = first; k <= last; ++k) {
    if (axis.holds(std::pow(10.0, k))) decades.push_back(k);
  }
  ChartTicks ticks;
  if (decades.size() >= 3) {
    const std::size_t stride = (decades.size() + 7) / 8;
    for (std::size_t i = 0; i < decades.size(); ++i) {
      (i % stride == 0 ? ticks.major : ticks.minor).push_back(std::pow(10.0, decades[i]));
    }
    for (int k = first; k <= last; ++k) {
      for (int m = 2; m <= 9; ++m) {
        const double value = m * std::pow(10.0, k);
        if (stride == 1 && axis.holds(value)) ticks.minor.push_back(value);
      }
    }
    return ticks;
  }
  for (int k = first; k <= last; ++k) {
    for (int m = 1; m <= 9; ++m) {
      const double value = m * std::pow(10.0, k);
      if (!axis.holds(value)) continue;
      (m == 1 || m == 2 || m == 5 ? ticks.major : ticks.minor).push_back(value);
    }
  }
  return ticks;
}

ChartTicks chart_ticks(const ChartAxis& axis, ChartUnit unit) {
  if (unit == ChartUnit::bytes) return chart_binary_ticks(axis);
  ChartTicks ticks = chart_decimal_ticks(axis);
  if (unit == ChartUnit::count) {  // no half a match
    const auto fraction = [](double v) { return v < 1 - 1e-9; };
    std::erase_if(ticks.major, fraction);
    std::erase_if(ticks.minor, fraction);
  }
  return ticks;
}

// "1", "20", "500", "1k", "10k", "2.5M": a count as a tick shows it, in SI multiples.
std::string chart_count_label(double value) {
  static constexpr std::array<std::pair<double, std::string_view>, 4> kMultiples{
      {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}}};
  for (const auto& [scale, name] : kMultiples) {
    if (value >= scale * 0.9995) return format_significant(value / scale) + std::string(name);
  }
  return format_significant(value);
}

std::string chart_tick_label(double value, ChartUnit unit) {
  switch (unit) {
    case ChartUnit::bytes:
      return format_bytes(value);
    case ChartUnit::microseconds:
      return format_duration_us(value);
    case ChartUnit::bytes_per_second:
      return format_rate(value);
    case ChartUnit::ratio:
      return format_ratio(value);
    case ChartUnit::count:
      return chart_count_label(value);
  }
  return format_significant(value);
}

// A marker, with its tooltip as a <title> child (shown on hover, no script needed).
std::string chart_marker(ChartMarker marker, double cx, double cy, std::string_view color,
                         const std::string& tooltip) {
  const std::string title = tooltip.empty() ? "" : "<title>" + escape_html(tooltip) + "</title>";
  const std::string x = chart_px(cx);
  const std::string y = chart_px(cy);
  switch (marker) {
    case ChartMarker::none:
      return "";
    case ChartMarker::circle:
      return fmt::format(R"(<circle cx="{}" cy="{}" r="4.5" fill="{}" stroke="#ffffff" )"
                         R"(stroke-width="1.5">{}</circle>)",
                         x, y, color, title);
    case ChartMarker::square:
      return fmt::format(R"(<rect x="{}" y="{}" width="9" height="9" fill="{}" stroke="#ffffff" )"
                         R"(stroke-width="1.5">{}</rect>)",
                         chart_px(cx - 4.5), chart_px(cy - 4.5), color, title);
    case ChartMarker::dot:
      return fmt::format(
          R"(<circle cx="{}" cy="{}" r="3.5" fill="{}" fill-opacity="0.55">{}</circle>)", x, y,
          color, title);
    case ChartMarker::bar:
      return fmt::format(R"(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="3" )"
                         R"(stroke-linecap="round">{}</line>)",
                         chart_px(cx - 15), y, chart_px(cx + 15), y, color, title);
    case ChartMarker::diamond:
      return fmt::format(R"(<polygon points="{},{} {},{} {},{} {},{}" fill="{}" stroke="#ffffff" )"
                         R"(stroke-width="1.5">{}</polygon>)",
                         x, chart_px(cy - 6), chart_px(cx + 6), y, x, chart_px(cy + 6),
                         chart_px(cx - 6), y, color, title);
  }
  return "";
}

void chart_draw_grid(std::string& out, const ChartAxis& x_axis, const ChartTicks& x_ticks,
                     ChartUnit x_unit, const ChartAxis& y_axis, const ChartTicks& y_ticks,
                     ChartUnit y_unit) {
  out += R"(<g class="grid" stroke="#eef0f3" stroke-width="1">)";
  for (const double v : x_ticks.minor) {
    out += fmt::format(R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}"/>)", chart_px(x_axis.at(v)),
                       chart_px(kPlotTop), chart_px(kPlotBottom));
  }
  for (const double v : y_ticks.minor) {
    out += fmt::format(R"(<line x1="{1}" y1="{0}" x2="{2}" y2="{0}"/>)", chart_px(y_axis.at(v)),
                       chart_px(kPlotLeft), chart_px(kPlotRight));
  }
  out += "</g>\n";
  out += R"(<g class="grid" stroke="#d8dde3" stroke-width="1">)";
  for (const double v : x_ticks.major) {
    out += fmt::format(R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}"/>)", chart_px(x_axis.at(v)),
                       chart_px(kPlotTop), chart_px(kPlotBottom + 5));
  }
  for (const double v : y_ticks.major) {
    out += fmt::format(R"(<line x1="{1}" y1="{0}" x2="{2}" y2="{0}"/>)", chart_px(y_axis.at(v)),
                       chart_px(kPlotLeft - 5), chart_px(kPlotRight));
  }
  out += "</g>\n";
  out += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#b8c0ca"/>)",
                     chart_px(kPlotLeft), chart_px(kPlotTop), chart_px(kPlotRight - kPlotLeft),
                     chart_px(kPlotBottom - kPlotTop));
  out += fmt::format(R"(<g class="ticks" font-size="12" fill="{}">)", kMutedColor);
  // A count's zeros sit on its floor, which is then theirs (chart_axis_over keeps 1 above it).
  if (x_unit == ChartUnit::count) {
    out += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle">0</text>)",
                       chart_px(x_axis.px_low), chart_px(kPlotBottom + 20));
  }
  if (y_unit == ChartUnit::count) {
    out += fmt::format(R"(<text x="{}" y="{}" text-anchor="end">0</text>)", chart_px(kPlotLeft - 9),
                       chart_px(y_axis.px_low + 4));
  }
  for (const double v : x_ticks.major) {
    out +=
        fmt::format(R"(<text x="{}" y="{}" text-anchor="middle">{}</text>)", chart_px(x_axis.at(v)),
                    chart_px(kPlotBottom + 20), escape_html(chart_tick_label(v, x_unit)));
  }
  for (const double v : y_ticks.major) {
    out +=
        fmt::format(R"(<text x="{}" y="{}" text-anchor="end">{}</text>)", chart_px(kPlotLeft - 9),
                    chart_px(y_axis.at(v) + 4), escape_html(chart_tick_label(v, y_unit)));
  }
  out += "</g>\n";
}

void chart_draw_series(std::string& out, const ChartSeries& series, const ChartAxis& x_axis,
                       const ChartAxis& y_axis) {
  std::vector<ChartPoint> points = series.points;
  std::stable_sort(points.begin(), points.end(),
                   [](const ChartPoint& a, const ChartPoint& b) { return a.x < b.x; });
  const std::string color = escape_html(series.color);
  out += fmt::format(R"(<g class="series" data-series="{}">)", escape_html(series.name));
  if (series.joined && !points.empty()) {
    std::string coordinates;
    for (const ChartPoint& p : points) {
      if (!coordinates.empty()) coordinates += ' ';
      coordinates += chart_px(x_axis.at(p.x) + p.nudge_px) + "," + chart_px(y_axis.at(p.y));
    }
    out += fmt::format(R"(<polyline points="{}" fill="none" stroke="{}" stroke-width="2" )"
                       R"(stroke-linejoin="round" stroke-linecap="round"{}/>)",
                       coordinates, color, chart_dash(series.dash));
  }
  for (const ChartPoint& p : points) {
    if (!p.low || !p.high) continue;
    const double cx = x_axis.at(p.x) + p.nudge_px;
    const double top = y_axis.at(std::max(*p.low, *p.high));
    const double bottom = y_axis.at(std::min(*p.low, *p.high));
    out += fmt::format(
        R"(<path class="whisker" d="M{0} {1}V{2}M{3} {1}H{4}M{3} {2}H{4}" stroke="{5}" )"
        R"(stroke-width="1.5" stroke-opacity="0.75" fill="none"/>)",
        chart_px(cx), chart_px(top), chart_px(bottom), chart_px(cx - 4), chart_px(cx + 4), color);
  }
  for (const ChartPoint& p : points) {
    const double cx = x_axis.at(p.x) + p.nudge_px;
    const double cy = y_axis.at(p.y);
    out += chart_marker(series.marker, cx, cy, color, p.tooltip);
    if (p.label.empty()) continue;
    // Beside the marker, on its left near the right edge so that it stays out of the legend.
    const bool left = cx > kPlotRight - 70;
    out +=
        fmt::format(R"(<text x="{}" y="{}" text-anchor="{}" font-size="13" font-weight="600" )"
                    R"(fill="{}" stroke="#ffffff" stroke-width="3" paint-order="stroke">{}</text>)",
                    chart_px(left ? cx - 20 : cx + 20), chart_px(cy + 4.5), left ? "end" : "start",
                    color, escape_html(p.label));
  }
  out += "</g>\n";
}

void chart_draw_legend(std::string& out, const std::vector<ChartSeries>& all) {
  out += R"(<g class="legend">)";
  double y = kPlotTop + 8;
  const std::string* group = nullptr;
  for (const ChartSeries& series : all) {
    if (!series.group.empty() && (group == nullptr || *group != series.group)) {
      if (group != nullptr) y += 6;
      out +=
          fmt::format(R"(<text x="{}" y="{}" font-size="11" font-weight="600" )"
                      R"(letter-spacing="0.06em" fill="{}">{}</text>)",
                      chart_px(kLegendLeft), chart_px(y), kMutedColor, escape_html(series.group));
      y += 18;
    }
    group = &series.group;
    const std::string color = escape_html(series.color);
    if (series.joined || series.marker == ChartMarker::none) {
      out +=
          fmt::format(R"(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="2"{}/>)",
                      chart_px(kLegendLeft), chart_px(y), chart_px(kLegendLeft + 26), chart_px(y),
                      color, chart_dash(series.dash));
    }
    out += chart_marker(series.marker, kLegendLeft + 13, y, color, "");
    out += fmt::format(R"(<text x="{}" y="{}" font-size="12.5" fill="{}">{}</text>)",
                       chart_px(kLegendLeft + 34), chart_px(y + 4.5), kInkColor,
                       escape_html(series.name));
    if (!series.note.empty()) {
      out += fmt::format(R"(<text x="{}" y="{}" font-size="11" fill="{}">{}</text>)",
                         chart_px(kLegendLeft + 34), chart_px(y + 19.5), kMutedColor,
                         escape_html(series.note));
      y += 15;
    }
    y += 22;
  }
  out += "</g>\n";
}

}  // namespace

std::string render_log_chart(const Chart& chart) {
  std::vector<double> xs;
  std::vector<double> ys;
  for (const ChartSeries& series : chart.series) {
    for (const ChartPoint& p : series.points) {
      xs.push_back(p.x);
      ys.push_back(p.y);
      if (p.low) ys.push_back(*p.low);
      if (p.high) ys.push_back(*p.high);
    }
  }
  for (const ChartRule& rule : chart.rules) ys.push_back(rule.y);
  const ChartAxis x_axis = chart_axis_over(xs, chart.x_unit, kPlotLeft, kPlotRight);
  const ChartAxis y_axis = chart_axis_over(ys, chart.y_unit, kPlotBottom, kPlotTop);
  const ChartTicks x_ticks = chart_ticks(x_axis, chart.x_unit);
  const ChartTicks y_ticks = chart_ticks(y_axis, chart.y_unit);

  const std::string title = escape_html(chart.title);
  std::string out = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{0}" height="{1}" )"
      R"(viewBox="0 0 {0} {1}" role="img" aria-label="{2}" )"
      R"(font-family="system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif">)"
      "\n<title>{2}</title>\n<desc>{3}</desc>\n",
      kChartWidth, kChartHeight, title, escape_html(chart.description));
  chart_draw_grid(out, x_axis, x_ticks, chart.x_unit, y_axis, y_ticks, chart.y_unit);
  out += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle" font-size="12.5" )"
                     R"(font-weight="600" fill="{}">{}</text>)",
                     chart_px((kPlotLeft + kPlotRight) / 2), chart_px(kChartHeight - 12), kInkColor,
                     escape_html(chart.x_title));
  out += fmt::format(R"svg(<text transform="translate(16 {}) rotate(-90)" text-anchor="middle" )svg"
                     R"(font-size="12.5" font-weight="600" fill="{}">{}</text>)",
                     chart_px((kPlotTop + kPlotBottom) / 2), kInkColor, escape_html(chart.y_title));
  out += "\n";
  for (const ChartRule& rule : chart.rules) {
    const double y = y_axis.at(rule.y);
    out += fmt::format(
        R"(<g class="rule"><line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#6e7781" )"
        R"(stroke-width="1.25" stroke-dasharray="3 4"/>)"
        R"(<text x="{}" y="{}" text-anchor="end" font-size="11.5" fill="{}">{}</text></g>)"
        "\n",
        chart_px(kPlotLeft), chart_px(y), chart_px(kPlotRight), chart_px(y),
        chart_px(kPlotRight - 6), chart_px(y - 6), kMutedColor, escape_html(rule.label));
  }
  for (const ChartSeries& series : chart.series) chart_draw_series(out, series, x_axis, y_axis);
  chart_draw_legend(out, chart.series);
  out += "</svg>";
  return out;
}

}  // namespace memkit::bench::detail
