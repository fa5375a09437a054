// Recall (memkit/recall.hpp): any bytes as any file of any layout. The first byte picks the file
// (a layout and a path it reads); read_units never fails, and every unit it returns lies inside
// the file: 1 <= first_line <= last_line <= the file's lines, with a kind.
#include <algorithm>
#include <array>
#include <utility>

#include "fuzz_support.hpp"
#include "memkit/recall.hpp"

namespace {

using memkit::recall::Layout;

constexpr std::array<std::pair<Layout, std::string_view>, 14> kFiles = {{
    {Layout::custodian, "decisions.md"},
    {Layout::custodian, "archive/2026-10.md"},
    {Layout::custodian, "inbox.md"},
    {Layout::memorybox, "memory/LONG_TERM.md"},
    {Layout::memorybox, "memory/PATTERNS.md"},
    {Layout::memorybox, "memory/daily/2026-11-30.md"},
    {Layout::memorybox, "memory/SESSION_LOG.md"},
    {Layout::memorybox, "memory/ARCHIVES/sessions-2026-10.md"},
    {Layout::tiers, "memory/sessions/2026-11-30.md"},
    {Layout::tiers, "memory/research/2026-11-28_15.md"},
    {Layout::tiers, "memory/global.md"},
    {Layout::tiers, "memory/data/manifest.json"},
    {Layout::curated, "rows/billing/project.md"},
    {Layout::curated, "floors/episodes/2026-11-30.jsonl"},
}};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto& file = kFiles[data[0] % kFiles.size()];
  const std::string_view bytes = memkit::fuzz::as_text(data + 1, size - 1);
  memkit::recall::Source source;
  source.layout = file.first;
  source.path = std::string(file.second);
  source.tier = 1;
  const memkit::recall::FileUnits read = memkit::recall::read_units(source, bytes);
  const std::size_t lines = static_cast<std::size_t>(std::count(bytes.begin(), bytes.end(), '\n')) + 1;
  for (const memkit::recall::Unit& unit : read.units) {
    MEMKIT_FUZZ_CHECK(unit.first_line >= 1 && unit.first_line <= unit.last_line &&
                      unit.last_line <= lines && !unit.kind.empty());
  }
  return 0;
}
