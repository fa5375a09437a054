// `memkit bench recall` (issue 32; docs/benchmarks.md): recall measured on a copy of the memory of
// a root's layouts, or on a generated store (--synthetic), in a scratch folder removed at the end:
// the index built from nothing, brought up to date after one file grew or changed, and queries of
// the memory's own words answered with the index open and from disk; with --report, the page of
// those figures (bench::recall_report_html). The root is only read: its index lives in its
// .memkit/, which the bench never makes. The CLI's alone.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <thread>
#include <unordered_map>

#include "commands/bench_support.hpp"
#include "commands/flow.hpp"
#include "files/state_directory.hpp"
#include "json/json.hpp"
#include "memkit/bench.hpp"
#include "memkit/recall.hpp"
#include "memkit/search.hpp"
#include "store/recall_index.hpp"
#include "store/recall_root.hpp"
#include "text/shown_text.hpp"

namespace memkit::commands_detail {
namespace {

using detail::join;

constexpr std::uint64_t kRecallMaxRuns = 100;
constexpr std::uint64_t kRecallMaxQueries = 1'000'000;
constexpr std::size_t kRecallHitLimit = 10;  // `search`'s default --limit
constexpr std::uint64_t kRecallColdQueries = 100;
constexpr std::uint64_t kRecallQuerySeed = 0x71756572792D3032ULL;  // "query-02"
// The words queries are drawn from are counted in files of about this many bytes in all, spread
// over the memory: a large memory's words are known well enough from a part of it.
constexpr std::uint64_t kRecallWordSample = std::uint64_t{16} << 20;
// What a byte of memory needs on disk: itself, its index (about 3.7 times it: 309 MiB for the
// 84 MiB of 1,000,000 generated entries) and a pack made again beside the one it replaces.
constexpr std::uint64_t kRecallDiskPerByte = 6;
// And in memory, for a generated store (1,000,000 entries peak at about 4.5 times their bytes).
constexpr std::uint64_t kRecallMemoryPerByte = 6;
const std::string kRecallOption = "--root";
const std::string kRecallCustodianDir = "docs/memory";

// `a` times `b`, or the largest value when that overflows.
std::uint64_t recall_saturated(std::uint64_t a, std::uint64_t b) {
  constexpr std::uint64_t most = std::numeric_limits<std::uint64_t>::max();
  return b != 0 && a > most / b ? most : a * b;
}

// Bytes as a reader takes them in: "3.1 KiB", "95.2 MiB", "1.4 GiB".
std::string recall_size(std::uint64_t bytes) {
  const auto b = static_cast<double>(bytes);
  if (bytes < (std::uint64_t{1} << 20)) return fmt::format("{:.1f} KiB", b / (1 << 10));
  if (bytes < (std::uint64_t{1} << 30)) return fmt::format("{:.1f} MiB", b / (1 << 20));
  return fmt::format("{:.2f} GiB", b / (1 << 30));
}

// A file written whole below the scratch folder, its folders made: scratch bytes need no fsync.
Status write_recall_copy(FileSystem& fs, const std::string& root, const std::string& path,
                         std::string_view bytes) {
  const std::size_t slash = path.rfind('/');
  if (slash != std::string::npos) {
    if (Status made = make_folders(fs, root, path.substr(0, slash)); !made.ok()) return made;
  }
  return fs.append_file(join(root, path), bytes);
}

// The files of the root's layouts that a search reads (`found`: read_recall_files), copied below
// `copy` at the same paths. Links, other nodes and unreadable files are skipped, as a search skips
// them. Returns the bytes copied.
Result<std::uint64_t> copy_recall_memory(FileSystem& fs, const std::string& root,
                                         const std::vector<RecallFile>& found,
                                         const std::string& copy) {
  std::uint64_t bytes = 0;
  for (const RecallFile& f : found) {
    if (!f.file.exists()) continue;
    Result<std::string> read = f.file.bytes ? Result<std::string>(std::string(*f.file.bytes))
                                            : fs.read_file(join(root, f.file.path));
    if (!read) return read.status();
    if (Status w = write_recall_copy(fs, copy, f.file.path, *read); !w.ok()) return w;
    bytes += read->size();
  }
  return bytes;
}

Result<std::uint64_t> write_synthetic_recall_store(FileSystem& fs,
                                                   const bench::SyntheticStore& store,
                                                   const std::string& copy) {
  std::uint64_t bytes = 0;
  for (std::uint64_t i = 0; i < store.files(); ++i) {
    const bench::SyntheticFile f = store.file(i);
    if (Status w = write_recall_copy(fs, copy, kRecallCustodianDir + "/" + f.path, f.bytes);
        !w.ok()) {
      return w;
    }
    bytes += f.bytes.size();
  }
  return bytes;
}

Result<RecallIndex> open_bench_index(FileSystem& fs, const std::string& root) {
  return open_recall_index(fs, root, kRecallOption, kRecallCustodianDir, std::nullopt);
}

// The bytes of every file below `dir`.
std::uint64_t recall_tree_bytes(FileSystem& fs, const std::string& dir) {
  const Result<std::vector<std::pair<std::string, FileStat>>> entries =
      fs.list_directory_stats(dir);
  if (!entries) return 0;
  std::uint64_t bytes = 0;
  for (const auto& [name, stat] : *entries) {
    bytes += stat.type == NodeType::directory ? recall_tree_bytes(fs, join(dir, name))
             : stat.type == NodeType::file    ? stat.size
                                              : 0;
  }
  return bytes;
}

Status remove_recall_index(FileSystem& fs, const std::string& root) {
  const std::string index = join(root, ".memkit/index");
  const Result<NodeType> type = fs.node_type(index);
  if (!type) return type.status();
  return *type == NodeType::none ? Status() : remove_tree(fs, index);
}

bench::RecallTiming recall_timing(const std::vector<Sample>& samples) {
  std::vector<std::int64_t> wall;
  std::vector<std::int64_t> cpu;
  std::vector<std::int64_t> faults;
  for (const Sample& s : samples) {
    wall.push_back(s.wall_us);
    cpu.push_back(s.cpu_us);
    faults.push_back(s.page_faults);
  }
  bench::RecallTiming t;
  if (samples.empty()) return t;
  t.wall_median_us = median(wall);
  t.wall_min_us = *std::min_element(wall.begin(), wall.end());
  t.wall_max_us = *std::max_element(wall.begin(), wall.end());
  t.cpu_median_us = median(cpu);
  t.page_faults_median = median(faults);
  return t;
}

// The file whose change the updates measure, and the bytes of its two changes.
struct RecallChange {
  std::string path;      // relative to the root
  std::string original;  // its bytes
  std::string grown;     // one entry appended: a copy of its last unit's lines
  std::string edited;    // the same size, one letter of its last unit changed
};

// Lines `first` to `last` (1-based) of `bytes`, with their line ends.
std::string_view recall_lines(std::string_view bytes, std::uint32_t first, std::uint32_t last) {
  std::size_t begin = 0;
  for (std::uint32_t line = 1; line < first && begin < bytes.size(); ++line) {
    const std::size_t end = bytes.find('\n', begin);
    begin = end == std::string_view::npos ? bytes.size() : end + 1;
  }
  std::size_t end = begin;
  for (std::uint32_t line = first; line <= last && end < bytes.size(); ++line) {
    const std::size_t next = bytes.find('\n', end);
    end = next == std::string_view::npos ? bytes.size() : next + 1;
  }
  return bytes.substr(begin, end - begin);
}

// A file of the usual size, a typical one to change: among the Markdown files of the layouts that
// are written by appending entries (not curated's rows: a row is a file of its own), the one of
// the lower median size that has units. The lower median keeps the file a minority of its pack,
// so a pack holding several files is kept when it grows, as it would be in a larger memory.
Result<RecallChange> recall_change_of(FileSystem& fs, const std::string& root,
                                      const std::vector<RecallFile>& files) {
  std::vector<const RecallFile*> candidates;
  for (const RecallFile& f : files) {
    if (f.file.exists() && f.source.layout != recall::Layout::curated &&
        f.file.path.ends_with(".md")) {
      candidates.push_back(&f);
    }
  }
  if (candidates.empty()) {
    for (const RecallFile& f : files) {
      if (f.file.exists()) candidates.push_back(&f);
    }
  }
  std::stable_sort(
      candidates.begin(), candidates.end(),
      [](const RecallFile* a, const RecallFile* b) { return a->stat.size < b->stat.size; });
  // From the lower median up, then down from it: the first with units.
  std::vector<const RecallFile*> order;
  const std::size_t middle = candidates.empty() ? 0 : (candidates.size() - 1) / 2;
  for (std::size_t at = middle; at < candidates.size(); ++at) order.push_back(candidates[at]);
  for (std::size_t at = middle; at-- > 0;) order.push_back(candidates[at]);
  for (const RecallFile* f : order) {
    Result<std::string> bytes = fs.read_file(join(root, f->file.path));
    if (!bytes) return bytes.status();
    const recall::FileUnits units = recall::read_units(f->source, *bytes);
    if (units.units.empty()) continue;
    const recall::Unit& last = units.units.back();
    RecallChange change;
    change.path = f->file.path;
    change.original = *bytes;
    std::string entry(recall_lines(*bytes, last.first_line, last.last_line));
    if (f->source.layout == recall::Layout::curated || entry.empty()) {
      // A row is one file: its last line again, in its body.
      std::string_view text = *bytes;
      while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
      entry = std::string(text.substr(text.rfind('\n') + 1)) + "\n";
    }
    change.grown = *bytes;
    if (!change.grown.empty() && change.grown.back() != '\n') change.grown += "\n";
    change.grown += entry;
    if (!change.grown.ends_with("\n")) change.grown += "\n";
    // One letter of the last unit changed, as a typo fixed; a digit where it has no letter; else
    // its last line gone.
    change.edited = *bytes;
    const std::string_view span = recall_lines(*bytes, last.first_line, last.last_line);
    const std::size_t from = static_cast<std::size_t>(span.data() - bytes->data());
    std::size_t at = std::string::npos;
    for (const std::string_view set : {"abcdefghijklmnopqrstuvwxyz", "0123456789"}) {
      at = span.find_last_of(set);
      if (at != std::string_view::npos) {
        char& c = change.edited[from + at];
        c = c == set.back() ? set.front() : static_cast<char>(c + 1);
        break;
      }
    }
    if (at == std::string_view::npos) {
      std::string_view text = *bytes;
      while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
      const std::size_t line = text.rfind('\n');
      change.edited = std::string(text.substr(0, line == std::string_view::npos ? 0 : line + 1));
    }
    return change;
  }
  return Status(Errc::layout, kRecallOption + ": no memory file with units to change");
}

// The words of the memory by how many units hold them, most first (ties by the word): of every
// file while they are small, else of files spread evenly over the memory, about
// kRecallWordSample bytes of them.
Result<std::vector<std::string>> recall_words(FileSystem& fs, const std::string& root,
                                              const std::vector<RecallFile>& files,
                                              std::uint64_t memory_bytes) {
  const std::uint64_t stride =
      std::max<std::uint64_t>(1, (memory_bytes + kRecallWordSample - 1) / kRecallWordSample);
  std::unordered_map<std::string, std::uint64_t> counts;
  std::vector<search::Term> terms;
  std::uint64_t seen = 0;
  for (const RecallFile& f : files) {
    if (!f.file.exists() || seen++ % stride != 0) continue;
    Result<std::string> bytes = fs.read_file(join(root, f.file.path));
    if (!bytes) return bytes.status();
    for (const recall::Unit& unit : recall::read_units(f.source, *bytes).units) {
      terms.clear();
      search::analyze(unit.text, terms);
      std::sort(terms.begin(), terms.end(),
                [](const search::Term& a, const search::Term& b) { return a.text < b.text; });
      for (std::size_t i = 0; i < terms.size(); ++i) {
        if (i == 0 || terms[i].text != terms[i - 1].text) ++counts[terms[i].text];
      }
    }
  }
  std::vector<std::pair<std::uint64_t, std::string>> ranked;
  ranked.reserve(counts.size());
  for (auto& [word, n] : counts) ranked.emplace_back(n, word);
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  std::vector<std::string> words;
  words.reserve(ranked.size());
  for (auto& [n, word] : ranked) words.push_back(std::move(word));
  return words;
}

// `count` queries of one to three words (two or three ANDed or ORed, by turns of the draw), each
// word's rank drawn log-uniformly from the most frequent to the rarest, so that common, middling
// and rare words are asked alike.
std::vector<std::string> draw_recall_queries(const std::vector<std::string>& words,
                                             std::uint64_t count) {
  bench::SplitMix64 random(kRecallQuerySeed);
  std::vector<std::string> queries;
  queries.reserve(count);
  const double n = static_cast<double>(words.size());
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t terms = 1 + random.below(3);
    const bool any = random.below(2) == 0;
    std::string query;
    for (std::uint64_t t = 0; t < terms; ++t) {
      const auto rank =
          static_cast<std::size_t>(std::pow(n, static_cast<double>(random.below(1000)) / 1000.0));
      query += (t == 0 ? "" : any ? " OR " : " ") + words[std::min(rank, words.size() - 1)];
    }
    queries.push_back(std::move(query));
  }
  return queries;
}

// The value at the fraction `p` of `sorted` (nearest rank).
std::int64_t recall_percentile(const std::vector<std::int64_t>& sorted, double p) {
  if (sorted.empty()) return 0;
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(sorted.size())));
  return sorted[std::min(sorted.size(), std::max<std::size_t>(rank, 1)) - 1];
}

