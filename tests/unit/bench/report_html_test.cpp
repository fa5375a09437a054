// The HTML report of `memkit bench compaction --report` (memkit/bench.hpp, issue 32): one page,
// its plots as inline SVG, every user string escaped, nothing fetched, and every coordinate a
// number even when a size, a time or a comparison is missing.
#include <doctest/doctest.h>

#include <cctype>
#include <string>
#include <vector>

#include "bench/report_text.hpp"
#include "memkit/bench.hpp"
#include "report_checks.hpp"

namespace memkit::bench {
namespace {

using report_checks::check_well_formed_plots;
using report_checks::count_of;
using report_checks::example_machine;
using report_checks::group_of;
using report_checks::lower;
using report_checks::points_of;
using report_checks::svgs_of;

const std::vector<std::string> kPhases = {"read", "plan", "hash", "report", "apply"};
const std::string kHostile = "<script>alert(1)</script> & \"x\" 'y'";
const std::string kHostileEscaped =
    "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot; &#39;y&#39;";

// Sizes of 64 KiB, 256 KiB, 1 MiB...; times that grow with the size.
CompactionFigures figures_of(std::size_t sizes, bool processes, bool compared) {
  CompactionFigures f;
  f.command = "memkit bench compaction --sizes 64K,256K --report r.html";
  f.input = "the bundled example";
  f.machine = example_machine();
  f.runs = 3;
  if (compared) f.vs_command = "python3 other.py {dir}";
  for (std::size_t i = 0; i < sizes; ++i) {
    SizeFigures s;
    s.size = 65536ULL << (2 * i);
    s.bytes = s.size + 100;
    s.items = s.bytes / 64;
    s.rounds = static_cast<std::uint32_t>(10 << (2 * i));
    s.plan_id = "0123456789abcdef";
    s.peak_rss_kib = 5000 + static_cast<std::int64_t>(s.bytes / 512);
    for (std::size_t p = 0; p < kPhases.size(); ++p) {
      const auto median = static_cast<std::int64_t>((p + 1) * s.bytes / 1000);
      s.phases.push_back(PhaseFigures{kPhases[p], median, median - 1, median + 5, median, 12,
                                      static_cast<std::int64_t>(s.bytes) * 1000000 / median});
    }
    if (processes) {
      s.processes.push_back(ProcessFigures{"dry run", 4000, 3900, 4500, 3000, 6000, 500});
      s.processes.push_back(ProcessFigures{"apply", 4400, 4300, 4800, 3200, 6100, 520});
    }
    if (compared) {
      ComparisonFigures c;
      c.pairs = {PairFigures{100, 300, 9000}, PairFigures{100, 500, 9000},
                 PairFigures{100, 400, 9000}};
      s.vs = c;
    }
    f.sizes.push_back(s);
  }
  return f;
}

}  // namespace

TEST_CASE("bench report: one page with three plots, a fourth when compared") {
  const std::string plain = compaction_report_html(figures_of(3, true, false));
  const std::string compared = compaction_report_html(figures_of(3, true, true));
  CHECK(plain.rfind("<!doctype html>\n", 0) == 0);
  CHECK(plain.find("</html>") != std::string::npos);
  CHECK(svgs_of(plain).size() == 3);
  CHECK(svgs_of(compared).size() == 4);
  check_well_formed_plots(plain);
  check_well_formed_plots(compared);
  CHECK(plain.find("Against the other command") == std::string::npos);
  CHECK(compared.find("python3 other.py {dir}") != std::string::npos);
  // The machine, the runs and the Plan IDs are on the page.
  for (const std::string shown :
       {"Example CPU @ 3.0GHz", "Linux 6.1.0-18-amd64 x86_64", "GCC 12.2.0", "Release", "0.9.0",
        "16\u00A0GiB", "3 timed runs", "0123456789abcdef"}) {
    CHECK_MESSAGE(plain.find(shown) != std::string::npos, shown);
  }
}

TEST_CASE("bench report: a line per phase and per whole process, a point per size") {
  const std::string html = compaction_report_html(figures_of(3, true, false));
  const std::vector<std::string> svgs = svgs_of(html);
  REQUIRE(svgs.size() == 3);
  for (const std::string& svg : {svgs[0], svgs[1]}) {  // time, throughput
    for (const std::string& phase : kPhases) CHECK_MESSAGE(points_of(svg, phase) == 3, phase);
    CHECK(points_of(svg, "dry run (process)") == 3);
    CHECK(points_of(svg, "apply (process)") == 3);
    CHECK(count_of(svg, "class=\"whisker\"") == 7 * 3);
  }
  CHECK(points_of(svgs[2], "bench process") == 3);
  CHECK(points_of(svgs[2], "dry run (process)") == 3);
  CHECK(points_of(svgs[2], "the inbox itself") == 3);
  // Ticks with their units, on both axes.
  CHECK(svgs[0].find(">64\u00A0KiB</text>") != std::string::npos);
  CHECK(svgs[0].find(">1\u00A0MiB</text>") != std::string::npos);
  CHECK(svgs[0].find("\u00A0ms</text>") != std::string::npos);
  CHECK(svgs[1].find("B/s</text>") != std::string::npos);
  // Peak memory against the inbox: 5000 KiB + bytes/512 over 1 MiB + 100 bytes.
  CHECK(svgs[2].find("the inbox at 1\u00A0MiB") != std::string::npos);
}

TEST_CASE("bench report: a hostile command, folder and failure appear only escaped") {
  CompactionFigures f = figures_of(2, true, true);
  f.command = "memkit bench compaction --vs " + kHostile;
  f.input = kHostile;
  f.vs_command = kHostile;
  f.machine.cpu = kHostile;
  f.sizes[1].plan_id = kHostile;
  f.sizes[1].vs->failure = "exit 1: " + kHostile + " \x01 \xff";
  const std::string html = compaction_report_html(f);
  CHECK(lower(html).find("<script") == std::string::npos);
  CHECK(html.find("alert(1)</") == std::string::npos);
  CHECK(html.find("\"x\"") == std::string::npos);
  CHECK(html.find("'y'") == std::string::npos);
  CHECK(count_of(html, kHostileEscaped) >= 6);
  // Control characters and bytes that are not UTF-8 become U+FFFD.
  CHECK(html.find("\x01") == std::string::npos);
  CHECK(html.find("\xff") == std::string::npos);
  CHECK(html.find(kHostileEscaped + " \xEF\xBF\xBD \xEF\xBF\xBD") != std::string::npos);
  check_well_formed_plots(html);
}

TEST_CASE("bench report: nothing fetched, nothing run") {
  const std::string html = compaction_report_html(figures_of(2, true, true));
  const std::string text = lower(html);
  for (const std::string scheme : {"http://", "https://"}) {
    for (std::size_t at = text.find(scheme); at != std::string::npos;
         at = text.find(scheme, at + 1)) {
      CHECK(text.compare(at, 26, "http://www.w3.org/2000/svg") == 0);
    }
  }
  CHECK(count_of(text, "http://www.w3.org/2000/svg") == 4);
  for (const std::string word : {"<script", "<link", "<img", "<iframe", "src=", "url(", "@import",
                                 "href", "//cdn", "javascript:"}) {
    CHECK_MESSAGE(text.find(word) == std::string::npos, word);
  }
  // No event handler attribute (onload=, onclick=...).
  for (std::size_t at = text.find(" on"); at != std::string::npos; at = text.find(" on", at + 1)) {
    std::size_t end = at + 3;
    while (end < text.size() && std::isalpha(static_cast<unsigned char>(text[end])) != 0) ++end;
    CHECK_MESSAGE(text[end] != '=', text.substr(at, end - at + 1));
  }
}

TEST_CASE("bench report: the comparison's ratios, their median and the failure") {
  CompactionFigures f = figures_of(2, true, true);
  // Ratios 3, 5 and 4 at 64 KiB (median 4); 2 and 3 at 256 KiB (median 2.5).
  f.sizes[1].vs->pairs = {PairFigures{200, 400, 9000}, PairFigures{200, 600, 9000}};
  f.sizes[1].vs->failure = "timed out after 60 s";
  const std::string html = compaction_report_html(f);
  const std::vector<std::string> svgs = svgs_of(html);
  REQUIRE(svgs.size() == 4);
  const std::string& ratios = svgs[3];
  CHECK(count_of(group_of(ratios, "one pair"), "<circle") == 3 + 2);
  CHECK(count_of(group_of(ratios, "median"), "<line") == 2);
  CHECK(ratios.find(">4×</text>") != std::string::npos);
  CHECK(ratios.find(">2.5×</text>") != std::string::npos);
  CHECK(ratios.find("1× = the same time") != std::string::npos);
  CHECK(html.find("<strong>4×</strong>") != std::string::npos);
  CHECK(html.find("<strong>2.5×</strong>") != std::string::npos);
  const std::size_t failure = html.find("class=\"failure\"");
  REQUIRE(failure != std::string::npos);
  CHECK(failure < html.find("<svg", html.find("Against the other command")));
  CHECK(html.find("timed out after 60 s", failure) != std::string::npos);
  check_well_formed_plots(html);

  // A failure before the first pair: the plot is drawn empty, the failure still shown.
  f.sizes[0].vs->pairs.clear();
  f.sizes[1].vs->pairs.clear();
  const std::string none = compaction_report_html(f);
  CHECK(svgs_of(none).size() == 4);
  CHECK(none.find("timed out after 60 s") != std::string::npos);
  check_well_formed_plots(none);
}

TEST_CASE("bench report: one size, zeros, no processes, no comparison, nothing at all") {
  SUBCASE("one size: a single x on a log axis") {
    const std::string html = compaction_report_html(figures_of(1, true, true));
    CHECK(svgs_of(html).size() == 4);
    CHECK(points_of(svgs_of(html)[0], "plan") == 1);
    CHECK(svgs_of(html)[0].find(">64\u00A0KiB</text>") != std::string::npos);
    check_well_formed_plots(html);
  }
  SUBCASE("zero times, throughput, memory and sizes sit on the axis floor") {
    CompactionFigures f = figures_of(2, true, true);
    for (SizeFigures& s : f.sizes) {
      s.bytes = 0;
      s.peak_rss_kib = 0;
      for (PhaseFigures& p : s.phases) p = PhaseFigures{p.phase, 0, 0, 0, 0, 0, 0};
      for (ProcessFigures& p : s.processes) p = ProcessFigures{p.step, 0, 0, 0, 0, 0, 0};
      s.vs->pairs = {PairFigures{0, 0, 0}, PairFigures{100, 0, 0}};
    }
    f.machine = Machine{};
    f.runs = 0;
    const std::string html = compaction_report_html(f);
    CHECK(svgs_of(html).size() == 4);
    CHECK(points_of(svgs_of(html)[0], "read") == 2);
    check_well_formed_plots(html);
  }
  SUBCASE("no whole processes and no comparison") {
    const std::string html = compaction_report_html(figures_of(2, false, false));
    CHECK(svgs_of(html).size() == 3);
    CHECK(points_of(svgs_of(html)[0], "dry run (process)") == 0);
    CHECK(html.find("Whole processes") == std::string::npos);
    check_well_formed_plots(html);
  }
  SUBCASE("no size: a page that says nothing was measured") {
    const std::string html = compaction_report_html(figures_of(0, true, false));
    CHECK(svgs_of(html).empty());
    CHECK(html.find("Nothing was measured") != std::string::npos);
    CHECK(html.find("</html>") != std::string::npos);
    check_well_formed_plots(html);
  }
}

TEST_CASE("bench report: figures to three significant digits in their units") {
  using namespace detail;
  CHECK(format_duration_us(0) == "0\u00A0µs");
  CHECK(format_duration_us(850) == "850\u00A0µs");
  CHECK(format_duration_us(999.7) == "1\u00A0ms");
  CHECK(format_duration_us(12345) == "12.3\u00A0ms");
  CHECK(format_duration_us(2.5e6) == "2.5\u00A0s");
  CHECK(format_bytes(65536) == "64\u00A0KiB");
  CHECK(format_bytes(1.5 * 1024 * 1024) == "1.5\u00A0MiB");
  CHECK(format_rate(123.4e6) == "123\u00A0MB/s");
  CHECK(format_rate(std::nan("")) == "0\u00A0B/s");
  CHECK(format_ratio(1.4321) == "1.43×");
  CHECK(format_count(1234567) == "1,234,567");
  CHECK(escape_html("a<b>&\"'\t") == "a&lt;b&gt;&amp;&quot;&#39;\t");
  CHECK(escape_html("µs \xE2\x82\xAC \xC0\xAF \xED\xA0\x80") ==
        "µs \xE2\x82\xAC \xEF\xBF\xBD\xEF\xBF\xBD \xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
}

}  // namespace memkit::bench
