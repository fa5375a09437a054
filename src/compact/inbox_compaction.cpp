// Inbox mode (spec compaction.md §8): exact duplicates and exact tombstone matches go, everything
// else stays; candidates are listed for review, never classified.
#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>

#include "compact/input_reader.hpp"
#include "compact/key_index.hpp"
#include "markdown/line_kinds.hpp"
#include "memkit/compact.hpp"
#include "memkit/text.hpp"
#include "parallel/run_both.hpp"

namespace memkit {
namespace {

// One bullet unit of the inbox as the dedupe pass needs it, in 12 bytes (a 100 MiB inbox holds
// 1.5 million). Offsets fit 32 bits: the planner refuses inboxes of 4 GiB or more.
struct Bullet {
  std::uint32_t hash;  // key_hash of the key; 0 for an empty key (a bare marker)
  std::uint32_t begin;
  std::uint32_t end;
};

// The 32 bits of a key's fast_hash a bullet keeps (never 0: that marks an empty key). Equal keys
// have equal ones; the dedupe index compares keys whenever two match.
std::uint32_t key_hash(std::string_view key) {
  if (key.empty()) return 0;
  const auto hash = static_cast<std::uint32_t>(fast_hash(key) >> 32);
  return hash == 0 ? 1 : hash;
}

// The key of a bullet found by scan_part. Line numbers are not kept, so the unit is given two
// lines, which only skips the one-line shortcut; the key is the same.
void key_of_bullet(std::string_view bytes, const Bullet& b, std::string& out,
                   std::string& scratch) {
  unit_key_into(bytes, Unit{UnitKind::bullet_unit, 0, 1, 2, b.begin, b.end}, out, scratch);
}

// What scanning one part of the inbox found.
struct Part {
  std::vector<Bullet> bullets;
  std::optional<TextIssue> parse_error;  // its line is relative to the part
  std::uint32_t lines = 0;
  std::optional<std::size_t> bad_utf8;  // offset in the whole inbox
};

// Scans bytes[lo, hi), a run of whole lines that starts where the scanner's state is known to be
// fresh (the file's start, or an H2 line outside any fence or comment), keying every bullet.
Part scan_part(std::string_view bytes, std::size_t lo, std::size_t hi) {
  Part part;
  const std::string_view text = bytes.substr(lo, hi - lo);
  if (const auto bad = find_invalid_utf8(text)) part.bad_utf8 = lo + *bad;
  part.bullets.reserve(text.size() / 32 + 16);
  UnitReader reader(text);
  Unit unit{};
  std::string key;
  std::string scratch;
  while (reader.next(unit)) {
    if (unit.kind != UnitKind::bullet_unit) continue;
    unit_key_into(text, unit, key, scratch);
    part.bullets.push_back(Bullet{key_hash(key), static_cast<std::uint32_t>(lo + unit.begin),
                                  static_cast<std::uint32_t>(lo + unit.end)});
  }
  part.parse_error = reader.parse_error();
  part.lines = reader.line_count();
  return part;
}

// The offset of an H2 line at or after `from` where a second thread can start scanning, or 0.
// UTF-8 never puts an LF inside a sequence, so the halves validate apart too.
std::size_t split_point(std::string_view bytes, std::size_t from) {
  for (std::size_t at = bytes.find("\n##", from); at != std::string_view::npos;
       at = bytes.find("\n##", at + 1)) {
    const std::size_t line = at + 1;
    const std::size_t lf = bytes.find('\n', line);
    std::string_view content =
        bytes.substr(line, (lf == std::string_view::npos ? bytes.size() : lf) - line);
    if (!content.empty() && content.back() == '\r') content.remove_suffix(1);
    if (detail::heading_level(content) == 2) return line;
  }
  return 0;
}

// The bullets of the whole inbox in file order (the first part's, then the second's), with its
// parse and UTF-8 issues. A large inbox is read in two parts on two threads, split at an H2 line;
// the second part is kept only when the first ends outside any fence or comment, which is when
// its scan equals a scan of the whole file from that line. Otherwise one scan reads everything.
// Either way the result is the one a single scan gives.
struct Scan {
  std::vector<Bullet> first;
  std::vector<Bullet> second;
  std::optional<TextIssue> parse_error;
  std::optional<TextIssue> utf8_error;

