// A gate WRITE (spec memorybox.md §4): the entry's lines, its place in the file, its Id, the
// budget after it and the advice; checked by reading the result back.
#include "memorybox/gate_write.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "markdown/line_kinds.hpp"
#include "memkit/digest.hpp"
#include "memkit/memorybox/sync.hpp"
#include "memkit/text.hpp"

namespace memkit::memorybox {
namespace {

constexpr std::string_view kDaily = "memory/daily/";

// The files whose entries sync (§9), and so get an `Id:` line when written.
bool gets_id(std::string_view path) noexcept {
  return is_section_file(path) || path == "memory/LONG_TERM.md" || path == "memory/SESSION_LOG.md";
}

// The candidate's text as lines (compaction.md §2.1: LF or CRLF ends a line).
std::vector<std::string_view> text_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  LineCursor cursor(text, 0, text.size(), 1);
  Line line{};
  while (cursor.next(line)) lines.push_back(line.content);
  while (!lines.empty() && memkit::detail::is_blank(lines.back())) lines.pop_back();
  return lines;
}

Status one_line(std::string_view flag, const std::optional<std::string>& value) {
  if (!value) return Status();
  if (strip_w(*value).empty() || value->find_first_of("\r\n") != std::string::npos) {
    return Status(Errc::invalid_argument,
                  fmt::format("{}: expected one non-empty line, got '{}'", flag, *value));
  }
  return Status();
}

struct FieldLine {
  std::string_view key;
  std::string value;
};

// The field lines of §4 in the §3 order; the Id comes last, once the rest is known.
std::vector<FieldLine> field_lines(const WriteRequest& w) {
  std::vector<FieldLine> fields;
  if (w.log) {  // a session entry carries its time; a line of the day's file, nothing
    if (w.file.rfind(kDaily, 0) != 0) fields.push_back({"Updated", w.now.utc_rfc3339_millis()});
    return fields;
  }
  fields.push_back({"Confidence", format_hundredths(w.candidate.confidence)});
  fields.push_back({"Verified", w.now.local_date_iso()});
  if (w.freshness.stable) {
    fields.push_back({"Stable", "yes"});
  } else {
    fields.push_back({"Decay-Trigger", *w.freshness.decay_trigger});
  }
  if (w.candidate.source) fields.push_back({"Source", *w.candidate.source});
  if (w.candidate.client) fields.push_back({"Client", *w.candidate.client});
  if (is_section_file(w.file) && w.category != file_stem(w.file)) {
    fields.push_back({"Category", w.category});
  }
  if (band_of(w.candidate.confidence) == Band::low) {
    fields.push_back({"Review", "needs verification"});
  }
  fields.push_back({"Updated", w.now.utc_rfc3339_millis()});
  return fields;
}

// The entry's lines (§4): a bullet, or a dated heading with fields, an empty line and the text.
std::vector<std::string> entry_lines(const WriteRequest& w, const std::vector<FieldLine>& fields) {
  const std::vector<std::string_view> text = text_lines(strip_w(w.candidate.text));
  std::vector<std::string> lines;
  const bool section = is_section_file(w.file) || w.file == "memory/SESSION_LOG.md";
  if (section) {
    const std::string_view marks = is_section_file(w.file) ? "##" : "###";
    lines.push_back(
        fmt::format("{} {} \u2014 {}", marks, w.now.local_date_iso(), *w.candidate.title));
    for (const FieldLine& f : fields) lines.push_back(fmt::format("{}: {}", f.key, f.value));
    lines.emplace_back();
    for (std::string_view t : text) lines.emplace_back(memkit::detail::is_blank(t) ? "" : t);
    return lines;
  }
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i == 0) {
      lines.push_back("- " + std::string(text[0]));
    } else {
      lines.push_back(memkit::detail::is_blank(text[i]) ? "" : "  " + std::string(text[i]));
    }
  }
  for (const FieldLine& f : fields) lines.push_back(fmt::format("  {}: {}", f.key, f.value));
  return lines;
}

std::string joined_lf(std::span<const std::string> lines) {
  std::string out;
  for (const std::string& line : lines) {
    if (!out.empty() || &line != lines.data()) out += '\n';
    out += line;
  }
  return out;
}

std::uint64_t tier_one_lines(const Inputs& inputs) {
  std::uint64_t lines = 0;
  for (const std::string& path : inputs.tiers[0].files) {
    const FileSnapshot* f = inputs.snapshot.find(path);
    if (f != nullptr && f->state == EntryState::file) lines += line_count(*f->bytes);
  }
  return lines;
}

}  // namespace

