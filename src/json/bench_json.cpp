// JSON of `memkit bench compaction` (docs/benchmarks.md): integers only, times in microseconds.
#include "codec/canonical.hpp"
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
    sizes.push_back({{"size", s.size},
                     {"bytes", s.bytes},
                     {"items", s.items},
                     {"rounds", s.rounds},
                     {"plan_id", s.plan_id ? json(*s.plan_id) : json(nullptr)},
                     {"peak_rss_kib", s.peak_rss_kib},
                     {"phases", phases}});
  }
  return detail::canonical_dump(
      json{{"command", "compaction"}, {"runs", figures.runs}, {"sizes", sizes}});
}

}  // namespace memkit
