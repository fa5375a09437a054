// The base of the last sync, .memkit/sync/base.tsv (spec memorybox.md §9; OUR DECISION): per id,
// the table, the file and the record digest both sides last agreed on.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "memkit/digest.hpp"
#include "memkit/memorybox/sync.hpp"
#include "memorybox/sync_files.hpp"
#include "memkit/text.hpp"

namespace memkit::memorybox {

namespace {

constexpr std::uint64_t kEmpty = 0;

std::uint32_t fingerprint(std::uint64_t hash) noexcept {
  return static_cast<std::uint32_t>(hash >> 32);
}

// A lower-case hex digit's value, 0xff for any other byte.
constexpr std::array<std::uint8_t, 256> kHexValue = [] {
  std::array<std::uint8_t, 256> values{};
  values.fill(0xff);
  for (std::size_t c = '0'; c <= '9'; ++c) values[c] = static_cast<std::uint8_t>(c - '0');
  for (std::size_t c = 'a'; c <= 'f'; ++c) values[c] = static_cast<std::uint8_t>(c - 'a' + 10);
  return values;
}();

// 32 lower-case hex digits as 16 bytes into `out`; false (and `out` unspecified) for anything else.
bool digest_bytes(std::string_view digest, std::array<std::uint8_t, 16>& out) noexcept {
  if (digest.size() != 32) return false;
  std::uint8_t invalid = 0;
  for (std::size_t i = 0; i < 16; ++i) {
    const std::uint8_t high = kHexValue[static_cast<unsigned char>(digest[2 * i])];
    const std::uint8_t low = kHexValue[static_cast<unsigned char>(digest[2 * i + 1])];
    invalid |= high | low;
    out[i] = static_cast<std::uint8_t>(high << 4 | low);
  }
  return (invalid & 0xf0) == 0;
}

// The same, anything but a digest as zeros: never equal to a parsed digest.
std::array<std::uint8_t, 16> digest_bytes(std::string_view digest) noexcept {
  std::array<std::uint8_t, 16> out{};
  if (!digest_bytes(digest, out)) out.fill(0);
  return out;
}

// The table's length for `count` ids: a power of two, at most half full.
std::size_t slot_count(std::size_t count) noexcept {
  std::size_t size = 16;
  while (size < 2 * count) size *= 2;
  return size;
}

// Ids of 16 MiB or more do not fit an Item.
constexpr std::size_t kIdSizeLimit = std::size_t{1} << 24;
constexpr std::uint64_t kIdsLimit = std::uint64_t{1} << 40;

}  // namespace

SyncBase::SyncBase(std::initializer_list<std::pair<std::string_view, BaseEntry>> entries) {
  for (const auto& [id, entry] : entries) insert_or_assign(id, entry);
}

std::array<char, 32> SyncBase::hex_of(const std::array<std::uint8_t, 16>& digest) {
  constexpr std::string_view kDigits = "0123456789abcdef";
  std::array<char, 32> out{};
  for (std::size_t i = 0; i < digest.size(); ++i) {
    out[2 * i] = kDigits[digest[i] >> 4];
    out[2 * i + 1] = kDigits[digest[i] & 0xf];
  }
  return out;
}

std::uint32_t SyncBase::file_index(std::string_view file) {
  const auto found = file_indexes_.find(file);
  if (found != file_indexes_.end()) return found->second;
  const auto index = static_cast<std::uint32_t>(files_.size());
  files_.emplace_back(file);
  file_indexes_.emplace(file, index);
  return index;
}

SyncBase::Item SyncBase::new_item(std::string_view id, std::uint32_t file, SyncTable table) {
  if (id.size() >= kIdSizeLimit || ids_.size() + id.size() >= kIdsLimit) {
    throw std::length_error("SyncBase: an id of 16 MiB or more, or 1 TiB of ids");
  }
  Item item;
  item.id_at = ids_.size() & (kIdsLimit - 1);
  item.id_size = id.size() & (kIdSizeLimit - 1);
  item.file = file;
  item.table = table;
  ids_.append(id);
  return item;
}

std::size_t SyncBase::probe(std::uint64_t hash, std::string_view id) const noexcept {
  const std::size_t mask = slots_.size() - 1;
  std::size_t at = hash & mask;
  for (; slots_[at].tag != kEmpty; at = (at + 1) & mask) {
    const std::uint64_t tag = slots_[at].tag;
    if (static_cast<std::uint32_t>(tag) == fingerprint(hash) &&
        id_of(items_[(tag >> 32) - 1]) == id) {
      break;
    }
  }
  return at;
}

std::size_t SyncBase::slot_of(std::string_view id) const noexcept {
  if (slots_.empty()) return 0;
  const std::size_t at = probe(fast_hash(id), id);
  return slots_[at].tag == kEmpty ? slots_.size() : at;
}

std::uint32_t SyncBase::holding(std::uint64_t id_hash, std::string_view digest) const noexcept {
  return holding(id_hash, digest_bytes(digest));
}

std::uint32_t SyncBase::holding(std::uint64_t id_hash,
                                const std::array<std::uint8_t, 16>& wanted) const noexcept {
  if (slots_.empty()) return 0;
  const std::size_t mask = slots_.size() - 1;
  // The digest covers the id, so an equal digest with the id's fingerprint is the id's slot.
  for (std::size_t at = id_hash & mask;; at = (at + 1) & mask) {
    const Slot& slot = slots_[at];
    if (slot.tag == kEmpty) return 0;
    if (static_cast<std::uint32_t>(slot.tag) == fingerprint(id_hash) && slot.digest == wanted) {
      return static_cast<std::uint32_t>(slot.tag >> 32);
    }
  }
}

std::uint32_t SyncBase::position(std::string_view id) const noexcept {
  const std::size_t at = slot_of(id);
  return at < slots_.size() ? static_cast<std::uint32_t>(slots_[at].tag >> 32) : 0;
}

void SyncBase::prefetch(std::uint64_t id_hash) const noexcept {
  if (!slots_.empty()) __builtin_prefetch(&slots_[id_hash & (slots_.size() - 1)]);
}

void SyncBase::reserve_slots(std::size_t count) {
  const std::size_t size = slot_count(count);
  if (size <= slots_.size()) return;
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(size, Slot{});
  const std::size_t mask = size - 1;
  for (const Slot& slot : old) {
    if (slot.tag == kEmpty) continue;
    std::size_t at = fast_hash(id_of(items_[(slot.tag >> 32) - 1])) & mask;
    while (slots_[at].tag != kEmpty) at = (at + 1) & mask;
    slots_[at] = slot;
  }
}

bool SyncBase::contains(std::string_view id) const noexcept { return slot_of(id) < slots_.size(); }

std::optional<BaseEntry> SyncBase::find(std::string_view id) const {
  const std::size_t at = slot_of(id);
  if (at == slots_.size()) return std::nullopt;
  const Item& item = items_[(slots_[at].tag >> 32) - 1];
  const std::array<char, 32> hex = hex_of(slots_[at].digest);
  return BaseEntry{item.table, files_[item.file], std::string(hex.data(), hex.size())};
}

BaseEntry SyncBase::at(std::string_view id) const {
  std::optional<BaseEntry> found = find(id);
  if (!found) throw std::out_of_range("SyncBase::at: no entry for " + std::string(id));
  return std::move(*found);
}

std::optional<std::array<char, 32>> SyncBase::digest(std::string_view id) const noexcept {
  const std::size_t at = slot_of(id);
  if (at == slots_.size()) return std::nullopt;
  return hex_of(slots_[at].digest);
}

void SyncBase::insert_or_assign(std::string_view id, const BaseEntry& entry) {
  if (2 * (items_.size() + 1) > slots_.size()) reserve_slots(items_.size() + 1);
  const std::uint64_t hash = fast_hash(id);
  const std::size_t at = probe(hash, id);
  if (slots_[at].tag != kEmpty) {
    Item& same = items_[(slots_[at].tag >> 32) - 1];
    same.table = entry.table;
    same.file = file_index(entry.file);
    slots_[at].digest = digest_bytes(entry.digest);
    return;
  }
  items_.push_back(new_item(id, file_index(entry.file), entry.table));
  slots_[at] = Slot{static_cast<std::uint64_t>(items_.size()) << 32 | fingerprint(hash),
                    digest_bytes(entry.digest)};
}

bool operator==(const SyncBase& a, const SyncBase& b) {
  if (a.size() != b.size() || a.digests_ != b.digests_) return false;
  return std::all_of(a.slots_.begin(), a.slots_.end(), [&](const SyncBase::Slot& x) {
    if (x.tag == kEmpty) return true;
    const SyncBase::Item& item = a.items_[(x.tag >> 32) - 1];
    const std::size_t at = b.slot_of(a.id_of(item));
    if (at == b.slots_.size()) return false;
    const SyncBase::Item& other = b.items_[(b.slots_[at].tag >> 32) - 1];
    return other.table == item.table && b.files_[other.file] == a.files_[item.file] &&
           b.slots_[at].digest == x.digest;
  });
}

std::string render_sync_base(const SyncBase& base) {
  return (base.digests() == BaseDigests::xxh3 ? std::string(kSyncBaseHeader) : std::string()) +
         render_sync_base_lines(base);
}

std::string render_sync_base_lines(const SyncBase& base) {
  struct Line {
    std::string_view id;
    SyncTable table;
    std::string_view file;
    std::array<char, 32> digest;
  };
  std::vector<Line> lines;
  lines.reserve(base.size());
  base.for_each(
      [&](std::string_view id, SyncTable table, std::string_view file, std::string_view digest) {
        Line line{id, table, file, {}};
        std::copy_n(digest.begin(), line.digest.size(), line.digest.begin());
        lines.push_back(line);
      });
  std::sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.id < b.id; });
  std::string out;
  out.reserve(base.size() * 110);
  for (const Line& line : lines) {
    out.append(line.digest.data(), line.digest.size());
    out += '\t';
    out += sync_table_name(line.table);
    out += '\t';
    out += line.file;
    out += '\t';
    out += line.id;
    out += '\n';
  }
  return out;
}

