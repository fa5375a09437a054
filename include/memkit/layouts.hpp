// The file conventions of each supported memory layout. The first is the memory-custodian layout
// (spec compaction.md §3, §5, §16): which files exist, their budgets and roles, the manifest, and
// the files `init` writes. Everything here is pure.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/budget.hpp"
#include "memkit/clock.hpp"
#include "memkit/findings.hpp"
#include "memkit/markdown.hpp"
#include "memkit/result.hpp"
#include "memkit/tokens.hpp"

namespace memkit {

// What a shell must read to snapshot a layout, and where its memory folder may live.
struct LayoutProfile {
  std::string name;                         // "custodian"
  std::string default_memory_dir;           // relative to the project root
  std::string required_parent;              // the memory folder must lie strictly inside it
  std::vector<std::string> files;           // fixed files, in report order
  std::vector<std::string> module_folders;  // every *.md inside, except README.md
  std::string archive_folder;               // counted, never read by reports
};

[[nodiscard]] const LayoutProfile& custodian_layout();

// Normalises --memory-dir (§3, §12.1): POSIX separators, no "." segments, no leading "./" or
// trailing slash. Fails with Errc::layout when it is absolute, climbs out with "..", or does not
// lie strictly inside the profile's required parent ("docs" itself is refused).
[[nodiscard]] Result<std::string> normalize_memory_dir(std::string_view memory_dir,
                                                       const LayoutProfile& profile);

// What `custodian init` did. Paths are relative to the memory directory.
struct InitResult {
  std::string memory_dir;
  std::vector<std::string> created;   // in write order
  std::vector<std::string> existing;  // left untouched
};

namespace custodian {

inline constexpr std::uint64_t kInboxItemTrigger = 30;     // compaction recommended above this
inline constexpr std::uint64_t kDecisionEntryGuide = 120;  // tokens per decision entry
inline constexpr std::string_view kCurationMarker = "TODO(memkit)";

enum class FileRole : std::uint8_t { core, optional, module, archive, readme, other };

// §3's table: manifest.md, brief.md, decisions.md, constraints.md, do-not-use.md and inbox.md are
// core; preferences.md and changelog.md optional; rules|profiles|areas/<name>.md modules.
[[nodiscard]] FileRole file_role(std::string_view path) noexcept;

// §5: the token budget of a memory-relative path, inclusive bound; nullopt for files without one
// (manifest.md, inbox.md, archive/**, any README.md).
[[nodiscard]] std::optional<Budget> budget_for(std::string_view path);

// §3 route paths: relative, no "..", "\", empty or "." segments, ending in ".md".
[[nodiscard]] bool is_safe_route(std::string_view path) noexcept;

// "0.5", "0.6" and "0.7", compared numerically by dotted parts.
enum class ProtocolSupport : std::uint8_t { supported, unsupported, invalid };
[[nodiscard]] ProtocolSupport protocol_support(std::string_view version) noexcept;
inline constexpr std::string_view kProtocolVersion = "0.7";

// A decision entry (§5): an H2 section with a visible line that, stripped, is "Decision:" or
// starts with "Decision: ".
struct DecisionEntry {
  std::string title;  // the heading text
  std::uint32_t line;
  std::uint64_t tokens;
};
[[nodiscard]] std::vector<DecisionEntry> decision_entries(const Document& doc,
                                                          const TokenCounter& counter);

// §8 the tombstones of do-not-use.md: every bullet unit with a non-empty key, and every H2 heading
// "Tombstone: <title>" or "<text> — tombstone: <title>" (ASCII case-insensitive), in file order.
struct Tombstone {
  std::string key;    // the bullet's unit key, or casefold(strip(title))
  std::string title;  // as written: the bullet's first line without its marker, or the title
  std::uint32_t line;
};
[[nodiscard]] std::vector<Tombstone> tombstones(const Document& do_not_use);

// What check reads from manifest.md (§3).
struct Route {
  std::string path;
  std::uint32_t line;
  bool required;  // under "## Always load" or a "Load:" label; false under "Load if present:"
  std::string task;  // the "Load by task" `###` heading it is under, as written; "" elsewhere
};
struct Manifest {
  bool has_protocol_section = false;
  std::map<std::string, std::string> protocol;  // "- key: value" lines of the protocol section
  std::uint32_t always_load_sections = 0;
  std::map<std::string, std::uint32_t> task_subsections;  // heading text -> count
  std::vector<Route> routes;
  std::vector<Route> module_index;  // `<folder>/<name>.md` entries
};
[[nodiscard]] Manifest read_manifest(const Document& doc);

// §3: the manifest's protocol version, "0.5" when undeclared (with MK-PROTO-002, a WARNING), and
// MK-PROTO-001 at `unsupported` severity (ERROR in reports, BLOCKER for mutating commands) when it
// is newer, older or invalid.
struct ProtocolCheck {
  std::string version;
  std::optional<Finding> finding;
};
[[nodiscard]] ProtocolCheck check_protocol(const Document& manifest, Severity unsupported);

// The six "### " subsections of "## Load by task", in manifest order.
[[nodiscard]] const std::vector<std::string_view>& task_subsection_headings();

// memkit's one-paragraph explanation of the explicit-only archive (archive/README.md).
[[nodiscard]] std::string archive_readme();

// A file `init` writes: its memory-relative path and bytes, in memkit's own wording.
struct TemplateFile {
  std::string path;
  std::string bytes;
};
// §16: the core files (and with `extended`, the optional files and folder READMEs), in the order
// init creates them; `version` is memkit's, `today` dates the changelog.
[[nodiscard]] std::vector<TemplateFile> init_templates(bool extended, std::string_view version,
                                                       const ClockReading& now);

}  // namespace custodian
}  // namespace memkit
