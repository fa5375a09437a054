// The profiles of a MemoryBox root (spec memorybox.md §2 "Tier configuration", §10 Maven): which
// files each tier holds, client lifecycles, and which files are canon.
#include <algorithm>
#include <array>

#include "memkit/markdown.hpp"
#include "memkit/memorybox.hpp"
#include "memkit/text.hpp"

namespace memkit::memorybox {
namespace {

constexpr std::array<std::string_view, 5> kMavenBrainFiles = {
    "brain/MARKETING_CANON.md", "brain/ATTRIBUTION_MODEL.md", "brain/BENCHMARK.md", "brain/OKRs.md",
    "brain/RISK_REGISTER.md"};

}  // namespace

std::string_view profile_name(Profile profile) noexcept {
  return profile == Profile::maven ? "maven" : "default";
}

std::optional<Profile> parse_profile(std::string_view name) noexcept {
  if (name == "default") return Profile::standard;
  if (name == "maven") return Profile::maven;
  return std::nullopt;
}

std::string_view lifecycle_name(Lifecycle lifecycle) noexcept {
  switch (lifecycle) {
    case Lifecycle::active:
      return "active";
    case Lifecycle::maintenance:
      return "maintenance";
    case Lifecycle::archived:
      return "archived";
  }
  return "active";
}

std::optional<Lifecycle> parse_lifecycle(std::string_view name) noexcept {
  for (Lifecycle l : {Lifecycle::active, Lifecycle::maintenance, Lifecycle::archived}) {
    if (name == lifecycle_name(l)) return l;
  }
  return std::nullopt;
}

std::optional<Lifecycle> client_lifecycle(std::string_view bytes) {
  LineCursor cursor(bytes, bytes.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0, bytes.size(), 1);
  Line line{};
  while (cursor.next(line)) {
    if (line.content.rfind("Lifecycle:", 0) != 0) continue;
    return parse_lifecycle(strip_w(line.content.substr(10)));
  }
  return Lifecycle::active;
}

std::vector<TierSpec> profile_tiers(Profile profile, const std::vector<ClientProfile>& clients) {
  std::vector<TierSpec> tiers = default_tiers();
  if (profile != Profile::maven) return tiers;
  tiers[0].files.insert(tiers[0].files.end(), kMavenBrainFiles.begin(), kMavenBrainFiles.end());
  for (const ClientProfile& client : clients) {
    if (client.lifecycle == Lifecycle::active) tiers[0].files.push_back(client.path);
    if (client.lifecycle == Lifecycle::maintenance) tiers[1].files.push_back(client.path);
  }
  return tiers;
}

bool is_canon_file(std::string_view path) noexcept {
  if (path == "brain/MARKETING_CANON.md") return true;
  constexpr std::string_view kCanon = "brain/canon/";
  return path.rfind(kCanon, 0) == 0 && path.find('/', kCanon.size()) == std::string_view::npos &&
         path.size() > kCanon.size() + 3 && path.substr(path.size() - 3) == ".md";
}

}  // namespace memkit::memorybox
