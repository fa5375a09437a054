// The base of the last sync, .memkit/sync/base.tsv (spec memorybox.md §9; OUR DECISION): per id,
// the table, the file and the record digest both sides last agreed on.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "memkit/digest.hpp"
#include "memkit/memorybox_sync.hpp"

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
  for (int c = '0'; c <= '9'; ++c) values[c] = static_cast<std::uint8_t>(c - '0');
  for (int c = 'a'; c <= 'f'; ++c) values[c] = static_cast<std::uint8_t>(c - 'a' + 10);
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

std::array<char, 32> digest_array(std::string_view digest) {
  std::array<char, 32> out{};
  std::copy_n(digest.begin(), std::min(digest.size(), out.size()), out.begin());
  return out;
}

}  // namespace

SyncBase::SyncBase(std::initializer_list<std::pair<std::string_view, BaseEntry>> entries) {
  for (const auto& [id, entry] : entries) insert_or_assign(id, entry);
}

SyncBase::SyncBase(const SyncBase& other) : bytes_(other.bytes_), digests_(other.digests_) {
  // The views into other.owned_ are owned again here; views into the shared bytes stay.
  items_.reserve(other.items_.size());
  const std::string_view parsed = bytes_ ? std::string_view(*bytes_) : std::string_view();
  const auto parsed_has = [&](std::string_view text) {
    return !parsed.empty() && text.data() >= parsed.data() &&
           text.data() + text.size() <= parsed.data() + parsed.size();
  };
  for (const Item& item : other.items_) {
    Item copy = item;
    if (!parsed_has(item.id)) copy.id = own_id(item.id);
    if (!parsed_has(item.file)) copy.file = own_file(item.file);
    items_.push_back(copy);
  }
  slots_ = other.slots_;
}

SyncBase& SyncBase::operator=(const SyncBase& other) {
  if (this != &other) *this = SyncBase(other);
  return *this;
}

std::string_view SyncBase::own_id(std::string_view id) { return ids_.emplace_back(id); }

std::string_view SyncBase::own_file(std::string_view file) {
  const auto found = files_.find(file);
  return found != files_.end() ? *found : *files_.emplace(file).first;
}

