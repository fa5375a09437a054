// A curated store's configuration (spec curated.md §11): <store>/config.json, every key optional.
// Pure: the bytes of the file in, the settings or the reason they cannot be used out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/curated/read.hpp"
#include "memkit/findings.hpp"

namespace memkit::curated {

struct Config {
  std::vector<std::string> writers;  // empty: anyone may write
  KernelFilter kernel;               // default type user, audience executor
  std::uint32_t events_days = 30;    // floor retention (§1)
  std::uint32_t episodes_days = 90;
  std::optional<std::string> footer;  // appended to get-relevant's blocks (§8)
};

struct ConfigRead {
  Config config;
  std::optional<Finding> refused;  // MK-PARSE-001 BLOCKER (fatal) at config.json, with the key
};

// `{"writers": [..], "kernel": {"type", "audience"}, "retention_days": {"events", "episodes"},
// "footer"}`; a kernel key that is null filters nothing on that field. Unknown keys, wrong types,
// unknown enum values and non-positive retention refuse the file: a setting that is silently
// ignored would let a writer through or hide rows. No file (`bytes` nullopt) is the defaults.
[[nodiscard]] ConfigRead parse_config(const std::optional<std::string>& bytes,
                                      std::string_view path = "config.json");

// §11 writer boundary: whether `actor` may write (no actor is the human owner).
[[nodiscard]] bool may_write(const Config& config, const std::optional<std::string>& actor);

}  // namespace memkit::curated
