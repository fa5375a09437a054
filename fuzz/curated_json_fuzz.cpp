// Curated host JSON (curated.md §2, §10): event payloads, episode files, checkpoint payloads,
// batch files and config.json. The first byte chooses the reader. What a reader accepts and
// writes is canonical JSON that reads back strictly to the same value; nothing throws.
#include <string>

#include "codec/canonical.hpp"
#include "codec/strict_json.hpp"
#include "fuzz_support.hpp"
#include "json/curated_json.hpp"
#include "memkit/curated/config.hpp"
#include "memkit/curated/floors.hpp"
#include "memkit/curated/write.hpp"
#include "memkit/snapshot.hpp"

namespace {

// A line a floor appends: canonical JSON, then LF, reading back to itself.
void check_floor_line(const memkit::curated::FloorLine& floor) {
  if (floor.refused) return;
  MEMKIT_FUZZ_CHECK(!floor.line.empty() && floor.line.back() == '\n');
  const std::string_view json(floor.line.data(), floor.line.size() - 1);
  std::string problem;
  const std::optional<nlohmann::json> value = memkit::detail::parse_strict_json(json, problem);
  MEMKIT_FUZZ_CHECK(value.has_value());
  MEMKIT_FUZZ_CHECK(memkit::detail::canonical_dump(*value) == json);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text(memkit::fuzz::as_text(data + 1, size - 1));
  constexpr std::string_view kNow = "2026-11-30T10:00:00.000Z";
  switch (data[0] % 5) {
    case 0: {
      memkit::curated::EventRequest request;
      request.type = "tool_call";
      request.payload = text;
      check_floor_line(memkit::curated::event_line(request, "w", kNow));
      break;
    }
    case 1: {
      const memkit::curated::FloorLine floor = memkit::curated::episode_line(text, "w", kNow);
      check_floor_line(floor);
      if (!floor.refused) {
        const memkit::curated::EpisodeFile file =
            memkit::curated::parse_episodes(floor.line, "floors/episodes/d.jsonl", "w");
        MEMKIT_FUZZ_CHECK(file.episodes.size() == 1 && file.findings.empty());
      }
      break;
    }
    case 2: {
      const memkit::curated::WriteContext context{
          .workspace = "w", .now = std::string(kNow), .actor = std::nullopt};
      (void)memkit::curated::plan_checkpoint(memkit::Snapshot(), context, text, std::nullopt,
                                             std::nullopt);
      break;
    }
    case 3:
      (void)memkit::parse_curated_batch(text);
      break;
    default:
      (void)memkit::curated::parse_config(text, "config.json");
      break;
  }
  return 0;
}
