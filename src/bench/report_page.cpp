// The page around the bench reports' figures (report_page.hpp).
#include "bench/report_page.hpp"

#include <fmt/format.h>

#include "bench/report_text.hpp"

namespace memkit::bench::detail {
namespace {

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
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:3px 18px;margin:8px 0 0;font-size:14px}
dl.facts dt{color:#57606a}
dl.facts dd{margin:0;overflow-wrap:anywhere}
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

}  // namespace

std::string report_page_start(std::string_view command, const std::string& input,
                              std::string_view heading, const std::string& lede_html) {
  const std::string name = "memkit bench " + escape_html(command);
  std::string out =
      "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<title>" + name + ": " + escape_html(input) + "</title>\n";
  out += "<style>\n" + std::string(kReportStyle) + "</style>\n</head>\n<body>\n<main>\n";
  out += "<header>\n<p class=\"eyebrow\">" + name + "</p>\n<h1>" + escape_html(heading) +
         "</h1>\n" + lede_html + "</header>\n";
  return out;
}

std::string report_setup(const std::string& command, const std::string& more_html,
                         const Machine& machine, const std::string& runs) {
  const auto shown = [](const std::string& text) {
    return text.empty() ? std::string("<span class=\"muted\">unknown</span>") : escape_html(text);
  };
  const Machine& m = machine;
  const std::string facts = report_facts({
      {"CPU", shown(m.cpu)},
      {"Cores", m.cores == 0 ? shown("") : format_count(m.cores) + " logical"},
      {"Memory",
       m.memory_bytes == 0 ? shown("") : format_bytes(static_cast<double>(m.memory_bytes))},
      {"Kernel", shown(m.kernel)},
      {"Compiler", shown(m.compiler)},
      {"Build type", shown(m.build_type)},
      {"memkit", shown(m.memkit_version)},
      {"Runs", escape_html(runs)},
  });
  return "<section class=\"setup\">\n<div>\n<h2>Command</h2>\n<pre><code>" + escape_html(command) +
         "</code></pre>\n" + more_html + "</div>\n<div>\n<h2>Machine</h2>\n" + facts +
         "</div>\n</section>\n";
}

std::string report_page_end(const Machine& machine) {
  return "<footer>Made by memkit " + escape_html(machine.memkit_version) +
         ". This page is self-contained: no script, no web fonts, nothing fetched.</footer>\n"
         "</main>\n</body>\n</html>\n";
}

std::string report_facts(const std::vector<std::pair<std::string, std::string>>& rows) {
  std::string out = "<dl class=\"facts\">\n";
  for (const auto& [term, value] : rows)
    out += fmt::format("<dt>{}</dt><dd>{}</dd>\n", term, value);
  return out + "</dl>\n";
}

std::string report_card(std::string_view label, const std::string& value, const std::string& sub) {
  return fmt::format(
      "<div class=\"card\"><div class=\"label\">{}</div><div class=\"value\">{}</div>"
      "<div class=\"sub\">{}</div></div>\n",
      label, value, sub);
}

std::string report_figure(const std::string& svg, std::string_view caption) {
  return fmt::format("<figure>\n{}\n<figcaption>{}</figcaption>\n</figure>\n", svg, caption);
}

std::string report_swatch(const std::string& color) {
  return fmt::format("<span class=\"swatch\" style=\"background:{}\"></span>", escape_html(color));
}

std::string report_runs_text(std::uint64_t runs) {
  return runs == 1 ? "1 timed run" : format_count(runs) + " timed runs";
}

std::string report_us(std::int64_t us) { return format_duration_us(static_cast<double>(us)); }

}  // namespace memkit::bench::detail
