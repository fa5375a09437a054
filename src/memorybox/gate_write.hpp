// What a gate WRITE writes (spec memorybox.md §4 "What a WRITE writes", "Deterministic advice"):
// internal to src/memorybox.
#pragma once

#include <optional>
#include <string>

#include "memkit/memorybox/gate.hpp"

namespace memkit::memorybox {

struct WriteRequest {
  const Candidate& candidate;
  const std::string& category;
  const GateAnswer& freshness;
  int tier;
  const std::string& file;
  const ClockReading& now;
  // A record of the session (`memorybox log`): no confidence fields, no advice on the band.
  bool log = false;
};

// Why PLACEMENT rejects a tier and file (tier 5; a canon file; a file outside the tier of the
// root's profile; a daily file of another day), or nullopt when it accepts them. REQUIRES: 1 <=
// placement.tier <= 5.
[[nodiscard]] std::optional<std::string> placement_rejection(const Inputs& inputs,
                                                             const GateAnswer& placement,
                                                             const CivilDate& today);

// Fills the verdict's entry_id, entry_text, budget, advice findings, creates_file and splices.
// Fails with Errc::invalid_argument for a missing or multi-line title, source or client, or a
// text that would not read back as exactly the one new entry.
[[nodiscard]] Status plan_gate_write(const Inputs& inputs, const WriteRequest& write,
                                     GateVerdict& verdict);

// The unit after which a bullet of `category` goes, tight (§4 "Bullet files"): the last non-blank
// unit under its H2 (or "H2 / H3") heading; nullopt when the category has no place in the file.
[[nodiscard]] std::optional<std::size_t> category_place(const Document& doc,
                                                        std::string_view category);

// A UUIDv7 (RFC 9562) in canonical lower-case form: the clock's Unix milliseconds, then 74 bits
// drawn from SHA-256 of `seed`, so the same write at the same instant gets the same Id.
[[nodiscard]] std::string uuid7(std::int64_t unix_millis, std::string_view seed);

}  // namespace memkit::memorybox
