// The change history (curated.md §6 "History record", §2 "JSON Lines"): one canonical JSON line
// per change, read back strictly. A line is a record only if it has every key history_line
// writes, with a value of the right kind, so what is read is always something memkit could have
// written; any other line is skipped with a warning rather than guessed at.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "codec/bounded_json.hpp"
#include "codec/canonical.hpp"
#include "codec/canonical_cursor.hpp"
#include "curated/words.hpp"
#include "memkit/curated.hpp"
#include "memkit/curated/log.hpp"
#include "memkit/findings.hpp"
#include "memkit/text.hpp"

namespace memkit::curated {
namespace {

using nlohmann::json;

constexpr wordlist::Words<HistoryOp, 10> kOps{{
    {HistoryOp::insert, "insert"},
    {HistoryOp::update, "update"},
    {HistoryOp::append, "append"},
    {HistoryOp::edit, "edit"},
    {HistoryOp::reclassify, "reclassify"},
    {HistoryOp::remove, "delete"},
    {HistoryOp::restore, "restore"},
    {HistoryOp::link, "link"},
    {HistoryOp::unlink, "unlink"},
    {HistoryOp::purge, "purge"},
}};

bool is_link_op(HistoryOp op) noexcept { return op == HistoryOp::link || op == HistoryOp::unlink; }

json optional_text(const std::optional<std::string>& text) {
  return text ? detail::utf8(*text) : json(nullptr);
}

json state_json(const std::optional<RowState>& state) {
  if (!state) return nullptr;
  json out = json::object();
  out["type"] = name_of(state->type);
  out["class"] = name_of(state->row_class);
  out["status"] = state->status ? json(name_of(*state->status)) : json(nullptr);
  out["initiative"] = optional_text(state->initiative);
  out["audience"] = name_of(state->audience);
  out["description"] = optional_text(state->description);
  out["body"] = detail::utf8(state->body);
  out["project_ref"] = optional_text(state->project_ref);
  out["deleted"] = state->deleted_at.has_value();
  out["deleted_at"] = optional_text(state->deleted_at);
  return out;
}

// ---- reading ----------------------------------------------------------------------------------

// Why a line is not a record; empty while it still may be.
struct Reader {
  std::string problem;

  const json* member(const json& object, std::string_view key) {
    const auto it = object.find(key);
    if (it == object.end()) {
      if (problem.empty()) problem = "no \"" + std::string(key) + "\"";
      return nullptr;
    }
    return &*it;
  }

  void wrong(std::string_view key, std::string_view expected) {
    if (problem.empty()) problem = "\"" + std::string(key) + "\" is not " + std::string(expected);
  }

  std::string text(const json& object, std::string_view key) {
    const json* value = member(object, key);
    if (value == nullptr) return {};
    if (!value->is_string()) {
      wrong(key, "a string");
      return {};
    }
    return value->get<std::string>();
  }

  std::optional<std::string> optional_text(const json& object, std::string_view key) {
    const json* value = member(object, key);
    if (value == nullptr || value->is_null()) return std::nullopt;
    if (!value->is_string()) {
      wrong(key, "a string or null");
      return std::nullopt;
    }
    return value->get<std::string>();
  }

  // An enum word through `parse`; nullopt for null when `nullable`.
  template <class Parse>
  auto word(const json& object, std::string_view key, Parse parse, bool nullable = false)
      -> decltype(parse(std::string_view{})) {
    const json* value = member(object, key);
    if (value == nullptr) return std::nullopt;
    if (nullable && value->is_null()) return std::nullopt;
    if (value->is_string()) {
      if (auto parsed = parse(value->get_ref<const std::string&>())) return parsed;
    }
    wrong(key, nullable ? "a known word or null" : "a known word");
    return std::nullopt;
  }

