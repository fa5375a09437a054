// The scan cache, .memkit/sync/scan.cache (ScanCache, OUR DECISION): the bullets of the last scan
// by fingerprint, so that a scan reads in full only the bullets whose bytes changed since.
#include <array>
#include <cstring>
#include <limits>

#include "memkit/digest.hpp"
#include "memkit/memorybox/sync.hpp"
#include "memorybox/sync_files.hpp"
#include "memorybox/sync_entries.hpp"

namespace memkit::memorybox {

namespace {

constexpr std::string_view kHeader = "# memkit scan cache 1\n";
constexpr std::size_t kEntryBytes = 16 + 8 + 16;
constexpr std::size_t kCountBytes = 8;
constexpr std::size_t kChecksumBytes = 8;

void put_u64(std::string& out, std::uint64_t value) {
  for (int i = 0; i < 8; ++i) out += static_cast<char>((value >> (8 * i)) & 0xff);
}

std::uint64_t get_u64(const char* at) noexcept {
  std::uint64_t value = 0;
  for (int i = 0; i < 8; ++i) {
    value |= static_cast<std::uint64_t>(static_cast<unsigned char>(at[i])) << (8 * i);
  }
  return value;
}

// A block's checksum: the first 8 bytes of XXH3-128 (stable from build to build, unlike
// fast_hash).
std::uint64_t checksum_of(std::string_view body) noexcept {
  const std::array<std::uint8_t, 16> digest = xxh3_128(body);
  std::uint64_t value = 0;
  for (int i = 0; i < 8; ++i) value = value << 8 | digest[static_cast<std::size_t>(i)];
  return value;
}

std::uint64_t slot_hash(const std::array<std::uint8_t, 16>& fingerprint) noexcept {
  std::uint64_t value = 0;
  std::memcpy(&value, fingerprint.data(), sizeof value);
  return value;
}

}  // namespace

std::optional<CachedEntry> ScanCache::find(
    const std::array<std::uint8_t, 16>& fingerprint) const noexcept {
  if (index_.empty()) return std::nullopt;
  const std::size_t mask = index_.size() - 1;
  for (std::size_t at = slot_hash(fingerprint) & mask; index_[at] != 0; at = (at + 1) & mask) {
    const char* entry = bytes_.data() + (index_[at] - 1);
    if (std::memcmp(entry, fingerprint.data(), fingerprint.size()) == 0) {
      CachedEntry out;
      out.fingerprint = fingerprint;
      out.id_hash = get_u64(entry + 16);
      std::memcpy(out.digest.data(), entry + 24, out.digest.size());
      return out;
    }
  }
  return std::nullopt;
}

void ScanCache::prefetch_slot(const std::array<std::uint8_t, 16>& fingerprint) const noexcept {
  if (!index_.empty()) __builtin_prefetch(&index_[slot_hash(fingerprint) & (index_.size() - 1)]);
}

void ScanCache::prefetch_entry(const std::array<std::uint8_t, 16>& fingerprint) const noexcept {
  if (index_.empty()) return;
  const std::uint32_t slot = index_[slot_hash(fingerprint) & (index_.size() - 1)];
  if (slot != 0) __builtin_prefetch(bytes_.data() + (slot - 1));
}

std::string render_scan_cache_block(std::span<const CachedEntry> entries) {
  std::string body;
  body.reserve(entries.size() * kEntryBytes);
  for (const CachedEntry& entry : entries) {
    body.append(reinterpret_cast<const char*>(entry.fingerprint.data()), entry.fingerprint.size());
    put_u64(body, entry.id_hash);
    body.append(reinterpret_cast<const char*>(entry.digest.data()), entry.digest.size());
  }
  std::string out;
  out.reserve(kCountBytes + kChecksumBytes + body.size());
  put_u64(out, entries.size());
  put_u64(out, checksum_of(body));
  return out + body;
}

std::string render_scan_cache(std::span<const CachedEntry> entries) {
  return std::string(kHeader) + render_scan_cache_block(entries);
}

Result<ScanCache> parse_scan_cache(std::string bytes) {
  if (bytes.rfind(kHeader, 0) != 0) {
    return Status(Errc::parse, ".memkit/sync/scan.cache: not a scan cache of version 1");
  }
  if (bytes.size() >= std::numeric_limits<std::uint32_t>::max()) {
    return Status(Errc::parse, ".memkit/sync/scan.cache: 4 GiB or more");
  }
  ScanCache cache;
  // The blocks that read whole, in order: where their entries begin, and their count.
  std::vector<std::pair<std::size_t, std::size_t>> blocks;
  std::size_t at = kHeader.size();
  while (at < bytes.size()) {
    if (bytes.size() - at < kCountBytes + kChecksumBytes) break;
    const std::uint64_t count = get_u64(bytes.data() + at);
    const std::uint64_t checksum = get_u64(bytes.data() + at + kCountBytes);
    const std::size_t entries_at = at + kCountBytes + kChecksumBytes;
    if (count > (bytes.size() - entries_at) / kEntryBytes) break;
    const std::size_t size = static_cast<std::size_t>(count) * kEntryBytes;
    if (checksum_of(std::string_view(bytes).substr(entries_at, size)) != checksum) break;
    blocks.emplace_back(entries_at, static_cast<std::size_t>(count));
    cache.count_ += static_cast<std::size_t>(count);
    at = entries_at + size;
  }
  cache.whole_ = at == bytes.size();
  std::size_t slots = 16;
  while (slots < 2 * cache.count_) slots *= 2;
  cache.index_.assign(slots, 0);
  const std::size_t mask = slots - 1;
  for (const auto& [entries_at, count] : blocks) {
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t offset = entries_at + i * kEntryBytes;
      std::array<std::uint8_t, 16> fingerprint{};
      std::memcpy(fingerprint.data(), bytes.data() + offset, fingerprint.size());
      std::size_t slot = slot_hash(fingerprint) & mask;
      while (cache.index_[slot] != 0 &&
             std::memcmp(bytes.data() + (cache.index_[slot] - 1), fingerprint.data(), 16) != 0) {
        slot = (slot + 1) & mask;
      }
      cache.index_[slot] = static_cast<std::uint32_t>(offset + 1);  // a later entry wins
    }
  }
  cache.bytes_ = std::move(bytes);
  return cache;
}

namespace detail {

std::array<std::uint8_t, 16> entry_fingerprint(SyncTable table, std::string_view file,
                                               const std::optional<std::string_view>& category,
                                               std::string_view bytes, std::string& scratch) {
  scratch.assign("memkit bullet 1\n");
  scratch += sync_table_name(table);
  scratch += '\n';
  scratch += std::to_string(file.size());
  scratch += ':';
  scratch += file;
  if (category) {
    scratch += std::to_string(category->size());
    scratch += ':';
    scratch += *category;
  } else {
    scratch += '-';
  }
  scratch += '\n';
  scratch += bytes;
  return xxh3_128(scratch);
}

std::array<std::uint8_t, 16> digest_value(const std::array<char, 32>& hex) noexcept {
  const auto value = [](char c) {
    return static_cast<std::uint8_t>(c <= '9' ? c - '0' : c - 'a' + 10);
  };
  std::array<std::uint8_t, 16> out{};
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = static_cast<std::uint8_t>(value(hex[2 * i]) << 4 | value(hex[2 * i + 1]));
  }
  return out;
}

}  // namespace detail

}  // namespace memkit::memorybox
