// Field updates (spec memorybox.md §3 field lines, §6 events): exactly the field lines change.
#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <string>

#include "memkit/memorybox.hpp"

using namespace memkit;
using namespace memkit::memorybox;

namespace {

const ClockReading kNow = *ClockReading::parse_rfc3339("2026-11-30T10:00:00+01:00");

Inputs inputs_of(const std::string& path, const std::string& bytes) {
  Inputs in;
  in.snapshot = Snapshot({FileSnapshot{path, memkit::EntryState::file,
                                       std::make_shared<const std::string>(bytes), ""}});
  return in;
}

std::string id_of(const std::string& path, const std::string& bytes, std::size_t n = 0) {
  return read_entries(path, parse_markdown(bytes)).at(n).id;
}

// The file after the update.
std::string updated(const std::string& path, const std::string& bytes, UpdateRequest request) {
  const Result<UpdatePlanning> plan = plan_update(inputs_of(path, bytes), request, kNow);
  REQUIRE(plan);
  return apply_splices(bytes, plan->splices);
}

}  // namespace

TEST_CASE("memorybox update: confirm raises the score by 0.05, capped, and re-verifies") {
  const std::string path = "memory/LONG_TERM.md";
  const std::string text = "# LT\n- fact\n  Confidence: 0.98\n  Verified: 2026-01-01\n- other\n";
  UpdateRequest r{id_of(path, text), UpdateEvent::confirm, "", std::nullopt};
  CHECK(updated(path, text, r) ==
        "# LT\n- fact\n  Confidence: 1.00\n  Verified: 2026-11-30\n"
        "  Updated: 2026-11-30T09:00:00.000Z\n- other\n");
  const Result<UpdatePlanning> plan = plan_update(inputs_of(path, text), r, kNow);
  CHECK(plan->before.effective == 68u);  // 0.98 - 0.30 at 333 days
  CHECK(plan->after.stored == 100u);
  CHECK(plan->after.effective == 100u);
  CHECK(plan->after.band == Band::verified);
}

TEST_CASE(
    "memorybox update: verify inserts missing fields in order and clears needs verification") {
  const std::string path = "memory/LONG_TERM.md";
  const std::string text = "- fact\n\tConfidence: 0.7\n\tReview: needs verification\n\tId: x";
  UpdateRequest r{id_of(path, text), UpdateEvent::verify, "", std::nullopt};
  // Verified goes after Confidence (before the first later key), taking that line's indent;
  // Review is deleted; Updated goes before Id; the unterminated last line stays as it is.
  CHECK(updated(path, text, r) ==
        "- fact\n\tConfidence: 0.7\n\tVerified: 2026-11-30\n\tUpdated: 2026-11-30T09:00:00.000Z\n"
        "\tId: x");
}

TEST_CASE("memorybox update: a bullet without fields gets them after its first line") {
  const std::string path = "brain/USER.md";
  const std::string text = "- prefers tabs\r\n  with CRLF\r\n- next\r\n";
  UpdateRequest r{id_of(path, text), UpdateEvent::contradict, "uses  spaces now", std::nullopt};
  CHECK(updated(path, text, r) ==
        "- prefers tabs\r\n  Review: contradicted 2026-11-30: uses spaces now\r\n"
        "  Updated: 2026-11-30T09:00:00.000Z\r\n  with CRLF\r\n- next\r\n");
}

TEST_CASE("memorybox update: a section entry's fields are column-0 lines, resolve keep clears") {
  const std::string path = "memory/DECISIONS.md";
  const std::string text =
      "# D\n\n## Use PostgreSQL\nWe chose it.\nReview: contradicted 2026-11-01: x\n\n## Next\n";
  UpdateRequest r{id_of(path, text), UpdateEvent::resolve_keep, "", 85u};
  // The new lines are placed by the field lines the entry has when they are inserted (Review,
  // after the text), and Review is cleared after: the fields stay where the entry kept them.
  CHECK(updated(path, text, r) ==
        "# D\n\n## Use PostgreSQL\nWe chose it.\nConfidence: 0.85\nVerified: 2026-11-30\n"
        "Updated: 2026-11-30T09:00:00.000Z\n\n## Next\n");
}

TEST_CASE("memorybox update: an unterminated last line gets one terminator before new lines") {
  const std::string path = "memory/LONG_TERM.md";
  const std::string text = "- fact";
  UpdateRequest r{id_of(path, text), UpdateEvent::verify, "", std::nullopt};
  CHECK(updated(path, text, r) ==
        "- fact\n  Verified: 2026-11-30\n  Updated: 2026-11-30T09:00:00.000Z\n");
}

TEST_CASE("memorybox update: refusals name the argument") {
  const std::string path = "memory/LONG_TERM.md";
  const std::string text = "- fact\n";
  const Inputs in = inputs_of(path, text);
  auto refused = [&](UpdateRequest r) {
    const Result<UpdatePlanning> plan = plan_update(in, r, kNow);
    REQUIRE_FALSE(plan);
    return plan.status().message();
  };
  CHECK(refused({"memory/LONG_TERM.md#000000000000", UpdateEvent::verify, "", {}}) ==
        "--entry: memory/LONG_TERM.md#000000000000: no such entry");
  CHECK(refused({"nohash", UpdateEvent::verify, "", {}}).find("expected <path>#") !=
        std::string::npos);
  CHECK(refused({id_of(path, text), UpdateEvent::confirm, "", {}}).find("no valid Confidence") !=
        std::string::npos);
  CHECK(refused({id_of(path, text), UpdateEvent::contradict, " ", {}}) ==
        "--note: required with --contradict");
}