  [[nodiscard]] std::size_t size() const noexcept { return first.size() + second.size(); }
  [[nodiscard]] const Bullet& operator[](std::size_t i) const noexcept {
    return i < first.size() ? first[i] : second[i - first.size()];
  }
};

constexpr std::size_t kParallelBytes = std::size_t{1} << 20;

Scan scan_inbox(std::string_view bytes, std::size_t content_begin) {
  Scan scan;
  std::optional<Part> parts[2];
  const std::size_t split =
      bytes.size() >= kParallelBytes ? split_point(bytes, bytes.size() / 2) : 0;
  if (split != 0) {
    detail::run_both([&] { parts[0] = scan_part(bytes, 0, split); },
                     [&] { parts[1] = scan_part(bytes, split, bytes.size()); });
    if (parts[0]->parse_error) parts[1].reset();  // the split was inside a fence or comment
  }
  if (!parts[1]) {
    parts[0] = scan_part(bytes, 0, bytes.size());
  }
  const std::optional<std::size_t> bad = parts[0]->bad_utf8 ? parts[0]->bad_utf8
                                         : parts[1]         ? parts[1]->bad_utf8
                                                            : std::nullopt;
  if (bad) {
    const auto line = 1 + count_newlines(bytes.substr(content_begin, *bad - content_begin));
    scan.utf8_error = TextIssue{TextProblem::invalid_utf8, static_cast<std::uint32_t>(line)};
  }
  scan.parse_error = parts[0]->parse_error;
  if (!scan.parse_error && parts[1] && parts[1]->parse_error) {
    scan.parse_error =
        TextIssue{parts[1]->parse_error->problem, parts[0]->lines + parts[1]->parse_error->line};
  }
  scan.first = std::move(parts[0]->bullets);
  if (parts[1]) scan.second = std::move(parts[1]->bullets);
  return scan;
}

// What the dedupe pass decides for the bullets of one key class.
struct Decisions {
  std::vector<std::uint32_t> removed;  // bullet numbers, ascending
  std::uint64_t duplicates = 0;
  std::uint64_t tombstone_matches = 0;
};

// §8 in file order for the non-empty bullets whose hash has top bit `half` (both halves when
// half is -1): every decision about a key depends only on earlier bullets with the same key, and
// equal keys have equal hashes, so the two halves can be decided on two threads and give what
// one pass gives. Lookups run a few bullets ahead of their prefetches, so the index's memory
// latency overlaps the work.
Decisions decide(std::string_view bytes, const Scan& bullets, int half,
                 const std::set<std::string>& tombstones,
                 const std::unordered_set<std::uint32_t>& tombstone_hashes) {
  auto mine = [half](std::uint32_t hash) {
    return hash != 0 && (half < 0 || static_cast<int>(hash >> 31) == half);
  };
  std::size_t count = 0;
  for (std::size_t i = 0; i < bullets.size(); ++i) count += mine(bullets[i].hash) ? 1 : 0;
  std::string earlier_scratch;
  // The bullets keep their hashes, so the index keeps bullet numbers alone (4 bytes a slot).
  detail::KeyIndex seen(
      count,
      [&](std::uint32_t i, std::string& earlier) {
        key_of_bullet(bytes, bullets[i], earlier, earlier_scratch);
      },
      [&](std::uint32_t i) { return bullets[i].hash; });
  Decisions decisions;
  std::string key;
  std::string scratch;
  constexpr std::size_t kAhead = 16;
  for (std::size_t i = 0; i < bullets.size(); ++i) {
    if (i + kAhead < bullets.size() && mine(bullets[i + kAhead].hash)) {
      seen.prefetch(bullets[i + kAhead].hash);
    }
    const Bullet& b = bullets[i];
    if (!mine(b.hash)) continue;
    bool built = false;
    auto key_of = [&]() -> std::string_view {
      if (!built) key_of_bullet(bytes, b, key, scratch);
      built = true;
      return key;
    };
    if (seen.seen_or_insert(b.hash, static_cast<std::uint32_t>(i), key_of)) {
      ++decisions.duplicates;
    } else if (tombstone_hashes.count(b.hash) != 0 &&
               tombstones.count(std::string(key_of())) != 0) {
      ++decisions.tombstone_matches;
    } else {
      continue;  // a candidate
    }
    decisions.removed.push_back(static_cast<std::uint32_t>(i));
  }
  return decisions;
}

}  // namespace

InboxCompaction plan_inbox_compaction(const CustodianInputs& inputs, const TokenCounter& counter,
                                      const ClockReading& now) {
  InboxCompaction report;
  report.memory_dir = inputs.memory_dir;
  std::vector<Finding>& out = report.findings;
  detail::InputReader reader(inputs, out);
  std::optional<Document> manifest;
  if (!detail::start_planning(inputs, reader, out, manifest, &report.protocol_version)) {
    return report;
  }
  const FileSnapshot* inbox_entry = reader.find_file("inbox.md", true);
  const std::optional<Document> do_not_use = reader.read("do-not-use.md", false, false);
  // The changelog is written only when there is a plan; its UTF-8 is judged below.
  const std::optional<Document> changelog = reader.read("changelog.md", false, false);
  if (inbox_entry == nullptr) {
    sort_findings(out);
    return report;
  }
  const std::string_view bytes(*inbox_entry->bytes);
  if (bytes.size() >= (std::uint64_t{1} << 32)) {
    out.push_back(make_fatal("MK-IO-001", "inbox.md",
                             "inbox.md: 4 GiB or larger; memkit compacts inboxes up to 4 GiB"));
    sort_findings(out);
    return report;
  }
  const std::size_t content_begin = bom_size(bytes);
  Scan scan = scan_inbox(bytes, content_begin);
  reader.report_issues("inbox.md", scan.parse_error, scan.utf8_error, true);
  if (scan.parse_error || (do_not_use && !do_not_use->parseable())) {
    sort_findings(out);
    return report;
  }

  std::set<std::string> tombstones;
  if (do_not_use) {
    for (custodian::Tombstone& t : custodian::tombstones(*do_not_use)) {
      tombstones.insert(std::move(t.key));
    }
  }
  std::unordered_set<std::uint32_t> tombstone_hashes;
  for (const std::string& t : tombstones) tombstone_hashes.insert(key_hash(t));
  Decisions decisions[2];
  if (bytes.size() >= kParallelBytes) {
    detail::run_both([&] { decisions[0] = decide(bytes, scan, 0, tombstones, tombstone_hashes); },
                     [&] { decisions[1] = decide(bytes, scan, 1, tombstones, tombstone_hashes); });
  } else {
    decisions[0] = decide(bytes, scan, -1, tombstones, tombstone_hashes);
  }
  // Merged back into file order: the removed units, and every bullet that is no candidate.
  std::vector<ByteRange> removed;
  std::vector<std::size_t> skipped;
  removed.reserve(decisions[0].removed.size() + decisions[1].removed.size());
  auto next0 = decisions[0].removed.begin();
  auto next1 = decisions[1].removed.begin();
  for (std::size_t i = 0; i < scan.size(); ++i) {
    const Bullet& b = scan[i];
    if (b.hash == 0) {
      ++report.empty_items;
      skipped.push_back(b.begin);
      continue;
    }
    bool gone = false;
    if (next0 != decisions[0].removed.end() && *next0 == i) {
      ++next0;
      gone = true;
    } else if (next1 != decisions[1].removed.end() && *next1 == i) {
      ++next1;
      gone = true;
    }
    if (gone) {
      removed.push_back(ByteRange{b.begin, b.end});
      skipped.push_back(b.begin);
    }
  }
  report.inbox_items = scan.size();
  report.duplicates = decisions[0].duplicates + decisions[1].duplicates;
  report.tombstone_matches = decisions[0].tombstone_matches + decisions[1].tombstone_matches;
  const std::uint64_t candidates =
      report.inbox_items - report.empty_items - report.duplicates - report.tombstone_matches;
  report.candidates = CandidateList(inbox_entry->bytes, std::move(skipped), candidates,
                                    !scan.utf8_error.has_value());
  scan = {};  // give the memory back before the digests

  if (removed.empty() || detail::blocked(out)) {
    sort_findings(out);
    return report;
  }
  if (changelog && changelog->utf8_error()) {
    // Only now is the changelog a file this command would change.
    for (Finding& f : out) {
      if (f.code == "MK-UTF8-001" && f.path == "changelog.md") {
        f.severity = Severity::blocker;
        f.remediation = "fix the encoding; memkit will not change this file";
      }
    }
    sort_findings(out);
    return report;
  }

  std::vector<PlanOperation> operations;
  std::vector<BudgetResult> budgets;
  operations.push_back(plan_write("inbox.md", inbox_entry->bytes, true,
                                  removal_splices(bytes, content_begin, removed)));
  if (changelog) {
    const FileSnapshot* entry = inputs.snapshot.find("changelog.md");
    const std::string message = fmt::format(
        "inbox.md cleanup: removed {} exact duplicate(s) and {} exact tombstone match(es).",
        report.duplicates, report.tombstone_matches);
    PlanOperation op = plan_write("changelog.md", entry->bytes, true,
                                  {changelog_line(*changelog, now.local_date_iso(), message)});
    if (const std::optional<Budget> budget = custodian::budget_for("changelog.md")) {
      const std::uint64_t after = counter.count(op.output.render());
      budgets.push_back(BudgetResult{"changelog.md", counter.count(entry->text()), after,
                                     budget->limit(), budget->classify(after)});
    }
    operations.push_back(std::move(op));
  }
  report.plan =
      Plan::create("custodian compact", {{"memory_dir", inputs.memory_dir}, {"target", "inbox.md"}},
                   std::move(operations), std::move(budgets));
  sort_findings(out);
  return report;
}

}  // namespace memkit
