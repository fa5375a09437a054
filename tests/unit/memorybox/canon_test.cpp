// Maven canon (spec memorybox.md §10): the ledger, verify, and canon add.
#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <string>

#include "memkit/digest.hpp"
#include "memkit/memorybox/canon.hpp"

using namespace memkit;
using namespace memkit::memorybox;

namespace {

const ClockReading kNow = *ClockReading::parse_rfc3339("2026-11-30T10:00:00+01:00");

Inputs maven(const std::map<std::string, std::string>& files, const std::string* ledger = nullptr) {
  Inputs in;
  in.profile = Profile::maven;
  in.tiers = profile_tiers(Profile::maven, {});
  std::vector<FileSnapshot> snaps;
  for (const auto& [path, bytes] : files) {
    snaps.push_back(
        FileSnapshot{path, EntryState::file, std::make_shared<const std::string>(bytes), ""});
    if (path.rfind("brain/canon/", 0) == 0) in.canon_files.push_back(path);
  }
  in.snapshot = Snapshot(std::move(snaps));
  if (ledger != nullptr) in.canon_ledger = std::make_shared<const std::string>(*ledger);
  return in;
}

// Applies an addition to a map of files, as the shell writes it.
std::map<std::string, std::string> after(std::map<std::string, std::string> files,
                                         const CanonAddition& add) {
  files[add.path] = add.bytes;
  return files;
}

}  // namespace

TEST_CASE("canon: add appends to the marketing canon and records its length and SHA-256") {
  const std::map<std::string, std::string> files = {
      {"brain/MARKETING_CANON.md", "# MARKETING_CANON\n\n- First rule\n"}};
  const Result<CanonAddition> add =
      plan_canon_add(maven(files), "brain/MARKETING_CANON.md", "Second rule\nwith detail", kNow);
  REQUIRE(add);
  REQUIRE_FALSE(add->refusal.has_value());
  CHECK(add->bytes == "# MARKETING_CANON\n\n- First rule\n- Second rule\n  with detail\n");
  CHECK(add->record == CanonRecord{"brain/MARKETING_CANON.md", add->bytes.size(),
                                   sha256_hex(add->bytes), "2026-11-30T09:00:00.000Z"});
  CHECK(add->ledger == canon_ledger_line(add->record));
  CHECK(add->ledger.rfind(R"({"length":)", 0) == 0);
  CHECK(add->check.violations.empty());
  CHECK(add->check.unrecorded.empty());
  // Append-only: more canon after the recorded prefix still verifies.
  std::map<std::string, std::string> grown = after(files, *add);
  grown["brain/MARKETING_CANON.md"] += "- appended by hand\n";
  CHECK(verify_canon(maven(grown, &add->ledger)).violations.empty());
}

TEST_CASE("canon: verify finds every change to recorded canon") {
  const std::string voice = "# Voice\nBe direct.\n";
  const CanonRecord record{"brain/canon/voice.md", voice.size(), sha256_hex(voice),
                           "2026-11-01T00:00:00.000Z"};
  const std::string ledger = canon_ledger_line(record);
  CHECK(verify_canon(maven({{"brain/canon/voice.md", voice}}, &ledger)).violations.empty());
  for (const std::string& changed :
       {std::string("# Voice\nBe indirect.\n"), std::string("# Voice\n"), voice + "more\n"}) {
    const CanonCheck check = verify_canon(maven({{"brain/canon/voice.md", changed}}, &ledger));
    REQUIRE(check.violations.size() == 1);
    CHECK(check.violations[0].path == "brain/canon/voice.md");
    REQUIRE(check.findings.size() == 1);
    CHECK(check.findings[0].code == "MK-BOX-030");
    CHECK(check.findings[0].severity == Severity::error);
  }
  const CanonCheck missing = verify_canon(maven({}, &ledger));
  REQUIRE(missing.violations.size() == 1);
  CHECK(missing.violations[0].reason == "recorded in the ledger but missing");
  // The latest record of a path is the one that counts.
  const std::string longer = voice + "Be kind.\n";
  const std::string two =
      ledger + canon_ledger_line({"brain/canon/voice.md", longer.size(), sha256_hex(longer), "x"});
  CHECK(verify_canon(maven({{"brain/canon/voice.md", longer}}, &two)).violations.empty());
}

TEST_CASE("canon: an unreadable ledger is itself a violation, unknown canon is unrecorded") {
  const std::string broken = "{\"path\":\"brain/SOUL.md\",\"length\":1}\n";
  const CanonCheck check = verify_canon(maven({{"brain/canon/voice.md", "v\n"}}, &broken));
  REQUIRE(check.violations.size() == 1);
  CHECK(check.violations[0].path == ".memkit/canon-ledger.jsonl");
  CHECK(check.violations[0].reason.find(":1:") != std::string::npos);
  const CanonCheck none = verify_canon(maven({{"brain/canon/voice.md", "v\n"}}));
  CHECK(none.unrecorded == std::vector<std::string>{"brain/canon/voice.md"});
  CHECK(none.findings.empty());
  CHECK_FALSE(parse_canon_ledger("not json\n"));
  CHECK(parse_canon_ledger("\n")->empty());
}

TEST_CASE("canon: brain/canon files are write-once, add refuses what it must not touch") {
  const Result<CanonAddition> fresh =
      plan_canon_add(maven({}), "brain/canon/tone.md", "  Warm and brief.  ", kNow);
  REQUIRE(fresh);
  CHECK(fresh->bytes == "Warm and brief.\n");
  CHECK(plan_canon_add(maven({{"brain/canon/tone.md", "x\n"}}), "brain/canon/tone.md", "y", kNow)
            .status()
            .message()
            .find("write-once") != std::string::npos);
  CHECK_FALSE(plan_canon_add(maven({}), "brain/SOUL.md", "y", kNow));
  CHECK_FALSE(plan_canon_add(maven({}), "brain/canon/tone.md", "   ", kNow));
  Inputs standard = maven({});
  standard.profile = Profile::standard;
  CHECK_FALSE(plan_canon_add(standard, "brain/MARKETING_CANON.md", "y", kNow));
  // A file that already violates the ledger gets nothing more.
  const std::string canon = "# MARKETING_CANON\n- rule\n";
  const std::string ledger = canon_ledger_line(
      {"brain/MARKETING_CANON.md", canon.size(), sha256_hex(canon), "2026-11-01T00:00:00.000Z"});
  const Result<CanonAddition> refused = plan_canon_add(
      maven({{"brain/MARKETING_CANON.md", "# MARKETING_CANON\n- edited\n"}}, &ledger),
      "brain/MARKETING_CANON.md", "more", kNow);
  REQUIRE(refused);
  REQUIRE(refused->refusal.has_value());
  CHECK(refused->refusal->code == "MK-BOX-030");
}