  std::optional<RowState> state(const json& object, std::string_view key) {
    const json* value = member(object, key);
    if (value == nullptr || value->is_null()) return std::nullopt;
    if (!value->is_object()) {
      wrong(key, "an object or null");
      return std::nullopt;
    }
    const json& s = *value;
    RowState out;
    out.type = word(s, "type", parse_row_type).value_or(RowType::project);
    out.row_class = word(s, "class", parse_row_class).value_or(RowClass::log);
    out.status = word(s, "status", parse_status, true);
    out.initiative = optional_text(s, "initiative");
    out.audience = word(s, "audience", parse_audience).value_or(Audience::any);
    out.description = optional_text(s, "description");
    out.body = text(s, "body");
    out.project_ref = optional_text(s, "project_ref");
    out.deleted_at = optional_text(s, "deleted_at");
    if (const json* deleted = member(s, "deleted")) {
      if (!deleted->is_boolean()) {
        wrong("deleted", "a boolean");
      } else if (deleted->get<bool>() != out.deleted_at.has_value()) {
        wrong("deleted", "true exactly when \"deleted_at\" is set");
      }
    }
    return out;
  }

  HistoryRecord record(const json& object) {
    HistoryRecord out;
    out.ts = text(object, "ts");
    out.name = text(object, "name");
    out.op = word(object, "op", parse_history_op).value_or(HistoryOp::insert);
    out.actor = optional_text(object, "actor");
    if (!problem.empty()) return out;
    if (is_link_op(out.op)) {
      const json* link = member(object, "link");
      if (link != nullptr && !link->is_object()) wrong("link", "an object");
      if (!problem.empty()) return out;
      out.link_kind = word(*link, "kind", parse_link_kind);
      out.link_dst = text(*link, "dst");
    } else {
      out.before = state(object, "before");
      out.after = state(object, "after");
    }
    return out;
  }
};

// ---- reading a line as history_line() writes it
// --------------------------------------------------

// A cursor over one line in the canonical form history_line() writes: keys in order, no
// whitespace. Each step matches exactly or fails. A line it fails on goes through the JSON parser
// and Reader instead, so what it accepts reads exactly as there, and only faster: history.jsonl
// holds every body ever written, and story and show --history read all of it.
class Canonical final : public detail::CanonicalCursor {
 public:
  explicit Canonical(std::string_view line) noexcept
      : CanonicalCursor(line, detail::JsonEscapes::ascii) {}

  // An enum word through `parse`.
  template <class Enum, class Parse>
  bool word(Parse parse, Enum& out) {
    if (!string(scratch_)) return false;
    const std::optional<Enum> value = parse(scratch_);
    if (!value) return false;
    out = *value;
    return true;
  }

