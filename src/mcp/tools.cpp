// The MCP tools of the command table (tools.hpp).
#include "mcp/tools.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <system_error>

namespace memkit::mcp {
namespace {

Status bad(const std::string& what) { return Status(Errc::invalid_argument, what); }

// The JSON Schema of one argument's value.
nlohmann::ordered_json schema_of(const ArgumentSpec& a) {
  nlohmann::ordered_json schema = nlohmann::ordered_json::object();
  switch (a.type) {
    case ArgumentType::boolean:
      schema["type"] = "boolean";
      break;
    case ArgumentType::integer:
      schema["type"] = "integer";
      schema["minimum"] = 0;
      break;
    case ArgumentType::number:
      schema["type"] = "number";
      break;
    case ArgumentType::json:
      break;  // any JSON value
    case ArgumentType::time:
      schema["type"] = "string";
      schema["format"] = "date-time";
      break;
    case ArgumentType::string:
    case ArgumentType::path:
      schema["type"] = "string";
      break;
  }
  if (!a.choices.empty()) {
    nlohmann::ordered_json choices = nlohmann::ordered_json::array();
    for (const std::string_view c : a.choices) choices.push_back(std::string(c));
    schema["enum"] = std::move(choices);
  }
  std::string doc(a.doc);
  if (a.type == ArgumentType::path) doc += " (relative to the root; it must stay inside it)";
  if (!a.default_value.empty()) doc += "; default " + std::string(a.default_value);
  schema["description"] = doc;
  return schema;
}

// The schema of every result: the envelope (spec README.md "Result envelope").
const nlohmann::ordered_json& envelope_schema() {
  static const nlohmann::ordered_json schema = nlohmann::ordered_json::parse(R"({
    "type": "object",
    "properties": {
      "command": {"type": "string"},
      "data": {},
      "exit_class": {"type": "string", "enum": ["fatal", "blocker", "domain-failure",
                                                 "success-with-review", "success"]},
      "findings": {"type": "array", "items": {"type": "object", "properties": {
        "code": {"type": "string"}, "severity": {"type": "string"}, "fatal": {"type": "boolean"},
        "path": {"type": "string"}, "message": {"type": "string"},
        "remediation": {"type": "string"}}}},
      "output_schema_version": {"type": "integer"},
      "status": {"type": "string", "enum": ["PASS", "REVIEW", "FAIL"]}
    },
    "required": ["command", "data", "exit_class", "findings", "output_schema_version", "status"]
  })");
  return schema;
}

// `value` as the text a command-line argument of type `type` takes.
Result<std::string> text_of(const ArgumentSpec& a, const nlohmann::json& value,
                            const std::string& where) {
  switch (a.type) {
    case ArgumentType::integer:
      if (value.is_number_unsigned()) return std::to_string(value.get<std::uint64_t>());
      if (value.is_number_integer() && value.get<std::int64_t>() >= 0) {
        return std::to_string(value.get<std::int64_t>());
      }
      return bad(where + ": not an integer of at least 0");
    case ArgumentType::number:
      if (value.is_number()) return value.dump();
      if (value.is_string()) return value.get<std::string>();  // "0.90", as written
      return bad(where + ": not a number");
    case ArgumentType::json:
      return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
    case ArgumentType::boolean:
      return bad(where + ": a flag");  // handled by the caller
    case ArgumentType::string:
    case ArgumentType::path:
    case ArgumentType::time:
      if (value.is_string()) return value.get<std::string>();
      return bad(where + ": not a string");
  }
  return bad(where + ": of no known type");
}

// A path argument as an absolute path inside `root`, links followed as far as they exist.
Result<std::string> inside_root(const std::string& value, const std::string& root,
                                const std::string& where) {
  namespace fs = std::filesystem;
  if (value.empty()) return bad(where + ": empty path");
  if (value.find('\0') != std::string::npos) return bad(where + ": a NUL byte in the path");
  const fs::path given(value);
  const fs::path absolute = (given.is_absolute() ? given : fs::path(root) / given).lexically_normal();
  std::error_code error;
  const fs::path resolved = fs::weakly_canonical(absolute, error);
  const fs::path base = fs::weakly_canonical(fs::path(root), error);
  const auto within = [](const fs::path& p, const fs::path& folder) {
    const std::string a = p.generic_string();
    const std::string b = folder.generic_string();
    return a == b || (a.size() > b.size() && a.starts_with(b) &&
                      (b.ends_with('/') || a[b.size()] == '/'));
  };
  if (error || !within(absolute, fs::path(root)) || !within(resolved, base)) {
    return bad(where + ": " + value + ": outside the root");
  }
  return absolute.string();
}

}  // namespace