// The percentiles of `latencies` under the name `shape`.
bench::RecallShapeFigures recall_spread(std::string_view shape,
                                        std::vector<std::int64_t> latencies) {
  std::sort(latencies.begin(), latencies.end());
  bench::RecallShapeFigures out;
  out.shape = std::string(shape);
  out.queries = latencies.size();
  out.p50_ns = recall_percentile(latencies, 0.50);
  out.p90_ns = recall_percentile(latencies, 0.90);
  out.p99_ns = recall_percentile(latencies, 0.99);
  out.max_ns = latencies.empty() ? 0 : latencies.back();
  return out;
}

// What the parse made of a drawn query: two or three words ANDed or ORed, else one word.
std::string_view recall_shape_of(const search::Query& query) {
  const search::Query::Node* root = query.root();
  if (root == nullptr || root->children.size() < 2) return bench::kRecallOneWord;
  if (root->kind == search::Query::Node::Kind::all_of) return bench::kRecallAllOf;
  if (root->kind == search::Query::Node::Kind::any_of) return bench::kRecallAnyOf;
  return bench::kRecallOneWord;
}

// What the bench works on: the memory below the scratch folder, copied or generated.
struct RecallBench {
  FileSystem& fs;
  std::string root;  // the copy's root
  std::uint64_t runs = 0;
  std::uint64_t queries = 0;
};

