// The shared, immutable state behind a Document.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "memkit/markdown.hpp"

namespace memkit {

struct Document::Impl {
  std::shared_ptr<const std::string> bytes;
  bool bom = false;
  std::uint32_t line_count = 0;
  std::optional<TextIssue> parse_error;
  std::optional<TextIssue> utf8_error;
  bool h1_after_h2 = false;
  std::vector<Unit> units;
  std::vector<Section> sections;
};

}  // namespace memkit
