// The pieces the curated data JSON shares (curated.md §6, §8): the row view, the six telemetry
// values, a write's common keys, history records. Internal to src/json.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "codec/canonical.hpp"
#include "memkit/curated.hpp"
#include "memkit/curated/log.hpp"
#include "memkit/curated/write.hpp"

namespace memkit::detail {

template <class Enum>
[[nodiscard]] nlohmann::json enum_or_null(const std::optional<Enum>& value) {
  return value ? nlohmann::json(std::string(curated::name_of(*value))) : nlohmann::json(nullptr);
}

// §8 the row view: {workspace, name, type, class, status, initiative, audience, description,
// project_ref, origin_session, created_at, updated_at, deleted, deleted_at, body}; `status` is the
// thread status (null for a non-thread), an absent field null.
[[nodiscard]] nlohmann::json row_view_json(const curated::Row& row, std::string_view workspace,
                                           bool with_body = true);

// §8 the six telemetry values, each axis on its own: {injection_count, last_injected_at,
// deliberate_count, last_deliberate_at, kernel_count, last_kernel_at}, merged into `view`.
void add_counters(nlohmann::json& view, const curated::ReadCounters& counters);

// §6 every write's keys: {workspace, dry_run, files, result}; `result` "applied" or "unchanged"
// (in a dry run: what the write would do).
[[nodiscard]] nlohmann::json write_base_json(std::string_view workspace, bool dry_run,
                                             const curated::Write& write);

// §6 a history record as its canonical JSON object (the line of history.jsonl).
[[nodiscard]] nlohmann::json history_json(const curated::HistoryRecord& record);

}  // namespace memkit::detail