// The index built from nothing, once untimed, then `runs` times; the last one is left in place.
Result<std::vector<Sample>> time_recall_build(const RecallBench& bench,
                                              RecallIndexWork& last_work) {
  std::vector<Sample> samples;
  for (std::uint64_t run = 0; run <= bench.runs; ++run) {
    if (Status removed = remove_recall_index(bench.fs, bench.root); !removed.ok()) return removed;
    Result<RecallIndex> index = Status(Errc::internal, "not opened");
    const Sample s = measure([&] { index = open_bench_index(bench.fs, bench.root); });
    if (!index) return index.status();
    if (!index->work().written) {
      return Status(Errc::io, bench.root + "/.memkit/index: the index could not be written");
    }
    last_work = index->work();
    if (run > 0) samples.push_back(s);
  }
  return samples;
}

// The index brought up to date after `bytes` replaced the file's (appended when `append`), timed;
// then the file put back and the index brought up to date again, untimed.
Result<std::pair<Sample, RecallIndexWork>> time_recall_update(const RecallBench& bench,
                                                              const RecallChange& change,
                                                              const std::string& bytes,
                                                              bool append) {
  const std::string path = join(bench.root, change.path);
  const Status written =
      append ? bench.fs.append_file(path, std::string_view(bytes).substr(change.original.size()))
             : write_file_atomically(bench.fs, path, bytes, false);
  if (!written.ok()) return written;
  Result<RecallIndex> index = Status(Errc::internal, "not opened");
  const Sample s = measure([&] { index = open_bench_index(bench.fs, bench.root); });
  if (!index) return index.status();
  const RecallIndexWork work = index->work();
  if (Status back = write_file_atomically(bench.fs, path, change.original, false); !back.ok()) {
    return back;
  }
  if (Result<RecallIndex> again = open_bench_index(bench.fs, bench.root); !again) {
    return again.status();
  }
  return std::pair<Sample, RecallIndexWork>(s, work);
}

