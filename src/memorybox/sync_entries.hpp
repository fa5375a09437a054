// Entries as sync sees them (spec memorybox.md §9 Records): an entry's text without its field
// lines, and the bytes of an entry written from a record. Internal to src/memorybox.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/memorybox.hpp"
#include "memkit/memorybox/sync.hpp"

namespace memkit::memorybox::detail {

// The offset after an entry's last non-blank line (and its terminator): where its content ends
// and its trailing blank lines, if any, begin.
[[nodiscard]] std::size_t content_end(const Document& doc, const Entry& entry);

// §9 Records `text`: the entry's lines from its first to its last non-blank line without its field
// lines, byte for byte; for a daily file, the bytes after its `Id:` line and the empty line after
// it (all of them).
[[nodiscard]] std::string record_text(const Document& doc, const Entry& entry);
// record_text as a view: of the document's bytes when the text is one piece of them (a bullet
// whose field lines follow its text), else of `scratch`, where it is built.
[[nodiscard]] std::string_view record_text_view(const Document& doc, const Entry& entry,
                                                std::string& scratch);

// A field's value as a view of the document's bytes (Field::value, without its copy).
[[nodiscard]] std::string_view field_value(const Document& doc, const Field& field) noexcept;

// What record_digest hashes, as views.
struct DigestParts {
  std::string_view id;
  SyncTable table = SyncTable::memories;
  std::string_view file;
  std::optional<std::string_view> category;
  std::string_view text;
  std::optional<std::uint32_t> confidence;
  std::optional<std::string_view> verified;
  bool deleted = false;
};
// record_digest of the parts, built in `scratch` (its capacity reused).
[[nodiscard]] std::array<char, 32> digest_of(const DigestParts& parts, std::string& scratch,
                                             BaseDigests digests);

// A bullet's fingerprint (ScanCache): XXH3-128 of its table, file and category (length-prefixed),
// then its bytes, put together in `scratch`.
[[nodiscard]] std::array<std::uint8_t, 16> entry_fingerprint(
    SyncTable table, std::string_view file, const std::optional<std::string_view>& category,
    std::string_view bytes, std::string& scratch);

// A digest's 32 hex digits as the 16 bytes they spell.
[[nodiscard]] std::array<std::uint8_t, 16> digest_value(const std::array<char, 32>& hex) noexcept;

// The effective confidence of a stored value verified on `verified`, on `today` (§6).
[[nodiscard]] std::uint32_t effective_on(std::uint32_t stored, const CivilDate& verified,
                                         const CivilDate& today);

// One field line of an entry being written: its indentation and "Key: value".
struct FieldText {
  std::string key;
  std::string indent;
  std::string value;
};

// The field lines of an entry written from `record`: the given `kept` lines (a local entry's,
// in its order) with the record's own fields (Confidence, Verified and, in a section file whose
// category is not its stem, Category; Updated and Id) set, and the missing ones inserted at their
// §3 places with `default_indent`.
[[nodiscard]] std::vector<FieldText> record_fields(const SyncRecord& record,
                                                   std::vector<FieldText> kept,
                                                   std::string_view default_indent);

// The bytes of an entry: `text` (a record's, byte for byte) with `fields` after its first line
// (`fields_first`, sections and sessions) or after its last line (bullets), each field line ended
// by `terminator`. A text whose last line has no terminator gets one when fields follow it or
// `terminate` is set.
[[nodiscard]] std::string entry_with_fields(std::string_view text,
                                            const std::vector<FieldText>& fields, bool fields_first,
                                            std::string_view terminator, bool terminate);

}  // namespace memkit::memorybox::detail
