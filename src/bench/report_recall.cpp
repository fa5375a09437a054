// The HTML report of `memkit bench recall --report FILE.html` (memkit/bench.hpp, issue 32): a page
// like compaction's (report_page.hpp), whose plot puts each query's latency against the units it
// matches, a series per shape of query, so that what makes the slow ones slow can be seen.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>

#include "bench/report_chart.hpp"
#include "bench/report_page.hpp"
#include "bench/report_text.hpp"
#include "memkit/bench.hpp"

namespace memkit::bench {
namespace {

using detail::escape_html;
using detail::format_bytes;
using detail::format_count;
using detail::format_duration_us;
using detail::format_rate;
using detail::report_card;
using detail::report_us;

// The plot draws at most this many queries (every k-th of more), so that a run of a million
// queries still makes a page a browser opens; the tables count them all.
constexpr std::size_t kRecallReportMaxDots = 5000;
constexpr std::size_t kRecallReportSlowest = 10;

struct RecallShapeLook {
  std::string_view shape;
  std::string_view color;
  detail::ChartMarker marker;
};

constexpr std::array<RecallShapeLook, 3> kRecallShapeLooks{
    {{kRecallOneWord, "#4e79a7", detail::ChartMarker::circle},
     {kRecallAllOf, "#f28e2b", detail::ChartMarker::square},
     {kRecallAnyOf, "#59a14f", detail::ChartMarker::diamond}}};

RecallShapeLook recall_report_look(std::string_view shape) {
  for (const RecallShapeLook& look : kRecallShapeLooks) {
    if (look.shape == shape) return look;
  }
  return {shape, "#bab0ac", detail::ChartMarker::dot};
}

std::string recall_report_ns(std::int64_t ns) {
  return format_duration_us(static_cast<double>(ns) / 1000);
}

std::string recall_report_lede(const RecallFigures& f) {
  return "<p class=\"lede\">Measured on <strong>" + escape_html(f.input) +
         "</strong>: the index built from nothing, brought up to date after one file changed, "
         "and " +
         format_count(f.queries.queries) + " queries of the memory's own words, each step over " +
         detail::report_runs_text(f.runs) + ".</p>\n";
}

const RecallUpdateFigures* recall_report_update(const RecallFigures& f, std::string_view change) {
  const auto found = std::find_if(f.updates.begin(), f.updates.end(),
                                  [&](const RecallUpdateFigures& u) { return u.change == change; });
  return found == f.updates.end() ? nullptr : &*found;
}

std::string recall_report_cards(const RecallFigures& f) {
  std::string out = "<div class=\"cards\">\n";
  out += report_card("Build from nothing", report_us(f.build.wall_median_us),
                     format_rate(static_cast<double>(f.build_bytes_per_second)) + " of memory");
  if (const RecallUpdateFigures* grew = recall_report_update(f, "grew")) {
    out += report_card("Update, one file grew", report_us(grew->time.wall_median_us),
                       format_count(grew->packs_kept) + " pack(s) kept, " +
                           format_count(grew->packs_built) + " built");
  }
  out += report_card("Query, index open", recall_report_ns(f.queries.p50_ns),
                     "p50; p99 " + recall_report_ns(f.queries.p99_ns));
  out += report_card("Open and query", report_us(f.queries.cold.wall_median_us),
                     "median of " + format_count(f.queries.cold_queries) + ", from disk");
  out += "</div>\n";
  return out;
}

std::string recall_report_measured(const RecallFigures& f) {
  const auto bytes = [](std::uint64_t b) {
    return format_bytes(static_cast<double>(b)) + " <span class=\"muted\">(" + format_count(b) +
           " bytes)</span>";
  };
  return "<section>\n<h2>What was measured</h2>\n" +
         detail::report_facts({
             {"Input", escape_html(f.input)},
             {"Files", format_count(f.files) + " memory files indexed"},
             {"Units", format_count(f.units)},
             {"Memory", bytes(f.memory_bytes)},
             {"Index on disk", bytes(f.index_bytes)},
             {"Packs", format_count(f.packs)},
             {"Runs", detail::report_runs_text(f.runs) + " of each step, after one untimed run"},
             {"Peak RSS", format_bytes(static_cast<double>(f.peak_rss_kib) * 1024) +
                              " <span class=\"muted\">(the bench process, at the end)</span>"},
         }) +
         "</section>\n";
}

std::string recall_report_steps(const RecallFigures& f) {
  std::string out = "<section>\n<h2>Steps</h2>\n";
  if (!f.updates.empty()) {
    out += "<p class=\"intro\">The updates change <code>" + escape_html(f.updates.front().file) +
           "</code>: an entry appended to it (grew), then one letter of it edited in place "
           "(changed).</p>\n";
  }
  out +=
      "<table>\n<thead><tr><th class=\"text\">Step</th><th>Median</th>"
      "<th>Min</th><th>Max</th><th>CPU</th><th>Page faults</th><th>Packs kept</th>"
      "<th>Packs built</th><th>Files read</th></tr></thead>\n<tbody>\n";
  const std::string none = "<span class=\"muted\">-</span>";
  const auto row = [&](const std::string& step, const RecallTiming& t, const std::string& kept,
                       const std::string& built, const std::string& read) {
    out += fmt::format(
        "<tr><td class=\"text\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td>{}</td><td>{}</td><td>{}</td></tr>\n",
        step, report_us(t.wall_median_us), report_us(t.wall_min_us), report_us(t.wall_max_us),
        report_us(t.cpu_median_us),
        format_count(static_cast<std::uint64_t>(std::max<std::int64_t>(t.page_faults_median, 0))),
        kept, built, read);
  };
  row("build from nothing", f.build, "0", format_count(f.build_packs_built),
      format_count(f.build_files_read));
  for (const RecallUpdateFigures& u : f.updates) {
    row("update: one file " + escape_html(u.change), u.time, format_count(u.packs_kept),
        format_count(u.packs_built), format_count(u.files_read));
  }
  row("open + query (" + format_count(f.queries.cold_queries) + " queries)", f.queries.cold, none,
      none, none);
  out += "</tbody>\n</table>\n</section>\n";
  return out;
}

// The lower middle of the matches of the queries of `shape` (all when empty).
std::uint64_t recall_report_median_matches(const RecallQueryFigures& q, std::string_view shape) {
  std::vector<std::uint64_t> matches;
  for (const RecallQueryTiming& each : q.each) {
    if (shape.empty() || each.shape == shape) matches.push_back(each.matches);
  }
  if (matches.empty()) return 0;
  const auto middle = matches.begin() + static_cast<std::ptrdiff_t>((matches.size() - 1) / 2);
  std::nth_element(matches.begin(), middle, matches.end());
  return *middle;
}

std::string recall_report_shape_table(const RecallQueryFigures& q) {
  std::string out =
      "<table>\n<thead><tr><th class=\"text\">Shape</th><th>Queries</th><th>p50</th>"
      "<th>p90</th><th>p99</th><th>Max</th><th>Median matches</th></tr></thead>\n<tbody>\n";
  const auto row = [&](const std::string& name, std::uint64_t queries, std::int64_t p50,
                       std::int64_t p90, std::int64_t p99, std::int64_t max,
                       std::uint64_t matches) {
    out += fmt::format(
        "<tr><td class=\"text\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td>{}</td></tr>\n",
        name, format_count(queries), recall_report_ns(p50), recall_report_ns(p90),
        recall_report_ns(p99), recall_report_ns(max), format_count(matches));
  };
  for (const RecallShapeFigures& s : q.shapes) {
    row(detail::report_swatch(std::string(recall_report_look(s.shape).color)) +
            escape_html(s.shape),
        s.queries, s.p50_ns, s.p90_ns, s.p99_ns, s.max_ns,
        recall_report_median_matches(q, s.shape));
  }
  row("<strong>all</strong>", q.queries, q.p50_ns, q.p90_ns, q.p99_ns, q.max_ns,
      recall_report_median_matches(q, ""));
  out += "</tbody>\n</table>\n";
  return out;
}

std::string recall_report_slowest(const RecallQueryFigures& q) {
  std::vector<const RecallQueryTiming*> slowest;
  for (const RecallQueryTiming& each : q.each) slowest.push_back(&each);
  const std::size_t shown = std::min(slowest.size(), kRecallReportSlowest);
  std::partial_sort(
      slowest.begin(), slowest.begin() + static_cast<std::ptrdiff_t>(shown), slowest.end(),
      [](const RecallQueryTiming* a, const RecallQueryTiming* b) { return a->ns > b->ns; });
  std::string out =
      "<h3>The slowest queries</h3>\n<table>\n<thead><tr><th class=\"text\">Query</th>"
      "<th class=\"text\">Shape</th><th>Matches</th><th>Latency</th></tr></thead>\n<tbody>\n";
  for (std::size_t i = 0; i < shown; ++i) {
    const RecallQueryTiming& each = *slowest[i];
    out += fmt::format(
        "<tr><td class=\"text\"><code>{}</code></td><td class=\"text\">{}{}</td><td>{}</td>"
        "<td>{}</td></tr>\n",
        escape_html(each.query),
        detail::report_swatch(std::string(recall_report_look(each.shape).color)),
        escape_html(each.shape), format_count(each.matches), recall_report_ns(each.ns));
  }
  out += "</tbody>\n</table>\n";
  return out;
}

// Each query's latency (µs) against the units it matches, a series of dots per shape, with the
// p50 and p99 of them all as rules.
std::string recall_report_chart(const RecallQueryFigures& q) {
  detail::Chart chart;
  chart.title = "Query latency against matches";
  chart.description =
      "Each query's time, parsed and answered with the index open, against the number of units "
      "it matches, on log-log axes; a series per shape of query.";
  chart.x_unit = detail::ChartUnit::count;
  chart.y_unit = detail::ChartUnit::microseconds;
  chart.x_title = "Units the query matches";
  chart.y_title = "Latency";
  const std::size_t stride = (q.each.size() + kRecallReportMaxDots - 1) / kRecallReportMaxDots;
  for (const RecallShapeFigures& s : q.shapes) {
    const RecallShapeLook look = recall_report_look(s.shape);
    detail::ChartSeries series;
    series.name = s.shape;
    series.note = format_count(s.queries) + " queries, p50 " + recall_report_ns(s.p50_ns);
    series.color = std::string(look.color);
    series.marker = look.marker;
    series.joined = false;
    for (std::size_t i = 0; i < q.each.size(); i += std::max<std::size_t>(stride, 1)) {
      const RecallQueryTiming& each = q.each[i];
      if (each.shape != s.shape) continue;
      detail::ChartPoint point;
      point.x = static_cast<double>(each.matches);
      point.y = static_cast<double>(each.ns) / 1000;
      point.tooltip = fmt::format("{}: {} matches, {}", each.query, format_count(each.matches),
                                  recall_report_ns(each.ns));
      series.points.push_back(std::move(point));
    }
    chart.series.push_back(std::move(series));
  }
  chart.rules.push_back(
      {static_cast<double>(q.p50_ns) / 1000, "p50 " + recall_report_ns(q.p50_ns)});
  chart.rules.push_back(
      {static_cast<double>(q.p99_ns) / 1000, "p99 " + recall_report_ns(q.p99_ns)});
  return detail::render_log_chart(chart);
}

std::string recall_report_queries(const RecallFigures& f) {
  const RecallQueryFigures& q = f.queries;
  std::string out = "<section>\n<h2>Queries</h2>\n<p class=\"intro\">" + format_count(q.queries) +
                    " queries of one to three of the memory's own words (one word, two or three "
                    "ANDed, two or three ORed), drawn with a fixed seed, each parsed and answered "
                    "(the best " +
                    format_count(q.limit) +
                    " by BM25) with the index open, after an untimed pass over them all.</p>\n";
  std::string caption =
      "Each mark is one query of the timed pass: its latency against the units it matches. Both "
      "axes are logarithmic; a query that matches nothing sits on the left edge, at 0. The dashed "
      "lines are the p50 and p99 of all the queries.";
  if (q.each.size() > kRecallReportMaxDots) {
    const std::size_t stride = (q.each.size() + kRecallReportMaxDots - 1) / kRecallReportMaxDots;
    caption += " One query in " + format_count(stride) + " is drawn; the tables count them all.";
  }
  out += detail::report_figure(recall_report_chart(q), caption);
  out += recall_report_shape_table(q);
  if (!q.each.empty()) out += recall_report_slowest(q);
  out += "</section>\n";
  return out;
}

}  // namespace

std::string recall_report_html(const RecallFigures& figures) {
  std::string out =
      detail::report_page_start("recall", figures.input, "How recall builds, updates and answers",
                                recall_report_lede(figures));
  out += recall_report_cards(figures);
  out += detail::report_setup(
      figures.command, "", figures.machine,
      detail::report_runs_text(figures.runs) + " per step, after one untimed run");
  out += recall_report_measured(figures);
  out += recall_report_steps(figures);
  out += recall_report_queries(figures);
  return out + detail::report_page_end(figures.machine);
}

}  // namespace memkit::bench