Result<std::vector<bench::RecallUpdateFigures>> time_recall_updates(const RecallBench& bench,
                                                                    const RecallChange& change) {
  std::vector<bench::RecallUpdateFigures> out;
  for (const bool grew : {true, false}) {
    std::vector<Sample> samples;
    std::vector<std::int64_t> kept;
    std::vector<std::int64_t> built;
    std::vector<std::int64_t> read;
    for (std::uint64_t run = 0; run <= bench.runs; ++run) {
      Result<std::pair<Sample, RecallIndexWork>> done =
          time_recall_update(bench, change, grew ? change.grown : change.edited, grew);
      if (!done) return done.status();
      if (run == 0) continue;
      samples.push_back(done->first);
      kept.push_back(static_cast<std::int64_t>(done->second.packs_kept));
      built.push_back(static_cast<std::int64_t>(done->second.packs_built));
      read.push_back(static_cast<std::int64_t>(done->second.files_read));
    }
    bench::RecallUpdateFigures f;
    f.change = grew ? "grew" : "changed";
    f.file = change.path;
    f.time = recall_timing(samples);
    f.packs_kept = static_cast<std::uint64_t>(median(kept));
    f.packs_built = static_cast<std::uint64_t>(median(built));
    f.files_read = static_cast<std::uint64_t>(median(read));
    out.push_back(std::move(f));
  }
  return out;
}