Result<SyncBase> parse_sync_base(std::string_view bytes) {
  SyncBase base;
  std::size_t line_number = 0;
  if (bytes.rfind(kSyncBaseHeader, 0) == 0) {
    bytes.remove_prefix(kSyncBaseHeader.size());
    line_number = 1;
  } else if (!bytes.empty() && bytes.front() == '#') {
    return Status(Errc::layout,
                  fmt::format(".memkit/sync/base.tsv:1: a base of a later version than this "
                              "memkit reads ({}): upgrade memkit",
                              bytes.substr(0, std::min(bytes.find('\n'), std::size_t{60}))));
  } else if (!bytes.empty()) {
    base.digests_ = BaseDigests::sha256;  // version 1
  }
  // Each line's id goes into the table a few lines after it is read, its slot fetched meanwhile:
  // a base of a million ids is mostly cache misses otherwise.
  const auto lines = static_cast<std::size_t>(count_newlines(bytes));
  base.items_.reserve(lines);
  // The ids' room: what the lines hold but their digests, tabs, tables and LFs (so more than they
  // need; room reserved is not memory touched).
  constexpr std::size_t kAroundId = 32 + 1 + 8 + 1 + 1 + 1 + 1;  // digest\tmemories\tf\t...\n
  base.ids_.reserve(bytes.size() > lines * kAroundId ? bytes.size() - lines * kAroundId : 0);
  base.slots_.assign(slot_count(lines), SyncBase::Slot{});
  constexpr std::size_t kAhead = 8;
  struct Pending {
    std::uint64_t hash = 0;
    std::array<std::uint8_t, 16> digest{};
  };
  std::array<Pending, kAhead> pending{};
  const std::size_t mask = base.slots_.size() - 1;
  std::vector<bool> dropped;  // sized only when a later line of an id is met
  // A later line of an id replaces an earlier one: its values go to the earlier item, and the
  // later item is dropped and the items closed up after.
  const auto place = [&](std::size_t i) {
    const Pending& next = pending[i % kAhead];
    const std::size_t at = base.probe(next.hash, base.id_of(base.items_[i]));
    if (base.slots_[at].tag == kEmpty) {
      base.slots_[at] = SyncBase::Slot{
          (static_cast<std::uint64_t>(i) + 1) << 32 | fingerprint(next.hash), next.digest};
      return;
    }
    SyncBase::Item& earlier = base.items_[(base.slots_[at].tag >> 32) - 1];
    earlier.file = base.items_[i].file;
    earlier.table = base.items_[i].table;
    base.slots_[at].digest = next.digest;
    if (dropped.empty()) dropped.resize(lines);
    dropped[i] = true;
  };
  std::string_view last_file;
  std::uint32_t last_file_index = 0;
  std::size_t count = 0;
  for (std::size_t at = 0; at < bytes.size();) {
    ++line_number;
    const auto bad = [&](std::string_view what) {
      return Status(Errc::parse, fmt::format(".memkit/sync/base.tsv:{}: {}", line_number, what));
    };
    const std::size_t lf = bytes.find('\n', at);
    if (lf == std::string_view::npos) break;  // an append cut short: that id syncs again
    const std::string_view line = bytes.substr(at, lf - at);
    at = lf + 1;
    const std::size_t t1 = line.find('\t');
    const std::size_t t2 = t1 == std::string_view::npos ? t1 : line.find('\t', t1 + 1);
    const std::size_t t3 = t2 == std::string_view::npos ? t2 : line.find('\t', t2 + 1);
    if (t3 == std::string_view::npos) return bad("expected digest, table, file and id");
    const std::string_view digest = line.substr(0, t1);
    Pending& next = pending[count % kAhead];
    if (count >= kAhead) place(count - kAhead);  // the slot it frees is next's
    if (digest.size() != 32 || !digest_bytes(digest, next.digest)) {
      return bad("the digest is not 32 lower-case hex digits");
    }
    const std::optional<SyncTable> table = parse_sync_table(line.substr(t1 + 1, t2 - t1 - 1));
    if (!table) return bad("unknown table");
    const std::string_view file = line.substr(t2 + 1, t3 - t2 - 1);
    const std::string_view id = line.substr(t3 + 1);
    if (file.empty() || id.empty()) return bad("empty file or id");
    if (id.size() >= kIdSizeLimit) return bad("an id of 16 MiB or more");
    next.hash = fast_hash(id);
    __builtin_prefetch(&base.slots_[next.hash & mask]);
    if (file != last_file || base.files_.empty()) {
      last_file_index = base.file_index(file);
      last_file = file;
    }
    base.items_.push_back(base.new_item(id, last_file_index, *table));
    ++count;
  }
  for (std::size_t i = count > kAhead ? count - kAhead : 0; i < count; ++i) place(i);
  if (!dropped.empty()) {
    std::vector<std::uint32_t> moved_to(base.items_.size());
    std::size_t kept = 0;
    for (std::size_t i = 0; i < base.items_.size(); ++i) {
      moved_to[i] = static_cast<std::uint32_t>(kept);
      if (!dropped[i]) base.items_[kept++] = base.items_[i];
    }
    base.items_.resize(kept);
    for (SyncBase::Slot& slot : base.slots_) {
      if (slot.tag == kEmpty) continue;
      const std::uint64_t index = moved_to[(slot.tag >> 32) - 1];
      slot.tag = (index + 1) << 32 | static_cast<std::uint32_t>(slot.tag);
    }
  }
  return base;
}

SyncBase merged_base(SyncBase base, const SyncBase& changes) {
  changes.for_each(
      [&](std::string_view id, SyncTable table, std::string_view file, std::string_view digest) {
        base.insert_or_assign(id, BaseEntry{table, std::string(file), std::string(digest)});
      });
  return base;
}

}  // namespace memkit::memorybox
