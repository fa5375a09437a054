// Context under a budget (memkit/recall.hpp): the custodian's load route for a task, and the
// compilation of offered pieces into one block.
#include <algorithm>
#include <set>

#include "memkit/layouts.hpp"
#include "memkit/markdown.hpp"
#include "memkit/recall.hpp"
#include "memkit/text.hpp"
#include "memkit/tokens.hpp"

namespace memkit::recall {
namespace {

std::string folded(std::string_view text) {
  std::string out(strip_w(text));
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) {
    return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  });
  return out;
}

// Whether `task` (folded) names the heading: the heading, one of its " / " parts or a word.
bool names(std::string_view heading, const std::string& task) {
  const std::string whole = folded(heading);
  if (whole == task) return true;
  std::string part;
  std::string word;
  for (std::size_t i = 0; i <= whole.size(); ++i) {
    const char c = i < whole.size() ? whole[i] : '/';
    if (c == '/') {
      if (folded(part) == task) return true;
      part.clear();
    } else {
      part += c;
    }
    if (c == '/' || c == ' ') {
      if (word == task) return true;
      word.clear();
    } else {
      word += c;
    }
  }
  return false;
}

// inbox.md and archive/ are read only when a task's route asks for them.
bool asked_only(std::string_view path) {
  return path == "inbox.md" || path.starts_with("archive/");
}

std::string attribute(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '"') {
      out += "&quot;";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

Result<std::vector<RouteFile>> custodian_route(std::string_view manifest, std::string_view task) {
  const custodian::Manifest read = custodian::read_manifest(parse_markdown(std::string(manifest)));
  std::vector<RouteFile> route{{"manifest.md", true}};
  std::set<std::string, std::less<>> seen{"manifest.md"};
  const auto take = [&](const custodian::Route& r) {
    if (seen.insert(r.path).second) route.push_back(RouteFile{r.path, r.required});
  };
  for (const custodian::Route& r : read.routes) {
    if (r.task.empty() && !asked_only(r.path)) take(r);
  }
  if (task.empty()) return route;
  const std::string wanted = folded(task);
  std::vector<std::string> tasks;
  bool found = false;
  for (const custodian::Route& r : read.routes) {
    if (r.task.empty()) continue;
    if (std::find(tasks.begin(), tasks.end(), r.task) == tasks.end()) tasks.push_back(r.task);
    if (names(r.task, wanted)) {
      found = true;
      take(r);
    }
  }
  // A task whose subsection names no file is still a task: nothing more to load.
  for (const auto& [heading, count] : read.task_subsections) {
    if (count > 0 && names(heading, wanted)) found = true;
  }
  if (!found) {
    std::string listed;
    for (const std::string& t : tasks) listed += (listed.empty() ? "" : "; ") + t;
    return Status(Errc::invalid_argument, "--task: '" + std::string(task) +
                                              "' names no task of manifest.md (tasks: " +
                                              (listed.empty() ? "none" : listed) + ")");
  }
  return route;
}

Context compile_context(const std::vector<ContextPiece>& pieces, std::uint64_t budget) {
  Context context;
  context.budget = budget;
  std::set<std::string, std::less<>> in;  // the sources included
  for (const ContextPiece& piece : pieces) {
    ContextItem item{piece.source, piece.kind, 0, std::string()};
    const std::size_t colon = piece.source.rfind(':');
    const std::string_view file = piece.kind == "hit" && colon != std::string::npos
                                      ? std::string_view(piece.source).substr(0, colon)
                                      : std::string_view();
    std::string block;
    if (!piece.missing.empty()) {
      item.dropped = piece.missing;
    } else if (in.contains(piece.source)) {
      item.dropped = "already in";
    } else if (!file.empty() && in.contains(file)) {
      item.dropped = "already in: its file " + std::string(file);
    } else {
      block = "<memory source=\"" + attribute(piece.source) + "\" kind=\"" +
              attribute(piece.kind) + "\">\n" + piece.text +
              (piece.text.empty() || piece.text.ends_with('\n') ? "" : "\n") + "</memory>\n";
      item.tokens = estimate_tokens(block);
      if (context.tokens + item.tokens > budget) {
        item.dropped = "over budget: needs " + std::to_string(item.tokens) + " tokens, " +
                       std::to_string(budget - context.tokens) + " left";
      }
    }
    if (item.dropped.empty()) {
      context.block += block;
      context.tokens += item.tokens;
      in.insert(piece.source);
    }
    context.items.push_back(std::move(item));
  }
  return context;
}

}  // namespace memkit::recall
