// JSON of `memorybox client set` (spec memorybox.md §10, §11): {"applied","client","from",
// "plan","to","written"}; `plan` is the plan's own JSON (compaction.md §12.2), or null.
#include "codec/canonical.hpp"
#include "json/json.hpp"

namespace memkit {

std::string memorybox_client_set_json(const memorybox::ClientSet& set, bool applied,
                                      const std::vector<std::string>& written) {
  using nlohmann::json;
  json paths = json::array();
  for (const std::string& path : written) paths.push_back(detail::utf8(path));
  return detail::canonical_dump(
      json{{"client", detail::utf8(set.client)},
           {"from", std::string(memorybox::lifecycle_name(set.from))},
           {"to", std::string(memorybox::lifecycle_name(set.to))},
           {"plan", set.plan ? json::parse(plan_json(*set.plan)) : json(nullptr)},
           {"applied", applied},
           {"written", paths}});
}

}  // namespace memkit
