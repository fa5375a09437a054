// The flat key index agrees with a std::set of keys on which units repeat an earlier key.
#include "compact/key_index.hpp"

#include <doctest/doctest.h>

#include <random>
#include <set>
#include <string>

#include "memkit/markdown.hpp"

TEST_CASE("compact: the unit key index finds exactly the repeated keys") {
  std::mt19937 rng(5);
  std::string text;
  for (int i = 0; i < 20000; ++i) {
    // Few distinct keys, so repeats are common; case and trailing space must not matter.
    const auto n = rng() % 3000;
    text += (rng() % 2 ? "- Item " : "* item ") + std::to_string(n) + (rng() % 2 ? "  \n" : "\n");
    if (rng() % 7 == 0) text += "  detail " + std::to_string(n % 5) + "\n";
  }
  const memkit::Document doc = memkit::parse_markdown(text);
  std::string scratch;
  memkit::detail::KeyIndex index(doc.units().size(), [&](std::uint32_t u, std::string& key) {
    memkit::unit_key_into(doc, doc.units()[u], key, scratch);
  });
  std::set<std::string> reference;
  std::size_t repeats = 0;
  for (std::size_t u = 0; u < doc.units().size(); ++u) {
    if (doc.units()[u].kind != memkit::UnitKind::bullet_unit) continue;
    const std::string key = *memkit::unit_key(doc, doc.units()[u]);
    const bool expected = !reference.insert(key).second;
    REQUIRE(index.seen_or_insert(key, static_cast<std::uint32_t>(u)) == expected);
    repeats += expected;
  }
  CHECK(repeats > 10000);
}
