// Field updates of one entry (spec memorybox.md §3 field lines, §6 events): splices over the
// entry's file that change its field lines and nothing else.
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "memkit/memorybox.hpp"
#include "memkit/text.hpp"
#include "memorybox/field_editor.hpp"

namespace memkit::memorybox {
namespace {

ConfidenceState state_of(const Entry& entry, const std::optional<std::string>& verified_override,
                         const std::optional<std::uint32_t>& stored_override,
                         const std::optional<std::optional<std::string>>& review_override,
                         const CivilDate& today) {
  ConfidenceState state;
  const std::optional<std::string_view> confidence = entry.field("Confidence");
  state.stored = stored_override ? stored_override
                 : confidence    ? parse_confidence(*confidence)
                                 : std::nullopt;
  if (verified_override) {
    state.verified = verified_override;
  } else if (const std::optional<std::string_view> v = entry.field("Verified");
             v && parse_iso_date(*v)) {
    state.verified = std::string(*v);
  }
  if (review_override) {
    state.review = *review_override;
  } else if (const std::optional<std::string_view> r = entry.field("Review")) {
    state.review = std::string(*r);
  }
  if (state.stored && state.verified) {
    const std::int64_t days =
        std::max<std::int64_t>(0, days_between(*parse_iso_date(*state.verified), today));
    state.effective = effective_confidence(*state.stored, static_cast<std::uint64_t>(days));
    state.band = band_of(*state.effective);
  }
  return state;
}

}  // namespace

Result<UpdatePlanning> plan_update(const Inputs& inputs, const UpdateRequest& request,
                                   const ClockReading& now) {
  const std::size_t hash = request.entry_id.find('#');
  if (hash == std::string::npos) {
    return Status(Errc::invalid_argument,
                  "--entry: " + request.entry_id + ": expected <path>#<12 hex digits>");
  }
  const std::string path = request.entry_id.substr(0, hash);
  if (is_canon_file(path)) {  // §10: canon entries carry no confidence and are never edited
    return Status(Errc::invalid_argument, "--entry: " + path + ": canon entries are immutable");
  }
  const FileSnapshot* file = inputs.snapshot.find(path);
  if (file == nullptr || file->state != memkit::EntryState::file) {
    return Status(Errc::invalid_argument, "--entry: " + path + ": no such tier 1-4 file");
  }
  const Document doc = parse_markdown(file->bytes);
  if (const auto& issue = doc.parse_error())
    return Status(Errc::parse, describe_issue(*issue, path));
  if (const auto& issue = doc.utf8_error()) {
    return Status(Errc::invalid_utf8, describe_issue(*issue, path));
  }
  const std::vector<Entry> entries = read_entries(path, doc);
  const auto entry = std::find_if(entries.begin(), entries.end(),
                                  [&](const Entry& e) { return e.id == request.entry_id; });
  if (entry == entries.end()) {
    return Status(Errc::invalid_argument, "--entry: " + request.entry_id + ": no such entry");
  }
  if (entry->kind != EntryKind::bullet && entry->kind != EntryKind::section) {
    return Status(
        Errc::invalid_argument,
        "--entry: " + request.entry_id + ": fields are written to bullet and section entries only");
  }
  const CivilDate today = now.local_date();
  const std::string today_iso = now.local_date_iso();
  UpdatePlanning plan;
  plan.entry_id = entry->id;
  plan.path = path;
  plan.before = state_of(*entry, {}, {}, {}, today);
  detail::FieldEditor editor(*entry, doc);
  std::optional<std::string> verified;
  std::optional<std::uint32_t> stored;
  std::optional<std::optional<std::string>> review;
  const bool needs_verification =
      plan.before.review == std::optional<std::string>("needs verification");
  switch (request.event) {
    case UpdateEvent::verify:
      verified = today_iso;
      if (needs_verification) review = std::optional<std::string>();
      break;
    case UpdateEvent::confirm:
      if (!plan.before.stored) {
        return Status(Errc::invalid_argument,
                      "--confirm: " + request.entry_id + " has no valid Confidence to raise");
      }
      stored = std::min<std::uint32_t>(100, *plan.before.stored + 5);
      verified = today_iso;
      if (needs_verification) review = std::optional<std::string>();
      break;
    case UpdateEvent::contradict:
      if (strip_w(request.note).empty()) {
        return Status(Errc::invalid_argument, "--note: required with --contradict");
      }
      review = "contradicted " + today_iso + ": " + collapse_w(request.note);
      break;
    case UpdateEvent::resolve_keep:
      review = std::optional<std::string>();
      if (request.confidence) {
        stored = request.confidence;
        verified = today_iso;
      }
      break;
  }
  if (stored) editor.set("Confidence", format_hundredths(*stored));
  if (verified) editor.set("Verified", *verified);
  if (review) {
    if (*review) {
      editor.set("Review", **review);
    } else {
      editor.clear("Review");
    }
  }
  editor.set("Updated", now.utc_rfc3339_millis());
  plan.after = state_of(*entry, verified, stored, review, today);
  plan.splices = editor.splices();
  return plan;
}

}  // namespace memkit::memorybox
