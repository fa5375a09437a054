// `memorybox update --entry ID --resolve archive` (spec memorybox.md §6): a resolved review that
// ends with the entry in the archive, moved verbatim, plan-confirmed.
#include "memorybox/move_set.hpp"

namespace memkit::memorybox {

Result<EntryMove> plan_resolve_archive(const Inputs& inputs, std::string_view entry_id,
                                       const ClockReading& now) {
  Result<std::string> path = detail::entry_file(entry_id);
  if (!path) return path.status();
  if (is_canon_file(*path)) {  // §10: no memkit command archives canon entries
    return Status(Errc::invalid_argument, "--entry: " + *path + ": canon entries are immutable");
  }
  if (const int tier = tier_of(inputs, *path); tier < 1 || tier > 4) {
    return Status(Errc::invalid_argument, "--entry: " + *path + ": not a tier 1-4 file");
  }
  detail::Documents docs(inputs);
  Result<detail::Located> located = detail::locate_entry(docs, *path, entry_id);
  if (!located) return located.status();
  EntryMove move;
  move.entry_id = std::string(entry_id);
  move.path = *path;
  if (located->refused) {
    move.findings.push_back(*located->refused);
    return move;
  }
  const Document& doc = *located->doc;
  const Entry& entry = *located->entry;
  // §6: the month of today, whatever the entry's own date; the layout of §7 for its file.
  const CivilDate today = now.local_date();
  move.destination = archive_path(*path, today);
  detail::MoveSet moves(docs);
  const std::string_view t = new_line_terminator(doc);
  switch (entry.kind) {
    case EntryKind::daily:
      moves.delete_file(*path);
      moves.archive(
          move.destination, std::string(kDailyFolder) + "/", ArchiveLayout::daily, t,
          ArchivedEntry{detail::daily_bytes(doc), *daily_date(path->substr(path->rfind('/') + 1))});
      break;
    case EntryKind::session:
      moves.remove(*path, entry);
      moves.archive(
          move.destination, *path, ArchiveLayout::sessions, t,
          ArchivedEntry{detail::entry_bytes(doc, entry), detail::session_date(doc, entry)});
      break;
    case EntryKind::bullet:
    case EntryKind::section:
      moves.remove(*path, entry);
      moves.archive(move.destination, *path, ArchiveLayout::appended, t,
                    ArchivedEntry{detail::entry_bytes(doc, entry), today});
      break;
  }
  move.before = detail::confidence_state_of(inputs, entry, now);
  move.after = move.before;
  move.plan =
      moves.build("memorybox update", {{"entry", std::string(entry_id)}, {"resolve", "archive"}},
                  move.findings);
  sort_findings(move.findings);
  return move;
}

}  // namespace memkit::memorybox
