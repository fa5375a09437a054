// The four plots of the bench report (report_plots.hpp): which series each draws, in which colour.
#include "bench/report_plots.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>

#include "bench/report_chart.hpp"
#include "bench/report_text.hpp"

namespace memkit::bench::detail {
namespace {

struct ReportLook {
  std::string_view name;
  std::string_view color;
};

// The same colour for a phase or process in every plot and table, so the legend is learnt once.
constexpr std::array<ReportLook, 6> kPhaseLooks{{{"read", "#4e79a7"},
                                                 {"plan", "#f28e2b"},
                                                 {"hash", "#59a14f"},
                                                 {"report", "#b07aa1"},
                                                 {"apply", "#e15759"},
                                                 {"read-back", "#76b7b2"}}};
constexpr std::array<ReportLook, 2> kProcessLooks{{{"dry run", "#24292f"}, {"apply", "#9c755f"}}};
constexpr std::array<std::string_view, 4> kSpareColors{"#edc948", "#ff9da7", "#8cd17d", "#bab0ac"};
constexpr std::string_view kBenchProcessColor = "#0969da";
constexpr std::string_view kInboxColor = "#8c959f";
constexpr std::string_view kPairColor = "#0969da";
constexpr std::string_view kMedianColor = "#cf222e";

template <std::size_t N>
std::string report_color_of(std::string_view name, const std::array<ReportLook, N>& looks,
                            std::size_t spare) {
  for (const ReportLook& look : looks) {
    if (look.name == name) return std::string(look.color);
  }
  return std::string(kSpareColors[spare % kSpareColors.size()]);
}

// Names in the order they first appear over the sizes (a size may lack one).
template <class Figures, class Name>
std::vector<std::string> report_names_in_order(const CompactionFigures& figures, Figures members,
                                               Name name_of) {
  std::vector<std::string> names;
  for (const SizeFigures& size : figures.sizes) {
    for (const auto& item : size.*members) {
      const std::string& name = item.*name_of;
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
  return names;
}

std::vector<std::string> report_phase_names(const CompactionFigures& figures) {
  return report_names_in_order(figures, &SizeFigures::phases, &PhaseFigures::phase);
}

// Each process its own dashes, so that two that coincide still both show.
std::string report_process_dash(const std::string& step) {
  return step == "dry run" ? "7 4" : "2 3";
}

std::string report_process_series_name(const std::string& step) { return step + " (process)"; }

double report_rate(std::uint64_t bytes, std::int64_t wall_us) {
  return wall_us > 0 ? static_cast<double>(bytes) * 1e6 / static_cast<double>(wall_us) : 0;
}

// The wall times of one phase or process at one size, with its whisker and its tooltip.
ChartPoint report_time_point(const std::string& name, const SizeFigures& size, std::int64_t median,
                             std::int64_t min, std::int64_t max) {
  ChartPoint point;
  point.x = static_cast<double>(size.bytes);
  point.y = static_cast<double>(median);
  point.low = static_cast<double>(min);
  point.high = static_cast<double>(max);
  point.tooltip = fmt::format("{} at {}: {} median, {} to {}", name, format_bytes(point.x),
                              format_duration_us(point.y), format_duration_us(*point.low),
                              format_duration_us(*point.high));
  return point;
}

// The inbox's bytes over the median wall time, its whisker from the slowest run to the fastest.
ChartPoint report_rate_point(const std::string& name, const SizeFigures& size, double median_rate,
                             std::int64_t min_us, std::int64_t max_us) {
  ChartPoint point;
  point.x = static_cast<double>(size.bytes);
  point.y = median_rate;
  if (min_us > 0 && max_us > 0) {
    point.low = report_rate(size.bytes, max_us);
    point.high = report_rate(size.bytes, min_us);
  }
  point.tooltip =
      fmt::format("{} at {}: {}", name, format_bytes(point.x), format_rate(median_rate));
  return point;
}

// The markers of one size a few pixels apart, series by series, so that equal figures all show
// (a glance at a log axis cannot tell such a shift from the figure).
void report_dodge(std::vector<ChartSeries>& all, std::size_t count, double step_px) {
  for (std::size_t i = 0; i < count; ++i) {
    const double nudge = (static_cast<double>(i) - static_cast<double>(count - 1) / 2) * step_px;
    for (ChartPoint& point : all[i].points) point.nudge_px = nudge;
  }
}

// The time and throughput plots share their series: the phases solid, the processes dashed.
std::vector<ChartSeries> report_phase_and_process_series(const CompactionFigures& figures,
                                                         bool throughput) {
  std::vector<ChartSeries> all;
  for (const std::string& phase : report_phase_names(figures)) {
    ChartSeries series;
    series.name = phase;
    series.group = "IN-PROCESS PHASES";
    series.color = report_phase_color(figures, phase);
    for (const SizeFigures& size : figures.sizes) {
      for (const PhaseFigures& p : size.phases) {
        if (p.phase != phase) continue;
        series.points.push_back(
            throughput
                ? report_rate_point(phase, size, static_cast<double>(p.bytes_per_second),
                                    p.wall_min_us, p.wall_max_us)
                : report_time_point(phase, size, p.wall_median_us, p.wall_min_us, p.wall_max_us));
      }
    }
    all.push_back(std::move(series));
  }
  for (const std::string& step : report_process_names(figures)) {
    ChartSeries series;
    series.name = report_process_series_name(step);
    series.group = "WHOLE CLI PROCESSES";
    series.color = report_process_color(figures, step);
    series.marker = ChartMarker::square;
    series.dash = report_process_dash(step);
    for (const SizeFigures& size : figures.sizes) {
      for (const ProcessFigures& p : size.processes) {
        if (p.step != step) continue;
        series.points.push_back(throughput
                                    ? report_rate_point(series.name, size,
                                                        report_rate(size.bytes, p.wall_median_us),
                                                        p.wall_min_us, p.wall_max_us)
                                    : report_time_point(series.name, size, p.wall_median_us,
                                                        p.wall_min_us, p.wall_max_us));
      }
    }
    all.push_back(std::move(series));
  }
  report_dodge(all, all.size(), 3);
  return all;
}

// The other command's time over memkit's, pair by pair (0 when the other took no time; a pair
// where memkit took none has no ratio and is left out, as median_ratio() leaves it out).
std::vector<double> report_pair_ratios(const ComparisonFigures& comparison) {
  std::vector<double> ratios;
  for (const PairFigures& pair : comparison.pairs) {
    if (pair.memkit_us > 0) {
      ratios.push_back(static_cast<double>(pair.other_us) / static_cast<double>(pair.memkit_us));
    }
  }
  return ratios;
}

}  // namespace

std::string report_phase_color(const CompactionFigures& figures, const std::string& phase) {
  const std::vector<std::string> names = report_phase_names(figures);
  const auto at = std::find(names.begin(), names.end(), phase);
  return report_color_of(phase, kPhaseLooks, static_cast<std::size_t>(at - names.begin()));
}

std::string report_process_color(const CompactionFigures& figures, const std::string& step) {
  const std::vector<std::string> names = report_process_names(figures);
  const auto at = std::find(names.begin(), names.end(), step);
  return report_color_of(step, kProcessLooks, static_cast<std::size_t>(at - names.begin()) + 2);
}

std::vector<std::string> report_process_names(const CompactionFigures& figures) {
  return report_names_in_order(figures, &SizeFigures::processes, &ProcessFigures::step);
}

// "1.4× the inbox at 256 KiB", at the largest size where both are known.
std::string report_times_the_inbox(double peak_bytes, const SizeFigures& size) {
  if (size.bytes == 0 || !(peak_bytes > 0)) return "";
  const double bytes = static_cast<double>(size.bytes);
  return fmt::format("{} the inbox at {}", format_ratio(peak_bytes / bytes), format_bytes(bytes));
}

std::string report_time_chart(const CompactionFigures& figures) {
  Chart chart;
  chart.title = "Wall time against inbox size (log-log)";
  chart.description =
      "The median wall time of each phase and whole process at each size, with "
      "whiskers from the fastest to the slowest run.";
  chart.x_unit = ChartUnit::bytes;
  chart.y_unit = ChartUnit::microseconds;
  chart.x_title = "inbox size";
  chart.y_title = "wall time";
  chart.series = report_phase_and_process_series(figures, false);
  return detail::render_log_chart(chart);
}

std::string report_throughput_chart(const CompactionFigures& figures) {
  Chart chart;
  chart.title = "Throughput against inbox size";
  chart.description =
      "The inbox's bytes over the median wall time of each phase and whole "
      "process, in megabytes (10^6 bytes) per second.";
  chart.x_unit = ChartUnit::bytes;
  chart.y_unit = ChartUnit::bytes_per_second;
  chart.x_title = "inbox size";
  chart.y_title = "throughput";
  chart.series = report_phase_and_process_series(figures, true);
  return detail::render_log_chart(chart);
}

std::string report_memory_chart(const CompactionFigures& figures) {
  Chart chart;
  chart.title = "Peak memory against inbox size";
  chart.description =
      "The peak resident set of the bench process and of each whole process, "
      "beside the inbox's own size.";
  chart.x_unit = ChartUnit::bytes;
  chart.y_unit = ChartUnit::bytes;
  chart.x_title = "inbox size";
  chart.y_title = "peak resident memory";

  ChartSeries bench;
  bench.name = "bench process";
  bench.color = kBenchProcessColor;
  for (const SizeFigures& size : figures.sizes) {
    ChartPoint point;
    point.x = static_cast<double>(size.bytes);
    point.y = static_cast<double>(size.peak_rss_kib) * 1024;
    point.tooltip =
        fmt::format("bench process at {}: {}", format_bytes(point.x), format_bytes(point.y));
    bench.note = report_times_the_inbox(point.y, size);
    bench.points.push_back(std::move(point));
  }
  chart.series.push_back(std::move(bench));

  // The processes run the same program on the same memory, so their peaks often coincide.
  for (const std::string& step : report_process_names(figures)) {
    ChartSeries series;
    series.name = report_process_series_name(step);
    series.color = report_process_color(figures, step);
    series.marker = ChartMarker::square;
    series.dash = report_process_dash(step);
    for (const SizeFigures& size : figures.sizes) {
      for (const ProcessFigures& p : size.processes) {
        if (p.step != step) continue;
        ChartPoint point;
        point.x = static_cast<double>(size.bytes);
        point.y = static_cast<double>(p.peak_rss_median_kib) * 1024;
        point.tooltip = fmt::format("{} at {}: {} median", series.name, format_bytes(point.x),
                                    format_bytes(point.y));
        series.note = report_times_the_inbox(point.y, size);
        series.points.push_back(std::move(point));
      }
    }
    chart.series.push_back(std::move(series));
  }

  report_dodge(chart.series, chart.series.size(), 8);

  ChartSeries inbox;
  inbox.name = "the inbox itself";
  inbox.note = "for scale: 1× the inbox";
  inbox.color = kInboxColor;
  inbox.marker = ChartMarker::none;
  inbox.dash = "5 4";
  for (const SizeFigures& size : figures.sizes) {
    ChartPoint point;
    point.x = static_cast<double>(size.bytes);
    point.y = point.x;
    inbox.points.push_back(std::move(point));
  }
  chart.series.push_back(std::move(inbox));
  return detail::render_log_chart(chart);
}

std::string report_ratio_chart(const CompactionFigures& figures) {
  Chart chart;
  chart.title = "The other command's wall time over memkit's, pair by pair";
  chart.description =
      "One dot per pair of runs at each size; a bar and its label mark the median "
      "ratio. Above 1, memkit took less time.";
  chart.x_unit = ChartUnit::bytes;
  chart.y_unit = ChartUnit::ratio;
  chart.x_title = "inbox size";
  chart.y_title = "other ÷ memkit (wall time)";
  ChartSeries pairs;
  pairs.name = "one pair";
  pairs.color = kPairColor;
  pairs.marker = ChartMarker::dot;
  pairs.joined = false;
  ChartSeries medians;
  medians.name = "median";
  medians.color = kMedianColor;
  medians.marker = ChartMarker::bar;
  medians.joined = false;
  for (const SizeFigures& size : figures.sizes) {
    if (!size.vs) continue;
    const std::vector<double> ratios = report_pair_ratios(*size.vs);
    if (ratios.empty()) continue;
    const double spread = std::min(5.0, 30.0 / static_cast<double>(ratios.size()));
    for (std::size_t i = 0; i < ratios.size(); ++i) {
      ChartPoint point;
      point.x = static_cast<double>(size.bytes);
      point.y = ratios[i];
      point.nudge_px =
          (static_cast<double>(i) - static_cast<double>(ratios.size() - 1) / 2) * spread;
      point.tooltip =
          fmt::format("pair {} at {}: {}", i + 1, format_bytes(point.x), format_ratio(ratios[i]));
      pairs.points.push_back(std::move(point));
    }
    ChartPoint median;
    median.x = static_cast<double>(size.bytes);
    median.y = median_ratio(*size.vs);
    median.label = format_ratio(median.y);
    median.tooltip = fmt::format("median at {}: {} over {} pairs", format_bytes(median.x),
                                 median.label, ratios.size());
    medians.points.push_back(std::move(median));
  }
  chart.series.push_back(std::move(pairs));
  chart.series.push_back(std::move(medians));
  detail::ChartRule same;
  same.y = 1;
  same.label = "1× = the same time";
  chart.rules.push_back(std::move(same));
  return detail::render_log_chart(chart);
}
}  // namespace memkit::bench::detail