// The queries answered with the index open (after an untimed pass over them all), each kept with
// its shape and matches, then the cold path: the index opened and one query answered with its
// hits' units, as `search` does.
Result<bench::RecallQueryFigures> time_recall_queries(const RecallBench& bench,
                                                      const std::vector<std::string>& queries) {
  bench::RecallQueryFigures out;
  out.queries = queries.size();
  out.limit = kRecallHitLimit;
  {
    Result<RecallIndex> index = open_bench_index(bench.fs, bench.root);
    if (!index) return index.status();
    std::vector<std::int64_t> latencies;
    latencies.reserve(queries.size());
    for (int pass = 0; pass < 2; ++pass) {
      for (const std::string& text : queries) {
        const auto start = std::chrono::steady_clock::now();
        const Result<search::Query> query = search::parse_query(text);
        if (!query) return query.status();
        const std::vector<search::Hit> hits =
            search::search(index->parts(), *query, kRecallHitLimit);
        const auto stop = std::chrono::steady_clock::now();
        if (pass == 1) {
          latencies.push_back(
              std::chrono::duration_cast<std::chrono::nanoseconds>(stop - start).count());
        }
      }
    }
    std::int64_t total = 0;
    for (const std::int64_t ns : latencies) total += ns;
    const bench::RecallShapeFigures all = recall_spread("", latencies);
    out.p50_ns = all.p50_ns;
    out.p90_ns = all.p90_ns;
    out.p99_ns = all.p99_ns;
    out.max_ns = all.max_ns;
    out.queries_per_second = total > 0
                                 ? static_cast<std::int64_t>(static_cast<double>(latencies.size()) *
                                                             1e9 / static_cast<double>(total))
                                 : 0;
    // Each query's shape and matches, after the timed pass so that counting disturbs none of it.
    out.each.reserve(queries.size());
    for (std::size_t i = 0; i < queries.size(); ++i) {
      const Result<search::Query> query = search::parse_query(queries[i]);
      if (!query) return query.status();
      out.each.push_back(bench::RecallQueryTiming{queries[i], std::string(recall_shape_of(*query)),
                                                  latencies[i],
                                                  search::count(index->parts(), *query)});
    }
    for (const std::string_view shape :
         {bench::kRecallOneWord, bench::kRecallAllOf, bench::kRecallAnyOf}) {
      std::vector<std::int64_t> of_shape;
      for (const bench::RecallQueryTiming& q : out.each) {
        if (q.shape == shape) of_shape.push_back(q.ns);
      }
      if (!of_shape.empty()) out.shapes.push_back(recall_spread(shape, std::move(of_shape)));
    }
  }
  out.cold_queries = std::min<std::uint64_t>(queries.size(), kRecallColdQueries);
  std::vector<Sample> cold;
  for (std::uint64_t i = 0; i < out.cold_queries; ++i) {
    const Result<search::Query> query = search::parse_query(queries[i]);
    if (!query) return query.status();
    Result<RecallSearch> searched = Status(Errc::internal, "not searched");
    cold.push_back(measure([&] {
      searched = search_recall_index(bench.fs, bench.root, kRecallOption, kRecallCustodianDir,
                                     std::nullopt, IndexStemming{}, *query, kRecallHitLimit);
    }));
    if (!searched) return searched.status();
  }
  out.cold = recall_timing(cold);
  return out;
}

