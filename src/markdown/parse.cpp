// parse_markdown: one pass over the lines that partitions them into units (spec compaction.md
// §2.3 opaque regions, §6.1 bullet units, §6.4 the document model), then the section view (§6.2).
#include <cstring>

#include "markdown/document_impl.hpp"
#include "markdown/scanner.hpp"
#include "memkit/text.hpp"

namespace memkit {
namespace {

// §6.2 and §6.4: the preamble, then one section per H2 line ending at its last non-blank unit.
void build_sections(Document::Impl& doc) {
  const std::vector<Unit>& units = doc.units;
  std::size_t i = 0;
  while (i < units.size() && !(units[i].kind == UnitKind::heading && units[i].heading_level == 2)) {
    ++i;
  }
  if (i > 0) {
    doc.sections.push_back(Section{SectionKind::preamble, units[0].first_line,
                                   units[i - 1].last_line, units[0].begin, units[i - 1].end, 0, i});
  }
  while (i < units.size()) {
    std::size_t next = i + 1;
    while (next < units.size() &&
           !(units[next].kind == UnitKind::heading && units[next].heading_level == 2)) {
      ++next;
    }
    std::size_t last = next - 1;
    while (last > i && units[last].kind == UnitKind::blank) --last;
    doc.sections.push_back(Section{SectionKind::section, units[i].first_line, units[last].last_line,
                                   units[i].begin, units[last].end, i, last - i + 1});
    i = next;
  }
}

std::uint32_t line_of_offset(std::string_view bytes, std::size_t begin, std::size_t offset) {
  std::uint32_t line = 1;
  const char* p = bytes.data() + begin;
  const char* const stop = bytes.data() + offset;
  while (p < stop) {
    const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(stop - p));
    if (nl == nullptr) break;
    ++line;
    p = static_cast<const char*>(nl) + 1;
  }
  return line;
}

}  // namespace

bool is_formal_entry_heading(std::string_view text) noexcept {
  if (!starts_with_ascii_ci(text, "mc-")) return false;
  text.remove_prefix(3);
  for (std::string_view kind : {"dec-", "con-", "dnu-", "pref-", "area-", "inbox-", "tomb-"}) {
    if (starts_with_ascii_ci(text, kind)) return true;
  }
  return false;
}

Document parse_markdown(std::shared_ptr<const std::string> bytes) {
  auto impl = std::make_shared<Document::Impl>();
  if (!bytes) bytes = std::make_shared<const std::string>();
  impl->bytes = bytes;
  const std::string_view view(*bytes);
  impl->bom = bom_size(view) != 0;
  const std::size_t begin = impl->bom ? 3 : 0;

  if (const auto bad = find_invalid_utf8(view)) {
    impl->utf8_error = TextIssue{TextProblem::invalid_utf8, line_of_offset(view, begin, *bad)};
  }
  // Real memory files average about 95 bytes per unit. Reserving for one unit per 64 bytes means
  // the vector never grows (and never copies) on typical input; untouched pages cost nothing.
  impl->units.reserve(view.size() / 64 + 16);
  detail::Scanner scanner(view, begin, impl->units);
  while (scanner.scan(SIZE_MAX)) {
  }
  impl->line_count = scanner.end().line_count;
  impl->parse_error = scanner.end().parse_error;
  impl->h1_after_h2 = scanner.end().h1_after_h2;
  if (impl->parse_error) {
    impl->units.clear();
  } else {
    build_sections(*impl);
  }
  return Document(std::move(impl));
}

struct UnitReader::State {
  explicit State(std::string_view bytes) : scanner(bytes, bom_size(bytes), batch) {
    batch.reserve(kBatch);
  }
  static constexpr std::size_t kBatch = 256;
  std::vector<Unit> batch;
  detail::Scanner scanner;
};

UnitReader::UnitReader(std::string_view bytes) : state_(std::make_unique<State>(bytes)) {}
UnitReader::UnitReader(UnitReader&&) noexcept = default;
UnitReader& UnitReader::operator=(UnitReader&&) noexcept = default;
UnitReader::~UnitReader() = default;

bool UnitReader::refill() {
  state_->batch.clear();
  next_ = 0;
  while (state_->batch.empty() && state_->scanner.scan(State::kBatch)) {
  }
  batch_ = state_->batch.data();
  size_ = state_->batch.size();
  return size_ != 0;
}

const std::optional<TextIssue>& UnitReader::parse_error() const noexcept {
  return state_->scanner.end().parse_error;
}
std::uint32_t UnitReader::line_count() const noexcept { return state_->scanner.end().line_count; }

Document parse_markdown(std::string bytes) {
  return parse_markdown(std::make_shared<const std::string>(std::move(bytes)));
}

}  // namespace memkit
