// The HTML report of `memkit bench recall --report` (memkit/bench.hpp, issue 32): the steps, the
// shapes' percentiles, and one plot of each query's latency against its matches, a series of
// marks per shape with the p50 and p99 as rules; every query's text escaped, every coordinate a
// number, queries that match nothing on the axis's floor.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "bench/report_chart.hpp"
#include "memkit/bench.hpp"
#include "report_checks.hpp"

namespace memkit::bench {
namespace {

using report_checks::check_well_formed_plots;
using report_checks::count_of;
using report_checks::example_machine;
using report_checks::group_of;
using report_checks::lower;
using report_checks::svgs_of;

const std::string kRecallHostile = "<script>&\"";
const std::string kRecallHostileEscaped = "&lt;script&gt;&amp;&quot;";

// `queries` queries by turns of shape, the k-th matching k * 7 units (0 for the first of each
// shape) in (k + 1) * 900 ns.
RecallFigures recall_figures_of(std::size_t queries) {
  RecallFigures f;
  f.command = "memkit bench recall --synthetic 2000 --report r.html";
  f.machine = example_machine();
  f.input = "a generated store of 2000 entries";
  f.synthetic_entries = 2000;
  f.runs = 3;
  f.files = 4;
  f.units = 2001;
  f.memory_bytes = 180000;
  f.index_bytes = 700000;
  f.packs = 1;
  f.peak_rss_kib = 20000;
  f.build = RecallTiming{30000, 29000, 31000, 28000, 40};
  f.build_bytes_per_second = 6000000;
  f.build_packs_built = 1;
  f.build_files_read = 4;
  f.updates = {RecallUpdateFigures{"grew", "docs/memory/notes-00000.md",
                                   RecallTiming{900, 800, 1000, 700, 3}, 1, 1, 1},
               RecallUpdateFigures{"changed", "docs/memory/notes-00000.md",
                                   RecallTiming{1900, 1800, 2000, 1700, 5}, 0, 1, 1}};
  RecallQueryFigures& q = f.queries;
  q.queries = queries;
  q.limit = 10;
  const std::vector<std::string> shapes = {std::string(kRecallOneWord), std::string(kRecallAllOf),
                                           std::string(kRecallAnyOf)};
  for (std::size_t i = 0; i < queries; ++i) {
    const std::size_t k = i / shapes.size();
    q.each.push_back(RecallQueryTiming{"word" + std::to_string(i), shapes[i % shapes.size()],
                                       static_cast<std::int64_t>((k + 1) * 900), k * 7});
  }
  for (const std::string& shape : shapes) {
    const std::uint64_t n = (queries + 2 - static_cast<std::size_t>(&shape - shapes.data())) / 3;
    if (n > 0) q.shapes.push_back(RecallShapeFigures{shape, n, 9000, 16000, 18000, 18900});
  }
  q.p50_ns = 9000;
  q.p90_ns = 16000;
  q.p99_ns = 18000;
  q.max_ns = 18900;
  q.queries_per_second = 100000;
  q.cold_queries = 10;
  q.cold = RecallTiming{500, 400, 900, 450, 2};
  return f;
}

// The marks a series draws, whatever their shape.
std::size_t marks_of(const std::string& svg, const std::string& series) {
  const std::string group = group_of(svg, series);
  return count_of(group, "<circle") + count_of(group, "<rect") + count_of(group, "<polygon");
}

}  // namespace

TEST_CASE("bench recall report: one plot, a series of marks per shape, the p50 and p99 rules") {
  const std::string html = recall_report_html(recall_figures_of(60));
  CHECK(html.rfind("<!doctype html>\n", 0) == 0);
  CHECK(html.find("</html>") != std::string::npos);
  const std::vector<std::string> svgs = svgs_of(html);
  REQUIRE(svgs.size() == 1);
  check_well_formed_plots(html);
  for (const std::string_view shape : {kRecallOneWord, kRecallAllOf, kRecallAnyOf}) {
    CHECK_MESSAGE(marks_of(svgs[0], std::string(shape)) == 20, shape);
  }
  // Distinct colours and marks.
  CHECK(group_of(svgs[0], "one word").find("<circle") != std::string::npos);
  CHECK(group_of(svgs[0], "all of").find("<rect") != std::string::npos);
  CHECK(group_of(svgs[0], "any of").find("<polygon") != std::string::npos);
  CHECK(group_of(svgs[0], "one word").find("#4e79a7") != std::string::npos);
  CHECK(group_of(svgs[0], "all of").find("#f28e2b") != std::string::npos);
  CHECK(group_of(svgs[0], "any of").find("#59a14f") != std::string::npos);
  CHECK(count_of(svgs[0], "class=\"rule\"") == 2);
  CHECK(svgs[0].find(">p50 9\u00A0µs</text>") != std::string::npos);
  CHECK(svgs[0].find(">p99 18\u00A0µs</text>") != std::string::npos);
  // Matches on a count axis: 0 on its floor, then 1, 10, 100.
  CHECK(svgs[0].find(">0</text>") != std::string::npos);
  CHECK(svgs[0].find(">1</text>") != std::string::npos);
  CHECK(svgs[0].find(">100</text>") != std::string::npos);
  // What was measured, the steps, the shapes and the machine.
  for (const std::string shown :
       {"a generated store of 2000 entries", "2,001", "build from nothing", "update: one file grew",
        "update: one file changed", "docs/memory/notes-00000.md", "open + query (10 queries)",
        "Example CPU @ 3.0GHz", "GCC 12.2.0", "0.9.0", "3 timed runs per step", "16\u00A0GiB",
        "memkit bench recall --synthetic 2000"}) {
    CHECK_MESSAGE(html.find(shown) != std::string::npos, shown);
  }
  CHECK(count_of(html, "<td>18.9\u00A0µs</td>") == 4);  // each shape's max and all's
}

TEST_CASE("bench recall report: a hostile query, input, file and command appear only escaped") {
  RecallFigures f = recall_figures_of(9);
  f.queries.each[4].query = kRecallHostile;
  f.queries.each[4].ns = 50000;  // the slowest, so in that table too
  f.input = kRecallHostile;
  f.command = "memkit bench recall --root " + kRecallHostile;
  f.updates[0].file = kRecallHostile;
  f.updates[1].file = kRecallHostile;
  const std::string html = recall_report_html(f);
  CHECK(lower(html).find("<script") == std::string::npos);
  CHECK(html.find("&\"") == std::string::npos);
  // The tooltip of its mark, the slowest queries, the lede, the title, the facts, the command and
  // the updates' file.
  CHECK(count_of(html, kRecallHostileEscaped) >= 7);
  CHECK(group_of(svgs_of(html).at(0), "all of").find("<title>" + kRecallHostileEscaped) !=
        std::string::npos);
  check_well_formed_plots(html);
}

TEST_CASE("bench recall report: no matches, no queries, more queries than are drawn") {
  SUBCASE("queries that match nothing sit on the floor of the matches' axis") {
    RecallFigures f = recall_figures_of(6);
    for (RecallQueryTiming& q : f.queries.each) q.matches = 0;
    const std::string html = recall_report_html(f);
    const std::string svg = svgs_of(html).at(0);
    CHECK(marks_of(svg, "one word") == 2);
    // x = 0 on the plot's left edge (kPlotLeft), as every mark of the plot.
    CHECK(count_of(group_of(svg, "one word"), "cx=\"86.0\"") == 2);
    check_well_formed_plots(html);
  }
  SUBCASE("no query: an empty plot, still finite") {
    RecallFigures f = recall_figures_of(0);
    f.queries.p50_ns = f.queries.p99_ns = 0;
    const std::string html = recall_report_html(f);
    CHECK(svgs_of(html).size() == 1);
    CHECK(html.find("The slowest queries") == std::string::npos);
    check_well_formed_plots(html);
  }
  SUBCASE("past 5,000 queries one in k is drawn, and the caption says so") {
    const std::string html = recall_report_html(recall_figures_of(12000));
    const std::string svg = svgs_of(html).at(0);
    CHECK(marks_of(svg, "one word") + marks_of(svg, "all of") + marks_of(svg, "any of") == 4000);
    CHECK(html.find("One query in 3 is drawn") != std::string::npos);
    CHECK(html.find("<td>12,000</td>") != std::string::npos);
  }
}

TEST_CASE(
    "bench report chart: a count axis labels 1, 10, 100, 1k, 10k, 1M and puts 0 on its floor") {
  detail::Chart chart;
  chart.x_unit = detail::ChartUnit::count;
  chart.y_unit = detail::ChartUnit::microseconds;
  detail::ChartSeries series;
  series.joined = false;
  for (const double x : {0.0, 1.0, 1e6}) {
    detail::ChartPoint point;
    point.x = x;
    point.y = 5;
    series.points.push_back(point);
  }
  chart.series.push_back(series);
  const std::string svg = detail::render_log_chart(chart);
  check_well_formed_plots(svg);
  for (const std::string label : {">0<", ">1<", ">10<", ">100<", ">1k<", ">10k<", ">1M<"}) {
    CHECK_MESSAGE(svg.find(label) != std::string::npos, label);
  }
  CHECK(svg.find(">0.5<") == std::string::npos);        // no fraction of a count
  CHECK(svg.find("cx=\"86.0\"") != std::string::npos);  // the zero, on the floor
}

}  // namespace memkit::bench