std::optional<std::size_t> category_place(const Document& doc, std::string_view category) {
  const std::span<const Unit> units = doc.units();
  std::optional<std::string> h2;
  for (std::size_t u = 0; u < units.size(); ++u) {
    if (units[u].kind != UnitKind::heading) continue;
    Line line{};
    LineCursor cursor = doc.lines(units[u]);
    cursor.next(line);
    const std::string_view text = heading_text(line.content);
    bool here = false;
    if (units[u].heading_level == 1) {
      h2.reset();
    } else if (units[u].heading_level == 2) {
      h2 = std::string(text);
      here = text == category;
    } else if (units[u].heading_level == 3 && h2) {
      here = *h2 + " / " + std::string(text) == category;
    }
    if (!here) continue;
    // The heading's own content runs to the next H1, H2 or H3 line; the bullet follows its last
    // non-blank unit.
    std::size_t last = u;
    for (std::size_t v = u + 1; v < units.size(); ++v) {
      if (units[v].kind == UnitKind::heading && units[v].heading_level <= 3) break;
      if (units[v].kind != UnitKind::blank) last = v;
    }
    return last;
  }
  return std::nullopt;
}

std::string uuid7(std::int64_t unix_millis, std::string_view seed) {
  const Sha256 h = sha256(seed);
  std::array<std::uint8_t, 10> random{};
  std::copy_n(h.begin(), random.size(), random.begin());
  return uuid_v7(static_cast<std::uint64_t>(unix_millis), random);
}

std::optional<std::string> placement_rejection(const Inputs& inputs, const GateAnswer& placement,
                                               const CivilDate& today) {
  if (placement.tier == 5) {
    return std::string(
        "tier 5 (archives) only receives verbatim moves; nothing new is written there");
  }
  if (is_canon_file(placement.file)) {
    return placement.file + " is canon: no gate writes there; use `memkit memorybox canon add`";
  }
  const TierSpec& tier = inputs.tiers[static_cast<std::size_t>(placement.tier - 1)];
  if (std::find(tier.files.begin(), tier.files.end(), placement.file) != tier.files.end()) {
    return std::nullopt;
  }
  if (placement.tier == 4 && placement.file.rfind(kDaily, 0) == 0 &&
      placement.file.find('/', kDaily.size()) == std::string::npos) {
    const std::optional<CivilDate> date = daily_date(placement.file.substr(kDaily.size()));
    if (date && *date == today) return std::nullopt;
    if (date) {
      return fmt::format("a gate writes only today's daily file, {}{:04}-{:02}-{:02}.md", kDaily,
                         today.year, today.month, today.day);
    }
  }
  return fmt::format("{} is not a file of tier {}", placement.file, placement.tier);
}

