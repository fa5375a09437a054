// The three-tier session memory's pure core (spec tiers3.md, issue 6): CSV parsing and --head
// (§10), the L1 append and a whole persist-turn plan (§4, §9), global.md's read order and
// session-init's context under a token budget (§6, §8), and the listings session-init, read-logs
// and archive-themes select from (§8, §11).
//
// Every input comes from a fixed seed through SplitMix64, never <random>'s distributions, so every
// run and every machine times the same bytes. Inputs are made once per size and kept: google
// benchmark calls each function several times while it tunes the iteration count.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "memkit/tiers.hpp"
#include "split_mix.hpp"

namespace {

namespace tiers = memkit::tiers;

constexpr std::uint64_t kSeed = 0x7469657273333031ULL;  // "tiers301"
constexpr std::size_t kMiB = 1024 * 1024;
constexpr std::int64_t kMillisPerHour = 3'600'000;
constexpr std::int64_t kMillisPerDay = 24 * kMillisPerHour;

// The clock of every benchmark: the spec's example instant, local time = UTC.
const memkit::ClockReading& now() {
  static const memkit::ClockReading reading =
      *memkit::ClockReading::parse_rfc3339("2026-03-07T14:05:09+00:00");
  return reading;
}

using Random = memkit::bench::SplitMix64;

const char* const kWords[] = {"memory",      "agent",       "context",
                              "budget",      "tabs",        "config",
                              "deploy",      "cache",       "index",
                              "review",      "Kafka",       "build",
                              "schema",      "turn",        "theme",
                              "global",      "window",      "token",
                              "caf\xC3\xA9", "gro\xC3\x9F", "\xE8\xA8\x98\xE4\xBD\x8F"};

std::string_view word(Random& random) { return kWords[random.below(std::size(kWords))]; }

void append_words(Random& random, std::size_t count, std::string& out) {
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) out += ' ';
    out += word(random);
  }
}

// "YYYY-MM-DD" of the local date `days` before now.
std::string date_before(std::int64_t days) {
  const memkit::CivilDate d =
      memkit::ClockReading::create(now().unix_millis() - days * kMillisPerDay, 0)->local_date();
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02u-%02u", static_cast<int>(d.year), unsigned{d.month},
                unsigned{d.day});
  return text;
}

// "YYYY-MM-DD_HH.md": the L2 note file of the hour `hours` before now's hour.
std::string note_file_before(std::int64_t hours) {
  const memkit::LocalDateTime t =
      memkit::ClockReading::create(now().unix_millis() - hours * kMillisPerHour, 0)
          ->local_date_time();
  char text[24];
  std::snprintf(text, sizeof text, "%04d-%02u-%02u_%02u.md", static_cast<int>(t.date.year),
                unsigned{t.date.month}, unsigned{t.date.day}, unsigned{t.hour});
  return text;
}

// ---- §10: CSV ----------------------------------------------------------------------------------

// A CSV of at least `mib` MiB, ending at a record boundary: a header and six columns, about one
// record in four ending CRLF; of the free-text fields about 60% are plain, 20% quoted with commas,
// 10% quoted with doubled quotes and 5% quoted across a line break (LF or CRLF); names are quoted
// "Last, First" one time in three.
std::shared_ptr<const std::string> csv_of(std::size_t mib) {
  static std::map<std::size_t, std::shared_ptr<const std::string>> made;
  if (auto it = made.find(mib); it != made.end()) return it->second;
  Random random(kSeed + mib);
  std::string out = "id,name,city,note,amount,updated\n";
  out.reserve(mib * kMiB + 4096);
  for (std::uint64_t id = 1; out.size() < mib * kMiB; ++id) {
    out += std::to_string(id);
    out += ',';
    if (random.one_in(3)) {
      out += '"';
      out += word(random);
      out += ", ";
      out += word(random);
      out += '"';
    } else {
      out += word(random);
    }
    out += ',';
    out += word(random);
    out += ',';
    const std::size_t kind = random.below(20);
    if (kind < 12) {
      append_words(random, 2 + random.below(8), out);
    } else if (kind < 16) {
      out += '"';
      append_words(random, 2 + random.below(4), out);
      out += ", ";
      append_words(random, 2 + random.below(4), out);
      out += '"';
    } else if (kind < 18) {
      out += "\"said \"\"";
      append_words(random, 1 + random.below(4), out);
      out += "\"\" twice\"";
    } else if (kind < 19) {
      out += '"';
      append_words(random, 2 + random.below(6), out);
      out += random.one_in(2) ? "\r\n" : "\n";
      append_words(random, 2 + random.below(6), out);
      out += '"';
    }  // else an empty field
    out += ',';
    out += std::to_string(random.below(100000));
    out += '.';
    out += std::to_string(10 + random.below(90));
    out += ',';
    out += date_before(static_cast<std::int64_t>(random.below(3650)));
    out += random.one_in(4) ? "\r\n" : "\n";
  }
  return made[mib] = std::make_shared<const std::string>(std::move(out));
}