std::string property_of(const ArgumentSpec& argument) {
  std::string name(argument.name);
  if (name.starts_with("--")) name.erase(0, 2);
  for (char& c : name) {
    c = c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return name;
}

const std::vector<Tool>& tools() {
  static const std::vector<Tool> all = [] {
    std::vector<Tool> out;
    for (const CommandSpec& spec : command_table()) {
      const GroupSpec* group = find_group(spec.group);
      if (group == nullptr || group->workspace == "server" || group->workspace == "cli") continue;
      std::string name = spec.name();
      std::replace(name.begin(), name.end(), ' ', '_');
      out.push_back({&spec, std::move(name)});
    }
    return out;
  }();
  return all;
}

const Tool* find_tool(std::string_view name) {
  for (const Tool& tool : tools()) {
    if (tool.name == name) return &tool;
  }
  return nullptr;
}

nlohmann::ordered_json tool_json(const Tool& tool) {
  const CommandSpec& spec = *tool.spec;
  nlohmann::ordered_json properties = nlohmann::ordered_json::object();
  nlohmann::ordered_json required = nlohmann::ordered_json::array();
  for (const ArgumentSpec& a : spec.arguments) {
    if (a.root) continue;  // the server's root
    properties[property_of(a)] = schema_of(a);
    if (a.required) required.push_back(property_of(a));
  }
  for (const ArgumentSpec& a : global_options()) {
    if (a.name == "--now") properties[property_of(a)] = schema_of(a);
  }
  nlohmann::ordered_json input = {{"type", "object"}, {"properties", std::move(properties)}};
  if (!required.empty()) input["required"] = std::move(required);
  input["additionalProperties"] = false;
  std::string description(spec.summary);
  switch (spec.effect) {
    case CommandEffect::reads:
      description += ". Reads only.";
      break;
    case CommandEffect::writes:
      description += ". Writes directly (additive).";
      break;
    case CommandEffect::plans:
      description +=
          ". Returns a plan and writes nothing; `apply` with `confirm_plan` set to its Plan ID "
          "writes it.";
      break;
  }
  if (spec.judged) {
    description += " Its judgements come from your model (sampling) when the client offers it.";
  }
  nlohmann::ordered_json annotations = {
      {"title", "memkit " + spec.name()},
      {"readOnlyHint", spec.effect == CommandEffect::reads},
      {"destructiveHint", spec.effect == CommandEffect::plans},
      {"idempotentHint", spec.effect == CommandEffect::reads},
  };
  return {{"name", tool.name},
          {"title", "memkit " + spec.name()},
          {"description", description},
          {"inputSchema", std::move(input)},
          {"outputSchema", envelope_schema()},
          {"annotations", std::move(annotations)}};
}

Result<CommandRequest> request_of(const Tool& tool, const nlohmann::json& arguments,
                                  const ServerOptions& options) {
  const CommandSpec& spec = *tool.spec;
  if (!arguments.is_object()) return bad("arguments: not an object");
  CommandRequest request = request_for(spec);
  request.format = OutputFormat::text;  // the human view too, for the text content
  request.lock_timeout_seconds = options.lock_timeout_seconds;
  set_root_arguments(spec, options.root, options.memory_dir, request);
  std::map<std::size_t, std::string> positionals;  // by place among the arguments
  for (const auto& item : arguments.items()) {
    const std::string& key = item.key();  // (not a structured binding: a lambda captures it)
    const nlohmann::json& value = item.value();
    const std::string where = "arguments." + key;
    if (key == "now") {
      if (!value.is_string()) return bad(where + ": not a string");
      request.now = value.get<std::string>();
      continue;
    }
    const auto a = std::find_if(spec.arguments.begin(), spec.arguments.end(),
                                [&key](const ArgumentSpec& x) { return property_of(x) == key; });
    if (a == spec.arguments.end() || a->root) {
      return bad(where + ": " + tool.name + " takes no such argument");
    }
    if (a->type == ArgumentType::boolean) {
      if (!value.is_boolean()) return bad(where + ": not true or false");
      if (value.get<bool>()) request.flags.emplace_back(a->name);
      continue;
    }
    Result<std::string> text = text_of(*a, value, where);
    if (!text) return text.status();
    if (a->type == ArgumentType::path) {
      text = inside_root(*text, options.root, where);
      if (!text) return text.status();
    }
    if (a->positional) {
      positionals[static_cast<std::size_t>(a - spec.arguments.begin())] = std::move(text).value();
    } else {
      request.options[std::string(a->name)] = std::move(text).value();
    }
  }
  for (std::size_t i = 0; i < spec.arguments.size(); ++i) {
    const ArgumentSpec& a = spec.arguments[i];
    if (a.required && !a.root && !arguments.contains(property_of(a))) {
      return bad("arguments." + property_of(a) + ": required");
    }
    if (const auto given = positionals.find(i); given != positionals.end()) {
      request.positionals.push_back(given->second);  // in the table's order
    }
  }
  return request;
}

}  // namespace memkit::mcp
