// `memorybox client set` (spec memorybox.md §10 "Client lifecycle", §11): a client's state from
// where its profile lies and what its Lifecycle line says, the §10 transitions, the Lifecycle
// field update, and the archive moves as one plan.
#include <algorithm>

#include "memkit/memorybox/clients.hpp"
#include "memorybox/field_line.hpp"

namespace memkit::memorybox {
namespace {

constexpr std::string_view kLifecycleKey = "Lifecycle";

// The snapshot entry at `path` when something is there (a file, a link, a folder), else nullptr.
const FileSnapshot* present(const Snapshot& files, std::string_view path) {
  const FileSnapshot* file = files.find(path);
  return file != nullptr && file->state != EntryState::missing ? file : nullptr;
}

// Why a file that a plan would read whole cannot move: a link, not a regular file, unreadable.
std::optional<Finding> unmovable(const FileSnapshot& file) {
  switch (file.state) {
    case EntryState::file:
    case EntryState::missing:
      return std::nullopt;
    case EntryState::symlink:
      return make_fatal("MK-LAYOUT-001", file.path,
                        file.path + ": is a symbolic link; memkit does not move links");
    case EntryState::not_a_file:
      return make_fatal("MK-IO-001", file.path, file.path + ": not a regular file");
    case EntryState::unreadable:
      return make_fatal("MK-IO-001", file.path, file.path + ": " + file.error);
  }
  return std::nullopt;
}

// The profile is read for its state before anything else, so a profile that cannot be read
// fails the command rather than becoming a finding beside a state nobody knows.
Status readable_profile(const FileSnapshot& profile) {
  switch (profile.state) {
    case EntryState::file:
    case EntryState::missing:
      return Status();
    case EntryState::symlink:
      return Status(Errc::unsafe_path,
                    profile.path + ": is a symbolic link; memkit does not write through links");
    case EntryState::not_a_file:
      return Status(Errc::io, profile.path + ": not a regular file");
    case EntryState::unreadable:
      return Status(Errc::io, profile.path + ": " + profile.error);
  }
  return Status();
}

// MK-PARSE-001 or MK-UTF8-001 (BLOCKER) when the profile's Lifecycle line may not be edited
// (compaction.md §2.1, §2.3: a mutating command refuses such a file).
std::optional<Finding> uneditable(const Document& doc, const std::string& path) {
  const Status editable = check_editable(doc, path);
  if (editable.ok()) return std::nullopt;
  return make_finding(editable.code() == Errc::parse ? "MK-PARSE-001" : "MK-UTF8-001",
                      Severity::blocker, path, editable.message());
}

PlanOperation create_operation(std::string path, std::string bytes) {
  return plan_write(std::move(path), nullptr, false, only_splice(Splice{0, 0, std::move(bytes)}));
}

// The budget of a path in the profile's tiers (§2, §10): a client in maintenance is in tier 2,
// with its 300-line limit, so deleting it there has a budget result.
std::optional<BudgetResult> deletion_budget(Profile profile, const FileSnapshot& file,
                                            Lifecycle lifecycle) {
  for (const TierSpec& tier : profile_tiers(profile, {{file.path, lifecycle}})) {
    if (!tier.file_limit ||
        std::find(tier.files.begin(), tier.files.end(), file.path) == tier.files.end()) {
      continue;
    }
    const Budget budget = *Budget::create(*tier.file_limit, Bound::stay_under, Measure::lines);
    return BudgetResult{file.path, line_count(file.text()), 0, *tier.file_limit,
                        budget.classify(0)};
  }
  return std::nullopt;
}

// One direction of the §10 move: the profile from `from_profile` to `to_profile` with its
// Lifecycle line made the new state, and every other file under `from_folder` to the same
// relative path under `to_folder`.
struct Move {
  std::string from_profile;
  std::string to_profile;
  std::string from_folder;  // with a trailing '/'
  std::string to_folder;    // with a trailing '/'
};

// Refuses a target that exists, or a file or link where one of its folders below `folder` (a
// folder the shell has checked) must be.
Status free_target(const Snapshot& files, const std::string& target, const std::string& folder) {
  if (const FileSnapshot* there = present(files, target)) {
    return Status(
        Errc::invalid_argument,
        there->path + ": exists already; a client move never overwrites (move it away first)");
  }
  for (std::size_t slash = target.find('/', folder.size()); slash != std::string::npos;
       slash = target.find('/', slash + 1)) {
    if (const FileSnapshot* there = present(files, target.substr(0, slash))) {
      return Status(Errc::invalid_argument, there->path + ": is in the way of " + target);
    }
  }
  return Status();
}

// The plan of a move, or nullopt when a file cannot move (its finding is added to set.findings).
// Fails with Errc::invalid_argument when a target exists or a file would land on the profile.
Result<std::optional<Plan>> plan_move(Profile profile, const Snapshot& files, const Move& move,
                                      const FileSnapshot& profile_file, const Document& doc,
                                      ClientSet& set) {
  std::vector<PlanOperation> operations;
  std::vector<BudgetResult> budgets;
  const std::string profile_folder = move.to_profile.substr(0, move.to_profile.rfind('/') + 1);
  if (Status free = free_target(files, move.to_profile, profile_folder); !free.ok()) return free;
  operations.push_back(create_operation(
      move.to_profile, apply_splices(profile_file.text(), lifecycle_splices(doc, set.to))));
  operations.push_back(plan_remove(profile_file));
  if (std::optional<BudgetResult> b = deletion_budget(profile, profile_file, set.from)) {
    budgets.push_back(std::move(*b));
  }
  for (const FileSnapshot& file : files.files()) {
    if (file.state == EntryState::missing || file.path == move.from_profile ||
        file.path.rfind(move.from_folder, 0) != 0) {
      continue;
    }
    if (std::optional<Finding> refused = unmovable(file)) {
      set.findings.push_back(std::move(*refused));
      continue;
    }
    const std::string target = move.to_folder + file.path.substr(move.from_folder.size());
    if (target == move.to_profile) {
      return Status(Errc::invalid_argument, file.path + ": would land on the moved profile " +
                                                move.to_profile + "; rename it first");
    }
    if (Status free = free_target(files, target, move.to_folder); !free.ok()) return free;
    operations.push_back(create_operation(target, std::string(file.text())));
    operations.push_back(plan_remove(file));
  }
  if (!set.findings.empty()) return std::optional<Plan>();
  PlanArguments arguments{{"client", set.client}, {"to", std::string(lifecycle_name(set.to))}};
  return std::optional<Plan>(Plan::create("memorybox client set", std::move(arguments),
                                          std::move(operations), std::move(budgets)));
}

}  // namespace

bool is_client_key(std::string_view client) noexcept {
  if (client.empty() || client.front() == '.') return false;
  return std::all_of(client.begin(), client.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-';
  });
}

