// The field lines of one entry edited by the §3 rules (spec memorybox.md §3 "Field lines"): a
// field's line replaced in place, a missing one inserted at its place in the field order, a cleared
// one deleted. Shared by `update` and sync. Internal to src/memorybox.
#pragma once

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/memorybox.hpp"
#include "memorybox/field_line.hpp"

namespace memkit::memorybox::detail {

// A key's place in kFieldOrder.
[[nodiscard]] inline std::size_t rank(std::string_view key) {
  return static_cast<std::size_t>(std::find(kFieldOrder.begin(), kFieldOrder.end(), key) -
                                  kFieldOrder.begin());
}

// Builds the splices that set, insert or delete an entry's field lines.
class FieldEditor final {
 public:
  FieldEditor(const Entry& entry, const Document& doc)
      : entry_(entry),
        bytes_(doc.bytes()),
        content_begin_(doc.content_begin()),
        terminator_(new_line_terminator(doc)) {}

  void set(std::string_view key, const std::string& value) { values_[rank(key)] = value; }
  void clear(std::string_view key) { cleared_[rank(key)] = true; }

  std::vector<Splice> splices() const {
    std::vector<Splice> out;
    const std::size_t default_indent = entry_.kind == EntryKind::bullet ? 2 : 0;
    bool end_terminated = false;  // an unterminated last line gets its terminator once
    for (std::size_t r = 0; r < kFieldOrder.size(); ++r) {
      const std::string_view key = kFieldOrder[r];
      const auto existing = std::find_if(entry_.fields.begin(), entry_.fields.end(),
                                         [&](const Field& f) { return f.key == key; });
      if (cleared_[r]) {
        if (existing != entry_.fields.end()) {
          out.push_back(Splice{existing->begin, existing->end, {}});
        }
        continue;
      }
      if (!values_[r]) continue;
      const std::string line = field_line(key, *values_[r]);
      if (existing != entry_.fields.end()) {
        out.push_back(
            replace_line_content(existing->begin + existing->indent, existing->content_end, line));
        continue;
      }
      // Missing: before the first field line whose key comes later, else after the last one,
      // else after the entry's first line.
      const auto later = std::find_if(entry_.fields.begin(), entry_.fields.end(),
                                      [&](const Field& f) { return rank(f.key) > r; });
      if (later != entry_.fields.end()) {
        out.push_back(Splice{later->begin, later->begin,
                             std::string(indent_of(*later)) + line + std::string(terminator_)});
        continue;
      }
      const bool has_fields = !entry_.fields.empty();
      const std::size_t at = has_fields ? entry_.fields.back().end : entry_.first_line_end;
      const std::string indent = has_fields ? std::string(indent_of(entry_.fields.back()))
                                            : std::string(default_indent, ' ');
      out.push_back(
          insert_line(bytes_, content_begin_, at, indent + line, terminator_, end_terminated));
    }
    // Splices at one offset keep their field order; the list must be sorted by offset.
    std::stable_sort(out.begin(), out.end(),
                     [](const Splice& a, const Splice& b) { return a.begin < b.begin; });
    return out;
  }

 private:
  // A field line's own indentation, byte for byte (spaces or tabs).
  std::string_view indent_of(const Field& field) const {
    return bytes_.substr(field.begin, field.indent);
  }

  const Entry& entry_;
  std::string_view bytes_;
  std::size_t content_begin_;
  std::string_view terminator_;
  std::array<std::optional<std::string>, kFieldOrder.size()> values_{};
  std::array<bool, kFieldOrder.size()> cleared_{};
};

}  // namespace memkit::memorybox::detail