Status plan_gate_write(const Inputs& inputs, const WriteRequest& w, GateVerdict& verdict) {
  const bool section = is_section_file(w.file) || w.file == "memory/SESSION_LOG.md";
  const bool daily = w.file.rfind(kDaily, 0) == 0;
  if (section && !w.candidate.title) {
    return Status(Errc::invalid_argument, "--title: required for an entry of " + w.file);
  }
  for (const auto& [flag, value] : {std::pair<std::string_view, const std::optional<std::string>&>{
                                        "--title", w.candidate.title},
                                    {"--source", w.candidate.source},
                                    {"--client", w.candidate.client}}) {
    if (Status s = one_line(flag, value); !s.ok()) return s;
  }
  const FileSnapshot* file = inputs.snapshot.find(w.file);
  const bool exists = file != nullptr && file->state == EntryState::file;
  if (file != nullptr && !exists && file->state != EntryState::missing) {
    return Status(Errc::unsafe_path, w.file + ": not a regular file");
  }

  std::vector<FieldLine> fields = field_lines(w);
  std::vector<std::string> lines = entry_lines(w, fields);
  std::string id;
  if (gets_id(w.file) || (daily && !exists)) {
    const std::string seed =
        fmt::format("memkit-id\n{}\n{}\n{}", w.now.utc_rfc3339_millis(), w.file, joined_lf(lines));
    id = uuid7(w.now.unix_millis(), seed);
  }
  if (gets_id(w.file)) {
    const std::string indent = section ? "" : "  ";
    const auto last_field =
        section ? lines.begin() + 1 + static_cast<std::ptrdiff_t>(fields.size()) : lines.end();
    lines.insert(last_field, indent + "Id: " + id);
  }

  // The file the entry goes into: its bytes, or what init would write (a new daily file starts
  // with its own Id line and an empty line).
  const std::string base = exists  ? *file->bytes
                           : daily ? "Id: " + id + "\n"
                                   : init_file_bytes(w.file);
  const Document doc = parse_markdown(base);
  if (!doc.parseable()) return Status(Errc::parse, describe_issue(*doc.parse_error(), w.file));
  if (const auto& issue = doc.utf8_error()) {
    return Status(Errc::invalid_utf8, describe_issue(*issue, w.file));
  }
  std::vector<std::string> block;
  Splice splice{};
  std::optional<std::size_t> place;
  if (!section && !daily) place = category_place(doc, w.category);
  if (place) {
    splice = insert_after(doc, *place, lines);
  } else if (!section && !daily) {
    block = {"## " + w.category, ""};
    block.insert(block.end(), lines.begin(), lines.end());
    splice = append_block(doc, block, false);
  } else {
    splice = append_block(doc, lines, daily);
  }

  // Read the result back: exactly one new entry, made of exactly these lines and fields.
  const std::string_view t = new_line_terminator(doc);
  std::size_t entry_size = 0;
  for (const std::string& line : lines) entry_size += line.size() + t.size();
  const std::size_t entry_begin = splice.begin + splice.insert.size() - entry_size;
  const std::vector<Splice> splices{splice};
  const std::string after = apply_splices(base, splices);
  const Document after_doc = parse_markdown(after);
  const std::vector<Entry> before_entries = read_entries(w.file, doc);
  const std::vector<Entry> after_entries =
      after_doc.parseable() ? read_entries(w.file, after_doc) : std::vector<Entry>{};
  const auto written = std::find_if(after_entries.begin(), after_entries.end(),
                                    [&](const Entry& e) { return e.begin == entry_begin; });
  const std::size_t expected_fields = fields.size() + (gets_id(w.file) ? 1 : 0);
  if (!daily &&
      (written == after_entries.end() || after_entries.size() != before_entries.size() + 1 ||
       written->end != entry_begin + entry_size || written->fields.size() != expected_fields)) {
    return Status(Errc::invalid_argument,
                  "--text: would not read back as one entry of " + w.file +
                      " (a line of it reads as a field line, a heading or the start of another "
                      "entry)");
  }
  if (!daily) {
    for (const Entry& e : before_entries) {
      if (e.id == written->id) {
        return Status(
            Errc::invalid_argument,
            fmt::format("{} already has the entry {}; give another --title", w.file, e.id));
      }
    }
  }

  verdict.entry_id = daily ? after_entries.front().id : written->id;
  verdict.entry_text = joined_lf(lines);
  verdict.creates_file = !exists;
  verdict.splices = exists ? splices : std::vector<Splice>{Splice{0, 0, after}};

  // Budget and advice (§4).
  GateBudget budget;
  budget.file = w.file;
  const std::uint64_t file_before = exists ? line_count(base) : 0;
  const std::uint64_t file_after = line_count(after);
  const TierSpec& tier = inputs.tiers[static_cast<std::size_t>(w.tier - 1)];
  if (tier.combined_limit) {
    budget.lines_before = tier_one_lines(inputs);
    budget.lines_after = budget.lines_before - file_before + file_after;
    budget.limit = *tier.combined_limit;
  } else {
    budget.lines_before = file_before;
    budget.lines_after = file_after;
    budget.limit = tier.file_limit;
  }
  if (budget.limit) {
    budget.state = Budget::create(*budget.limit, Bound::stay_under, Measure::lines)
                       ->classify(budget.lines_after);
    if (*budget.state != BudgetState::ok) {
      verdict.findings.push_back(
          make_finding("MK-BOX-012", Severity::warning, w.file,
                       fmt::format("{} would be {} ({} of {} lines{})", w.file,
                                   budget_state_name(*budget.state), budget.lines_after,
                                   *budget.limit, tier.combined_limit ? ", tier 1 combined" : ""),
                       "run `memkit memorybox compact`"));
    }
  }
  verdict.budget = std::move(budget);
  if (w.log) return Status();
  const Band band = band_of(w.candidate.confidence);
  if (band == Band::verified && w.file != "memory/LONG_TERM.md") {
    verdict.findings.push_back(make_finding("MK-BOX-010", Severity::warning, w.file,
                                            "verified facts belong in memory/LONG_TERM.md"));
  }
  if (band == Band::medium && w.tier != 2) {
    verdict.findings.push_back(make_finding("MK-BOX-011", Severity::warning, w.file,
                                            "medium confidence: keep in active memory (tier 2)"));
  }
  return Status();
}

}  // namespace memkit::memorybox
