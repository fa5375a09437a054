// The near-duplicate search of the MemoryBox write filter (spec memorybox.md §4, gate 3): building
// a NearDuplicateIndex over N synthetic memory entries, then one verdict (query at the default
// threshold, 60 hundredths) per candidate. The goal is a median verdict under 1 ms over
// 1,000,000 entries; BM_query_latency reports that median and the tail as counters.
//
// Entries have 8 to 40 words drawn from a 20,000-word vocabulary with Zipf weights (1/rank), with
// capitals, commas and full stops; 2% of them are edited copies of an earlier entry, the planted
// near-duplicates. Candidates alternate between fresh texts and edited copies of entries.
//
// N is 1,000,000 unless MEMKIT_BENCH_SIMILARITY_ENTRIES lists other sizes ("10000,1000000"); the
// ctest run sets a small one so that it takes a second.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/similarity.hpp"
#include "split_mix.hpp"

namespace {

using memkit::similarity::NearDuplicateIndex;

constexpr std::size_t kVocabularySize = 20000;
constexpr std::size_t kCandidates = 2000;
constexpr std::uint64_t kSeed = 0x73696D696C617231ULL;  // "similar1"

using Random = memkit::bench::SplitMix64;

class Vocabulary final {
 public:
  explicit Vocabulary(Random& random) {
    static const char* const kSyllables[] = {
        "ka", "to",  "re",  "mi",  "su",  "lo", "ne", "da", "vi", "po", "ar", "en", "is", "ul",
        "an", "ter", "con", "pre", "ing", "ex", "ma", "de", "co", "fi", "gu", "ha", "jo", "ly",
        "qu", "sy",  "tr",  "ob",  "ch",  "st", "th", "wa", "ze", "bi", "nu", "or"};
    std::set<std::string> seen;
    while (words_.size() < kVocabularySize) {
      std::string word;
      for (std::size_t n = 1 + random.below(4), i = 0; i < n; ++i) {
        word += kSyllables[random.below(std::size(kSyllables))];
      }
      if (seen.insert(word).second) words_.push_back(word);
    }
    std::uint64_t total = 0;
    for (std::size_t rank = 0; rank < kVocabularySize; ++rank) {
      cumulative_.push_back(total += (std::uint64_t{1} << 40) / (rank + 1));  // Zipf, s = 1
    }
  }
  const std::string& most_frequent(std::size_t rank) const { return words_[rank]; }
  const std::string& draw(Random& random) const {
    const std::uint64_t r = random.next() % cumulative_.back();
    const auto at = std::upper_bound(cumulative_.begin(), cumulative_.end(), r);
    return words_[static_cast<std::size_t>(at - cumulative_.begin())];
  }

 private:
  std::vector<std::string> words_;
  std::vector<std::uint64_t> cumulative_;
};

void append_entry(const Vocabulary& vocabulary, Random& random, std::string& out) {
  const std::size_t count = 8 + random.below(33);
  for (std::size_t i = 0; i < count; ++i) {
    std::string_view word = vocabulary.draw(random);
    if (i == 0) {
      out += static_cast<char>(word[0] - 'a' + 'A');
      word.remove_prefix(1);
    }
    out += word;
    const std::size_t mark = random.below(12);
    out += i + 1 == count ? "." : mark == 0 ? ", " : mark == 1 ? ". " : " ";
  }
}

// An edited copy: one word replaced, or one inserted, or one dropped, or only the case changed.
void append_edited(std::string_view entry, const Vocabulary& vocabulary, Random& random,
                   std::string& out) {
  std::vector<std::string_view> words;
  for (std::size_t start = 0; start < entry.size();) {
    std::size_t end = entry.find(' ', start);
    if (end == std::string_view::npos) end = entry.size();
    if (end > start) words.push_back(entry.substr(start, end - start));
    start = end + 1;
  }
  const std::size_t at = random.below(words.size());
  switch (random.below(4)) {
    case 0:
      words[at] = vocabulary.draw(random);
      break;
    case 1:
      words.insert(words.begin() + static_cast<std::ptrdiff_t>(at), vocabulary.draw(random));
      break;
    case 2:
      if (words.size() > 8) words.erase(words.begin() + static_cast<std::ptrdiff_t>(at));
      break;
    default:
      break;
  }
  for (const std::string_view word : words) {
    out += word;
    out += ' ';
  }
  if (!out.empty()) out.back() = '\n';
}

// Texts as views into one buffer: a million small strings would each cost a heap block.
struct Texts {
  std::string bytes;
  std::vector<std::size_t> ends;
  std::vector<std::string_view> views() const {
    std::vector<std::string_view> out;
    out.reserve(ends.size());
    std::size_t begin = 0;
    for (const std::size_t end : ends) {
      out.emplace_back(bytes.data() + begin, end - begin);
      begin = end;
    }
    return out;
  }
};

struct Workload {
  Texts entries;
  std::vector<std::string> mixed;   // even: a fresh text, odd: an edited copy of an entry
  std::vector<std::string> common;  // only the 8 most frequent words: the longest posting lists
};

std::shared_ptr<const Workload> make_workload(std::size_t count) {
  Random random(kSeed);
  const Vocabulary vocabulary(random);
  auto workload = std::make_shared<Workload>();
  Texts& entries = workload->entries;
  entries.bytes.reserve(count * 190);
  entries.ends.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0 && random.below(50) == 0) {
      const std::size_t source = random.below(i);
      const std::size_t from = source == 0 ? 0 : entries.ends[source - 1];
      const std::string copy = entries.bytes.substr(from, entries.ends[source] - from);
      append_edited(copy, vocabulary, random, entries.bytes);
    } else {
      append_entry(vocabulary, random, entries.bytes);
    }
    entries.ends.push_back(entries.bytes.size());
  }
  const std::vector<std::string_view> views = entries.views();
  for (std::size_t i = 0; i < kCandidates; ++i) {
    std::string candidate;
    if (i % 2 == 0) {
      append_entry(vocabulary, random, candidate);
    } else {
      append_edited(views[random.below(views.size())], vocabulary, random, candidate);
    }
    workload->mixed.push_back(std::move(candidate));
  }
  for (std::size_t i = 0; i < kCandidates / 4; ++i) {
    std::string candidate;
    for (std::size_t n = 8 + random.below(33), w = 0; w < n; ++w) {
      candidate += vocabulary.most_frequent(random.below(8));
      candidate += ' ';
    }
    workload->common.push_back(std::move(candidate));
  }
  return workload;
}