void BM_parse_csv(benchmark::State& state) {
  const auto csv = csv_of(static_cast<std::size_t>(state.range(0)));
  std::size_t records = 0;
  for (auto _ : state) {
    const tiers::CsvParse parsed = tiers::parse_csv(*csv);
    records = parsed.records.size();
    benchmark::DoNotOptimize(parsed.records.data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(csv->size()));
  state.counters["records"] = static_cast<double>(records);
}
BENCHMARK(BM_parse_csv)->ArgName("MiB")->Arg(1)->Arg(16)->Arg(64)->Unit(benchmark::kMillisecond);

// What write-data does for the manifest: every record found (counts and errors stay exact), the
// header's fields kept (CsvScan{1}).
void BM_scan_csv_for_manifest(benchmark::State& state) {
  const auto csv = csv_of(static_cast<std::size_t>(state.range(0)));
  std::size_t records = 0;
  for (auto _ : state) {
    const tiers::CsvParse parsed = tiers::parse_csv(*csv, tiers::CsvScan{1});
    records = parsed.records.size();
    benchmark::DoNotOptimize(parsed.records.data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(csv->size()));
  state.counters["records"] = static_cast<double>(records);
}
BENCHMARK(BM_scan_csv_for_manifest)
    ->ArgName("MiB")
    ->Arg(1)
    ->Arg(16)
    ->Arg(64)
    ->Unit(benchmark::kMillisecond);

// read-data --head N on the largest file. Bytes/s counts the whole file, which a reader that stops
// after N + 1 records never reads: the figure shows what stopping early saves.
void BM_csv_head(benchmark::State& state) {
  const auto csv = csv_of(64);
  const auto n = static_cast<std::uint64_t>(state.range(0));
  std::size_t prefix = 0;
  bool truncated = false;
  for (auto _ : state) {
    const std::string head = tiers::csv_head(*csv, n, truncated);
    prefix = head.size();
    benchmark::DoNotOptimize(head.data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(csv->size()));
  state.counters["prefix_bytes"] = static_cast<double>(prefix);
  state.counters["truncated"] = truncated ? 1 : 0;
}
BENCHMARK(BM_csv_head)->ArgName("N")->Arg(10)->Unit(benchmark::kMillisecond);

// ---- §4, §9: L1 --------------------------------------------------------------------------------

// A day log of at least `mib` MiB in the §4 format (no final LF): entries of 100 to 600 bytes,
// some with a session id, tools or a second paragraph.
std::shared_ptr<const std::string> day_log_of(std::size_t mib) {
  static std::map<std::size_t, std::shared_ptr<const std::string>> made;
  if (auto it = made.find(mib); it != made.end()) return it->second;
  Random random(kSeed ^ mib);
  const std::string date = date_before(0);
  std::string out = "# Session Log - " + date + "\n\n";
  out.reserve(mib * kMiB + 4096);
  for (std::size_t n = 0; out.size() < mib * kMiB; ++n) {
    if (n > 0) out += "\n\n";
    char stamp[32];
    std::snprintf(stamp, sizeof stamp, "%s %02zu:%02zu:%02zu", date.c_str(), n / 3600 % 24,
                  n / 60 % 60, n % 60);
    out += "### [";
    out += stamp;
    out += random.one_in(8) ? "] SESSION_INIT\n" : "] TURN\n";
    if (random.one_in(2)) out += "**Session:** s-" + std::to_string(n / 40) + "\n";
    if (random.one_in(3)) out += "**Tools:** search, read\n";
    out += '\n';
    append_words(random, 12 + random.below(70), out);
    if (random.one_in(4)) {
      out += "\n\n";
      append_words(random, 5 + random.below(20), out);
    }
    out += "\n\n---";
  }
  return made[mib] = std::make_shared<const std::string>(std::move(out));
}

tiers::Turn a_turn() {
  tiers::Turn turn;
  turn.entry_type = "TURN";
  turn.session_id = "s-bench";
  turn.tools = {"search", "read"};
  turn.content =
      "The user asked for the deploy checklist; answered from the runbook and noted the cache "
      "flush step they keep forgetting.";
  return turn;
}

// Today's log with one more entry: the whole file is copied, as the CLI writes it back whole.
void BM_append_session_entry(benchmark::State& state) {
  const auto log = day_log_of(static_cast<std::size_t>(state.range(0)));
  const tiers::Turn turn = a_turn();
  const std::optional<std::string_view> existing = std::string_view(*log);
  for (auto _ : state) {
    const std::string bytes = tiers::append_session_entry(existing, turn, now());
    benchmark::DoNotOptimize(bytes.data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(log->size()));
}
BENCHMARK(BM_append_session_entry)->ArgName("MiB")->Arg(1)->Arg(16)->Unit(benchmark::kMicrosecond);

// The pure part of one `tiers persist-turn` (L1 + L2) on today's log of that size: checks, the
// UTF-8 scan of each base, the new bytes and both SHA-256 digests of each operation. The CLI runs
// it twice per turn (once to refuse early, once under the lock), then writes. Real time: from 1 MiB
// the two digests of an operation run on two threads, and CPU time counts only this one.
void BM_plan_persist_turn(benchmark::State& state) {
  const auto log = day_log_of(static_cast<std::size_t>(state.range(0)));
  const std::string l1 = tiers::session_log_path(now());
  const std::string l2 = tiers::theme_note_path("decision", now());
  std::vector<memkit::FileSnapshot> files;
  files.push_back({l1, memkit::EntryState::file, log, ""});
  files.push_back({l2, memkit::EntryState::file,
                   std::make_shared<const std::string>("## Earlier\n\nAn earlier note.\n"), ""});
  files.push_back({std::string(tiers::kGlobalPath), memkit::EntryState::file,
                   std::make_shared<const std::string>(tiers::global_skeleton()), ""});
  const memkit::Snapshot snapshot(std::move(files));
  tiers::PersistTurn request;
  request.turn.session_id = "s-bench";
  request.turn.tools_json = R"(["search","read"])";
  request.raw_content = a_turn().content;
  request.extracted_content = "Flush the cache before every deploy.";
  request.theme = "decision";
  request.templ = "decision";
  request.title = "Cache flush";
  for (auto _ : state) {
    tiers::Written written;
    const tiers::Change change = tiers::plan_persist_turn(snapshot, request, now(), written);
    if (change.refused() || change.operations.size() != 2) {
      state.SkipWithError("plan_persist_turn refused the turn");
      break;
    }
    benchmark::DoNotOptimize(change.operations.data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(log->size()));
}
BENCHMARK(BM_plan_persist_turn)
    ->ArgName("MiB")
    ->Arg(1)
    ->Arg(16)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

// ---- §6, §8: global.md and session-init's context ----------------------------------------------

// A global.md of about `kib` KiB with the skeleton's headings: a short Active Mission (three H3s
// of a few bullets), then many H3 topics under Research Index (45%), Decisions (40%) and User
// Preferences (15%), each a few bullets or a paragraph.
std::shared_ptr<const std::string> global_of(std::size_t kib) {
  static std::map<std::size_t, std::shared_ptr<const std::string>> made;
  if (auto it = made.find(kib); it != made.end()) return it->second;
  Random random(kSeed + 3 * kib);
  std::string out =
      "# Global Memory\n\nRead Order: Active Mission -> Key Constraints -> Research Index -> User "
      "Preferences\n\n## 1. Active Mission\n";
  for (const char* h3 : {"Mission Snapshot", "Key Constraints (Immutable)", "Next Useful Reads"}) {
    out += "### ";
    out += h3;
    out += '\n';
    for (std::size_t i = 0, n = 3 + random.below(4); i < n; ++i) {
      out += "- ";
      append_words(random, 6 + random.below(10), out);
      out += '\n';
    }
  }
  const std::size_t target = kib * 1024;
  const std::pair<const char*, double> sections[] = {
      {"2. Research Index", 0.45}, {"3. Decisions", 0.85}, {"4. User Preferences", 1.0}};
  std::size_t topic = 0;
  for (const auto& [h2, share] : sections) {
    out += "\n## ";
    out += h2;
    out += '\n';
    while (out.size() < static_cast<std::size_t>(share * static_cast<double>(target))) {
      out += "\n### Topic " + std::to_string(++topic) + ": ";
      append_words(random, 2 + random.below(3), out);
      out += '\n';
      if (random.one_in(3)) {
        append_words(random, 20 + random.below(40), out);
        out += '\n';
      } else {
        for (std::size_t i = 0, n = 2 + random.below(6); i < n; ++i) {
          out += "- ";
          append_words(random, 5 + random.below(15), out);
          out += '\n';
        }
      }
    }
  }
  return made[kib] = std::make_shared<const std::string>(std::move(out));
}

void BM_read_order(benchmark::State& state) {
  const auto global = global_of(1024);
  std::size_t found = 0;
  for (auto _ : state) {
    const std::vector<tiers::ReadOrderItem> order = tiers::read_order(*global);
    found = 0;
    for (const tiers::ReadOrderItem& item : order) found += item.found() ? 1 : 0;
    benchmark::DoNotOptimize(order.data());
  }
  if (found != 4) state.SkipWithError("read_order did not find the four sections");
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(global->size()));
}
BENCHMARK(BM_read_order)->Unit(benchmark::kMillisecond);

// session-init --max-tokens N's context: the 1 MiB global.md, 8 theme notes of about 2 KiB and 3
// day logs of about 64 KiB. At 4000 tokens nearly everything but Active Mission is dropped, one
// item at a time; at 2^30 nothing is.
void BM_assemble_context(benchmark::State& state) {
  const auto global = global_of(1024);
  Random random(kSeed + 7);
  std::vector<memkit::FileSnapshot> files;
  files.push_back({std::string(tiers::kGlobalPath), memkit::EntryState::file, global, ""});
  std::vector<tiers::NoteFile> themes;
  for (std::int64_t i = 0; i < 8; ++i) {
    tiers::NoteFile note;
    note.theme = "theme-" + std::to_string(i);
    note.path = std::string(tiers::kMemoryDir) + "/" + note.theme + "/" + note_file_before(i * 5);
    std::string bytes = "## Decision Record: topic " + std::to_string(i) + "\n\n";
    while (bytes.size() < 2048) {
      append_words(random, 10 + random.below(20), bytes);
      bytes += '\n';
    }
    files.push_back(
        {note.path, memkit::EntryState::file, std::make_shared<const std::string>(bytes), ""});
    themes.push_back(std::move(note));
  }
  std::vector<tiers::LogFile> logs;
  for (std::int64_t day = 0; day < 3; ++day) {
    tiers::LogFile log{date_before(day), ""};
    log.path = std::string(tiers::kSessionsDir) + "/" + log.date + ".md";
    std::string bytes = day_log_of(1)->substr(0, 64 * 1024);
    files.push_back(
        {log.path, memkit::EntryState::file, std::make_shared<const std::string>(bytes), ""});
    logs.push_back(std::move(log));
  }
  const memkit::Snapshot snapshot(std::move(files));
  const auto budget = static_cast<std::uint64_t>(state.range(0));
  tiers::Context context;
  for (auto _ : state) {
    context = tiers::assemble_context(snapshot, themes, logs, budget);
    benchmark::DoNotOptimize(context.text.data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(global->size()));
  state.counters["tokens_used"] = static_cast<double>(context.tokens_used);
  state.counters["dropped"] = static_cast<double>(context.dropped.size());
}
BENCHMARK(BM_assemble_context)
    ->ArgName("max_tokens")
    ->Arg(4000)
    ->Arg(std::int64_t{1} << 30)
    ->Unit(benchmark::kMillisecond);

// ---- §8, §11: listings -------------------------------------------------------------------------

constexpr std::size_t kSessionDays = 3650;
constexpr std::size_t kThemes = 200;
constexpr std::size_t kNotesPerTheme = 500;
constexpr std::size_t kNoteHours = 3 * 365 * 24;  // notes fall in the last three years

// Ten years of daily logs ending today, and 200 themes of 500 notes each at distinct hours drawn
// from the last three years (so about 3 per theme in the last week, and 92% older than 90 days).
std::shared_ptr<const tiers::TiersTree> tree() {
  static std::shared_ptr<const tiers::TiersTree> made;
  if (made) return made;
  auto out = std::make_shared<tiers::TiersTree>();
  out->memory_exists = true;
  for (std::size_t day = kSessionDays; day-- > 0;) {
    out->session_files.push_back(date_before(static_cast<std::int64_t>(day)) + ".md");
  }
  Random random(kSeed + 11);
  for (std::size_t t = 0; t < kThemes; ++t) {
    char name[16];
    std::snprintf(name, sizeof name, "theme-%03zu", t);
    std::set<std::size_t> hours;
    while (hours.size() < kNotesPerTheme) hours.insert(random.below(kNoteHours));
    std::vector<std::string>& notes = out->theme_folders[name];
    for (auto it = hours.rbegin(); it != hours.rend(); ++it) {  // oldest first: sorted by name
      notes.push_back(note_file_before(static_cast<std::int64_t>(*it)));
    }
  }
  out->data_files = {"contacts.csv", "metrics.csv"};
  return made = std::move(out);
}

void BM_select_logs(benchmark::State& state) {
  const auto listed = tree();
  std::size_t selected = 0;
  for (auto _ : state) {
    const std::vector<tiers::LogFile> logs = tiers::select_logs(*listed, now(), 7, 20);
    selected = logs.size();
    benchmark::DoNotOptimize(logs.data());
  }
  state.counters["selected"] = static_cast<double>(selected);
}
BENCHMARK(BM_select_logs)->Unit(benchmark::kMicrosecond);

// session-init's recent_themes: the newest note per theme within 7 days, at most 8.
void BM_recent_notes(benchmark::State& state) {
  const auto listed = tree();
  std::size_t selected = 0;
  for (auto _ : state) {
    const std::vector<tiers::NoteFile> notes = tiers::recent_notes(*listed, now(), 7 * 24, 8);
    selected = notes.size();
    benchmark::DoNotOptimize(notes.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kThemes * kNotesPerTheme));
  state.counters["selected"] = static_cast<double>(selected);
}
BENCHMARK(BM_recent_notes)->Unit(benchmark::kMillisecond);

// archive-themes --days 90, and session-init's l2_archive_due.
void BM_archive_candidates(benchmark::State& state) {
  const auto listed = tree();
  std::size_t selected = 0;
  for (auto _ : state) {
    const std::vector<tiers::NoteFile> notes = tiers::archive_candidates(*listed, now(), 90);
    selected = notes.size();
    benchmark::DoNotOptimize(notes.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kThemes * kNotesPerTheme));
  state.counters["candidates"] = static_cast<double>(selected);
}
BENCHMARK(BM_archive_candidates)->Unit(benchmark::kMillisecond);

}  // namespace
