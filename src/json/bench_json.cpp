// JSON of `memkit bench compaction` (docs/bench-compaction.schema.json): times in microseconds,
// integers but for the comparison's median ratio.
#include "codec/canonical.hpp"
#include "json/bench_machine.hpp"
#include "json/json.hpp"

namespace memkit {

std::string bench_compaction_json(const bench::CompactionFigures& figures) {
  using nlohmann::json;
  json sizes = json::array();
  for (const bench::SizeFigures& s : figures.sizes) {
    json phases = json::array();
    for (const bench::PhaseFigures& p : s.phases) {
      phases.push_back({{"phase", p.phase},
                        {"wall_us",
                         {{"median", p.wall_median_us},
                          {"min", p.wall_min_us},
                          {"max", p.wall_max_us}}},
                        {"cpu_us", p.cpu_median_us},
                        {"page_faults", p.page_faults_median},
                        {"bytes_per_second", p.bytes_per_second}});
    }
    json processes = json::array();
    for (const bench::ProcessFigures& p : s.processes) {
      processes.push_back({{"step", p.step},
                           {"wall_us",
                            {{"median", p.wall_median_us},
                             {"min", p.wall_min_us},
                             {"max", p.wall_max_us}}},
                           {"cpu_us", p.cpu_median_us},
                           {"peak_rss_kib", p.peak_rss_median_kib},
                           {"page_faults", p.page_faults_median}});
    }
    json vs = nullptr;
    if (s.vs) {
      json pairs = json::array();
      for (const bench::PairFigures& pair : s.vs->pairs) {
        pairs.push_back({{"memkit_us", pair.memkit_us},
                         {"other_us", pair.other_us},
                         {"other_peak_rss_kib", pair.other_peak_rss_kib}});
      }
      // The one number that is not an integer: thousandths are enough for a ratio.
      const double ratio = static_cast<double>(
                               static_cast<std::int64_t>(bench::median_ratio(*s.vs) * 1000 + 0.5)) /
                           1000;
      vs = {{"pairs", pairs},
            {"ratio_median", ratio},
            {"failure", detail::text_or_null(s.vs->failure)}};
    }
    sizes.push_back({{"size", s.size},
                     {"bytes", s.bytes},
                     {"items", s.items},
                     {"rounds", s.rounds},
                     {"plan_id", s.plan_id ? json(*s.plan_id) : json(nullptr)},
                     {"peak_rss_kib", s.peak_rss_kib},
                     {"phases", phases},
                     {"processes", processes},
                     {"vs", vs}});
  }
  return detail::canonical_dump(json{{"schema", "memkit-bench-compaction/1"},
                                     {"command", "compaction"},
                                     {"command_line", detail::utf8(figures.command)},
                                     {"input", detail::utf8(figures.input)},
                                     {"vs_command", detail::text_or_null(figures.vs_command)},
                                     {"machine", json_detail::bench_machine_json(figures.machine)},
                                     {"runs", figures.runs},
                                     {"sizes", sizes}});
}

}  // namespace memkit
