// JSON of `memkit bench recall` (docs/schemas/bench-recall.schema.json): integers only, times in
// microseconds (a query's latency in nanoseconds), sizes in bytes.
#include "codec/canonical.hpp"
#include "json/bench_machine.hpp"
#include "json/json.hpp"

namespace memkit {
namespace {

nlohmann::json recall_timing_json(const bench::RecallTiming& t) {
  return {
      {"wall_us", {{"median", t.wall_median_us}, {"min", t.wall_min_us}, {"max", t.wall_max_us}}},
      {"cpu_us", t.cpu_median_us},
      {"page_faults", t.page_faults_median}};
}

}  // namespace

std::string bench_recall_json(const bench::RecallFigures& figures) {
  using nlohmann::json;
  json build = recall_timing_json(figures.build);
  build["bytes_per_second"] = figures.build_bytes_per_second;
  json updates = json::array();
  for (const bench::RecallUpdateFigures& u : figures.updates) {
    json update = recall_timing_json(u.time);
    update["change"] = u.change;
    update["file"] = detail::utf8(u.file);
    update["packs_kept"] = u.packs_kept;
    update["packs_built"] = u.packs_built;
    update["files_read"] = u.files_read;
    updates.push_back(std::move(update));
  }
  const bench::RecallQueryFigures& q = figures.queries;
  json cold = recall_timing_json(q.cold);
  cold["queries"] = q.cold_queries;
  const json queries = {{"count", q.queries},
                        {"limit", q.limit},
                        {"latency_ns",
                         {{"p50", q.p50_ns}, {"p90", q.p90_ns}, {"p99", q.p99_ns}, {"max", q.max_ns}}},
                        {"queries_per_second", q.queries_per_second},
                        {"cold", cold}};
  return detail::canonical_dump(
      json{{"schema", "memkit-bench-recall/1"},
           {"command", "recall"},
           {"command_line", detail::utf8(figures.command)},
           {"machine", json_detail::bench_machine_json(figures.machine)},
           {"input", detail::utf8(figures.input)},
           {"synthetic_entries",
            figures.synthetic_entries ? json(*figures.synthetic_entries) : json(nullptr)},
           {"runs", figures.runs},
           {"files", figures.files},
           {"units", figures.units},
           {"memory_bytes", figures.memory_bytes},
           {"index_bytes", figures.index_bytes},
           {"packs", figures.packs},
           {"peak_rss_kib", figures.peak_rss_kib},
           {"build", build},
           {"updates", updates},
           {"queries", queries}});
}

}  // namespace memkit