// Made on first use and kept: google benchmark calls each function several times.
std::shared_ptr<const Workload> shared_workload(std::size_t count) {
  static std::map<std::size_t, std::shared_ptr<const Workload>> made;
  if (auto it = made.find(count); it != made.end()) return it->second;
  return made[count] = make_workload(count);
}

std::shared_ptr<const NearDuplicateIndex> shared_index(std::size_t count) {
  static std::map<std::size_t, std::shared_ptr<const NearDuplicateIndex>> made;
  if (auto it = made.find(count); it != made.end()) return it->second;
  const std::vector<std::string_view> views = shared_workload(count)->entries.views();
  return made[count] = std::make_shared<const NearDuplicateIndex>(views);
}

std::size_t entries_of(const benchmark::State& state) {
  return static_cast<std::size_t>(state.range(0));
}

void BM_build_index(benchmark::State& state) {
  const std::shared_ptr<const Workload> workload = shared_workload(entries_of(state));
  const std::vector<std::string_view> views = workload->entries.views();
  for (auto _ : state) {
    const NearDuplicateIndex index(views);
    benchmark::DoNotOptimize(index.size());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetBytesProcessed(state.iterations() *
                          static_cast<std::int64_t>(workload->entries.bytes.size()));
}

// Which candidates a query benchmark asks about.
enum class Candidates { mixed, common };

const std::vector<std::string>& candidates_of(const Workload& workload, Candidates which) {
  return which == Candidates::mixed ? workload.mixed : workload.common;
}

// One verdict per iteration, cycling through the candidates.
void BM_query(benchmark::State& state, Candidates which) {
  const std::shared_ptr<const Workload> workload = shared_workload(entries_of(state));
  const std::shared_ptr<const NearDuplicateIndex> index = shared_index(entries_of(state));
  const std::vector<std::string>& candidates = candidates_of(*workload, which);
  std::size_t next = 0;
  std::size_t matches = 0;
  for (auto _ : state) {
    const auto found = index->query(candidates[next]);
    matches += found.size();
    benchmark::DoNotOptimize(found.data());
    next = (next + 1) % candidates.size();
  }
  state.counters["matches_per_query"] =
      benchmark::Counter(static_cast<double>(matches), benchmark::Counter::kAvgIterations);
}

// Every candidate once per iteration, each timed alone: the median and tail of one verdict.
void BM_query_latency(benchmark::State& state, Candidates which) {
  const std::shared_ptr<const Workload> workload = shared_workload(entries_of(state));
  const std::shared_ptr<const NearDuplicateIndex> index = shared_index(entries_of(state));
  const std::vector<std::string>& candidates = candidates_of(*workload, which);
  std::vector<double> micros;
  std::size_t with_match = 0;
  for (auto _ : state) {
    micros.clear();
    with_match = 0;
    for (const std::string& candidate : candidates) {
      const auto start = std::chrono::steady_clock::now();
      const auto found = index->query(candidate);
      const auto stop = std::chrono::steady_clock::now();
      benchmark::DoNotOptimize(found.data());
      with_match += found.empty() ? 0 : 1;
      micros.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
    }
  }
  std::sort(micros.begin(), micros.end());
  auto at = [&](std::size_t percent) { return micros[percent * (micros.size() - 1) / 100]; };
  state.counters["median_us"] = at(50);
  state.counters["p90_us"] = at(90);
  state.counters["p99_us"] = at(99);
  state.counters["max_us"] = micros.back();
  state.counters["with_match"] = static_cast<double>(with_match);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(candidates.size()));
}

std::vector<std::int64_t> entry_counts() {
  std::vector<std::int64_t> counts;
  const char* listed = std::getenv("MEMKIT_BENCH_SIMILARITY_ENTRIES");
  std::string_view rest = listed != nullptr ? listed : "1000000";
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string item(rest.substr(0, comma));
    if (const long long n = std::atoll(item.c_str()); n > 0) counts.push_back(n);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return counts;
}

void entry_sizes(benchmark::internal::Benchmark* b) {
  b->ArgName("entries");
  for (const std::int64_t n : entry_counts()) b->Arg(n);
}

// The build runs once: at a million entries one run takes seconds, and a repeat would only
// measure a warmer allocator.
BENCHMARK(BM_build_index)->Apply(entry_sizes)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_query, mixed, Candidates::mixed)
    ->Apply(entry_sizes)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_query, common, Candidates::common)
    ->Apply(entry_sizes)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_query_latency, mixed, Candidates::mixed)
    ->Apply(entry_sizes)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_query_latency, common, Candidates::common)
    ->Apply(entry_sizes)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace
