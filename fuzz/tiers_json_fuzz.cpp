// Tiers JSON and global.md (tiers3.md §3, §10): memory/data/manifest.json updated with an entry
// (the result is a JSON object that holds it, and a second update with the same entry changes
// nothing), a manifest entry read back, the --tools and --columns-json arguments, and the read
// order of global.md's sections.
#include <memory>
#include <string>

#include "codec/bounded_json.hpp"
#include "fuzz_support.hpp"
#include "memkit/clock.hpp"
#include "memkit/snapshot.hpp"
#include "memkit/tiers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::string_view> parts =
      memkit::fuzz::split(memkit::fuzz::as_text(data, size), 2);
  const std::string_view manifest = parts[0];

  memkit::tiers::DataEntry entry;
  entry.name = "d";
  entry.updated_at = "2026-11-30T10:00:00";
  entry.detected_columns = {"a", "b"};
  const memkit::Result<std::string> updated = memkit::tiers::manifest_with(manifest, entry);
  if (updated) {
    const nlohmann::json value = memkit::detail::parse_bounded_json(*updated);
    MEMKIT_FUZZ_CHECK(value.is_object() && value.contains("d"));
    const memkit::Result<std::string> twice = memkit::tiers::manifest_with(*updated, entry);
    MEMKIT_FUZZ_CHECK(twice && *twice == *updated);
    MEMKIT_FUZZ_CHECK(memkit::tiers::manifest_entry(*updated, "d").has_value());
  }
  (void)memkit::tiers::manifest_entry(manifest, "d");

  memkit::tiers::Turn turn;
  memkit::tiers::TurnArguments args;
  args.tools_json = std::string(parts[1]);
  (void)memkit::tiers::check_turn(args, "--content", "content", turn);

  const memkit::Result<memkit::ClockReading> now =
      memkit::ClockReading::create(1'795'000'000'000, 0);
  memkit::tiers::WriteData request;
  request.name = "d";
  request.csv = "a,b\n1,2\n";
  request.columns_json = std::string(parts[1]);
  memkit::FileSnapshot file{.path = std::string(memkit::tiers::kManifestPath),
                            .state = memkit::EntryState::file,
                            .bytes = std::make_shared<const std::string>(manifest),
                            .error = {}};
  const memkit::Snapshot files({file});
  memkit::tiers::Written written;
  (void)memkit::tiers::plan_write_data(files, request, *now, written);

  for (const memkit::tiers::ReadOrderItem& item : memkit::tiers::read_order(manifest)) {
    MEMKIT_FUZZ_CHECK(item.begin <= item.end && item.end <= manifest.size());
  }
  return 0;
}
