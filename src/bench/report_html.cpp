// The HTML report of `memkit bench compaction --report FILE.html` (memkit/bench.hpp, issue 32):
// one page that needs nothing else (inline SVG, inline CSS, no script, nothing fetched), so it can
// be mailed, attached to an issue or opened offline, and shows the same thing everywhere.
#include <fmt/format.h>

#include <algorithm>
#include <string_view>

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
using detail::report_memory_chart;
using detail::report_phase_color;
using detail::report_process_color;
using detail::report_process_names;
using detail::report_ratio_chart;
using detail::report_throughput_chart;
using detail::report_time_chart;
using detail::report_times_the_inbox;

std::string report_runs_text(std::uint64_t runs) {
  return runs == 1 ? "1 timed run" : format_count(runs) + " timed runs";
}

std::string report_figure(const std::string& svg, std::string_view caption) {
  return fmt::format("<figure>\n{}\n<figcaption>{}</figcaption>\n</figure>\n", svg, caption);
}

const SizeFigures& report_largest(const CompactionFigures& figures) {
  return *std::max_element(
      figures.sizes.begin(), figures.sizes.end(),
      [](const SizeFigures& a, const SizeFigures& b) { return a.bytes < b.bytes; });
}

std::string report_card(std::string_view label, const std::string& value, const std::string& sub) {
  return fmt::format(
      "<div class=\"card\"><div class=\"label\">{}</div><div class=\"value\">{}</div>"
      "<div class=\"sub\">{}</div></div>\n",
      label, value, sub);
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

std::string report_machine(const CompactionFigures& figures) {
  const Machine& m = figures.machine;
  const auto shown = [](const std::string& text) {
    return text.empty() ? std::string("<span class=\"muted\">unknown</span>") : escape_html(text);
  };
  std::string out = "<dl class=\"machine\">\n";
  const auto row = [&](std::string_view term, const std::string& value) {
    out += fmt::format("<dt>{}</dt><dd>{}</dd>\n", term, value);
  };
  row("CPU", shown(m.cpu));
  row("Cores", m.cores == 0 ? shown("") : format_count(m.cores) + " logical");
  row("Memory",
      m.memory_bytes == 0 ? shown("") : format_bytes(static_cast<double>(m.memory_bytes)));
  row("Kernel", shown(m.kernel));
  row("Compiler", shown(m.compiler));
  row("Build type", shown(m.build_type));
  row("memkit", shown(m.memkit_version));
  row("Runs", report_runs_text(figures.runs) + " per size, after one untimed run");
  out += "</dl>\n";
  return out;
}

std::string report_swatch(const std::string& color) {
  return fmt::format("<span class=\"swatch\" style=\"background:{}\"></span>", escape_html(color));
}

std::string report_size_cell(const SizeFigures& size, std::size_t rows) {
  return fmt::format("<td class=\"text\" rowspan=\"{}\">{}</td>", std::max<std::size_t>(rows, 1),
                     format_bytes(static_cast<double>(size.bytes)));
}

std::string report_us(std::int64_t us) { return format_duration_us(static_cast<double>(us)); }

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

constexpr std::string_view kReportStyle = R"(:root{color-scheme:light}
*{box-sizing:border-box}
html{background:#eef0f3}
body{margin:0;color:#1f2328;font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1000px;margin:0 auto;padding:44px 40px 48px;background:#ffffff;box-shadow:0 0 0 1px #e1e4e8}
.eyebrow{margin:0;font-size:12px;font-weight:700;letter-spacing:.09em;text-transform:uppercase;color:#0969da}
h1{margin:6px 0 10px;font-size:31px;line-height:1.2;letter-spacing:-.015em}
h2{margin:46px 0 4px;font-size:21px;line-height:1.3;letter-spacing:-.01em}
h3{margin:26px 0 6px;font-size:15px}
p{margin:0 0 12px}
.lede{font-size:17px;color:#424a53;max-width:48em}
.intro{color:#57606a;max-width:52em}
code,pre{font-family:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"DejaVu Sans Mono","Liberation Mono",monospace;font-size:13px}
p code,td code{padding:1px 5px;background:#f3f4f6;border-radius:4px}
pre{margin:0 0 14px;padding:12px 14px;background:#f6f8fa;border:1px solid #e1e4e8;border-radius:8px;white-space:pre-wrap;overflow-wrap:anywhere}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(190px,1fr));gap:12px;margin:26px 0 4px}
.card{padding:14px 16px;border:1px solid #e1e4e8;border-radius:10px;background:#fafbfc}
.card .label{font-size:12.5px;font-weight:600;color:#57606a}
.card .value{margin:2px 0;font-size:26px;font-weight:700;line-height:1.2;font-variant-numeric:tabular-nums;letter-spacing:-.01em}
.card .sub{font-size:12.5px;color:#6e7781}
.setup{display:grid;grid-template-columns:1fr 1fr;gap:8px 32px;align-items:start}
.setup h2{margin-top:34px}
dl.machine{display:grid;grid-template-columns:max-content 1fr;gap:3px 18px;margin:8px 0 0;font-size:14px}
dl.machine dt{color:#57606a}
dl.machine dd{margin:0;overflow-wrap:anywhere}
figure{margin:14px 0 0;padding:16px 19px 12px;border:1px solid #e1e4e8;border-radius:12px;background:#ffffff}
figure svg{display:block;max-width:100%;height:auto}
figcaption{margin:8px 0 0;font-size:13.5px;color:#57606a;max-width:54em}
.failure{margin:16px 0;padding:12px 16px;border:1px solid #ffb3b8;border-left:6px solid #cf222e;border-radius:8px;background:#fff5f5;color:#82071e}
.failure strong{display:block;margin-bottom:8px;font-size:15.5px}
.failure pre{margin:0;background:#ffffff;border-color:#ffd1d5;color:#1f2328}
table{width:100%;border-collapse:collapse;margin:4px 0 8px;font-size:13.5px;font-variant-numeric:tabular-nums}
th,td{padding:5px 10px;border-bottom:1px solid #eaeef2;text-align:right;white-space:nowrap}
th{font-weight:600;color:#424a53;background:#f6f8fa;border-bottom:1px solid #d0d7de}
th.text,td.text{text-align:left}
tr.first td{border-top:1px solid #d0d7de}
td[rowspan]{vertical-align:top;font-weight:600}
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:8px}
.muted{color:#6e7781}
.empty{margin:36px 0;padding:36px;border:1px dashed #c9d1d9;border-radius:12px;text-align:center;color:#57606a;font-size:17px}
footer{margin-top:44px;padding-top:14px;border-top:1px solid #eaeef2;font-size:12.5px;color:#6e7781}
)";

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
  const std::string input = escape_html(figures.input);
  std::string out =
      "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<title>memkit bench compaction: " + input + "</title>\n";
  out += "<style>\n" + std::string(kReportStyle) + "</style>\n</head>\n<body>\n<main>\n";
  out +=
      "<header>\n<p class=\"eyebrow\">memkit bench compaction</p>\n"
      "<h1>How compaction scales with the inbox</h1>\n";
  out += report_lede(figures);
  out += "</header>\n";
  if (!figures.sizes.empty()) out += report_cards(figures);

  out += "<section class=\"setup\">\n<div>\n<h2>Command</h2>\n<pre><code>" +
         escape_html(figures.command) + "</code></pre>\n";
  if (figures.vs_command) {
    out += "<p class=\"intro\">Compared with:</p>\n<pre><code>" + escape_html(*figures.vs_command) +
           "</code></pre>\n";
  }
  out += "</div>\n<div>\n<h2>Machine</h2>\n" + report_machine(figures) + "</div>\n</section>\n";

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
  out += "<footer>Made by memkit " + escape_html(figures.machine.memkit_version) +
         ". This page is self-contained: no script, no web fonts, nothing fetched.</footer>\n";
  out += "</main>\n</body>\n</html>\n";
  return out;
}

}  // namespace memkit::bench
