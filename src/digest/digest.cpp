// Content digests: SHA-256 (sha256.cpp's compression function, padded here) and XXH3.
#include "memkit/digest.hpp"

// xxHash is compiled in (XXH_INLINE_ALL: its functions become static inline here), so neither
// libmemkit.so nor the CLI needs libxxhash at run time; only the header is a build dependency.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "digest/sha256_blocks.hpp"

namespace memkit {

namespace {

constexpr std::array<std::uint32_t, 8> kInitialState = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

}  // namespace

Sha256 sha256(std::string_view bytes) noexcept {
  Sha256Hasher hasher;
  hasher.update(bytes);
  return hasher.finish();
}

Sha256Hasher::Sha256Hasher() noexcept { restart(); }

void Sha256Hasher::restart() noexcept {
  state_ = kInitialState;
  buffered_ = 0;
  length_ = 0;
}

void Sha256Hasher::update(std::string_view bytes) noexcept {
  const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
  std::size_t size = bytes.size();
  length_ += size;
  if (buffered_ > 0) {
    const std::size_t take = std::min(size, buffer_.size() - buffered_);
    std::memcpy(buffer_.data() + buffered_, data, take);
    buffered_ += take;
    data += take;
    size -= take;
    if (buffered_ < buffer_.size()) return;
    detail::sha256_blocks(state_.data(), buffer_.data(), 1);
    buffered_ = 0;
  }
  if (const std::size_t blocks = size / 64; blocks > 0) {
    detail::sha256_blocks(state_.data(), data, blocks);
    data += blocks * 64;
    size -= blocks * 64;
  }
  if (size > 0) std::memcpy(buffer_.data(), data, size);
  buffered_ = size;
}

Sha256 Sha256Hasher::finish() noexcept {
  // FIPS 180-4 §5.1.1: a 1 bit, zeros to 56 bytes mod 64, then the length in bits, big-endian.
  const std::uint64_t bits = length_ * 8;
  buffer_[buffered_++] = 0x80;
  if (buffered_ > 56) {
    std::fill(buffer_.begin() + static_cast<std::ptrdiff_t>(buffered_), buffer_.end(), 0);
    detail::sha256_blocks(state_.data(), buffer_.data(), 1);
    buffered_ = 0;
  }
  std::fill(buffer_.begin() + static_cast<std::ptrdiff_t>(buffered_), buffer_.begin() + 56, 0);
  for (std::size_t i = 0; i < 8; ++i)
    buffer_[56 + i] = static_cast<std::uint8_t>(bits >> (56 - 8 * i));
  detail::sha256_blocks(state_.data(), buffer_.data(), 1);
  Sha256 out{};
  for (std::size_t i = 0; i < state_.size(); ++i) {
    for (std::size_t j = 0; j < 4; ++j) {
      out[4 * i + j] = static_cast<std::uint8_t>(state_[i] >> (24 - 8 * j));
    }
  }
  return out;
}

std::string to_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(bytes.size() * 2, '0');
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    out[2 * i] = kHex[bytes[i] >> 4];
    out[2 * i + 1] = kHex[bytes[i] & 0x0F];
  }
  return out;
}

std::string to_hex(const Sha256& digest) { return to_hex(std::span<const std::uint8_t>(digest)); }

std::string sha256_hex(std::string_view bytes) { return to_hex(sha256(bytes)); }

std::uint64_t fast_hash(std::string_view bytes) noexcept {
  return XXH3_64bits(bytes.data(), bytes.size());
}

std::array<std::uint8_t, 16> xxh3_128(std::string_view bytes) noexcept {
  XXH128_canonical_t canonical;
  XXH128_canonicalFromHash(&canonical, XXH3_128bits(bytes.data(), bytes.size()));
  std::array<std::uint8_t, 16> out{};
  std::copy_n(canonical.digest, out.size(), out.begin());
  return out;
}

}  // namespace memkit
