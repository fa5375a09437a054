// Entries as sync sees them (spec memorybox.md §9 Records).
#include "memorybox/sync_entries.hpp"

#include <algorithm>
#include <charconv>
#include <memory>

#include "markdown/line_kinds.hpp"
#include "memkit/digest.hpp"
#include "memkit/text.hpp"
#include "memorybox/field_editor.hpp"

namespace memkit::memorybox::detail {

std::size_t content_end(const Document& doc, const Entry& entry) {
  std::size_t end = entry.begin;
  LineCursor cursor(doc.bytes(), entry.begin, entry.end, entry.first_line);
  Line line{};
  while (cursor.next(line)) {
    if (!memkit::detail::is_blank(line.content)) {
      end = line.begin + line.content.size() + line.terminator.size();
    }
  }
  return end;
}

std::string record_text(const Document& doc, const Entry& entry) {
  std::string scratch;
  const std::string_view text = record_text_view(doc, entry, scratch);
  return text.data() == scratch.data() ? scratch : std::string(text);
}

std::string_view record_text_view(const Document& doc, const Entry& entry, std::string& scratch) {
  const std::string_view bytes = doc.bytes();
  if (entry.kind == EntryKind::daily) {
    std::size_t at = doc.content_begin();
    if (!entry.fields.empty()) {  // the Id line, then at most one empty line
      at = entry.fields.front().end;
      LineCursor cursor(bytes, at, bytes.size(), entry.fields.front().line + 1);
      Line line{};
      if (cursor.next(line) && line.content.empty() && !line.terminator.empty()) {
        at = line.begin + line.terminator.size();
      }
    }
    return bytes.substr(at);
  }
  // One piece of the file unless a field line comes before the last non-blank text line (a
  // bullet's fields follow its text; a section's follow its heading).
  std::size_t kept_end = entry.begin;  // after the last non-blank text line
  bool field_seen = false;
  bool split = false;
  {
    std::size_t at = entry.begin;
    auto field = entry.fields.begin();
    LineCursor cursor(bytes, entry.begin, entry.end, entry.first_line);
    Line line{};
    while (cursor.next(line)) {
      const std::size_t line_end = line.begin + line.content.size() + line.terminator.size();
      while (field != entry.fields.end() && field->end <= at) ++field;
      if (field != entry.fields.end() && field->begin == at) {
        field_seen = true;
      } else if (!memkit::detail::is_blank(line.content)) {
        split = split || field_seen;
        kept_end = line_end;
      }
      at = line_end;
    }
  }
  if (!split) return bytes.substr(entry.begin, kept_end - entry.begin);
  scratch.clear();
  std::size_t scratch_end = 0;  // scratch's size after its last non-blank line
  std::size_t at = entry.begin;
  auto field = entry.fields.begin();
  LineCursor cursor(bytes, entry.begin, kept_end, entry.first_line);
  Line line{};
  while (cursor.next(line)) {
    const std::size_t line_end = line.begin + line.content.size() + line.terminator.size();
    while (field != entry.fields.end() && field->end <= at) ++field;
    if (field == entry.fields.end() || field->begin != at) {
      scratch.append(bytes.substr(at, line_end - at));
      if (!memkit::detail::is_blank(line.content)) scratch_end = scratch.size();
    }
    at = line_end;
  }
  scratch.resize(scratch_end);
  return scratch;
}

std::string_view field_value(const Document& doc, const Field& field) noexcept {
  const std::string_view line = doc.bytes().substr(field.begin + field.indent,
                                                   field.content_end - field.begin - field.indent);
  return strip_w(line.substr(line.find(':') + 1));
}

namespace {

// "<size>:", the prefix of a field of `size` bytes.
void add_size(std::string& out, std::size_t size) {
  char digits[24];
  const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, size);
  out.append(digits, end);
  out += ':';
}

// Length-prefixed, so that no two different records hash the same bytes.
void add_field(std::string& out, std::string_view bytes) {
  add_size(out, bytes.size());
  out.append(bytes);
}

void add_optional(std::string& out, const std::optional<std::string_view>& value) {
  if (value) {
    add_field(out, *value);
  } else {
    out += '-';
  }
}

}  // namespace

