// `memorybox promote --entry ID` (spec memorybox.md §7 PATTERNS (b), §11): a pattern becomes an
// SOP. OUR DECISION on the mechanics: the entry moves verbatim, fields included, to the end of
// memory/SOP_LIBRARY.md (compaction.md §7.3 append) and leaves PATTERNS.md by §7.1, in one
// plan-confirmed apply, so the text exists in exactly one place before and after.
#include <algorithm>

#include "memorybox/move_set.hpp"

namespace memkit::memorybox {
namespace {

constexpr std::string_view kPatterns = "memory/PATTERNS.md";
constexpr std::string_view kSopLibrary = "memory/SOP_LIBRARY.md";

// SOP_LIBRARY.md's entries are its H2 sections, or its bullets when it has no H2 (§3). An entry of
// the other shape would change what its existing entries are (a section appended after bullets
// turns them into preamble text; a bullet appended after a section falls inside it), so such a
// promotion is refused. OUR DECISION: the move is left to a person.
Status shapes_agree(const Document* sop, const Entry& pattern) {
  if (sop == nullptr) return Status();
  const std::vector<Entry> entries = read_entries(kSopLibrary, *sop);
  const bool sections = std::any_of(entries.begin(), entries.end(),
                                    [](const Entry& e) { return e.kind == EntryKind::section; });
  if (pattern.kind == EntryKind::bullet && sections) {
    return Status(Errc::invalid_argument,
                  "--entry: " + pattern.id +
                      " is a bullet and memory/SOP_LIBRARY.md holds H2 sections; move it by hand");
  }
  if (pattern.kind == EntryKind::section && !sections && !entries.empty()) {
    return Status(Errc::invalid_argument,
                  "--entry: " + pattern.id +
                      " is an H2 section and memory/SOP_LIBRARY.md holds bullets; move it by hand");
  }
  return Status();
}

}  // namespace

Result<EntryMove> plan_promote(const Inputs& inputs, std::string_view entry_id,
                               const ClockReading& now) {
  Result<std::string> path = detail::entry_file(entry_id);
  if (!path) return path.status();
  if (*path != kPatterns) {
    return Status(Errc::invalid_argument, "--entry: " + std::string(entry_id) +
                                              ": promote takes an entry of memory/PATTERNS.md");
  }
  detail::Documents docs(inputs);
  Result<detail::Located> located = detail::locate_entry(docs, *path, entry_id);
  if (!located) return located.status();
  EntryMove move;
  move.entry_id = std::string(entry_id);
  move.path = *path;
  move.destination = std::string(kSopLibrary);
  if (located->refused) {
    move.findings.push_back(*located->refused);
    return move;
  }
  const Entry& entry = *located->entry;
  const FileSnapshot* sop = docs.file(move.destination);
  if (const std::optional<Finding> refused = detail::unchangeable(sop, docs)) {
    move.findings.push_back(*refused);
    return move;
  }
  const Document* sop_doc =
      sop != nullptr && sop->exists() ? &docs.parsed(move.destination) : nullptr;
  if (Status agree = shapes_agree(sop_doc, entry); !agree.ok()) return agree;
  detail::MoveSet moves(docs);
  moves.remove(*path, entry);
  moves.append(move.destination, detail::entry_bytes(*located->doc, entry),
               entry.kind == EntryKind::bullet);
  move.before = detail::confidence_state_of(inputs, entry, now);
  move.after = move.before;
  move.plan = moves.build("memorybox promote", {{"entry", std::string(entry_id)}}, move.findings);
  sort_findings(move.findings);
  return move;
}

}  // namespace memkit::memorybox
