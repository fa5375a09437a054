// The files `memkit custodian init` creates (spec compaction.md §3 manifest structure, §16), in
// memkit's own wording.
#include <string>

#include "memkit/layouts.hpp"

namespace memkit::custodian {
namespace {

std::string manifest_template(std::string_view version) {
  std::string v(version);
  return "# Memory Manifest\n"
         "\n"
         "The loading map of this project's memory. Read the files under Always load at the start\n"
         "of a session, then only the route under Load by task that fits the work at hand.\n"
         "\n"
         "## MemoryCustodian Protocol\n"
         "\n"
         "- protocol_version: 0.7\n"
         "- initialized_with: memkit " +
         v +
         "\n"
         "- last_migrated_with: memkit " +
         v +
         "\n"
         "\n"
         "## Always load\n"
         "\n"
         "- brief.md\n"
         "- constraints.md\n"
         "- do-not-use.md\n"
         "\n"
         "## Load by task\n"
         "\n"
         "### Planning / architecture / refactoring\n"
         "\n"
         "Load:\n"
         "- decisions.md\n"
         "\n"
         "### Implementation / execution / debugging\n"
         "\n"
         "Load:\n"
         "- decisions.md\n"
         "Load if present:\n"
         "- preferences.md\n"
         "\n"
         "### User-facing artifact / output\n"
         "\n"
         "Load if present:\n"
         "- preferences.md\n"
         "\n"
         "### Preferences\n"
         "\n"
         "Load if present:\n"
         "- preferences.md\n"
         "\n"
         "### Change history / recap\n"
         "\n"
         "Load:\n"
         "- decisions.md\n"
         "Load if present:\n"
         "- changelog.md\n"
         "\n"
         "### Memory maintenance\n"
         "\n"
         "Load:\n"
         "- inbox.md\n"
         "Load if present:\n"
         "- changelog.md\n"
         "\n"
         "## Optional module index\n"
         "\n"
         "### Enabled rules\n"
         "\n"
         "### Enabled profiles\n"
         "\n"
         "### Enabled areas\n"
         "\n"
         "## Explicit only\n"
         "\n"
         "- archive/\n"
         "\n"
         "## Context budget\n"
         "\n"
         "- brief.md: 500 tokens max\n"
         "- decisions.md: 800 tokens max\n"
         "- constraints.md: 400 tokens max\n"
         "- do-not-use.md: 400 tokens max\n"
         "- preferences.md: 300 tokens max\n"
         "- changelog.md: 800 tokens max\n"
         "- rules/<name>.md: 400 tokens max each\n"
         "- profiles/<name>.md: 500 tokens max each\n"
         "- areas/<name>.md: 600 tokens max each\n"
         "- inbox.md: no budget; compact when it holds more than 30 items\n";
}

std::string titled(std::string_view title, std::string_view explanation) {
  return "# " + std::string(title) + "\n\n" + std::string(explanation) + "\n";
}

}  // namespace

std::string archive_readme() {
  return titled(
      "Archive",
      "Complete entries that reviewed compaction moved out of active memory. Nothing here "
      "is loaded by\ndefault: open a file only when someone explicitly asks for its "
      "history.");
}

std::vector<TemplateFile> init_templates(bool extended, std::string_view version,
                                         const ClockReading& now) {
  std::vector<TemplateFile> files;
  files.push_back({"manifest.md", manifest_template(version)});
  files.push_back(
      {"brief.md",
       "# Brief\n\nThe one-screen summary of this project. Replace each placeholder below with the "
       "real answer.\n\n"
       "- TODO(memkit) Purpose: what this project is for and whom it serves.\n"
       "- TODO(memkit) Current direction: what is being built now, and why.\n"
       "- TODO(memkit) System shape: the main parts and how they fit together.\n"});
  files.push_back({"decisions.md",
                   titled("Decisions",
                          "Confirmed decisions, newest first: one `## YYYY-MM-DD - title` entry "
                          "each, with a Decision: line.")});
  files.push_back({"constraints.md",
                   titled("Constraints", "Hard requirements of the project, one bullet each.")});
  files.push_back(
      {"do-not-use.md", titled("Do Not Use",
                               "Rejected paths and tombstones: topics to keep out of active memory "
                               "unless the user reverses them.")});
  files.push_back(
      {"inbox.md", titled("Memory Inbox",
                          "Unclear or temporary notes waiting for review, grouped under the date "
                          "they arrived.")});
  if (!extended) return files;
  files.push_back({"preferences.md", titled("Preferences",
                                            "Soft preferences of the user or the project, one "
                                            "bullet each.")});
  files.push_back({"changelog.md",
                   "# Memory Changelog\n\nMaintenance history, newest date "
                   "first.\n\n## " +
                       now.local_date_iso() + "\n- changelog enabled\n"});
  files.push_back(
      {"rules/README.md", titled("Rules",
                                 "Task-specific rule modules, one file per task kind. List "
                                 "each in the manifest's\nOptional module index so that it is "
                                 "loaded only when a task matches.")});
  files.push_back(
      {"profiles/README.md", titled("Profiles",
                                    "Workflow modules, one file per way of working. List each "
                                    "in the manifest's\nOptional module index so that it is "
                                    "loaded only when the workflow applies.")});
  files.push_back(
      {"areas/README.md", titled("Areas",
                                 "Knowledge scoped to one subsystem, one file per area. List "
                                 "each in the manifest's\nOptional module index so that it is "
                                 "loaded only when the work touches that area.")});
  files.push_back({"archive/README.md", archive_readme()});
  return files;
}

}  // namespace memkit::custodian
