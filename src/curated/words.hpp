// The spellings of curated memory's enums: one table per enum, read both ways, so a name and its
// parse cannot drift apart. Internal to src/curated.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace memkit::curated::wordlist {

template <class Enum, std::size_t N>
using Words = std::array<std::pair<Enum, std::string_view>, N>;

template <class Enum, std::size_t N>
[[nodiscard]] constexpr std::string_view word_of(const Words<Enum, N>& words, Enum value) noexcept {
  for (const auto& [e, word] : words) {
    if (e == value) return word;
  }
  return {};  // unreachable for a value of the enum
}

// Exact (case-sensitive) match: these are words memkit wrote or a host typed from the spec.
template <class Enum, std::size_t N>
[[nodiscard]] constexpr std::optional<Enum> parse_word(const Words<Enum, N>& words,
                                                       std::string_view text) noexcept {
  for (const auto& [e, word] : words) {
    if (word == text) return e;
  }
  return std::nullopt;
}

// The words an error message offers, in the spec's order (curated.md §3).
inline constexpr std::string_view kTypeChoices =
    "project, user, feedback, atom, decision or negative";
inline constexpr std::string_view kClassChoices = "anchor, thread or log";
inline constexpr std::string_view kStatusChoices = "open, carry_forward, graduated, closed or null";
inline constexpr std::string_view kAudienceChoices = "orchestrator, executor or any";

}  // namespace memkit::curated::wordlist
