// Compaction properties over real Markdown (issue 3): every corpus file, taken as an inbox and as
// a history file, is compacted, and nothing may be lost. Exits 77 without MEMKIT_CORPORA_DIR.
//   - each removed bullet unit repeats a kept one exactly (its key was seen before);
//   - the output holds every kept unit byte for byte, in order;
//   - applying and planning again finds nothing more to do;
//   - the Plan ID is the same when the plan is built twice;
//   - an archival moves whole H2 sections: each one is kept, or its heading and body are in the
//     archive byte for byte (same-heading sections merge there, §10).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "memkit/compact.hpp"

namespace fs = std::filesystem;
using namespace memkit;

namespace {

int failures = 0;
std::size_t inbox_plans = 0;
std::size_t duplicates_removed = 0;
std::size_t archivals = 0;

void fail(const std::string& what) {
  if (++failures <= 20) std::fprintf(stderr, "FAIL %s\n", what.c_str());
}

const ClockReading kNow = *ClockReading::parse_rfc3339("2026-03-07T10:00:00+00:00");

CustodianInputs inputs_with(const std::string& path, const std::string& bytes) {
  CustodianInputs in;
  in.memory_dir = "docs/memory";
  in.memory_dir_exists = true;
  std::vector<FileSnapshot> files;
  files.push_back(FileSnapshot{"manifest.md", EntryState::file,
                               std::make_shared<const std::string>("# M\n"), ""});
  files.push_back(
      FileSnapshot{path, EntryState::file, std::make_shared<const std::string>(bytes), ""});
  in.snapshot = Snapshot(std::move(files));
  return in;
}

std::vector<std::string> bullet_texts(const Document& doc) {
  std::vector<std::string> out;
  for (const Unit& u : doc.units()) {
    if (u.kind == UnitKind::bullet_unit) out.emplace_back(doc.text(u));
  }
  return out;
}

void check_inbox(const std::string& name, const std::string& bytes) {
  const Document before = parse_markdown(bytes);
  if (!before.parseable() || before.utf8_error()) return;  // refused by design, not compacted
  const CustodianInputs in = inputs_with("inbox.md", bytes);
  const InboxCompaction first = plan_inbox_compaction(in, default_token_counter(), kNow);
  const InboxCompaction again = plan_inbox_compaction(in, default_token_counter(), kNow);
  if (first.plan.has_value() != again.plan.has_value() ||
      (first.plan && first.plan->id() != again.plan->id())) {
    fail(name + ": the Plan ID changed between two identical plans");
  }
  if (first.inbox_items !=
      first.empty_items + first.duplicates + first.tombstone_matches + first.candidates.size()) {
    fail(name + ": inbox identity does not hold");
  }
  if (!first.plan) {
    if (first.duplicates != 0) fail(name + ": duplicates without a plan");
    return;
  }
  ++inbox_plans;
  duplicates_removed += first.duplicates;
  const std::string after_bytes = first.plan->operations()[0].output.render();
  const Document after = parse_markdown(after_bytes);
  // Kept units, in order and byte for byte: the original units minus one per removed duplicate.
  std::set<std::string> seen;
  std::vector<std::string> expected;
  for (const Unit& u : before.units()) {
    if (u.kind != UnitKind::bullet_unit) continue;
    const std::string key = *unit_key(before, u);
    if (!key.empty() && !seen.insert(key).second) continue;  // a removed exact duplicate
    // §7.1 may take a trailing gap but never a kept line: compare without trailing blanks.
    std::string text(before.text(u));
    expected.push_back(text);
  }
  std::vector<std::string> kept = bullet_texts(after);
  if (kept != expected) fail(name + ": the kept units are not the original non-duplicates");
  const InboxCompaction replanned =
      plan_inbox_compaction(inputs_with("inbox.md", after_bytes), default_token_counter(), kNow);
  if (replanned.plan) fail(name + ": planning after the apply found more to remove");
}

void check_history(const std::string& name, const std::string& bytes) {
  const Document before = parse_markdown(bytes);
  if (!before.parseable() || before.utf8_error()) return;
  const CustodianInputs in = inputs_with("changelog.md", bytes);
  const TargetCompaction r =
      plan_target_compaction(in, "changelog.md", default_token_counter(), kNow);
  if (r.action != TargetAction::archive) return;
  ++archivals;
  std::string trimmed;
  std::string archive;
  for (const PlanOperation& op : r.plan->operations()) {
    if (op.path == "changelog.md") trimmed = op.output.render();
    if (op.path == r.archive_path) archive = op.output.render();
  }
  if (r.projected_tokens > r.limit) fail(name + ": the archival result is over budget");
  // Every section of the original is either still in the trimmed file or, byte for byte
  // (heading to last non-blank line), in the archive.
  const Document kept = parse_markdown(trimmed);
  std::size_t kept_sections = 0;
  for (const Section& s : kept.sections()) kept_sections += s.kind == SectionKind::section;
  if (kept_sections != r.keep_entries) fail(name + ": keep_entries does not match the result");
  std::size_t h2 = 0;
  for (const Section& s : before.sections()) {
    if (s.kind != SectionKind::section) continue;
    const std::string text(before.text(s));
    if (h2++ < r.keep_entries) {
      if (trimmed.find(text) == std::string::npos) fail(name + ": a kept section changed");
    } else {
      // Changelog archives merge sections with identical headings (§10), so the heading line
      // and the body are each required byte for byte, not necessarily together.
      const std::string complete = text.back() == '\n' ? text : text + "\n";
      const std::size_t lf = complete.find('\n');
      const std::string heading = complete.substr(0, lf + 1);
      const std::string body = complete.substr(lf + 1);
      if (archive.find(heading) == std::string::npos ||
          (!body.empty() && archive.find(body) == std::string::npos)) {
        fail(name + ": an archived section is not in the archive byte for byte");
      }
    }
  }
}

}  // namespace

int main() {
  const char* dir = std::getenv("MEMKIT_CORPORA_DIR");
  if (dir == nullptr || *dir == '\0' || !fs::is_directory(dir)) {
    std::puts("skipped: MEMKIT_CORPORA_DIR is not set to the shared corpora");
    return 77;
  }
  std::size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    const std::string ext = entry.path().extension().string();
    if (ext != ".md" && ext != ".mdc" && ext != ".cursorrules") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string name = fs::relative(entry.path(), dir).string();
    check_inbox(name, bytes);
    check_history(name, bytes);
    ++files;
  }
  std::printf(
      "%zu files compacted as inboxes and as history files: %zu inbox plans removing %zu "
      "duplicates, %zu archivals: %d problem(s)\n",
      files, inbox_plans, duplicates_removed, archivals, failures);
  if (inbox_plans == 0 || archivals == 0) fail("the corpora exercised neither dedupe nor archival");
  std::printf("%d passed, %d failed\n", failures == 0 ? 1 : 0, failures == 0 ? 0 : 1);
  return failures == 0 ? 0 : 1;
}
