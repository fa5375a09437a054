// The memory-custodian layout: files, roles, budgets, routes and protocol versions
// (spec compaction.md §3 and §5).
#include <charconv>

#include "memkit/layouts.hpp"
#include "text/shown_text.hpp"

namespace memkit {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) noexcept {
  return s.substr(0, prefix.size()) == prefix;
}

bool ends_with(std::string_view s, std::string_view suffix) noexcept {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Returns the module folder of "<folder>/<name>.md" (one level deep, not README.md), or "".
std::string_view module_folder(std::string_view path) noexcept {
  for (std::string_view folder : {"rules/", "profiles/", "areas/"}) {
    if (!starts_with(path, folder)) continue;
    const std::string_view name = path.substr(folder.size());
    if (name.empty() || name.find('/') != std::string_view::npos || !ends_with(name, ".md") ||
        name == "README.md") {
      return {};
    }
    return folder.substr(0, folder.size() - 1);
  }
  return {};
}

}  // namespace

const LayoutProfile& custodian_layout() {
  static const LayoutProfile profile{
      "custodian",
      "docs/memory",
      "docs",
      {"manifest.md", "brief.md", "decisions.md", "constraints.md", "do-not-use.md", "inbox.md",
       "preferences.md", "changelog.md"},
      {"rules", "profiles", "areas"},
      "archive",
  };
  return profile;
}

Result<std::string> normalize_memory_dir(std::string_view memory_dir,
                                         const LayoutProfile& profile) {
  const std::string shown = shown_text(memory_dir);
  auto refuse = [&](std::string_view why) {
    return Status(Errc::layout, "--memory-dir: " + shown + ": " + std::string(why));
  };
  if (memory_dir.empty()) return refuse("empty path");
  if (!is_creatable_name(memory_dir)) {
    return refuse("holds a control character or invalid UTF-8; memkit creates no such folder");
  }
  if (memory_dir.front() == '/' || memory_dir.front() == '\\' ||
      (memory_dir.size() >= 2 && memory_dir[1] == ':')) {
    return refuse("must be relative to the project root");
  }
  std::vector<std::string_view> parts;
  std::size_t pos = 0;
  while (pos <= memory_dir.size()) {
    std::size_t slash = memory_dir.find_first_of("/\\", pos);
    if (slash == std::string_view::npos) slash = memory_dir.size();
    const std::string_view part = memory_dir.substr(pos, slash - pos);
    pos = slash + 1;
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (parts.empty()) return refuse("climbs out of the project root");
      parts.pop_back();
      continue;
    }
    parts.push_back(part);
  }
  std::string normalized;
  for (std::string_view part : parts) {
    if (!normalized.empty()) normalized += '/';
    normalized += part;
  }
  const std::string parent = profile.required_parent + "/";
  if (!starts_with(normalized, parent) || normalized.size() == parent.size()) {
    return refuse("must lie strictly inside " + parent);
  }
  return normalized;
}

namespace custodian {

FileRole file_role(std::string_view path) noexcept {
  for (std::string_view core :
       {"manifest.md", "brief.md", "decisions.md", "constraints.md", "do-not-use.md", "inbox.md"}) {
    if (path == core) return FileRole::core;
  }
  if (path == "preferences.md" || path == "changelog.md") return FileRole::optional;
  if (starts_with(path, "archive/")) return FileRole::archive;
  if (path == "README.md" || ends_with(path, "/README.md")) return FileRole::readme;
  if (!module_folder(path).empty()) return FileRole::module;
  return FileRole::other;
}

std::optional<Budget> budget_for(std::string_view path) {
  std::uint64_t limit = 0;
  if (path == "brief.md") limit = 500;
  if (path == "decisions.md") limit = 800;
  if (path == "constraints.md") limit = 400;
  if (path == "do-not-use.md") limit = 400;
  if (path == "preferences.md") limit = 300;
  if (path == "changelog.md") limit = 800;
  const std::string_view folder = module_folder(path);
  if (folder == "rules") limit = 400;
  if (folder == "profiles") limit = 500;
  if (folder == "areas") limit = 600;
  if (limit == 0) return std::nullopt;
  return *Budget::create(limit, Bound::inclusive, Measure::tokens);
}

bool is_safe_route(std::string_view path) noexcept {
  if (path.empty() || path.front() == '/' || path.find('\\') != std::string_view::npos) {
    return false;
  }
  if (path.size() >= 2 && path[1] == ':') return false;  // a drive letter
  if (!ends_with(path, ".md")) return false;
  return is_plain_relative_path(path);
}

ProtocolSupport protocol_support(std::string_view version) noexcept {
  // Parse "M.m[.p...]" into numbers; anything else is invalid.
  std::uint64_t parts[8] = {};
  std::size_t count = 0;
  std::size_t pos = 0;
  while (true) {
    const std::size_t dot = version.find('.', pos);
    const std::string_view part =
        version.substr(pos, dot == std::string_view::npos ? dot : dot - pos);
    if (part.empty() || count == 8) return ProtocolSupport::invalid;
    for (char c : part) {
      if (c < '0' || c > '9') return ProtocolSupport::invalid;
    }
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), parts[count]);
    if (error != std::errc() || end != part.data() + part.size()) return ProtocolSupport::invalid;
    ++count;
    if (dot == std::string_view::npos) break;
    pos = dot + 1;
  }
  if (count < 2) return ProtocolSupport::invalid;
  // Supported means numerically equal to 0.5, 0.6 or 0.7: trailing zero parts do not count
  // (0.7.0 is 0.7), and anything between or beyond them is a protocol memkit does not know.
  while (count > 2 && parts[count - 1] == 0) --count;
  const bool known = count == 2 && parts[0] == 0 && parts[1] >= 5 && parts[1] <= 7;
  return known ? ProtocolSupport::supported : ProtocolSupport::unsupported;
}

}  // namespace custodian
}  // namespace memkit
