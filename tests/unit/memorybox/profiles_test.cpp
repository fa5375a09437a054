// MemoryBox profiles (spec memorybox.md §2 "Tier configuration", §10 Maven): the tiers each
// profile holds, client lifecycles and canon files.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "memkit/memorybox.hpp"

using namespace memkit;
using namespace memkit::memorybox;

namespace {

bool holds(const TierSpec& tier, std::string_view path) {
  return std::find(tier.files.begin(), tier.files.end(), path) != tier.files.end();
}

}  // namespace

TEST_CASE(
    "profiles: default is the §2 table, maven adds its brain files and clients by lifecycle") {
  CHECK(profile_tiers(Profile::standard, {{"brain/clients/acme.md", Lifecycle::active}})[0].files ==
        default_tiers()[0].files);
  const std::vector<TierSpec> maven =
      profile_tiers(Profile::maven, {{"brain/clients/acme.md", Lifecycle::active},
                                     {"brain/clients/beta.md", Lifecycle::maintenance},
                                     {"brain/clients/gamma.md", Lifecycle::archived}});
  REQUIRE(maven.size() == 5);
  for (std::string_view path :
       {"brain/SOUL.md", "brain/MARKETING_CANON.md", "brain/ATTRIBUTION_MODEL.md",
        "brain/BENCHMARK.md", "brain/OKRs.md", "brain/RISK_REGISTER.md", "brain/clients/acme.md"}) {
    CHECK_MESSAGE(holds(maven[0], path), path);
  }
  CHECK(maven[0].combined_limit == 2500u);
  CHECK(holds(maven[1], "brain/clients/beta.md"));  // maintenance: on demand, out of tier 1
  CHECK_FALSE(holds(maven[0], "brain/clients/beta.md"));
  for (const TierSpec& tier : maven) CHECK_FALSE(holds(tier, "brain/clients/gamma.md"));
}

TEST_CASE("profiles: a client's Lifecycle line, active when absent") {
  CHECK(client_lifecycle("# Acme\n") == Lifecycle::active);
  CHECK(client_lifecycle("# Acme\nLifecycle: maintenance\n") == Lifecycle::maintenance);
  CHECK(client_lifecycle("\xEF\xBB\xBFLifecycle:   archived  \r\n") == Lifecycle::archived);
  CHECK_FALSE(client_lifecycle("# Acme\nLifecycle: paused\n").has_value());
  CHECK(client_lifecycle("# Acme\n  Lifecycle: archived\n") == Lifecycle::active);  // column 0 only
  CHECK(parse_profile("maven") == Profile::maven);
  CHECK(parse_profile("default") == Profile::standard);
  CHECK_FALSE(parse_profile("Maven").has_value());
  CHECK(profile_name(Profile::standard) == "default");
}

TEST_CASE("profiles: canon files are the marketing canon and brain/canon/*.md") {
  CHECK(is_canon_file("brain/MARKETING_CANON.md"));
  CHECK(is_canon_file("brain/canon/voice.md"));
  CHECK_FALSE(is_canon_file("brain/canon/deeper/voice.md"));
  CHECK_FALSE(is_canon_file("brain/canon/.md"));
  CHECK_FALSE(is_canon_file("brain/canon/voice.txt"));
  CHECK_FALSE(is_canon_file("brain/SOUL.md"));
  CHECK_FALSE(is_canon_file("memory/brain/MARKETING_CANON.md"));
}
