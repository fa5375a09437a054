// `memkit memorybox load` (spec memorybox.md §2 "Loading", §11): a tier's files and their bytes.
#include <algorithm>

#include "memkit/memorybox.hpp"

namespace memkit::memorybox {

int tier_of(const Inputs& inputs, std::string_view path) {
  for (const TierSpec& tier : inputs.tiers) {
    if (std::find(tier.files.begin(), tier.files.end(), path) != tier.files.end()) return tier.tier;
  }
  if (std::find(inputs.daily_files.begin(), inputs.daily_files.end(), path) !=
      inputs.daily_files.end()) {
    return 4;
  }
  if (std::find(inputs.archive_files.begin(), inputs.archive_files.end(), path) !=
      inputs.archive_files.end()) {
    return 5;
  }
  return 0;
}

std::vector<std::string> tier_files_1_to_4(const Inputs& inputs) {
  std::vector<std::string> files;
  for (const TierSpec& tier : inputs.tiers) {
    if (tier.tier > 4) continue;
    files.insert(files.end(), tier.files.begin(), tier.files.end());
    if (tier.tier == 4) {
      files.insert(files.end(), inputs.daily_files.begin(), inputs.daily_files.end());
    }
  }
  return files;
}

Result<std::vector<LoadedFile>> load_files(const Inputs& inputs, std::optional<int> tier,
                                           std::optional<std::string_view> file,
                                           bool include_archive) {
  if (tier.has_value() == file.has_value()) {
    return Status(Errc::invalid_argument,
                  "memorybox load: give exactly one of --tier N and --file F");
  }
  std::vector<std::string> paths;
  if (file) {
    const int found = tier_of(inputs, *file);
    const bool canon_reference = std::find(inputs.canon_files.begin(), inputs.canon_files.end(),
                                           *file) != inputs.canon_files.end();
    if (found == 0 && !canon_reference) {
      return Status(Errc::invalid_argument,
                    "--file: " + std::string(*file) + ": not a file of tiers 1 to 5");
    }
    paths.emplace_back(*file);
  } else {
    if (*tier < 1 || *tier > 5) {
      return Status(Errc::invalid_argument,
                    "--tier: expected 1 to 5, got " + std::to_string(*tier));
    }
    if (*tier == 5 && !include_archive) {
      return Status(Errc::invalid_argument,
                    "--tier 5: the archive is never loaded by default; add --include-archive");
    }
    for (const TierSpec& spec : inputs.tiers) {
      if (spec.tier == *tier) paths = spec.files;
    }
    if (*tier == 4) paths.insert(paths.end(), inputs.daily_files.begin(), inputs.daily_files.end());
    if (*tier == 5) paths = inputs.archive_files;
  }
  std::vector<LoadedFile> loaded;
  for (const std::string& path : paths) {
    const FileSnapshot* entry = inputs.snapshot.find(path);
    if (entry == nullptr || entry->state != EntryState::file) continue;
    // A canon reference (brain/canon/*.md) is loaded on demand: the tier-2 policy (§10).
    const int found = tier_of(inputs, path);
    loaded.push_back(
        LoadedFile{path, found == 0 ? 2 : found, line_count(entry->text()), entry->bytes});
  }
  return loaded;
}

}  // namespace memkit::memorybox
