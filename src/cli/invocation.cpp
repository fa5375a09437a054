#include "cli/invocation.hpp"

#include <algorithm>
#include <charconv>
#include <set>

#include "commands/table.hpp"

namespace memkit::cli {
namespace {

Status bad(std::string message) { return Status(Errc::invalid_argument, std::move(message)); }

std::string with_suggestion(std::string message, const std::optional<std::string>& suggestion) {
  if (suggestion) message += " (did you mean '" + *suggestion + "'?)";
  return message;
}

// Every option of every command and the global ones, with a value or without.
struct KnownOptions {
  std::set<std::string, std::less<>> with_value;
  std::set<std::string, std::less<>> flags;
};
const KnownOptions& known_options() {
  static const KnownOptions known = [] {
    KnownOptions out;
    const auto add = [&out](const ArgumentSpec& a) {
      if (a.positional) return;
      (a.type == ArgumentType::boolean ? out.flags : out.with_value).emplace(a.name);
    };
    for (const ArgumentSpec& a : global_options()) add(a);
    for (const CommandSpec& c : command_table()) {
      for (const ArgumentSpec& a : c.arguments) add(a);
    }
    return out;
  }();
  return known;
}

}  // namespace

std::vector<std::string> plain_words(const std::vector<std::string>& args) {
  std::vector<std::string> words;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i].rfind("-", 0) != 0) {
      words.push_back(args[i]);
    } else if (known_options().with_value.contains(args[i])) {
      ++i;  // its value is not a word
    }
  }
  return words;
}

Result<const CommandSpec*> resolve_command(const std::vector<std::string>& words,
                                           std::size_t* verb_words) {
  *verb_words = 0;
  if (words.empty()) return static_cast<const CommandSpec*>(nullptr);
  return memkit::resolve_command(words[0], std::vector<std::string>(words.begin() + 1, words.end()),
                                 verb_words);
}

Result<Invocation> parse_invocation(const std::vector<std::string>& args) {
  Invocation inv;
  // --help wins over everything else on the line (spec README.md): find the group and command
  // from the plain words and ignore the rest, even options that would be errors.
  for (std::size_t i = 0; i < args.size() && args[i] != "--"; ++i) {
    if (args[i] != "--help" && args[i] != "-h") continue;
    inv.help = true;
    const std::vector<std::string> words = plain_words(args);
    if (!words.empty()) inv.group = words[0];
    for (std::size_t w = 1; w < words.size(); ++w) inv.positionals.push_back(words[w]);
    return inv;
  }
  std::vector<std::pair<std::string, std::optional<std::string>>> given;
  std::vector<std::string> words;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    if (arg == "--") {
      for (++i; i < args.size(); ++i) words.push_back(args[i]);
      break;
    }
    if (arg == "--version") {
      inv.version = true;
      continue;
    }
    if (arg == "--quiet") {
      inv.quiet = true;
      continue;
    }
    if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) {
      words.push_back(std::move(arg));
      continue;
    }
    std::optional<std::string> inline_value;
    if (const std::size_t eq = arg.find('='); eq != std::string::npos) {
      inline_value = arg.substr(eq + 1);
      arg.resize(eq);
    }
    auto take_value = [&]() -> Result<std::string> {
      if (inline_value) return *inline_value;
      if (i + 1 >= args.size()) return bad(arg + ": missing value");
      return args[++i];
    };
    if (arg == "--format") {
      Result<std::string> value = take_value();
      if (!value) return value.status();
      if (*value == "text") {
        inv.format = Format::text;
      } else if (*value == "json") {
        inv.format = Format::json;
      } else {
        return bad("--format: expected text or json, got '" + *value + "'");
      }
    } else if (arg == "--now") {
      Result<std::string> value = take_value();
      if (!value) return value.status();
      inv.now = *value;
    } else if (arg == "--lock-timeout") {
      Result<std::string> value = take_value();
      if (!value) return value.status();
      double seconds = -1;
      const auto [end, error] =
          std::from_chars(value->data(), value->data() + value->size(), seconds);
      // Bounded so that the millisecond deadline cannot overflow; a day is already absurd.
      if (error != std::errc() || end != value->data() + value->size() || !(seconds >= 0) ||
          !(seconds <= 86400)) {
        return bad("--lock-timeout: expected 0 to 86400 seconds, got '" + *value + "'");
      }
      inv.lock_timeout_seconds = seconds;
    } else if (known_options().with_value.contains(arg)) {
      Result<std::string> value = take_value();
      if (!value) return value.status();
      given.emplace_back(arg, std::move(value).value());
    } else if (known_options().flags.contains(arg)) {
      if (inline_value) return bad(arg + ": takes no value");
      given.emplace_back(arg, std::nullopt);
    } else {
      std::vector<std::string> all(known_options().with_value.begin(),
                                   known_options().with_value.end());
      all.insert(all.end(), known_options().flags.begin(), known_options().flags.end());
      return bad(with_suggestion("unknown option " + arg, closest(arg, all)));
    }
  }
  if (!words.empty()) inv.group = words[0];
  if (words.size() > 1) inv.command = words[1];
  for (std::size_t w = 2; w < words.size(); ++w) inv.positionals.push_back(words[w]);
  if (inv.group == "help" || inv.group == "commands" || inv.group == "completion" ||
      inv.group == "man" || inv.version) {
    return inv;
  }
  std::size_t verb_words = 0;
  Result<const CommandSpec*> command = resolve_command(words, &verb_words);
  if (!command) return command.status();
  if (*command != nullptr && (*command)->verb.empty() && !inv.command.empty()) {
    inv.positionals.insert(inv.positionals.begin(), std::move(inv.command));  // `memkit search Q`
    inv.command.clear();
  }
  for (auto& [name, value] : given) {
    if (value) {
      inv.options[name] = std::move(*value);
    } else {
      inv.flags.push_back(name);
    }
  }
  // What the command takes is execute()'s check (check_arguments), the same for every door.
  return inv;
}

}  // namespace memkit::cli
