// The HTML report of `memkit bench compaction --report FILE.html` (memkit/bench.hpp, issue 32):
// one page that needs nothing else (inline SVG, inline CSS, no script, nothing fetched), so it can
// be mailed, attached to an issue or opened offline, and shows the same thing everywhere.
#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "bench/report_page.hpp"
#include "bench/report_plots.hpp"
#include "bench/report_text.hpp"
#include "memkit/bench.hpp"

namespace memkit::bench {
namespace {

using detail::escape_html;
using detail::format_bytes;
using detail::format_count;
using detail::format_duration_us;
using detail::format_rate;
using detail::format_ratio;
using detail::report_card;
using detail::report_figure;
using detail::report_memory_chart;
using detail::report_page_end;
using detail::report_page_start;
using detail::report_phase_color;
using detail::report_process_color;
using detail::report_process_names;
using detail::report_ratio_chart;
using detail::report_runs_text;
using detail::report_setup;
using detail::report_swatch;
using detail::report_throughput_chart;
using detail::report_time_chart;
using detail::report_times_the_inbox;
using detail::report_us;

const SizeFigures& report_largest(const CompactionFigures& figures) {
  return *std::max_element(
      figures.sizes.begin(), figures.sizes.end(),
      [](const SizeFigures& a, const SizeFigures& b) { return a.bytes < b.bytes; });
}

// The few figures worth reading first, all at the largest size.
std::string report_cards(const CompactionFigures& figures) {
  const SizeFigures& largest = report_largest(figures);
  const std::string at = format_bytes(static_cast<double>(largest.bytes));
  std::string out = "<div class=\"cards\">\n";
  out += report_card(
      "Largest inbox", escape_html(at),
      format_count(largest.items) + " items, " + format_count(largest.bytes) + " bytes");
  const auto dry_run = std::find_if(largest.processes.begin(), largest.processes.end(),
                                    [](const ProcessFigures& p) { return p.step == "dry run"; });
  if (dry_run != largest.processes.end()) {
    out += report_card("Dry run, whole process",
                       format_duration_us(static_cast<double>(dry_run->wall_median_us)),
                       "median at " + at + ", start to exit");
  } else {
    std::int64_t total = 0;
    for (const PhaseFigures& p : largest.phases) total += p.phase == "apply" ? 0 : p.wall_median_us;
    out += report_card("Read to report, in process", format_duration_us(static_cast<double>(total)),
                       "sum of the phase medians at " + at);
  }
  const double peak = static_cast<double>(largest.peak_rss_kib) * 1024;
  const std::string times = report_times_the_inbox(peak, largest);
  out += report_card("Peak memory, bench process", format_bytes(peak),
                     times.empty() ? "at " + at : escape_html(times));
  if (largest.vs && !largest.vs->pairs.empty()) {
    out += report_card("Other command ÷ memkit", format_ratio(median_ratio(*largest.vs)),
                       "median of " + format_count(largest.vs->pairs.size()) + " pairs at " + at);
  } else if (largest.vs && largest.vs->failure) {
    out += report_card("Other command", "failed", "at " + at + "; see below");
  }
  out += "</div>\n";
  return out;
}

std::string report_size_cell(const SizeFigures& size, std::size_t rows) {
  return fmt::format("<td class=\"text\" rowspan=\"{}\">{}</td>", std::max<std::size_t>(rows, 1),
                     format_bytes(static_cast<double>(size.bytes)));
}

std::string report_tables(const CompactionFigures& figures) {
  std::string out =
      "<h3>Sizes</h3>\n<table>\n<thead><tr><th class=\"text\">Asked "
      "for</th><th>Inbox</th><th>Bytes</th>"
      "<th>Items</th><th>Copies</th><th class=\"text\">Plan ID</th>"
      "<th>Peak RSS (bench)</th></tr></thead>\n<tbody>\n";
  for (const SizeFigures& s : figures.sizes) {
    out += fmt::format(
        "<tr><td class=\"text\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td class=\"text\">{}</td><td>{}</td></tr>\n",
        format_bytes(static_cast<double>(s.size)), format_bytes(static_cast<double>(s.bytes)),
        format_count(s.bytes), format_count(s.items), format_count(s.rounds),
        s.plan_id ? "<code>" + escape_html(*s.plan_id) + "</code>"
                  : std::string("<span class=\"muted\">none: nothing to remove</span>"),
        format_bytes(static_cast<double>(s.peak_rss_kib) * 1024));
  }
  out += "</tbody>\n</table>\n";

  out +=
      "<h3>Phases, in process</h3>\n<table>\n<thead><tr><th class=\"text\">Inbox</th>"
      "<th class=\"text\">Phase</th><th>Median</th><th>Min</th><th>Max</th><th>CPU</th>"
      "<th>Page faults</th><th>Throughput</th></tr></thead>\n<tbody>\n";
  for (const SizeFigures& s : figures.sizes) {
    for (std::size_t i = 0; i < s.phases.size(); ++i) {
      const PhaseFigures& p = s.phases[i];
      out += fmt::format(
          "<tr{}>{}<td class=\"text\">{}{}</td><td>{}</td><td>{}</td><td>{}</td>"
          "<td>{}</td><td>{}</td><td>{}</td></tr>\n",
          i == 0 ? " class=\"first\"" : "", i == 0 ? report_size_cell(s, s.phases.size()) : "",
          report_swatch(report_phase_color(figures, p.phase)), escape_html(p.phase),
          report_us(p.wall_median_us), report_us(p.wall_min_us), report_us(p.wall_max_us),
          report_us(p.cpu_median_us),
          format_count(static_cast<std::uint64_t>(std::max<std::int64_t>(p.page_faults_median, 0))),
          format_rate(static_cast<double>(p.bytes_per_second)));
    }
  }
  out += "</tbody>\n</table>\n";

  if (!report_process_names(figures).empty()) {
    out +=
        "<h3>Whole processes</h3>\n<table>\n<thead><tr><th class=\"text\">Inbox</th>"
        "<th class=\"text\">Process</th><th>Median</th><th>Min</th><th>Max</th><th>CPU</th>"
        "<th>Peak RSS</th><th>Page faults</th></tr></thead>\n<tbody>\n";
    for (const SizeFigures& s : figures.sizes) {
      for (std::size_t i = 0; i < s.processes.size(); ++i) {
        const ProcessFigures& p = s.processes[i];
        out += fmt::format(
            "<tr{}>{}<td class=\"text\">{}{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
            "<td>{}</td><td>{}</td></tr>\n",
            i == 0 ? " class=\"first\"" : "", i == 0 ? report_size_cell(s, s.processes.size()) : "",
            report_swatch(report_process_color(figures, p.step)), escape_html(p.step),
            report_us(p.wall_median_us), report_us(p.wall_min_us), report_us(p.wall_max_us),
            report_us(p.cpu_median_us),
            format_bytes(static_cast<double>(p.peak_rss_median_kib) * 1024),
            format_count(
                static_cast<std::uint64_t>(std::max<std::int64_t>(p.page_faults_median, 0))));
      }
    }
    out += "</tbody>\n</table>\n";
  }
  return out;
}

std::string report_comparison_table(const CompactionFigures& figures) {
  std::string out =
      "<table>\n<thead><tr><th class=\"text\">Inbox</th><th>Pairs</th>"
      "<th>Median ratio</th><th>memkit (median)</th><th>Other (median)</th>"
      "<th>Other's peak RSS</th><th class=\"text\">Stopped</th></tr></thead>\n<tbody>\n";
  for (const SizeFigures& s : figures.sizes) {
    if (!s.vs) continue;
    std::vector<std::int64_t> memkit;
    std::vector<std::int64_t> other;
    std::vector<std::int64_t> rss;
    for (const PairFigures& pair : s.vs->pairs) {
      memkit.push_back(pair.memkit_us);
      other.push_back(pair.other_us);
      rss.push_back(pair.other_peak_rss_kib);
    }
    // The lower middle: a figure that was measured, not a mean of two.
    const auto lower_middle = [](std::vector<std::int64_t> values) -> std::int64_t {
      std::sort(values.begin(), values.end());
      return values.empty() ? 0 : values[(values.size() - 1) / 2];
    };
    const bool any = !s.vs->pairs.empty();
    const std::string none = "<span class=\"muted\">-</span>";
    out += fmt::format(
        "<tr><td class=\"text\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td class=\"text\">{}</td></tr>\n",
        format_bytes(static_cast<double>(s.bytes)), format_count(s.vs->pairs.size()),
        any ? "<strong>" + format_ratio(median_ratio(*s.vs)) + "</strong>" : none,
        any ? report_us(lower_middle(memkit)) : none, any ? report_us(lower_middle(other)) : none,
        any ? format_bytes(static_cast<double>(lower_middle(rss)) * 1024) : none,
        s.vs->failure ? std::string("failed (see above)") : std::string("no"));
  }
  out += "</tbody>\n</table>\n";
  return out;
}

std::string report_comparison(const CompactionFigures& figures) {
  std::string out = "<section>\n<h2>Against the other command</h2>\n";
  if (figures.vs_command) {
    out += "<p>Compared with <code>" + escape_html(*figures.vs_command) +
           "</code>, each run on a fresh copy of the same memory, paired with a memkit dry run and "
           "taking turns at going first.</p>\n";
  }
  for (const SizeFigures& s : figures.sizes) {
    if (!s.vs || !s.vs->failure) continue;
    out += fmt::format(
        "<div class=\"failure\"><strong>The other command failed at {}; its pairs "
        "stop there (memkit's own figures stand).</strong><pre>{}</pre></div>\n",
        format_bytes(static_cast<double>(s.bytes)), escape_html(*s.vs->failure));
  }
  out += report_figure(report_ratio_chart(figures),
                       "Each dot is one pair: the other command's wall time over memkit's dry run "
                       "on the same memory. The red bar and its label are the median at each size. "
                       "Above the dashed 1× line memkit took less time; below it, more.");
  out += report_comparison_table(figures);
  out += "</section>\n";
  return out;
}


std::string report_lede(const CompactionFigures& figures) {
  std::string out =
      "<p class=\"lede\">Measured on <strong>" + escape_html(figures.input) + "</strong>";
  if (figures.sizes.empty()) return out + ".</p>\n";
  std::uint64_t smallest = figures.sizes.front().bytes;
  std::uint64_t largest = smallest;
  for (const SizeFigures& s : figures.sizes) {
    smallest = std::min(smallest, s.bytes);
    largest = std::max(largest, s.bytes);
  }
  const std::string sizes = figures.sizes.size() == 1
                                ? "one size, " + format_bytes(static_cast<double>(largest))
                                : format_count(figures.sizes.size()) + " sizes from " +
                                      format_bytes(static_cast<double>(smallest)) + " to " +
                                      format_bytes(static_cast<double>(largest));
  return out + ": the inbox grown from its own items to " + sizes + ", each over " +
         report_runs_text(figures.runs) + ".</p>\n";
}

}  // namespace

std::string compaction_report_html(const CompactionFigures& figures) {
  std::string out = report_page_start("compaction", figures.input,
                                      "How compaction scales with the inbox", report_lede(figures));
  if (!figures.sizes.empty()) out += report_cards(figures);
  const std::string compared_with =
      figures.vs_command ? "<p class=\"intro\">Compared with:</p>\n<pre><code>" +
                               escape_html(*figures.vs_command) + "</code></pre>\n"
                         : "";
  out += report_setup(figures.command, compared_with, figures.machine,
                      report_runs_text(figures.runs) + " per size, after one untimed run");

  if (figures.sizes.empty()) {
    out +=
        "<p class=\"empty\">Nothing was measured: the run had no size to grow the inbox to.</p>\n";
  } else {
    const std::string runs = report_runs_text(figures.runs);
    out += "<section>\n<h2>Time</h2>\n";
    out += report_figure(
        report_time_chart(figures),
        "The median of " + runs +
            " at each size, whiskers from the fastest run to the slowest. "
            "Solid: the phases of one compaction inside the bench process. Dashed: whole "
            "<code>memkit custodian compact</code> processes on a fresh copy, timed from outside, "
            "start to exit. Both axes are logarithmic: a line parallel to the sizes' growth is "
            "linear scaling, and equal gaps are equal ratios. Markers of one size stand a few "
            "pixels apart, so that equal times all show.");
    out += "</section>\n<section>\n<h2>Throughput</h2>\n";
    out += report_figure(report_throughput_chart(figures),
                         "The inbox's bytes over the median wall time (1 MB/s is 10⁶ bytes per "
                         "second). A level line scales linearly; a falling one grows faster than "
                         "the inbox.");
    out += "</section>\n<section>\n<h2>Memory</h2>\n";
    out += report_figure(report_memory_chart(figures),
                         "Peak resident memory: the bench process's once its in-process runs are "
                         "done, and each whole process's median over its runs. The grey dashed "
                         "line is the size of the inbox itself: the height above it is how many "
                         "times the inbox a process holds. Markers of one size stand a few pixels "
                         "apart, so that equal peaks all show.");
    out += "</section>\n";
    const bool compared = std::any_of(figures.sizes.begin(), figures.sizes.end(),
                                      [](const SizeFigures& s) { return s.vs.has_value(); });
    if (compared) out += report_comparison(figures);
    out += "<section>\n<h2>The numbers</h2>\n" + report_tables(figures) + "</section>\n";
  }
  return out + report_page_end(figures.machine);
}

}  // namespace memkit::bench