std::string recall_ms(std::int64_t us) {
  return fmt::format("{:.2f}", static_cast<double>(us) / 1000);
}

std::string recall_us(std::int64_t ns) {
  return fmt::format("{:.1f}", static_cast<double>(ns) / 1000);
}

std::string recall_text(const bench::RecallFigures& f, const std::optional<std::string>& report) {
  std::string out = fmt::format(
      "recall on {}: {} files, {} units, {} of memory; index {} on disk in {} pack(s)\n"
      "{} timed run(s) of each step after an untimed one; peak RSS {}\n\n",
      shown_text(f.input), f.files, f.units, recall_size(f.memory_bytes),
      recall_size(f.index_bytes), f.packs, f.runs,
      recall_size(static_cast<std::uint64_t>(f.peak_rss_kib) * 1024));
  std::vector<std::vector<std::string>> rows = {{"STEP", "MEDIAN ms", "MIN ms", "MAX ms", "CPU ms",
                                                 "PAGE FAULTS", "PACKS KEPT", "PACKS BUILT",
                                                 "FILES READ"}};
  const auto row = [&rows](std::string step, const bench::RecallTiming& t, std::string kept,
                           std::string built, std::string read) {
    rows.push_back({std::move(step), recall_ms(t.wall_median_us), recall_ms(t.wall_min_us),
                    recall_ms(t.wall_max_us), recall_ms(t.cpu_median_us),
                    std::to_string(t.page_faults_median), std::move(kept), std::move(built),
                    std::move(read)});
  };
  row("build (no index)", f.build, "0", std::to_string(f.build_packs_built),
      std::to_string(f.build_files_read));
  for (const bench::RecallUpdateFigures& u : f.updates) {
    row("update: " + shown_text(u.file) + " " + u.change, u.time, std::to_string(u.packs_kept),
        std::to_string(u.packs_built), std::to_string(u.files_read));
  }
  row(fmt::format("open + query ({} queries)", f.queries.cold_queries), f.queries.cold, "", "", "");
  out += view::table_text(rows, view::Style{});
  const bench::RecallQueryFigures& q = f.queries;
  out += fmt::format(
      "build: {:.1f} MB/s of memory\n{} queries of 1 to 3 words (best {}), index open: p50 {} us, "
      "p90 {} us, p99 {} us, max {} us; {} queries/s\n",
      static_cast<double>(f.build_bytes_per_second) / 1e6, q.queries, q.limit, recall_us(q.p50_ns),
      recall_us(q.p90_ns), recall_us(q.p99_ns), recall_us(q.max_ns), q.queries_per_second);
  std::vector<std::vector<std::string>> shapes = {
      {"SHAPE", "QUERIES", "P50 us", "P90 us", "P99 us", "MAX us"}};
  for (const bench::RecallShapeFigures& shape : q.shapes) {
    shapes.push_back({shape.shape, std::to_string(shape.queries), recall_us(shape.p50_ns),
                      recall_us(shape.p90_ns), recall_us(shape.p99_ns), recall_us(shape.max_ns)});
  }
  out += "\n" + view::table_text(shapes, view::Style{});
  if (report) out += "report: " + shown_text(*report) + "\n";
  return out;
}

}  // namespace

void run_bench_recall(const CommandRequest& inv, const CommandEnvironment& env,
                      CommandReply& reply) {
  const auto refuse = [&](Status status) { reply.findings.push_back(finding_from(status)); };
  if (!start_command(inv, env, reply, false)) return;
  const Result<std::uint64_t> runs = count_option(inv, "--runs", 3);
  if (!runs || *runs == 0 || *runs > kRecallMaxRuns) {
    return refuse(runs ? Status(Errc::invalid_argument, fmt::format("--runs: expected 1 to {}, "
                                                                    "got {}",
                                                                    kRecallMaxRuns, *runs))
                       : runs.status());
  }
  const Result<std::uint64_t> query_count = count_option(inv, "--queries", 1000);
  if (!query_count || *query_count == 0 || *query_count > kRecallMaxQueries) {
    return refuse(query_count ? Status(Errc::invalid_argument,
                                       fmt::format("--queries: expected 1 to {}, got {}",
                                                   kRecallMaxQueries, *query_count))
                              : query_count.status());
  }
  std::optional<std::uint64_t> synthetic;
  if (option(inv, "--synthetic")) {
    const Result<std::uint64_t> entries = count_option(inv, "--synthetic", 0);
    if (!entries) return refuse(entries.status());
    if (*entries == 0) {
      return refuse(Status(Errc::invalid_argument,
                           "--synthetic: expected a number of entries of at least 1, got 0"));
    }
    if (option(inv, kRecallOption)) {
      return refuse(Status(Errc::invalid_argument,
                           "--synthetic: measures a generated store, not a root; give --root or "
                           "--synthetic, not both"));
    }
    synthetic = *entries;
  }
  FileSystem& fs = posix_file_system();
  const std::optional<std::string> report_path = option(inv, "--report");
  if (report_path) {
    if (Status writable = check_report_path(fs, *report_path); !writable.ok()) {
      return refuse(writable);
    }
  }
  const std::string parent = scratch_parent(env.temporary_directory);
  const std::optional<std::uint64_t> free = free_bytes(parent);

  // What is measured, checked before anything is written: the root's memory files, or the
  // generated store's size.
  const std::string root = option(inv, kRecallOption).value_or(env.current_directory);
  std::vector<RecallFile> found;
  std::uint64_t memory_bytes = 0;
  std::optional<bench::SyntheticStore> store;
  if (synthetic) {
    store.emplace(*synthetic);
    // The store's size from its first notes file: every file is drawn alike.
    const bench::SyntheticFile sample = store->file(2);
    const std::uint64_t per_entry =
        std::max<std::uint64_t>(1, (sample.bytes.size() + sample.entries - 1) / sample.entries);
    memory_bytes = recall_saturated(*synthetic, per_entry);
    const std::uint64_t disk = recall_saturated(memory_bytes, kRecallDiskPerByte);
    if (free && disk > *free) {
      return refuse(Status(
          Errc::invalid_argument,
          fmt::format("--synthetic: {} entries (about {} of memory and its index) "
                      "need about {} MiB in {}, which has {} MiB free",
                      *synthetic, recall_size(memory_bytes), disk >> 20, parent, *free >> 20)));
    }
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long page = ::sysconf(_SC_PAGESIZE);
    const std::uint64_t ram =
        pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page)
                              : 0;
    const std::uint64_t need = recall_saturated(memory_bytes, kRecallMemoryPerByte);
    if (ram > 0 && need > ram) {
      return refuse(Status(Errc::invalid_argument,
                           fmt::format("--synthetic: {} entries need about {} MiB of memory to "
                                       "index; this machine has {} MiB",
                                       *synthetic, need >> 20, ram >> 20)));
    }
  } else {
    Result<std::vector<RecallFile>> files =
        read_recall_files(fs, root, kRecallOption, kRecallCustodianDir, std::nullopt,
                          /*read_bytes=*/false);
    if (!files) return refuse(files.status());
    found = std::move(files).value();
    std::uint64_t searched = 0;
    for (const RecallFile& f : found) {
      if (!f.file.exists()) continue;
      ++searched;
      memory_bytes += f.file.bytes ? f.file.bytes->size() : f.stat.size;
    }
    if (searched == 0) {
      return refuse(
          Status(Errc::layout,
                 fmt::format("{}: {}: no memory to measure: none of the layouts' files is there "
                             "(docs/memory/, brain/ or memory/LONG_TERM.md, memory/global.md or "
                             "memory/sessions/, rows/)",
                             kRecallOption, shown_text(root))));
    }
    const std::uint64_t disk = recall_saturated(memory_bytes, kRecallDiskPerByte);
    if (free && disk > *free) {
      return refuse(Status(
          Errc::invalid_argument,
          fmt::format("{}: its memory ({}) and the index need about {} MiB in {}, "
                      "which has {} MiB free",
                      kRecallOption, recall_size(memory_bytes), disk >> 20, parent, *free >> 20)));
    }
  }

  Result<Scratch> scratch = Scratch::make(fs, parent);
  if (!scratch) return refuse(scratch.status());
  const std::string copy = join(scratch->path(), "root");
  if (Status made = fs.create_directory(copy); !made.ok()) return refuse(made);
  const Result<std::uint64_t> copied = store ? write_synthetic_recall_store(fs, *store, copy)
                                             : copy_recall_memory(fs, root, found, copy);
  if (!copied) return refuse(copied.status());
  // A file changed within the index's clock tick is read again at every open; the memory the bench
  // copied is older than that, as a user's files are.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));

  const RecallBench bench{fs, copy, *runs, *query_count};
  bench::RecallFigures figures;
  figures.command = bench_command_line(inv);
  figures.machine = this_machine();
  figures.input = store ? fmt::format("a generated store of {} entries", *synthetic) : root;
  figures.synthetic_entries = synthetic;
  figures.runs = *runs;
  RecallIndexWork build_work;
  const Result<std::vector<Sample>> build = time_recall_build(bench, build_work);
  if (!build) return refuse(build.status());
  figures.build = recall_timing(*build);
  figures.build_packs_built = build_work.packs_built;
  figures.build_files_read = build_work.files_read;
  figures.index_bytes = recall_tree_bytes(fs, join(copy, ".memkit/index"));
  std::vector<RecallFile> files;
  {
    Result<RecallIndex> index = open_bench_index(fs, copy);
    if (!index) return refuse(index.status());
    files = index->files();
    figures.units = index->units();
    figures.packs = index->parts().size();
  }
  for (const RecallFile& f : files) {
    if (!f.file.exists()) continue;
    ++figures.files;
    figures.memory_bytes += f.stat.size;
  }
  figures.build_bytes_per_second =
      figures.build.wall_median_us > 0
          ? static_cast<std::int64_t>(figures.memory_bytes * 1'000'000 /
                                      static_cast<std::uint64_t>(figures.build.wall_median_us))
          : 0;

  const Result<RecallChange> change = recall_change_of(fs, copy, files);
  if (!change) return refuse(change.status());
  Result<std::vector<bench::RecallUpdateFigures>> updates = time_recall_updates(bench, *change);
  if (!updates) return refuse(updates.status());
  figures.updates = std::move(updates).value();

  const Result<std::vector<std::string>> words =
      recall_words(fs, copy, files, figures.memory_bytes);
  if (!words) return refuse(words.status());
  if (words->empty()) {
    return refuse(Status(Errc::layout, kRecallOption + ": the memory holds no words to query"));
  }
  const Result<bench::RecallQueryFigures> queries =
      time_recall_queries(bench, draw_recall_queries(*words, *query_count));
  if (!queries) return refuse(queries.status());
  figures.queries = *queries;
  figures.peak_rss_kib = peak_rss_kib();

  // The text names the report only once it is written; a failed write is a finding instead.
  std::optional<std::string> written;
  if (report_path) {
    if (Status w = write_file_atomically(fs, *report_path, bench::recall_report_html(figures),
                                         false);
        !w.ok()) {
      refuse(w);
    } else {
      written = report_path;
    }
  }
  reply.data = fixed(bench_recall_json(figures));
  if (inv.format == OutputFormat::text) reply.text = fixed(recall_text(figures, written));
}

}  // namespace memkit::commands_detail
