// From gathered moves to plan operations (spec memorybox.md §7, compaction.md §7, §12.1).
#include "memorybox/move_set.hpp"

#include <algorithm>

#include "markdown/line_kinds.hpp"

namespace memkit::memorybox::detail {
namespace {

// The line limit of a tier 2 or 3 file (§2), else nullopt: only those have budget results.
std::optional<std::uint64_t> limit_of(std::string_view path) {
  for (const TierSpec& tier : default_tiers()) {  // memory/ files: the same in every profile
    if (tier.file_limit &&
        std::find(tier.files.begin(), tier.files.end(), path) != tier.files.end()) {
      return tier.file_limit;
    }
  }
  return std::nullopt;
}

std::optional<BudgetResult> budget_result(const std::string& path, std::string_view before,
                                          const std::vector<Splice>& splices) {
  const std::optional<std::uint64_t> limit = limit_of(path);
  if (!limit) return std::nullopt;
  const std::uint64_t after = line_count(apply_splices(before, splices));
  const Budget budget = *Budget::create(*limit, Bound::stay_under, Measure::lines);
  return BudgetResult{path, line_count(before), after, *limit, budget.classify(after)};
}

// compaction.md §7.3 append of moved bytes; a new file holds them alone.
Splice append_splice(const Document* doc, std::string_view bytes, bool bullet) {
  if (doc != nullptr) return append_bytes(*doc, bytes, bullet);
  std::string block(bytes);
  if (!block.empty() && block.back() != '\n') block += '\n';
  return Splice{0, 0, std::move(block)};
}
}  // namespace

const Document& Documents::parsed(const std::string& path) {
  if (known_ != nullptr) {
    if (const auto known = known_->find(path); known != known_->end()) return known->second;
  }
  auto found = parsed_.find(path);
  if (found == parsed_.end()) {
    found = parsed_.emplace(path, parse_markdown(inputs_->snapshot.find(path)->bytes)).first;
  }
  return found->second;
}

std::string_view entry_bytes(const Document& doc, const Entry& entry) noexcept {
  return doc.bytes().substr(entry.begin, entry.end - entry.begin);
}

CivilDate session_date(const Document& doc, const Entry& entry) {
  LineCursor cursor(doc.bytes(), entry.begin, entry.end, entry.first_line);
  Line heading{};
  cursor.next(heading);
  return *parse_iso_date(heading_text(heading.content).substr(0, 10));
}

std::string_view daily_bytes(const Document& doc) noexcept {
  const std::string_view bytes = doc.bytes();
  std::size_t end = doc.content_begin();
  LineCursor cursor = doc.lines();
  Line line{};
  while (cursor.next(line)) {
    if (!memkit::detail::is_blank(line.content)) {
      end = line.begin + line.content.size() + line.terminator.size();
    }
  }
  return bytes.substr(doc.content_begin(), end - doc.content_begin());
}

std::optional<Finding> unchangeable(const FileSnapshot* file, Documents& docs) {
  if (file == nullptr || file->state == EntryState::missing) return std::nullopt;
  const std::string& path = file->path;
  switch (file->state) {
    case EntryState::symlink:
      return make_fatal("MK-LAYOUT-001", path,
                        path + ": is a symbolic link; memkit does not write through links");
    case EntryState::not_a_file:
      return make_fatal("MK-IO-001", path, path + ": not a regular file");
    case EntryState::unreadable:
      return make_fatal("MK-IO-001", path, path + ": " + file->error);
    case EntryState::file:
    case EntryState::missing:
      break;
  }
  const Status editable = check_editable(docs.parsed(path), path);
  if (editable.ok()) return std::nullopt;
  return make_finding(editable.code() == Errc::parse ? "MK-PARSE-001" : "MK-UTF8-001",
                      Severity::blocker, path, editable.message());
}

Result<std::string> entry_file(std::string_view entry_id) {
  const std::size_t hash = entry_id.find('#');
  if (hash == std::string_view::npos || hash == 0) {
    return Status(Errc::invalid_argument,
                  "--entry: " + std::string(entry_id) + ": expected <path>#<12 hex digits>");
  }
  return std::string(entry_id.substr(0, hash));
}

Result<Located> locate_entry(Documents& docs, const std::string& path, std::string_view entry_id) {
  Located located;
  const FileSnapshot* file = docs.file(path);
  if (file == nullptr || file->state == EntryState::missing) {
    return Status(Errc::invalid_argument, "--entry: " + path + ": no such file");
  }
  located.refused = unchangeable(file, docs);
  if (located.refused) return located;
  located.doc = &docs.parsed(path);
  for (Entry& e : read_entries(path, *located.doc)) {
    if (e.id == entry_id) {
      located.entry = std::move(e);
      return located;
    }
  }
  return Status(Errc::invalid_argument, "--entry: " + std::string(entry_id) + ": no such entry");
}

ConfidenceState confidence_state_of(const Inputs& inputs, const Entry& entry,
                                    const ClockReading& now) {
  if (entry.kind != EntryKind::bullet && entry.kind != EntryKind::section) return {};
  // plan_update reads the state before any event the one way `update` reports it; the event
  // asked for here is never applied.
  const Result<UpdatePlanning> update =
      plan_update(inputs, UpdateRequest{entry.id, UpdateEvent::verify, "", std::nullopt}, now);
  return update ? update->before : ConfidenceState{};
}

void MoveSet::remove(const std::string& path, const Entry& entry) {
  removals_[path].push_back(ByteRange{entry.begin, entry.end});
}

void MoveSet::delete_file(const std::string& path) { deletions_.insert(path); }

void MoveSet::archive(const std::string& archive, std::string_view source_label,
                      ArchiveLayout layout, std::string_view source_terminator,
                      ArchivedEntry entry) {
  auto [target, made] = archives_.try_emplace(archive);
  if (made) {
    target->second.label = std::string(source_label);
    target->second.layout = layout;
    target->second.terminator = std::string(source_terminator);
  }
  target->second.entries.push_back(entry);
}

void MoveSet::append(const std::string& path, std::string_view bytes, bool bullet) {
  appends_[path] = Append{bytes, bullet};
}

std::optional<Plan> MoveSet::build(std::string command, PlanArguments arguments,
                                   std::vector<Finding>& findings) const {
  if (empty()) return std::nullopt;
  std::vector<Finding> refused;
  std::vector<PlanOperation> operations;
  std::vector<BudgetResult> budgets;
  // A write of splices over a file's bytes, or over nothing for a new file.
  auto write = [&](const std::string& path, const std::vector<Splice>& splices) {
    const FileSnapshot* file = docs_->file(path);
    const bool exists = file != nullptr && file->exists();
    std::shared_ptr<const std::string> base = exists ? file->bytes : nullptr;
    if (std::optional<BudgetResult> b =
            budget_result(path, exists ? file->text() : std::string_view(), splices)) {
      budgets.push_back(std::move(*b));
    }
    operations.push_back(plan_write(path, std::move(base), exists, splices));
  };
  auto check = [&](const std::string& path) {
    const std::optional<Finding> no = unchangeable(docs_->file(path), *docs_);
    if (no) refused.push_back(*no);
    return !no;
  };
  for (const auto& [path, ranges] : removals_) {
    if (!check(path)) continue;
    std::vector<ByteRange> sorted = ranges;
    std::sort(sorted.begin(), sorted.end(),
              [](const ByteRange& a, const ByteRange& b) { return a.begin < b.begin; });
    sorted.erase(
        std::unique(sorted.begin(), sorted.end(),
                    [](const ByteRange& a, const ByteRange& b) { return a.begin == b.begin; }),
        sorted.end());
    const Document& doc = docs_->parsed(path);
    write(path, removal_splices(doc.bytes(), doc.content_begin(), sorted));
  }
  for (const std::string& path : deletions_) {
    if (check(path)) operations.push_back(plan_remove(*docs_->file(path)));
  }
  for (const auto& [path, target] : archives_) {
    if (!check(path)) continue;
    const FileSnapshot* file = docs_->file(path);
    const Document* existing = file != nullptr && file->exists() ? &docs_->parsed(path) : nullptr;
    write(path, archive_splices(existing, target.label, target.layout, target.entries,
                                target.terminator));
  }
  for (const auto& [path, append] : appends_) {
    if (!check(path)) continue;
    const FileSnapshot* file = docs_->file(path);
    const Document* existing = file != nullptr && file->exists() ? &docs_->parsed(path) : nullptr;
    write(path, {append_splice(existing, append.bytes, append.bullet)});
  }
  if (!refused.empty()) {
    findings.insert(findings.end(), refused.begin(), refused.end());
    return std::nullopt;
  }
  return Plan::create(std::move(command), std::move(arguments), std::move(operations),
                      std::move(budgets));
}

}  // namespace memkit::memorybox::detail
