// Bytes memkit writes for itself and reads back: 8-byte words in the machine's byte order (memkit's
// readers refuse a machine that is not little-endian), texts as their length then their bytes,
// and sections read in place at 8-byte boundaries. What the search index and its catalog on disk
// are made of (search, store/recall_index).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace memkit::codec {

class BinaryWriter {
 public:
  explicit BinaryWriter(std::size_t expected = 0) { out_.reserve(expected); }
  void word(std::uint64_t value) { bytes(&value, sizeof value); }
  void bytes(const void* data, std::size_t size) {
    out_.append(static_cast<const char*>(data), size);
  }
  // Its length as a word, then its bytes.
  void text(std::string_view s) {
    word(s.size());
    out_.append(s);
  }
  // Zero bytes up to the next 8-byte boundary.
  void pad() { out_.resize((out_.size() + 7) / 8 * 8, '\0'); }
  [[nodiscard]] std::string take() && { return std::move(out_); }

 private:
  std::string out_;
};

// Reads what a BinaryWriter wrote, front to back; each read fails (false, nullopt) past the end.
class BinaryReader {
 public:
  explicit BinaryReader(std::string_view bytes) : bytes_(bytes) {}
  bool word(std::uint64_t& value) {
    if (bytes_.size() - at_ < sizeof value) return false;
    std::memcpy(&value, bytes_.data() + at_, sizeof value);
    at_ += sizeof value;
    return true;
  }
  // A word as a T (a size, a count, a time).
  template <typename T>
  bool number(T& value) {
    std::uint64_t w = 0;
    if (!word(w)) return false;
    value = static_cast<T>(w);
    return true;
  }
  bool text(std::string& s) {
    std::uint64_t n = 0;
    if (!word(n) || n > bytes_.size() - at_) return false;
    s.assign(bytes_.substr(at_, n));
    at_ += n;
    return true;
  }
  // `count` Ts in place, from the next 8-byte boundary (of the bytes given, which the caller has
  // aligned to 8).
  template <typename T>
  std::optional<std::span<const T>> take(std::uint64_t count) {
    const std::size_t start = (at_ + 7) / 8 * 8;
    if (start > bytes_.size() || count > (bytes_.size() - start) / sizeof(T)) return std::nullopt;
    const auto* first = reinterpret_cast<const T*>(bytes_.data() + start);  // NOLINT: in place
    at_ = start + count * sizeof(T);
    return std::span<const T>(first, count);
  }
  [[nodiscard]] std::size_t at() const noexcept { return at_; }
  [[nodiscard]] bool done() const noexcept { return at_ == bytes_.size(); }

 private:
  std::string_view bytes_;
  std::size_t at_ = 0;
};

}  // namespace memkit::codec
