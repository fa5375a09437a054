// Content digests: SHA-256 for plan IDs and file hashes that must match across machines, and
// XXH3 for fast in-memory indexes that never leave the process and for digests a root keeps for
// itself (the sync base), which no other machine compares.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace memkit {

using Sha256 = std::array<std::uint8_t, 32>;

[[nodiscard]] Sha256 sha256(std::string_view bytes) noexcept;

// SHA-256 over pieces fed in order, for results that exist only as slices of other buffers.
class Sha256Hasher final {
 public:
  Sha256Hasher() noexcept;
  void update(std::string_view bytes) noexcept;
  [[nodiscard]] Sha256 finish() noexcept;  // REQUIRES: called once since construction or restart
  void restart() noexcept;                 // ready for new pieces, as if new

 private:
  std::array<std::uint32_t, 8> state_{};
  std::array<std::uint8_t, 64> buffer_{};  // the bytes of an unfinished block
  std::size_t buffered_ = 0;
  std::uint64_t length_ = 0;  // bytes fed since restart
};
[[nodiscard]] std::string to_hex(const Sha256& digest);  // 64 lowercase hex digits
[[nodiscard]] std::string to_hex(std::span<const std::uint8_t> bytes);  // two lowercase a byte
[[nodiscard]] std::string sha256_hex(std::string_view bytes);

// A 64-bit non-cryptographic hash, stable for one build; never persist it.
[[nodiscard]] std::uint64_t fast_hash(std::string_view bytes) noexcept;

// XXH3-128 (xxHash 0.8's stable, seedless form) in its canonical big-endian byte order: the same
// bytes give the same digest on every machine and build. Not a defence against a chosen collision.
[[nodiscard]] std::array<std::uint8_t, 16> xxh3_128(std::string_view bytes) noexcept;

}  // namespace memkit
