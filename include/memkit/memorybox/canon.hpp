// Maven canon (spec memorybox.md §10): brain/MARKETING_CANON.md is append-only and each
// brain/canon/*.md is write-once. The ledger .memkit/canon-ledger.jsonl records, per canon file,
// the length and SHA-256 of what was added; verify checks that each file still begins with
// exactly those bytes. Pure: the shell reads the ledger into Inputs and writes what add plans.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/clock.hpp"
#include "memkit/findings.hpp"
#include "memkit/memorybox.hpp"
#include "memkit/result.hpp"

namespace memkit::memorybox {

inline constexpr std::string_view kCanonLedger = ".memkit/canon-ledger.jsonl";

// One ledger line: {"length","path","recorded_at","sha256"} in canonical JSON.
struct CanonRecord {
  std::string path;
  std::uint64_t length = 0;  // bytes of the file the record covers, from its start
  std::string sha256;        // 64 lowercase hex digits of those bytes
  std::string recorded_at;   // RFC 3339 UTC with milliseconds
  friend bool operator==(const CanonRecord&, const CanonRecord&) = default;
};

// Canon is Maven's: fails with Errc::invalid_argument on a root of another profile.
[[nodiscard]] Status check_maven(const Inputs& inputs);

// The ledger's records in file order. Fails with Errc::parse naming the first bad line.
[[nodiscard]] Result<std::vector<CanonRecord>> parse_canon_ledger(std::string_view bytes);
// One record as its ledger line, terminated by LF.
[[nodiscard]] std::string canon_ledger_line(const CanonRecord& record);

struct CanonViolation {
  std::string path;
  std::string reason;
};

struct CanonCheck {
  std::vector<CanonRecord> ledger;         // the latest record of each path, sorted by path
  std::vector<CanonViolation> violations;  // one per file that no longer matches its record
  std::vector<std::string> unrecorded;     // canon files the ledger does not know yet
  std::vector<Finding> findings;           // MK-BOX-030 per violation; sorted
};

// `memkit memorybox canon verify` (also run by hygiene): a file violates its latest record when it
// is missing, shorter than the record, its first `length` bytes hash to something else, or, for a
// write-once brain/canon/*.md, it holds more bytes than recorded. A ledger that does not parse is
// a violation of the ledger itself.
[[nodiscard]] CanonCheck verify_canon(const Inputs& inputs);

// What `canon add` writes: the canon file's new bytes and the ledger's.
struct CanonAddition {
  std::optional<Finding> refusal;  // MK-BOX-030 when the file already violates the ledger
  std::string path;
  std::string bytes;   // the whole new file
  std::string ledger;  // the whole new ledger
  CanonRecord record;  // the line added to it
  CanonCheck check;    // the ledger after the addition
};

// `memkit memorybox canon add --file F --text T` on a Maven root: appends `- T` (later lines
// indented by two spaces) to brain/MARKETING_CANON.md, or creates the write-once brain/canon/F
// holding T; then records the file's new length and SHA-256. Fails with Errc::invalid_argument
// for another profile, a file that is not canon, an existing brain/canon/*.md, or an empty T;
// refuses (CanonAddition::refusal) when the file already violates the ledger.
[[nodiscard]] Result<CanonAddition> plan_canon_add(const Inputs& inputs, std::string_view file,
                                                   std::string_view text, const ClockReading& now);

}  // namespace memkit::memorybox
