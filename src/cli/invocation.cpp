#include "cli/invocation.hpp"

#include <algorithm>
#include <charconv>
#include <set>

namespace memkit::cli {
namespace {

bool contains(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

Status bad(std::string message) { return Status(Errc::invalid_argument, std::move(message)); }

}  // namespace

std::vector<std::string> plain_words(const std::vector<std::string>& args,
                                     const std::map<std::string, CommandOptions>& known) {
  std::set<std::string> takes_value = {"--format", "--now", "--lock-timeout"};
  for (const auto& [name, spec] : known) {
    takes_value.insert(spec.with_value.begin(), spec.with_value.end());
  }
  std::vector<std::string> words;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i].rfind("-", 0) != 0) {
      words.push_back(args[i]);
    } else if (takes_value.count(args[i]) != 0) {
      ++i;  // its value is not a word
    }
  }
  return words;
}

Result<Invocation> parse_invocation(const std::vector<std::string>& args,
                                    const std::map<std::string, CommandOptions>& known) {
  Invocation inv;
  // --help wins over everything else on the line (spec README.md): find the group and command
  // from the plain words and ignore the rest, even options that would be errors.
  for (std::size_t i = 0; i < args.size() && args[i] != "--"; ++i) {
    if (args[i] != "--help" && args[i] != "-h") continue;
    inv.help = true;
    const std::vector<std::string> words = plain_words(args, known);
    if (!words.empty()) inv.group = words[0];
    if (words.size() > 1) inv.command = words[1];
    return inv;
  }
  // Every option any command takes, so that a value is consumed before the command is known.
  std::set<std::string> value_options;
  std::set<std::string> flag_options;
  for (const auto& [name, spec] : known) {
    value_options.insert(spec.with_value.begin(), spec.with_value.end());
    flag_options.insert(spec.flags.begin(), spec.flags.end());
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
    } else if (value_options.count(arg) != 0) {
      Result<std::string> value = take_value();
      if (!value) return value.status();
      given.emplace_back(arg, std::move(value).value());
    } else if (flag_options.count(arg) != 0) {
      if (inline_value) return bad(arg + ": takes no value");
      given.emplace_back(arg, std::nullopt);
    } else {
      return bad("unknown option " + arg);
    }
  }
  if (!words.empty()) inv.group = words[0];
  if (words.size() > 1) inv.command = words[1];
  for (std::size_t w = 2; w < words.size(); ++w) inv.positionals.push_back(words[w]);
  const auto spec = known.find(inv.group + " " + inv.command);
  for (auto& [name, value] : given) {
    if (spec == known.end()) {
      if (inv.help) break;  // help for an unknown command is the caller's to report
      return bad("unknown option " + name);
    }
    const bool takes_value = contains(spec->second.with_value, name);
    if (!takes_value && !contains(spec->second.flags, name)) {
      return bad("unknown option " + name + " for " + spec->first);
    }
    if (value) {
      inv.options[name] = std::move(*value);
    } else {
      inv.flags.push_back(name);
    }
  }
  return inv;
}

}  // namespace memkit::cli