std::string client_profile_path(std::string_view client) {
  return "brain/clients/" + std::string(client) + ".md";
}

std::string client_memory_folder(std::string_view client) {
  return "memory/clients/" + std::string(client);
}

std::string client_archive_folder(std::string_view client) {
  return std::string(kArchiveFolder) + "/clients/" + std::string(client);
}

std::string archived_profile_path(std::string_view client) {
  return client_archive_folder(client) + "/" + std::string(client) + ".md";
}

bool lifecycle_transition_allowed(Lifecycle from, Lifecycle to) noexcept {
  switch (from) {
    case Lifecycle::active:
      return to == Lifecycle::maintenance;
    case Lifecycle::maintenance:
      return to == Lifecycle::archived || to == Lifecycle::active;
    case Lifecycle::archived:
      return to == Lifecycle::active;
  }
  return false;
}

std::vector<Splice> lifecycle_splices(const Document& profile, Lifecycle to) {
  const std::string line = detail::field_line(kLifecycleKey, lifecycle_name(to));
  const std::string_view bytes = profile.bytes();
  LineCursor cursor = profile.lines();
  Line current{};
  std::optional<std::size_t> after_first;
  // The first line starting "Lifecycle:", as client_lifecycle finds it.
  while (cursor.next(current)) {
    if (!after_first) {
      after_first = current.begin + current.content.size() + current.terminator.size();
    }
    if (current.content.rfind("Lifecycle:", 0) != 0) continue;
    if (current.content == line) return {};
    return {
        detail::replace_line_content(current.begin, current.begin + current.content.size(), line)};
  }
  bool end_terminated = false;
  return {detail::insert_line(bytes, profile.content_begin(),
                              after_first.value_or(profile.content_begin()), line,
                              new_line_terminator(profile), end_terminated)};
}