std::array<char, 32> digest_of(const DigestParts& parts, std::string& scratch,
                               BaseDigests digests) {
  // The fields before the text and its length, then the text, then the rest: for SHA-256 the
  // text is hashed where it is; XXH3 is faster over the bytes in one piece.
  const bool sha = digests == BaseDigests::sha256;
  // Made on first use only: a hasher starts OpenSSL, which a base of version 2 never needs.
  thread_local std::unique_ptr<Sha256Hasher> made;
  if (sha && !made) made = std::make_unique<Sha256Hasher>();
  Sha256Hasher* const hasher = made.get();
  if (sha) hasher->restart();
  scratch.clear();
  add_field(scratch, parts.id);
  add_field(scratch, sync_table_name(parts.table));
  add_field(scratch, parts.file);
  add_optional(scratch, parts.category);
  add_size(scratch, parts.text.size());
  if (sha) {
    hasher->update(scratch);
    hasher->update(parts.text);
    scratch.clear();
  } else {
    scratch.append(parts.text);
  }
  char confidence[12];
  std::optional<std::string_view> confidence_text;
  if (parts.confidence) {
    const auto [end, ec] =
        std::to_chars(confidence, confidence + sizeof confidence, *parts.confidence);
    confidence_text = std::string_view(confidence, static_cast<std::size_t>(end - confidence));
  }
  add_optional(scratch, confidence_text);
  add_optional(scratch, parts.verified);
  scratch += parts.deleted ? 'D' : 'L';
  std::array<std::uint8_t, 16> hash{};
  if (sha) {
    hasher->update(scratch);
    const Sha256 full = hasher->finish();
    std::copy_n(full.begin(), hash.size(), hash.begin());
  } else {
    hash = xxh3_128(scratch);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::array<char, 32> out{};
  for (std::size_t i = 0; i < 16; ++i) {
    out[2 * i] = kHex[hash[i] >> 4];
    out[2 * i + 1] = kHex[hash[i] & 0xF];
  }
  return out;
}

std::uint32_t effective_on(std::uint32_t stored, const CivilDate& verified,
                           const CivilDate& today) {
  const std::int64_t days = std::max<std::int64_t>(0, days_between(verified, today));
  return effective_confidence(stored, static_cast<std::uint64_t>(days));
}

std::vector<FieldText> record_fields(const SyncRecord& record, std::vector<FieldText> kept,
                                     std::string_view default_indent) {
  const auto set = [&](std::string_view key, std::string value) {
    const auto same =
        std::find_if(kept.begin(), kept.end(), [&](const FieldText& f) { return f.key == key; });
    if (same != kept.end()) {
      same->value = std::move(value);
      return;
    }
    // Before the first line whose key comes later, else last (§3), with a neighbour's indent.
    const auto later = std::find_if(kept.begin(), kept.end(),
                                    [&](const FieldText& f) { return rank(f.key) > rank(key); });
    std::string indent = later != kept.end() ? later->indent
                         : kept.empty()      ? std::string(default_indent)
                                             : kept.back().indent;
    kept.insert(later, FieldText{std::string(key), std::move(indent), std::move(value)});
  };
  if (record.confidence) set("Confidence", format_hundredths(*record.confidence));
  if (record.verified) set("Verified", *record.verified);
  if (is_section_file(record.file) && record.table == SyncTable::memories) {
    // §3: a section file's category is its stem unless a Category line says otherwise.
    if (record.category && *record.category != file_stem(record.file)) {
      set("Category", *record.category);
    } else {
      std::erase_if(kept, [](const FieldText& f) { return f.key == "Category"; });
    }
  }
  if (record.table != SyncTable::daily_logs) set("Updated", record.updated_at);
  set("Id", record.id);
  return kept;
}

std::string entry_with_fields(std::string_view text, const std::vector<FieldText>& fields,
                              bool fields_first, std::string_view terminator, bool terminate) {
  std::string lines;
  for (const FieldText& f : fields) {
    lines += f.indent;
    lines += field_line(f.key, f.value);
    lines += terminator;
  }
  std::string out;
  if (fields_first) {
    const std::size_t lf = text.find('\n');
    if (lf == std::string_view::npos) {  // a one-line text without a terminator
      out.append(text);
      if (!text.empty()) out += terminator;
      out += lines;
      return out;
    }
    out.append(text.substr(0, lf + 1));
    out += lines;
    out.append(text.substr(lf + 1));
  } else {
    out.append(text);
    if (!out.empty() && out.back() != '\n' && (!fields.empty() || terminate)) out += terminator;
    out += lines;
  }
  if (terminate && !out.empty() && out.back() != '\n') out += terminator;
  return out;
}

}  // namespace memkit::memorybox::detail