 private:
  std::string scratch_;
};

// {"audience","body","class","deleted","deleted_at","description","initiative","project_ref",
// "status","type"}, with "deleted" true exactly when "deleted_at" is set.
bool canonical_state(Canonical& in, RowState& out) {
  bool deleted = false;
  if (!(in.literal("{\"audience\":") && in.word(parse_audience, out.audience) &&
        in.literal(",\"body\":") && in.string(out.body) && in.literal(",\"class\":") &&
        in.word(parse_row_class, out.row_class) && in.literal(",\"deleted\":") &&
        in.boolean(deleted) && in.literal(",\"deleted_at\":") &&
        in.optional_string(out.deleted_at) && in.literal(",\"description\":") &&
        in.optional_string(out.description) && in.literal(",\"initiative\":") &&
        in.optional_string(out.initiative) && in.literal(",\"project_ref\":") &&
        in.optional_string(out.project_ref) && in.literal(",\"status\":"))) {
    return false;
  }
  if (!in.literal("null")) {
    RowStatus status = RowStatus::open;
    if (!in.word(parse_status, status)) return false;
    out.status = status;
  }
  return in.literal(",\"type\":") && in.word(parse_row_type, out.type) && in.literal("}") &&
         deleted == out.deleted_at.has_value();
}

bool canonical_state_or_null(Canonical& in, std::optional<RowState>& out) {
  if (in.literal("null")) return true;
  out.emplace();
  return canonical_state(in, *out);
}

// A record exactly as history_line() writes it, or nullopt.
std::optional<HistoryRecord> canonical_record(std::string_view line) {
  if (find_invalid_utf8(line)) return std::nullopt;
  Canonical in(line);
  HistoryRecord out;
  if (!in.literal("{\"actor\":") || !in.optional_string(out.actor)) return std::nullopt;
  const bool link = in.literal(",\"link\":{\"dst\":");
  if (link) {
    LinkKind kind = LinkKind::relates_to;
    if (!(in.string(out.link_dst) && in.literal(",\"kind\":") && in.word(parse_link_kind, kind) &&
          in.literal("}"))) {
      return std::nullopt;
    }
    out.link_kind = kind;
  } else if (!(in.literal(",\"after\":") && canonical_state_or_null(in, out.after) &&
               in.literal(",\"before\":") && canonical_state_or_null(in, out.before))) {
    return std::nullopt;
  }
  if (!(in.literal(",\"name\":") && in.string(out.name) && in.literal(",\"op\":") &&
        in.word(parse_history_op, out.op) && in.literal(",\"ts\":") && in.string(out.ts) &&
        in.literal("}") && in.done())) {
    return std::nullopt;
  }
  // Reader takes the link of a link record and the states of any other, whatever else is there.
  if (link != is_link_op(out.op)) return std::nullopt;
  return out;
}

Finding skipped(std::string_view path, std::size_t line, std::string_view problem) {
  return make_finding("MK-PARSE-001", Severity::warning, std::string(path),
                      std::string(path) + ":" + std::to_string(line) + ": not a history record (" +
                          std::string(problem) + "); it is skipped",
                      "correct or remove the line");
}

}  // namespace

std::string_view name_of(HistoryOp op) noexcept { return wordlist::word_of(kOps, op); }

std::optional<HistoryOp> parse_history_op(std::string_view text) noexcept {
  return wordlist::parse_word(kOps, text);
}

RowState state_of(const Row& row) {
  return RowState{.type = row.type,
                  .row_class = row.row_class,
                  .status = row.status,
                  .initiative = row.initiative,
                  .audience = row.audience,
                  .description = row.description,
                  .body = row.body,
                  .project_ref = row.project_ref,
                  .deleted_at = row.deleted};
}

std::string history_line(const HistoryRecord& record) {
  json out = json::object();
  out["ts"] = detail::utf8(record.ts);
  out["name"] = detail::utf8(record.name);
  out["op"] = name_of(record.op);
  if (is_link_op(record.op)) {
    // §6: link records carry the link instead of before and after, which are absent.
    json link = json::object();
    link["kind"] = record.link_kind ? json(name_of(*record.link_kind)) : json(nullptr);
    link["dst"] = detail::utf8(record.link_dst);
    out["link"] = std::move(link);
  } else {
    out["before"] = state_json(record.before);
    out["after"] = state_json(record.after);
  }
  out["actor"] = optional_text(record.actor);
  std::string line = detail::canonical_dump(out);
  line.push_back('\n');
  return line;
}

HistoryLog parse_history(std::string_view bytes, std::string_view path) {
  HistoryLog log;
  std::size_t number = 0;
  while (!bytes.empty()) {
    ++number;
    const std::size_t lf = bytes.find('\n');
    const std::string_view line = bytes.substr(0, lf);
    bytes.remove_prefix(lf == std::string_view::npos ? bytes.size() : lf + 1);
    if (std::optional<HistoryRecord> record = canonical_record(line)) {
      log.records.push_back(std::move(*record));
      continue;
    }
    std::string problem = "not JSON";
    const json value = detail::parse_bounded_json(line, &problem);
    if (value.is_discarded() || !value.is_object()) {
      log.findings.push_back(
          skipped(path, number, value.is_discarded() ? problem : "not a JSON object"));
      continue;
    }
    Reader reader;
    HistoryRecord record = reader.record(value);
    if (!reader.problem.empty()) {
      log.findings.push_back(skipped(path, number, reader.problem));
      continue;
    }
    log.records.push_back(std::move(record));
  }
  return log;
}

}  // namespace memkit::curated
