// The client lifecycle of a Maven root (spec memorybox.md §10 "Client lifecycle", §11
// `memorybox client set`): active → maintenance → archived and back. Pure: the shell reads the
// client's files (AgentRoot::read_client_files) and writes what the planner decided.
//
// active ↔ maintenance is a field update of the profile's column-0 `Lifecycle:` line, applied
// directly. maintenance → archived and archived → active are plans: the profile and every file of
// memory/clients/<client>/ move verbatim to memory/ARCHIVES/clients/<client>/ (or back), the
// profile's Lifecycle line the only change. Nothing is erased: each moved file is created at its
// target and deleted at its source in one journalled apply.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/edit.hpp"
#include "memkit/findings.hpp"
#include "memkit/memorybox.hpp"
#include "memkit/plan.hpp"
#include "memkit/result.hpp"
#include "memkit/snapshot.hpp"

namespace memkit::memorybox {

// Returns true iff `client` can name a client's files: one or more of [A-Za-z0-9._-], not
// starting with '.' (so never "", ".", ".." or a hidden name).
[[nodiscard]] bool is_client_key(std::string_view client) noexcept;

// Where a client's files live (§10), for a key that is_client_key accepts: brain/clients/C.md,
// memory/clients/C, memory/ARCHIVES/clients/C and the archived profile
// memory/ARCHIVES/clients/C/C.md.
[[nodiscard]] std::string client_profile_path(std::string_view client);
[[nodiscard]] std::string client_memory_folder(std::string_view client);
[[nodiscard]] std::string client_archive_folder(std::string_view client);
[[nodiscard]] std::string archived_profile_path(std::string_view client);

// Returns true iff §10 allows moving a client from `from` to `to`: active → maintenance,
// maintenance → archived, maintenance → active and archived → active. A state to itself is no
// transition (false).
[[nodiscard]] bool lifecycle_transition_allowed(Lifecycle from, Lifecycle to) noexcept;

// The splices that make a client profile's Lifecycle `to`: the first line whose content starts
// with "Lifecycle:" (the line client_lifecycle reads) has its content replaced, its terminator
// kept; without one, "Lifecycle: <to>" is inserted after the first line (the H1 title), or at the
// start of a file with no line, with the file's terminator (compaction.md §7.2). Empty when the
// line already reads exactly "Lifecycle: <to>".
[[nodiscard]] std::vector<Splice> lifecycle_splices(const Document& profile, Lifecycle to);

// The refusals of `client set` that need no file (Errc::invalid_argument): a root whose profile
// is not Maven, and a key that is_client_key refuses. The shell checks them before it reads.
[[nodiscard]] Status check_client_request(Profile profile, std::string_view client);

// `memkit memorybox client set --client C --to S` (§10, §11).
struct ClientSet {
  std::string client;
  // The client's state: where its profile is, then the profile's Lifecycle line (active when the
  // line is absent or its value is none of the three, as the tiers read it).
  Lifecycle from = Lifecycle::active;
  Lifecycle to = Lifecycle::active;
  std::string profile;            // the profile's path now
  std::vector<Splice> splices;    // active ↔ maintenance: the field update of `profile`
  std::optional<Plan> plan;       // to or from archived: the moves; nullopt when there are none
  std::vector<Finding> findings;  // MK-BOX-031, or files that cannot move; sorted
};

// Plans `client set`. `files` is what the shell read: brain/clients/C.md and every entry under
// memory/clients/C/ and memory/ARCHIVES/clients/C/ (links and other non-files as entries of
// their own state). The plan's command is "memorybox client set" and its arguments
// {"client": C, "to": S}; its paths are relative to the agent root.
//
// A disallowed transition is the ERROR MK-BOX-031 (no plan, no splices); `to` equal to `from`
// writes nothing and has no finding, except that a profile whose Lifecycle value is unreadable is
// rewritten to "Lifecycle: active". A file to move that cannot move (a link, not a regular file,
// unreadable), or a profile that is unparseable or ill-formed UTF-8, is a finding (then no plan
// and no splices); other moved files are never parsed, so any bytes move verbatim. Fails with the
// refusals of check_client_request, and with Errc::invalid_argument for a client with no profile
// (or with both), a brain profile that says archived, memory/clients/C/C.md when archiving (it
// would land on the archived profile), and a target that exists already; a profile that is a link
// or cannot be read fails with Errc::unsafe_path or Errc::io.
[[nodiscard]] Result<ClientSet> plan_client_set(Profile profile, const Snapshot& files,
                                                std::string_view client, Lifecycle to);

}  // namespace memkit::memorybox
