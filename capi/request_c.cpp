// Section - Requests of memkit.h: any command of the command table (src/commands/table.hpp) by
// name, its arguments set by name and checked against the table as they are set.
#include <algorithm>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "capi/command_run.hpp"
#include "commands/table.hpp"
#include "json/json.hpp"
#include "memkit/memorybox/gate.hpp"
#include "memkit/text.hpp"
#include "store/system_clock.hpp"
#if MEMKIT_WITH_POSTGRES
#include "sync/postgres/postgres.hpp"
#endif

struct mk_request {
  const memkit::CommandSpec* spec = nullptr;
  std::map<std::string, std::string> values;  // "--type" -> "decision"; positionals by name
  std::vector<std::string> flags;             // "--apply"
  mk_judge_fn judge = nullptr;                // `memorybox gate` only
  void* judge_payload = nullptr;
};

namespace {

using memkit::ArgumentSpec;
using memkit::ArgumentType;
using memkit::Errc;
using memkit::Status;

// The argument `name` ("type", "--type", "confirm_plan", "message") names, or why none.
memkit::Result<const ArgumentSpec*> argument_of(const mk_request* req, const char* name) {
  if (req == nullptr) return Status(Errc::invalid_argument, "req: NULL");
  if (name == nullptr) return Status(Errc::invalid_argument, "name: NULL");
  std::string wanted(name);
  std::replace(wanted.begin(), wanted.end(), '_', '-');
  const bool dashed = wanted.starts_with("--");
  if (dashed) wanted.erase(0, 2);
  const memkit::CommandSpec& spec = *req->spec;
  std::vector<std::string> names;
  for (const ArgumentSpec& a : spec.arguments) {
    std::string plain(a.name);
    if (a.positional) {
      std::transform(plain.begin(), plain.end(), plain.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    } else {
      plain.erase(0, 2);
    }
    if (a.root) {  // given by the workspace, never by a request
      if (plain == wanted) {
        return Status(Errc::invalid_argument,
                      std::string(name) + ": given by the workspace, not the request");
      }
      continue;
    }
    // Positionals keep the table's underscores ("plan_id"); both spellings name them.
    std::string spelled = plain;
    std::replace(spelled.begin(), spelled.end(), '_', '-');
    if (spelled == wanted && !(a.positional && dashed)) return &a;
    names.push_back(plain);
  }
  std::string message = std::string(name) + ": not an argument of " + spec.name();
  if (const std::optional<std::string> close = memkit::closest(wanted, names)) {
    message += " (did you mean '" + *close + "'?)";
  }
  return Status(Errc::invalid_argument, std::move(message));
}

Status wrong_type(const ArgumentSpec& a, const char* setter) {
  const std::string_view type = memkit::argument_type_name(a.type);
  const char* article = std::string_view("aeiou").find(type.front()) == std::string_view::npos
                            ? "a "
                            : "an ";
  return Status(Errc::invalid_argument, std::string(a.name) + ": takes " + article +
                                            std::string(type) + ", not " + setter);
}

mk_status append_answer(const char* data, size_t size, void* payload) {
  if (data == nullptr && size != 0) return MK_E_ARG;
  static_cast<std::string*>(payload)->append(data == nullptr ? "" : data, size);
  return MK_OK;
}

// The C callback as a Judge: its question as JSON, its answer parsed by parse_gate_answer (so a C
// host, its bindings and the CLI's flags reach the same answers), a failure as a Status.
memkit::memorybox::Judge judge_of(mk_judge_fn judge, void* payload) {
  using memkit::memorybox::GateAnswer;
  using memkit::memorybox::GateQuestion;
  if (judge == nullptr) return {};
  return [judge, payload](const GateQuestion& q) -> memkit::Result<std::optional<GateAnswer>> {
    const std::string question = memkit::memorybox_gate_question_json(q);
    std::string answer;
    const std::int32_t said = judge(static_cast<mk_gate>(q.gate), question.data(), question.size(),
                                    append_answer, &answer, payload);
    if (said == MK_JUDGE_ABSTAIN) return std::optional<GateAnswer>();
    if (said != MK_JUDGE_ANSWER) {
      return Status(Errc::callback, "the judge callback returned " + std::to_string(said));
    }
    memkit::Result<GateAnswer> parsed = memkit::memorybox::parse_gate_answer(q.gate, answer);
    if (!parsed) return Status(Errc::callback, parsed.status().message());
    return std::optional<GateAnswer>(std::move(parsed).value());
  };
}

}  // namespace

extern "C" {

mk_status mk_request_create(mk_request** out, const char* group, const char* verb) {
  return memkit::capi::guard([&]() -> Status {
    if (out == nullptr) return memkit::capi::null_argument("out");
    if (group == nullptr) return memkit::capi::null_argument("group");
    if (verb == nullptr) return memkit::capi::null_argument("verb");
    std::vector<std::string> words;
    for (std::string_view rest(verb); !rest.empty();) {
      const std::size_t space = rest.find(' ');
      if (space != 0) words.emplace_back(rest.substr(0, space));
      rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
    }
    std::size_t verb_words = 0;
    const memkit::Result<const memkit::CommandSpec*> spec =
        memkit::resolve_command(group, words, &verb_words);
    if (!spec) return spec.status();
    if (*spec == nullptr || verb_words != words.size()) {
      return Status(Errc::invalid_argument,
                    std::string("verb: '") + verb + "' is not a command of " + group);
    }
    auto req = std::make_unique<mk_request>();
    req->spec = *spec;
    *out = req.release();
    return Status();
  });
}

void mk_request_destroy(mk_request* req) { delete req; }

mk_status mk_request_set_string(mk_request* req, const char* name, const char* value) {
  return memkit::capi::guard([&]() -> Status {
    const memkit::Result<const ArgumentSpec*> a = argument_of(req, name);
    if (!a) return a.status();
    if (value == nullptr) return memkit::capi::null_argument("value");
    if ((*a)->type == ArgumentType::boolean) return wrong_type(**a, "text");
    req->values[std::string((*a)->name)] = value;
    return Status();
  });
}

mk_status mk_request_set_int(mk_request* req, const char* name, int64_t value) {
  return memkit::capi::guard([&]() -> Status {
    const memkit::Result<const ArgumentSpec*> a = argument_of(req, name);
    if (!a) return a.status();
    if ((*a)->type != ArgumentType::integer && (*a)->type != ArgumentType::number) {
      return wrong_type(**a, "an integer");
    }
    req->values[std::string((*a)->name)] = std::to_string(value);
    return Status();
  });
}

mk_status mk_request_set_bool(mk_request* req, const char* name, int32_t value) {
  return memkit::capi::guard([&]() -> Status {
    const memkit::Result<const ArgumentSpec*> a = argument_of(req, name);
    if (!a) return a.status();
    if ((*a)->type != ArgumentType::boolean) return wrong_type(**a, "a boolean");
    const std::string flag((*a)->name);
    std::erase(req->flags, flag);
    if (value != 0) req->flags.push_back(flag);
    return Status();
  });
}

mk_status mk_request_set_list(mk_request* req, const char* name, const char* const* items,
                              size_t count) {
  return memkit::capi::guard([&]() -> Status {
    const memkit::Result<const ArgumentSpec*> a = argument_of(req, name);
    if (!a) return a.status();
    if ((*a)->type != ArgumentType::json) return wrong_type(**a, "a list");
    if (items == nullptr && count != 0) return memkit::capi::null_argument("items");
    nlohmann::json list = nlohmann::json::array();
    for (size_t i = 0; i < count; ++i) {
      if (items[i] == nullptr) {
        return memkit::capi::null_argument(("items[" + std::to_string(i) + "]").c_str());
      }
      if (memkit::find_invalid_utf8(items[i])) {
        return Status(Errc::invalid_utf8, "items[" + std::to_string(i) + "]: not UTF-8");
      }
      list.push_back(items[i]);
    }
    req->values[std::string((*a)->name)] = list.dump();
    return Status();
  });
}

mk_status mk_request_set_judge(mk_request* req, mk_judge_fn judge, void* payload) {
  return memkit::capi::guard([&]() -> Status {
    if (req == nullptr) return memkit::capi::null_argument("req");
    if (!req->spec->judged) {
      return Status(Errc::invalid_argument,
                    "judge: " + req->spec->name() + " asks no judge (the table's judged commands do)");
    }
    req->judge = judge;
    req->judge_payload = payload;
    return Status();
  });
}

mk_status mk_workspace_run(mk_result** out, mk_workspace* ws, const mk_clock* now,
                           const mk_request* req) {
  if (req == nullptr) {
    return memkit::capi::guard(
        []() -> Status { return memkit::capi::null_argument("req"); });
  }
  const memkit::CommandSpec& spec = *req->spec;
  // The layout the group's commands run on, from the table: one layout, any, or none.
  const std::string_view wanted = memkit::find_group(spec.group)->workspace;
  constexpr const char* kLayouts[] = {"custodian", "memorybox", "tiers", "curated"};
  if (ws != nullptr && (ws->layout < 0 || ws->layout > MK_LAYOUT_CURATED ||
                        (wanted != "any" && wanted != kLayouts[ws->layout]))) {
    return memkit::capi::guard([&]() -> Status {
      const std::string opened = ws->layout >= 0 && ws->layout <= MK_LAYOUT_CURATED
                                     ? kLayouts[ws->layout]
                                     : std::to_string(ws->layout);
      return Status(Errc::invalid_argument,
                    "ws: opened with another layout (" + opened + ") than " + spec.name() +
                        " runs on" +
                        (wanted == "none" ? std::string(" (none: it reads one file)")
                                          : " (" + std::string(wanted) + ")"));
    });
  }
  memkit::CommandRequest request = memkit::request_for(spec);
  for (const ArgumentSpec& a : spec.arguments) {
    const auto given = req->values.find(std::string(a.name));
    if (given == req->values.end()) continue;
    if (a.positional) {
      request.positionals.push_back(given->second);
    } else {
      request.options[given->first] = given->second;
    }
  }
  request.flags = req->flags;
  request.judge = judge_of(req->judge, req->judge_payload);
  // A sync gets random bytes for a new workspace id, and the PostgreSQL adapter (its connection
  // string from the conninfo-file argument, else libpq's defaults).
  memkit::CommandEnvironment host;
  if (spec.group == "memorybox" && spec.verb.starts_with("sync ")) {
    host.random_bytes = memkit::read_system_random;
#if MEMKIT_WITH_POSTGRES
    host.open_postgres = memkit::sync::open_postgres_remote;
#endif
  }
  return memkit::capi::run(out, ws, now, spec, std::move(request), host);
}

}  // extern "C"