Status check_client_request(Profile profile, std::string_view client) {
  if (profile != Profile::maven) {
    return Status(Errc::invalid_argument,
                  "memorybox client set: the root's profile is " +
                      std::string(profile_name(profile)) +
                      "; client lifecycles are Maven's (memkit memorybox init --profile maven)");
  }
  if (!is_client_key(client)) {
    return Status(Errc::invalid_argument,
                  "--client: expected a key of A-Z, a-z, 0-9, '.', '_' and '-' that does not "
                  "start with '.', got '" +
                      std::string(client) + "'");
  }
  return Status();
}

Result<ClientSet> plan_client_set(Profile profile, const Snapshot& files, std::string_view client,
                                  Lifecycle to) {
  if (Status checked = check_client_request(profile, client); !checked.ok()) return checked;
  ClientSet set;
  set.client = std::string(client);
  set.to = to;
  const std::string brain = client_profile_path(client);
  const std::string archived = archived_profile_path(client);
  const FileSnapshot* in_brain = present(files, brain);
  const FileSnapshot* in_archive = present(files, archived);
  if (in_brain != nullptr && in_archive != nullptr) {
    return Status(Errc::invalid_argument, "--client: " + set.client + ": both " + brain + " and " +
                                              archived + " exist; keep one of them");
  }
  if (in_brain == nullptr && in_archive == nullptr) {
    return Status(Errc::invalid_argument, "--client: " + set.client + ": no such client (" + brain +
                                              " or " + archived + ")");
  }
  const FileSnapshot& profile_file = in_brain != nullptr ? *in_brain : *in_archive;
  if (Status readable = readable_profile(profile_file); !readable.ok()) return readable;
  set.profile = profile_file.path;
  // A Lifecycle value that is none of the three reads as active, as the tiers read it; writing
  // any state (active included) replaces it.
  bool unreadable_value = false;
  if (in_archive != nullptr) {
    set.from = Lifecycle::archived;  // where the profile lies decides, whatever its line says
  } else {
    const std::optional<Lifecycle> declared = client_lifecycle(profile_file.text());
    if (declared == Lifecycle::archived) {
      return Status(Errc::invalid_argument,
                    brain +
                        ": its Lifecycle line says archived, but an archived client's profile "
                        "is " +
                        archived +
                        "; set the line to maintenance, then archive it with client set");
    }
    unreadable_value = !declared;
    set.from = declared.value_or(Lifecycle::active);
  }
  if (set.from != to && !lifecycle_transition_allowed(set.from, to)) {
    const std::string way = set.from == Lifecycle::active ? "set it to maintenance first"
                                                          : "reactivate it first (--to active)";
    set.findings.push_back(make_finding("MK-BOX-031", Severity::error, set.profile,
                                        "lifecycle transition not allowed: " + set.client + " " +
                                            std::string(lifecycle_name(set.from)) + " -> " +
                                            std::string(lifecycle_name(to)),
                                        way));
    return set;
  }
  if (set.from == to && !unreadable_value) return set;
  const Document doc = parse_markdown(profile_file.bytes);
  if (std::optional<Finding> refused = uneditable(doc, set.profile)) {
    set.findings.push_back(std::move(*refused));
    return set;
  }
  if (set.from != Lifecycle::archived && to != Lifecycle::archived) {
    set.splices = lifecycle_splices(doc, to);
    return set;
  }
  const std::string memory = client_memory_folder(client) + "/";
  const std::string archive = client_archive_folder(client) + "/";
  const Move move = to == Lifecycle::archived ? Move{brain, archived, memory, archive}
                                              : Move{archived, brain, archive, memory};
  Result<std::optional<Plan>> plan = plan_move(profile, files, move, profile_file, doc, set);
  if (!plan) return plan.status();
  set.plan = std::move(*plan);
  sort_findings(set.findings);
  return set;
}

}  // namespace memkit::memorybox
