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

nlohmann::json recall_latency_json(std::int64_t p50, std::int64_t p90, std::int64_t p99,
                                   std::int64_t max) {
  return {{"p50", p50}, {"p90", p90}, {"p99", p99}, {"max", max}};
}

}  // namespace

std::string bench_recall_json(const bench::RecallFigures& figures) {
  using nlohmann::json;
  json build = recall_timing_json(figures.build);
  build["bytes_per_second"] = figures.build_bytes_per_second;
  build["packs_built"] = figures.build_packs_built;
  build["files_read"] = figures.build_files_read;
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
  json shapes = json::array();
  for (const bench::RecallShapeFigures& shape : q.shapes) {
    shapes.push_back({{"shape", shape.shape},
                      {"queries", shape.queries},
                      {"latency_ns", recall_latency_json(shape.p50_ns, shape.p90_ns, shape.p99_ns,
                                                         shape.max_ns)}});
  }
  json each = json::array();
  for (const bench::RecallQueryTiming& query : q.each) {
    each.push_back({{"query", detail::utf8(query.query)},
                    {"shape", query.shape},
                    {"ns", query.ns},
                    {"matches", query.matches}});
  }
  const json queries = {{"count", q.queries},
                        {"limit", q.limit},
                        {"latency_ns", recall_latency_json(q.p50_ns, q.p90_ns, q.p99_ns, q.max_ns)},
                        {"queries_per_second", q.queries_per_second},
                        {"shapes", shapes},
                        {"each", each},
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
