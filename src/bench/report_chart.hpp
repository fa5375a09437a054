// The plots of the bench report (memkit/bench.hpp): series of points on log-log axes, drawn as one
// inline SVG element that needs no script, font or file of its own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace memkit::bench::detail {

// What an axis measures, which decides its tick marks and their labels: sizes in binary units at
// powers of two (the sizes are asked for in K and M), everything else at powers of ten or 1-2-5.
// A count's axis reaches down to 1 at least, so that its zeros, on the floor (labelled 0), stand
// apart from its ones; its ticks are whole numbers, labelled 1, 10, 100, 1k, 10k, 1M.
enum class ChartUnit : std::uint8_t { bytes, microseconds, bytes_per_second, ratio, count };

enum class ChartMarker : std::uint8_t { none, circle, square, dot, bar, diamond };

struct ChartPoint {
  double x = 0;
  double y = 0;  // a value at or under 0 sits on the axis floor, as does anything under the axis
  std::optional<double> low;  // the whisker, min to max
  std::optional<double> high;
  double nudge_px = 0;  // a horizontal shift, to spread the pairs of one size apart
  std::string label;    // drawn beside the point
  std::string tooltip;  // the point's <title>
};

struct ChartSeries {
  std::string name;   // the legend's and the data-series attribute's
  std::string note;   // a second, smaller line in the legend
  std::string group;  // a heading in the legend, over the series that share it
  std::string color;  // "#rrggbb"
  ChartMarker marker = ChartMarker::circle;
  bool joined = true;  // a line through the points, in the order of x
  std::string dash;    // a stroke-dasharray such as "7 4"; empty for a solid line
  std::vector<ChartPoint> points;
};

// A horizontal reference line across the plot, such as "same time" at a ratio of 1.
struct ChartRule {
  double y = 0;
  std::string label;
};

struct Chart {
  std::string title;        // the <title> and the aria-label
  std::string description;  // the <desc>
  ChartUnit x_unit = ChartUnit::bytes;
  ChartUnit y_unit = ChartUnit::microseconds;
  std::string x_title;
  std::string y_title;
  std::vector<ChartSeries> series;
  std::vector<ChartRule> rules;
};

inline constexpr int kChartWidth = 880;
inline constexpr int kChartHeight = 400;

// One <svg> of kChartWidth by kChartHeight with both axes logarithmic. Every coordinate it writes
// is finite: an empty chart, a single x value and values of 0 all give an axis of at least one
// decade, with the zeros on its floor.
[[nodiscard]] std::string render_log_chart(const Chart& chart);

}  // namespace memkit::bench::detail