std::size_t SyncBase::probe(std::uint64_t hash, std::string_view id) const noexcept {
  const std::size_t mask = slots_.size() - 1;
  std::size_t at = hash & mask;
  for (; slots_[at].tag != kEmpty; at = (at + 1) & mask) {
    const std::uint64_t tag = slots_[at].tag;
    if (static_cast<std::uint32_t>(tag) == fingerprint(hash) && items_[(tag >> 32) - 1].id == id) {
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

const SyncBase::Item* SyncBase::item(std::string_view id) const noexcept {
  const std::size_t at = slot_of(id);
  return at < slots_.size() ? &items_[(slots_[at].tag >> 32) - 1] : nullptr;
}

std::uint32_t SyncBase::holding(std::string_view id, std::string_view digest) const noexcept {
  if (slots_.empty()) return 0;
  const std::uint64_t hash = fast_hash(id);
  const std::array<std::uint8_t, 16> wanted = digest_bytes(digest);
  const std::size_t mask = slots_.size() - 1;
  // The digest covers the id, so an equal digest with the id's fingerprint is the id's slot.
  for (std::size_t at = hash & mask;; at = (at + 1) & mask) {
    const Slot& slot = slots_[at];
    if (slot.tag == kEmpty) return 0;
    if (static_cast<std::uint32_t>(slot.tag) == fingerprint(hash) && slot.digest == wanted) {
      return static_cast<std::uint32_t>(slot.tag >> 32);
    }
  }
}

std::uint32_t SyncBase::position(std::string_view id) const noexcept {
  const std::size_t at = slot_of(id);
  return at < slots_.size() ? static_cast<std::uint32_t>(slots_[at].tag >> 32) : 0;
}

void SyncBase::prefetch(std::string_view id) const noexcept {
  if (!slots_.empty()) __builtin_prefetch(&slots_[fast_hash(id) & (slots_.size() - 1)]);
}

void SyncBase::index(std::uint32_t at, std::uint64_t hash) {
  const std::size_t mask = slots_.size() - 1;
  std::size_t slot = hash & mask;
  while (slots_[slot].tag != kEmpty) slot = (slot + 1) & mask;
  const Item& item = items_[at];
  slots_[slot] = Slot{(static_cast<std::uint64_t>(at) + 1) << 32 | fingerprint(hash),
                      digest_bytes(std::string_view(item.digest.data(), item.digest.size()))};
}

void SyncBase::reserve_slots(std::size_t count) {
  const std::size_t size = slot_count(count);
  if (size <= slots_.size()) return;
  slots_.assign(size, Slot{});
  for (std::size_t i = 0; i < items_.size(); ++i) {
    index(static_cast<std::uint32_t>(i), fast_hash(items_[i].id));
  }
}

bool SyncBase::contains(std::string_view id) const noexcept { return item(id) != nullptr; }

std::optional<BaseEntry> SyncBase::find(std::string_view id) const {
  const Item* found = item(id);
  if (found == nullptr) return std::nullopt;
  return BaseEntry{found->table, std::string(found->file),
                   std::string(found->digest.data(), found->digest.size())};
}

BaseEntry SyncBase::at(std::string_view id) const {
  std::optional<BaseEntry> found = find(id);
  if (!found) throw std::out_of_range("SyncBase::at: no entry for " + std::string(id));
  return std::move(*found);
}

std::optional<std::string_view> SyncBase::digest(std::string_view id) const noexcept {
  const Item* found = item(id);
  if (found == nullptr) return std::nullopt;
  return std::string_view(found->digest.data(), found->digest.size());
}

void SyncBase::insert_or_assign(std::string_view id, const BaseEntry& entry) {
  if (2 * (items_.size() + 1) > slots_.size()) reserve_slots(items_.size() + 1);
  const std::uint64_t hash = fast_hash(id);
  const std::size_t at = probe(hash, id);
  if (slots_[at].tag != kEmpty) {
    Item& same = items_[(slots_[at].tag >> 32) - 1];
    same.table = entry.table;
    if (same.file != entry.file) same.file = own_file(entry.file);
    same.digest = digest_array(entry.digest);
    slots_[at].digest = digest_bytes(entry.digest);
    return;
  }
  items_.push_back(Item{own_id(id), own_file(entry.file), digest_array(entry.digest), entry.table});
  slots_[at] = Slot{static_cast<std::uint64_t>(items_.size()) << 32 | fingerprint(hash),
                    digest_bytes(entry.digest)};
}

bool operator==(const SyncBase& a, const SyncBase& b) {
  if (a.size() != b.size() || a.digests_ != b.digests_) return false;
  return std::all_of(a.items_.begin(), a.items_.end(), [&](const SyncBase::Item& x) {
    const SyncBase::Item* y = b.item(x.id);
    return y != nullptr && y->table == x.table && y->file == x.file && y->digest == x.digest;
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
    std::string_view digest;
  };
  std::vector<Line> lines;
  lines.reserve(base.size());
  base.for_each(
      [&](std::string_view id, SyncTable table, std::string_view file, std::string_view digest) {
        lines.push_back({id, table, file, digest});
      });
  std::sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.id < b.id; });
  std::string out;
  out.reserve(base.size() * 110);
  for (const Line& line : lines) {
    out += line.digest;
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

Result<SyncBase> parse_sync_base(std::string_view text) {
  return parse_sync_base(std::make_shared<const std::string>(text));
}

Result<SyncBase> parse_sync_base(std::shared_ptr<const std::string> text) {
  SyncBase base;
  base.bytes_ = std::move(text);
  std::string_view bytes = base.bytes_ ? std::string_view(*base.bytes_) : std::string_view();
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
  // Two passes: the lines in order into items_ (reading the bytes front to back), then each into
  // the table, its slot fetched a few lines ahead: a base of a million ids is mostly cache misses
  // otherwise.
  struct Pending {
    std::uint64_t hash;
    std::array<std::uint8_t, 16> digest;
  };
  std::vector<Pending> pending;
  constexpr std::size_t kShortestLine = 32 + 1 + 8 + 1 + 1 + 1 + 1 + 1;  // digest\tmemories\tf\ti\n
  base.items_.reserve(bytes.size() / kShortestLine + 1);
  pending.reserve(bytes.size() / kShortestLine + 1);
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
    Pending next{};
    if (digest.size() != 32 || !digest_bytes(digest, next.digest)) {
      return bad("the digest is not 32 lower-case hex digits");
    }
    const std::optional<SyncTable> table = parse_sync_table(line.substr(t1 + 1, t2 - t1 - 1));
    if (!table) return bad("unknown table");
    const std::string_view file = line.substr(t2 + 1, t3 - t2 - 1);
    const std::string_view id = line.substr(t3 + 1);
    if (file.empty() || id.empty()) return bad("empty file or id");
    next.hash = fast_hash(id);
    base.items_.push_back(SyncBase::Item{id, file, digest_array(digest), *table});
    pending.push_back(next);
  }
  base.slots_.assign(slot_count(pending.size()), SyncBase::Slot{});
  // A later line of an id replaces an earlier one: its values go to the earlier item, and the
  // later item is dropped (an empty id) and the items closed up after.
  constexpr std::size_t kAhead = 8;
  const std::size_t mask = base.slots_.size() - 1;
  std::size_t dropped = 0;
  for (std::size_t i = 0; i < pending.size(); ++i) {
    if (i + kAhead < pending.size())
      __builtin_prefetch(&base.slots_[pending[i + kAhead].hash & mask]);
    const std::uint64_t hash = pending[i].hash;
    const std::size_t at = base.probe(hash, base.items_[i].id);
    if (base.slots_[at].tag == kEmpty) {
      base.slots_[at] = SyncBase::Slot{
          (static_cast<std::uint64_t>(i) + 1) << 32 | fingerprint(hash), pending[i].digest};
      continue;
    }
    SyncBase::Item& earlier = base.items_[(base.slots_[at].tag >> 32) - 1];
    earlier.file = base.items_[i].file;
    earlier.digest = base.items_[i].digest;
    earlier.table = base.items_[i].table;
    base.slots_[at].digest = pending[i].digest;
    base.items_[i].id = {};
    ++dropped;
  }
  if (dropped > 0) {
    std::vector<std::uint32_t> moved_to(base.items_.size());
    std::size_t kept = 0;
    for (std::size_t i = 0; i < base.items_.size(); ++i) {
      moved_to[i] = static_cast<std::uint32_t>(kept);
      if (!base.items_[i].id.empty()) base.items_[kept++] = base.items_[i];
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
