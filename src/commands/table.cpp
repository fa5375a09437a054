// The command table (table.hpp): every command of every door, written down once.
#include "commands/table.hpp"

#include <algorithm>
#include <deque>
#include <nlohmann/json.hpp>

namespace memkit {
namespace {

using T = ArgumentType;
using A = ArgumentSpec;
using Choices = std::vector<std::string_view>;

// ---- argument makers ----------------------------------------------------------------------------

A pos(std::string_view name, std::string_view doc, T type = T::string) {
  A a;
  a.name = name;
  a.type = type;
  a.positional = true;
  a.required = true;
  a.doc = doc;
  return a;
}
A opt(std::string_view name, std::string_view placeholder, std::string_view doc, T type = T::string,
      std::string_view default_value = {}) {
  A a;
  a.name = name;
  a.type = type;
  a.placeholder = placeholder;
  a.default_value = default_value;
  a.doc = doc;
  return a;
}
A need(A a) {
  a.required = true;
  return a;
}
A root(A a) {
  a.root = true;
  return a;
}
A pick(std::string_view name, Choices choices, std::string_view doc,
       std::string_view default_value = {}) {
  // The choices themselves where they are few and short ("soft|hard|purge"), else WORD.
  static std::deque<std::string> spelled;  // the placeholders, kept where views stay valid
  std::string joined;
  for (std::string_view c : choices) joined += (joined.empty() ? "" : "|") + std::string(c);
  if (joined.size() > 24) joined = "WORD";
  const auto kept = std::find(spelled.begin(), spelled.end(), joined);
  const std::string& placeholder = kept != spelled.end() ? *kept : spelled.emplace_back(joined);
  A a = opt(name, placeholder, doc, T::string, default_value);
  a.choices = std::move(choices);
  return a;
}
A flag(std::string_view name, std::string_view doc) {
  A a;
  a.name = name;
  a.type = T::boolean;
  a.doc = doc;
  return a;
}

using Args = std::vector<A>;
Args operator+(Args a, const Args& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// ---- arguments several commands share ----------------------------------------------------------

const Args& custodian_root() {
  static const Args args = {
      root(opt("--project-root", "DIR", "the project whose memory it is", T::path, ".")),
      root(opt("--memory-dir", "DIR", "the memory folder, relative to the project root", T::path,
               "docs/memory"))};
  return args;
}
const Args& agent_root() {
  static const Args args = {
      root(opt("--root", "DIR", "the agent root (brain/, memory/)", T::path, "."))};
  return args;
}
const Args& tiers_root() {
  static const Args args = {
      root(opt("--workspace", "DIR", "the workspace (memory/ below it)", T::path, "."))};
  return args;
}
const Args& curated_reader() {
  static const Args args = {
      root(opt("--store", "DIR", "the curated store (MEMKIT_STORE, else ./curated)", T::path)),
      opt("--workspace", "NAME", "the workspace in the store (MEMKIT_WORKSPACE); required")};
  return args;
}
const Args& curated_writer() {
  static const Args args =
      curated_reader() + Args{opt("--actor", "NAME",
                                  "who writes, checked against config.json's writers "
                                  "(MEMKIT_ACTOR; none: the human owner)")};
  return args;
}
const Args& curated_dry_run() {
  static const Args args = {flag("--dry-run",
                                 "show the entry and files it would write; write "
                                 "nothing")};
  return args;
}
// A plan-making command: a dry run prints the plan and its ID, which --apply --confirm-plan writes.
const Args& plan_confirm() {
  static const Args args = {flag("--apply", "write the plan (with --confirm-plan)"),
                            opt("--confirm-plan", "ID",
                                "the Plan ID of the reviewed dry run; a stale one writes "
                                "nothing (MK-PLAN-001)")};
  return args;
}
// How many items of a long report's list to show (commands/flow.hpp ListLimits).
Args list_limit(std::string_view items) {
  static std::deque<std::string> docs;  // kept where views stay valid
  const std::string& limit = docs.emplace_back("list at most N " + std::string(items) +
                                               ", in the text and the JSON (a terminal shows 20 "
                                               "unless --all)");
  const std::string& all = docs.emplace_back("list every one of the " + std::string(items) +
                                             " on a terminal too");
  return Args{opt("--limit", "N", limit, T::integer), flag("--all", all)};
}
// What a search takes: its query and how many hits to show.
A search_query() {
  return pos("QUERY",
             "terms (all must match), OR, NOT, \"phrases\", prefix*, (groups) and filters "
             "layout: file: tier: class: status: type: since: until: min-confidence:");
}
A search_limit() { return opt("--limit", "N", "the most hits to show", T::integer, "10"); }
A search_stem() {
  return opt("--stem", "LANGUAGE",
             "stem words with Snowball's stemmer of LANGUAGE (english, french, ...; libstemmer), "
             "so that deploying finds deployed; off by default: words match as written");
}

// What `context` and `custodian read` take besides their root: a budget (required, or none
// meaning no limit), the task, the query, its limit and its stemmer.
Args context_args(bool budget_required) {
  const A budget = opt("--budget", "TOKENS",
                       budget_required ? "the most tokens the block may hold"
                                       : "the most tokens the block may hold (none: no limit)",
                       T::integer);
  return {budget_required ? need(budget) : budget,
          opt("--task", "TASK",
              "the custodian task whose route to load: a `### ` heading of Load by task, one of "
              "its parts or words (planning, debugging, recap)"),
          opt("--query", "QUERY", "also the best units that match this query (memkit search)"),
          opt("--limit", "N", "the most query hits to offer", T::integer, "10"), search_stem()};
}

const Args& recover_args() {
  static const Args args = {
      flag("--apply", "finish every unfinished transaction (roll it forward)"),
      flag("--rollback", "with --apply: roll back instead")};
  return args;
}
// The L1 entry a three-tier write logs first.
const Args& l1_entry() {
  static const Args args = {
      opt("--raw-content", "TEXT", "the L1 entry's text (default: what the write did)"),
      opt("--entry-type", "TYPE", "the L1 entry's type", T::string, "turn"),
      opt("--tools", "JSON", "the tools used, a JSON array of strings", T::json),
      opt("--session-id", "ID", "the session the entry belongs to")};
  return args;
}
const Choices& row_types() {
  static const Choices c = {"project", "user", "feedback", "atom", "decision", "negative"};
  return c;
}
const Choices& row_classes() {
  static const Choices c = {"anchor", "thread", "log"};
  return c;
}

// ---- the groups ---------------------------------------------------------------------------------

std::vector<CommandSpec> custodian_commands() {
  const Args& root = custodian_root();
  return {
      {"custodian", "init", "create the memory folder and each missing file; never overwrites",
       CommandEffect::writes,
       root + Args{flag("--extended", "also the optional files, folder READMEs and a changelog")}},
      {"custodian", "status", "token budgets and states per file", CommandEffect::reads, root},
      {"custodian", "read",
       "the memory a session loads for a task (manifest, Always load, the task's route), as one "
       "block, under an optional token budget",
       CommandEffect::reads, root + context_args(false)},
      {"custodian", "check", "layout consistency: manifest routes, budgets, modules, tombstones",
       CommandEffect::reads, root},
      {"custodian", "compact",
       "inbox clean-up (exact duplicates, tombstone matches), or a budgeted file's exact dedupe "
       "or oldest-entry archival",
       CommandEffect::plans,
       root +
           Args{opt("--target", "FILE", "a budgeted file to compact instead of the inbox"),
                flag("--archive-oldest", "with --target: archive its oldest entries")} +
           list_limit("inbox candidates") + plan_confirm()},
      {"custodian", "add", "write one entry where its type belongs; applied directly",
       CommandEffect::writes,
       Args{pos("MESSAGE", "the entry's text")} + root +
           Args{need(pick("--type",
                          {"decision", "tombstone", "do-not-use", "inbox", "constraint",
                           "preference", "rule", "profile", "area"},
                          "what the entry is, which decides its file")),
                opt("--reason", "TEXT", "why (decisions and tombstones)"),
                flag("--allow-long", "let a decision exceed the 120-token guide"),
                opt("--name", "NAME", "the rule, profile or area file's name"),
                opt("--area", "NAME", "write into areas/NAME.md instead")}},
      {"custodian", "forget",
       "remove the entries and bullets that mention a topic and leave a tombstone",
       CommandEffect::plans,
       Args{pos("TOPIC", "what to forget")} + root +
           Args{pick("--mode", {"soft", "hard", "purge"},
                     "soft leaves a tombstone; hard and purge never print the topic", "soft"),
                flag("--allow-broad-match", "apply although the match is broad")} +
           plan_confirm()},
      {"custodian", "undo", "restore the bytes an applied plan replaced, if nothing changed since",
       CommandEffect::plans, Args{pos("PLAN_ID", "the applied plan's ID")} + root + plan_confirm()},
      {"custodian", "recover", "list the transactions a crash left unfinished, and finish them",
       CommandEffect::writes, root + recover_args()},
  };
}

std::vector<CommandSpec> search_commands() {
  return {{"search", "",
           "the units of memory that match a query, best first, with where each is and a snippet",
           CommandEffect::reads,
           Args{search_query(),
                root(opt("--root", "DIR",
                         "the folder whose memory to search: every layout found "
                         "under it",
                         T::path, ".")),
                search_limit(), search_stem()}}};
}

std::vector<CommandSpec> context_commands() {
  return {{"context", "",
           "one block of memory for an agent under a token budget: each layout's route, tier 1, "
           "global.md and digest, then query hits; with what was left out and why",
           CommandEffect::reads,
           Args{root(opt("--root", "DIR",
                         "the folder whose memory to compile: every layout found under it", T::path,
                         "."))} +
               context_args(true)}};
}

std::vector<CommandSpec> agent_commands() {
  return {{"agent", "init",
           "wire memkit into coding agents: a managed block in the file each reads, memkit's MCP "
           "server in their configuration, Claude Code's session-start hook and skill",
           CommandEffect::writes,
           Args{need(pick("--agent", {"claude", "codex", "gemini", "cursor", "all"},
                          "the agent to wire")),
                root(opt("--root", "DIR", "the project the agents work in", T::path, ".")),
                opt("--budget", "TOKENS", "the memory a Claude Code session starts with",
                    T::integer, "4000"),
                flag("--remove", "take out what init wrote, byte for byte")}}};
}

std::vector<CommandSpec> mcp_commands() {
  return {{"mcp", "",
           "serve every command, the memory files and a session-start prompt to an agent over the "
           "Model Context Protocol, on standard input and output, until the input ends",
           CommandEffect::writes,
           Args{root(opt("--root", "DIR",
                         "the folder whose memory it serves: every layout found under it", T::path,
                         ".")),
                opt("--memory-dir", "DIR", "the custodian's memory folder, relative to the root",
                    T::path, "docs/memory")}}};
}

std::vector<CommandSpec> bench_commands() {
  const A runs = opt("--runs", "N", "timed runs of each size after one untimed run", T::integer,
                       "3");
  const A report = opt("--report", "FILE",
                         "also write the figures as one self-contained HTML page, with plots",
                         T::path);
  return {{"bench", "compaction",
           "inbox compaction on your inbox (or the bundled example's) grown to each size from its "
           "own items: each phase in-process and whole CLI processes, with time, CPU, page faults, "
           "throughput and peak memory, and the Plan ID of each size",
           CommandEffect::reads,
           Args{root(opt("--project-root", "DIR",
                         "the project whose memory to measure; without it, the current "
                         "directory's, or the bundled example when it has none",
                         T::path)),
                opt("--memory-dir", "DIR", "the custodian's memory folder, relative to the root",
                    T::path, "docs/memory"),
                opt("--sizes", "SIZES",
                    "the inbox sizes, comma-separated, each a number of bytes with an optional "
                    "K, M or G (powers of 1024)",
                    T::string, "1M,10M"),
                runs,
                opt("--vs", "COMMAND",
                    "a command to compare, run by /bin/sh on identical copies alternating with "
                    "memkit's dry run, {dir} replaced by the copy's project root"),
                opt("--vs-timeout", "SECONDS", "the time limit of each run of the --vs command",
                    T::integer, "600"),
                report}},
          {"bench", "recall",
           "recall on your memory: index build, incremental update after one changed file, and "
           "query latency percentiles",
           CommandEffect::reads,
           Args{root(opt("--root", "DIR",
                         "the folder whose memory to measure: every layout found under it",
                         T::path, ".")),
                opt("--synthetic", "ENTRIES",
                    "measure a generated store of this many entries instead of the root",
                    T::integer),
                opt("--queries", "N", "queries timed for the latency percentiles", T::integer,
                    "1000"),
                runs, report}}};
}

std::vector<CommandSpec> markdown_commands() {
  return {{"markdown", "units", "the units and sections that partition a file's lines",
           CommandEffect::reads, Args{pos("FILE", "the Markdown file", T::path)}}};
}

std::vector<CommandSpec> memorybox_commands() {
  const Args& root = agent_root();
  const Args remote = {
      opt("--remote", "REMOTE", "dir:PATH (a folder of JSON Lines files) or postgres"),
      opt("--conninfo-file", "FILE",
          "a file whose first line is the PostgreSQL connection string, never printed (the CLI "
          "falls back to MEMKIT_SYNC_CONNINFO, then libpq's defaults)",
          T::path)};
  const A workspace_id =
      opt("--workspace-id", "UUID", "the workspace to join on a first sync (else a new one)");
  return {
      {"memorybox", "init",
       "create the tier files that are missing, memory/daily/ and memory/ARCHIVES/; never "
       "overwrites",
       CommandEffect::writes,
       root + Args{pick("--profile", {"default", "maven"}, "the profile to record", "default")}},
      {"memorybox", "status",
       "lines, items and budget states of tiers 1 to 5, and the bloat "
       "rules that are due",
       CommandEffect::reads, root},
      {"memorybox", "decay",
       "each scored entry's effective confidence, band and whether a review is due",
       CommandEffect::reads, root + Args{opt("--file", "FILE", "only this tier file")}},
      {"memorybox", "load", "a tier's files with their contents, for a session's context",
       CommandEffect::reads,
       root + Args{opt("--tier", "N", "the tier, 1 to 5", T::integer),
                   opt("--file", "FILE", "one file instead of a tier"),
                   flag("--include-archive", "let tier 5 (the archives) be loaded")}},
      {"memorybox", "hygiene", "the ten items of the monthly checklist, orphaned links included",
       CommandEffect::reads, root},
      {"memorybox", "log",
       "record a session: an entry of SESSION_LOG.md and a line in today's daily file, without "
       "the gates",
       CommandEffect::writes,
       root + Args{need(opt("--text", "TEXT", "what the session did")),
                   opt("--session", "TITLE", "the entry's title", T::string, "session")}},
      {"memorybox", "gate", "the five-gate write filter; --apply writes a WRITE outcome directly",
       CommandEffect::writes,
       root + Args{need(opt("--text", "TEXT", "the candidate entry")),
                   need(opt("--confidence", "C", "0 to 1, at most two decimals", T::number)),
                   opt("--title", "TITLE", "the heading of a section file's or session entry"),
                   opt("--source", "TEXT", "where it came from (a Source: line)"),
                   opt("--client", "NAME", "the Maven client it concerns"),
                   pick("--value", {"yes", "no"}, "VALUE: is it worth keeping?"),
                   opt("--category", "NAME", "ALIGNMENT: an existing category"),
                   opt("--new-category", "NAME", "ALIGNMENT: a new category"),
                   flag("--no-category", "ALIGNMENT: it fits no category (discarded)"),
                   opt("--redundant-with", "ENTRY_ID", "REDUNDANCY: the entry it repeats"),
                   flag("--not-redundant", "REDUNDANCY: it repeats nothing"),
                   flag("--stable", "FRESHNESS: it does not decay"),
                   opt("--decay-trigger", "DATE", "FRESHNESS: review it on this date"),
                   opt("--tier", "N", "PLACEMENT: the tier", T::integer),
                   opt("--file", "FILE", "PLACEMENT: the file"),
                   flag("--apply", "write a WRITE outcome")},
       /*judged=*/true},
      {"memorybox", "update",
       "record an event on one entry's field lines, or plan moving the entry to its archive",
       CommandEffect::writes,
       root +
           Args{need(opt("--entry", "ENTRY_ID", "the entry")),
                flag("--verify", "it was checked and still holds"),
                flag("--confirm", "evidence confirms it (+0.05)"),
                flag("--contradict", "evidence contradicts it (with --note)"),
                opt("--note", "TEXT", "what contradicts it"),
                pick("--resolve", {"keep", "archive"}, "settle a contradiction"),
                opt("--confidence", "C", "with --resolve keep: the new confidence", T::number)} +
           plan_confirm()},
      {"memorybox", "compact",
       "the bloat rules: a plan that moves old entries verbatim to memory/ARCHIVES/",
       CommandEffect::plans,
       root +
           Args{opt("--file", "FILE", "only this rule's file (or memory/daily)"),
                flag("--force", "apply a rule below its threshold")} +
           list_limit("actions") + plan_confirm()},
      {"memorybox", "promote", "a plan that moves a pattern verbatim to SOP_LIBRARY.md",
       CommandEffect::plans,
       root + Args{need(opt("--entry", "ENTRY_ID", "the pattern"))} + plan_confirm()},
      {"memorybox", "recover", "list the transactions a crash left unfinished, and finish them",
       CommandEffect::writes, root + recover_args()},
      {"memorybox", "canon add",
       "Maven canon: append to MARKETING_CANON.md or create a write-once canon file",
       CommandEffect::writes,
       root + Args{need(opt("--file", "FILE", "the canon file")),
                   need(opt("--text", "TEXT", "what to add"))}},
      {"memorybox", "canon verify", "report any change to canon beyond what the ledger records",
       CommandEffect::reads, root},
      {"memorybox", "client set",
       "a Maven client's lifecycle: a field update, or a plan that moves its files",
       CommandEffect::plans,
       root +
           Args{need(opt("--client", "NAME", "the client")),
                need(pick("--to", {"active", "maintenance", "archived"}, "the new state"))} +
           plan_confirm()},
      {"memorybox", "sync pull",
       "merge what other roots pushed: additions directly, replacements and moves as a plan",
       CommandEffect::plans, root + remote + Args{workspace_id} + plan_confirm()},
      {"memorybox", "sync push", "send what changed since the last sync", CommandEffect::writes,
       root + remote + Args{workspace_id}},
      {"memorybox", "sync status", "what waits on each side, and the open conflicts",
       CommandEffect::reads, root + remote},
      {"memorybox", "sync resolve", "settle an open sync conflict", CommandEffect::writes,
       root + Args{need(opt("--id", "ID", "the conflict's entry Id")),
                   need(pick("--take", {"local", "remote"}, "the version to keep"))}},
  };
}

std::vector<CommandSpec> tiers_commands() {
  const Args& root = tiers_root();
  const Args& l1 = l1_entry();
  const A template_choice =
      pick("--template", {"decision", "error", "task"}, "shape the note as this template");
  return {
      {"tiers", "init",
       "create memory/, sessions/, data/, manifest.json and the global.md "
       "skeleton; never overwrites",
       CommandEffect::writes, root},
      {"tiers", "session-init", "global.md's excerpt, recent logs and themes; logs SESSION_INIT",
       CommandEffect::writes,
       root + Args{opt("--session-id", "ID", "the session"),
                   opt("--recent-days", "N", "days of L1 logs", T::integer, "7"),
                   opt("--theme-limit", "N", "themes listed", T::integer, "8"),
                   flag("--no-log", "write no SESSION_INIT entry"),
                   opt("--max-tokens", "N", "the context in read order under this budget",
                       T::integer)}},
      {"tiers", "log-turn", "append one L1 entry to memory/sessions/<today>.md",
       CommandEffect::writes,
       root + Args{need(opt("--content", "TEXT", "the entry's text")),
                   opt("--entry-type", "TYPE", "the entry's type", T::string, "turn"),
                   opt("--tools", "JSON", "the tools used, a JSON array of strings", T::json),
                   opt("--session-id", "ID", "the session")}},
      {"tiers", "read-logs", "the recent L1 entries", CommandEffect::reads,
       root + Args{opt("--days-back", "N", "days", T::integer, "7"),
                   opt("--limit", "N", "entries", T::integer, "20")}},
      {"tiers", "persist-turn",
       "L1, then the L2 note memory/<theme>/<date>_<hour>.md, then global.md",
       CommandEffect::writes,
       root + Args{need(opt("--raw-content", "TEXT", "the L1 entry's text")),
                   opt("--entry-type", "TYPE", "the L1 entry's type", T::string, "turn"),
                   opt("--extracted-content", "TEXT", "the L2 note's text (with --theme)"),
                   opt("--theme", "THEME", "the L2 theme"), template_choice,
                   opt("--title", "TITLE", "the note's title"),
                   flag("--promote-global", "also add the note to global.md"),
                   opt("--tools", "JSON", "the tools used, a JSON array of strings", T::json),
                   opt("--session-id", "ID", "the session")}},
      {"tiers", "write-theme", "an L2 note (after its L1 entry)", CommandEffect::writes,
       root +
           Args{need(opt("--theme", "THEME", "the theme")),
                need(opt("--content", "TEXT", "the note's text")), template_choice,
                opt("--title", "TITLE", "the note's title"),
                flag("--promote-global", "also add the note to global.md")} +
           l1},
      {"tiers", "read-theme", "a theme's recent L2 notes", CommandEffect::reads,
       root + Args{need(opt("--theme", "THEME", "the theme")),
                   opt("--hours-back", "N", "hours", T::integer, "24"),
                   opt("--limit", "N", "notes", T::integer, "20")}},
      {"tiers", "read-global", "global.md and its read order", CommandEffect::reads, root},
      {"tiers", "search",
       "L1 entries, L2 notes, global.md sections and data entries that match a query, best "
       "first (memkit search over the workspace)",
       CommandEffect::reads, Args{search_query()} + root + Args{search_limit(), search_stem()}},
      {"tiers", "write-global",
       "append to global.md, or replace it keeping the old text in memory/archive/global/",
       CommandEffect::writes,
       root +
           Args{need(opt("--content", "TEXT", "the text")),
                flag("--append", "append (the default)"),
                flag("--replace", "replace the whole file")} +
           l1},
      {"tiers", "list-themes", "the themes under memory/", CommandEffect::reads, root},
      {"tiers", "write-data", "store memory/data/<name>.csv and its manifest.json entry",
       CommandEffect::writes,
       root +
           Args{need(opt("--name", "NAME", "the data file (.csv is added)")),
                opt("--csv-content", "CSV", "the CSV text (or --source-file)"),
                opt("--source-file", "FILE", "a CSV file to copy (or --csv-content)", T::path),
                flag("--replace", "overwrite an existing file"),
                opt("--description", "TEXT", "what the data is"),
                opt("--source-label", "TEXT", "where it came from"),
                opt("--columns-json", "JSON", "the declared columns, a JSON array", T::json)} +
           l1},
      {"tiers", "read-data", "a data file with its manifest entry", CommandEffect::reads,
       root + Args{need(opt("--name", "NAME", "the data file")),
                   opt("--head", "N", "only the first N records", T::integer)}},
      {"tiers", "list-data", "the data files and their manifest entries", CommandEffect::reads,
       root},
      {"tiers", "archive-themes",
       "a plan that moves L2 notes older than the window to memory/archive/<theme>/",
       CommandEffect::plans,
       root + Args{opt("--days", "N", "the window", T::integer, "90")} + plan_confirm()},
      {"tiers", "template", "the body skeleton of a template", CommandEffect::reads,
       Args{pos("KIND", "decision, error or task")} + root},
      {"tiers", "recover", "list the transactions a crash left unfinished, and finish them",
       CommandEffect::writes, root + recover_args()},
  };
}

std::vector<CommandSpec> curated_commands() {
  const Args& reader = curated_reader();
  const Args& writer = curated_writer();
  const Args& dry = curated_dry_run();
  const A body = opt("--body", "TEXT", "the body");
  const A body_file =
      opt("--body-file", "FILE", "read the body from FILE (- for standard input)", T::path);
  const A include_deleted = flag("--include-deleted", "soft-deleted rows too");
  const A max_depth = opt("--max-depth", "N", "how far to follow links", T::integer, "5");
  const A status =
      opt("--status", "STATUS", "open, carry_forward, graduated, closed, or null for none");
  return {
      {"curated", "add", "upsert a row (class log by default)", CommandEffect::writes,
       writer +
           Args{need(opt("--name", "NAME", "the row's name (its type's slug rules)")),
                need(pick("--type", row_types(), "the row's type")), body, body_file,
                opt("--description", "TEXT", "one line"),
                pick("--class", row_classes(), "the row's role"), status,
                opt("--initiative", "KEY", "the initiative it belongs to"),
                opt("--project-ref", "REF", "the project it refers to"),
                pick("--audience", {"orchestrator", "executor", "any"}, "who reads it"),
                opt("--origin-session", "ID", "the session that made it")} +
           dry},
      {"curated", "append", "append text to a row's body", CommandEffect::writes,
       Args{pos("NAME", "the row")} + writer + Args{body, body_file} + dry},
      {"curated", "edit", "replace a row's description or body", CommandEffect::writes,
       writer +
           Args{need(opt("--name", "NAME", "the row")),
                need(pick("--field", {"description", "body"}, "the field")),
                opt("--content", "TEXT", "the new value"), body_file,
                pick("--audience", {"orchestrator", "executor", "any"}, "who reads it"),
                opt("--initiative", "KEY", "the initiative"),
                opt("--project-ref", "REF", "the project it refers to")} +
           dry},
      {"curated", "reclassify", "change a row's class or status", CommandEffect::writes,
       Args{pos("NAME", "the row")} + writer +
           Args{pick("--class", row_classes(), "the new class"), status} + dry},
      {"curated", "link", "add (or with --delete remove) a link between two rows",
       CommandEffect::writes,
       Args{pos("SRC", "the row the link starts from"), pos("DST", "the row it points to")} +
           writer +
           Args{need(pick("--kind", {"relates_to", "supersedes", "derived_from", "graduated_to"},
                          "the link's kind")),
                flag("--delete", "remove the link instead")} +
           dry},
      {"curated", "unlink", "remove a link between two rows", CommandEffect::writes,
       Args{pos("SRC", "the row the link starts from"), pos("DST", "the row it points to")} +
           writer +
           Args{need(pick("--kind", {"relates_to", "supersedes", "derived_from", "graduated_to"},
                          "the link's kind"))} +
           dry},
      {"curated", "delete",
       "soft delete (a tombstone), or purge with --hard; a dry run without "
       "--yes",
       CommandEffect::writes,
       Args{pos("NAME", "the row")} + writer +
           Args{flag("--yes", "delete (without it, a dry run)"),
                flag("--hard", "purge the row and its history")}},
      {"curated", "restore", "restore a soft-deleted row", CommandEffect::writes,
       Args{pos("NAME", "the row")} + writer + dry},
      {"curated", "recover", "list the transactions a crash left unfinished, and finish them",
       CommandEffect::writes, reader + recover_args()},
      {"curated", "checkpoint",
       "the session record, its pending threads and their links, all or nothing",
       CommandEffect::writes,
       writer +
           Args{need(opt("--file", "FILE", "the payload (- for standard input)", T::path)),
                opt("--initiative", "KEY", "every row's initiative"),
                opt("--project-ref", "REF", "every row's project")} +
           dry},
      {"curated", "batch", "independent operations, written as one transaction",
       CommandEffect::writes,
       writer +
           Args{need(opt("--file", "FILE", "the operations (- for standard input)", T::path))}},
      {"curated", "get-relevant",
       "the live-pending digest, or every live-pending row of one initiative", CommandEffect::reads,
       reader + Args{opt("--initiative", "KEY", "one initiative's rows"),
                     opt("--max-chars", "N", "the digest's size", T::integer, "800")}},
      {"curated", "kernel", "the kernel rows", CommandEffect::reads,
       reader + Args{opt("--max-chars", "N", "the size", T::integer)}},
      {"curated", "show", "one row", CommandEffect::reads,
       Args{pos("NAME", "the row")} + reader +
           Args{flag("--links", "its links too"), flag("--history", "its history too"),
                include_deleted}},
      {"curated", "list", "rows, filtered and sorted", CommandEffect::reads,
       reader +
           Args{pick("--type", row_types(), "only this type"),
                pick("--class", row_classes(), "only this class"),
                opt("--status", "STATUS", "only this status"),
                pick("--audience", {"orchestrator", "executor", "any"}, "only this audience"),
                opt("--initiative", "KEY", "only this initiative"),
                pick("--sort", {"name", "injection", "deliberate", "kernel"}, "the order", "name"),
                pick("--order", {"asc", "desc"}, "ascending or descending", "asc"),
                opt("--limit", "N", "at most N rows", T::integer), include_deleted}},
      {"curated", "search", "rows (or episodes) matching a query", CommandEffect::reads,
       Args{pos("QUERY", "the words to find")} + reader +
           Args{pick("--scope", {"memory", "episodes", "both"}, "what to search", "memory"),
                opt("--limit", "N", "at most N hits", T::integer, "10")}},
      {"curated", "stats", "counts by type, class and status", CommandEffect::reads, reader},
      {"curated", "conflicts", "rows whose bodies overlap", CommandEffect::reads,
       reader + Args{opt("--threshold", "X", "the overlap that counts", T::number, "0.3")}},
      {"curated", "lineage", "a row's links, as a tree", CommandEffect::reads,
       Args{pos("NAME", "the row")} + reader + Args{max_depth, include_deleted}},
      {"curated", "story", "a row's lineage with its history, in time order", CommandEffect::reads,
       Args{pos("NAME", "the row")} + reader + Args{max_depth, include_deleted}},
      {"curated", "event add", "append an event to the day's floor", CommandEffect::writes,
       writer + Args{need(opt("--type", "TYPE", "the event's type")),
                     opt("--source", "TEXT", "where it came from"),
                     opt("--agent", "NAME", "who raised it"), opt("--result", "TEXT", "its result"),
                     opt("--severity", "LEVEL", "its severity"),
                     opt("--payload", "JSON", "any JSON value", T::json)}},
      {"curated", "episode add", "append an episode to its day's floor", CommandEffect::writes,
       writer + Args{need(opt("--file", "FILE", "the episode (- for standard input)", T::path))}},
      {"curated", "episode show", "one episode", CommandEffect::reads,
       Args{pos("ID", "the episode's id")} + reader},
      {"curated", "floors prune", "a plan that removes floor files past their retention",
       CommandEffect::plans, writer + plan_confirm()},
      {"curated", "telemetry compact",
       "a plan that folds read counters before a time into the snapshot", CommandEffect::plans,
       writer + Args{need(opt("--before", "TIME", "fold the reads before this time", T::time))} +
           plan_confirm()},
  };
}

// The edit distance with adjacent transpositions (optimal string alignment), for the
// suggestions: "tpye" is one edit from "type".
std::size_t distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

nlohmann::ordered_json argument_json(const ArgumentSpec& a) {
  nlohmann::ordered_json choices = nlohmann::ordered_json::array();
  for (std::string_view c : a.choices) choices.push_back(std::string(c));
  return {
      {"choices", choices},
      {"default", a.default_value.empty() ? nlohmann::ordered_json(nullptr)
                                          : nlohmann::ordered_json(std::string(a.default_value))},
      {"doc", std::string(a.doc)},
      {"name", std::string(a.name)},
      {"placeholder", std::string(a.placeholder)},
      {"positional", a.positional},
      {"required", a.required},
      {"root", a.root},
      {"type", std::string(argument_type_name(a.type))}};
}

}  // namespace

std::string_view command_effect_name(CommandEffect effect) noexcept {
  switch (effect) {
    case CommandEffect::reads:
      return "reads";
    case CommandEffect::writes:
      return "writes";
    case CommandEffect::plans:
      return "plans";
  }
  return "reads";
}

std::string_view argument_type_name(ArgumentType type) noexcept {
  switch (type) {
    case T::string:
      return "string";
    case T::path:
      return "path";
    case T::integer:
      return "integer";
    case T::number:
      return "number";
    case T::time:
      return "time";
    case T::json:
      return "json";
    case T::boolean:
      return "boolean";
  }
  return "string";
}

std::string CommandSpec::name() const {
  return verb.empty() ? std::string(group) : std::string(group) + " " + std::string(verb);
}

const ArgumentSpec* CommandSpec::argument(std::string_view wanted) const noexcept {
  for (const ArgumentSpec& a : arguments) {
    if (a.name == wanted) return &a;
  }
  return nullptr;
}

const std::vector<ArgumentSpec>& global_options() {
  static const std::vector<ArgumentSpec> options = {
      pick("--format", {"text", "json"}, "the output: a human view or the JSON envelope", "text"),
      opt("--now", "TIME", "the clock reading to use (else MEMKIT_NOW, else the system clock)",
          T::time),
      opt("--lock-timeout", "SECONDS", "how long a write waits for the root's lock", T::number,
          "10"),
      flag("--quiet", "no progress display on a terminal's stderr for long work"),
      flag("--help", "this command's help"),
      flag("--version", "memkit's version"),
  };
  return options;
}

const std::vector<GroupSpec>& command_groups() {
  static const std::vector<GroupSpec> groups = {
      {"custodian", "the memory-custodian layout under docs/memory",
       "--project-root defaults to the current directory, --memory-dir to docs/memory.",
       "custodian"},
      {"memorybox", "the MemoryBox tiers under an agent root (brain/, memory/)",
       "--root defaults to the current directory.", "memorybox"},
      {"tiers", "three-tier session memory under a workspace (sessions, themes, global.md)",
       "--workspace defaults to the current directory. Writes apply directly, all their files or "
       "none, under .memkit/lock; reads never write.",
       "tiers"},
      {"curated", "curated memory: rows with roles, lifecycle and lineage, read telemetry, floors",
       "--store defaults to MEMKIT_STORE, else ./curated; --workspace (or MEMKIT_WORKSPACE) is "
       "required; --actor defaults to MEMKIT_ACTOR (none: the human owner).",
       "curated"},
      {"search", "find memory in every layout under a root, ranked by BM25", "", "any"},
      {"context", "compile memory for an agent under a token budget", "", "any"},
      {"markdown", "text-model tools", "", "none"},
      {"agent", "wire memkit into Claude Code, Codex, Gemini CLI and Cursor (docs/agents.md)",
       "--root defaults to the current directory.", "any"},
      {"mcp", "memkit as an agent's MCP server (docs/agents.md)",
       "The CLI's alone: it serves on standard input and output.", "server"},
      {"bench", "measure memkit on your own memory (docs/benchmarks.md)",
       "The CLI's alone. Everything it writes stays in a scratch folder under TMPDIR (else /tmp), "
       "removed at the end.",
       "cli"},
  };
  return groups;
}

const std::vector<CommandSpec>& command_table() {
  static const std::vector<CommandSpec> table = [] {
    std::vector<CommandSpec> all;
    for (auto* group : {&custodian_commands, &memorybox_commands, &tiers_commands,
                        &curated_commands, &search_commands, &context_commands, &markdown_commands,
                        &agent_commands, &mcp_commands, &bench_commands}) {
      for (CommandSpec& c : (*group)()) all.push_back(std::move(c));
    }
    return all;
  }();
  return table;
}

const GroupSpec* find_group(std::string_view group) noexcept {
  for (const GroupSpec& g : command_groups()) {
    if (g.name == group) return &g;
  }
  return nullptr;
}

const CommandSpec* find_command(std::string_view group, std::string_view verb) noexcept {
  for (const CommandSpec& c : command_table()) {
    if (c.group == group && c.verb == verb) return &c;
  }
  return nullptr;
}

std::optional<std::string> closest(std::string_view given,
                                   const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = std::max<std::size_t>(1, given.size() / 3) + 1;
  std::vector<const std::string*> prefixed;
  for (const std::string& c : candidates) {
    const std::size_t d = distance(given, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
    if (!given.empty() && c.starts_with(given)) prefixed.push_back(&c);
  }
  if (!best && prefixed.size() == 1) best = *prefixed[0];
  return best;
}

namespace {

std::string with_suggestion(std::string message, const std::optional<std::string>& suggestion) {
  if (suggestion) message += " (did you mean '" + *suggestion + "'?)";
  return message;
}

}  // namespace

Result<const CommandSpec*> resolve_command(std::string_view group,
                                           const std::vector<std::string>& words,
                                           std::size_t* verb_words) {
  *verb_words = 0;
  if (find_group(group) == nullptr) {
    std::vector<std::string> groups;
    for (const GroupSpec& g : command_groups()) groups.emplace_back(g.name);
    return Status(
        Errc::invalid_argument,
        with_suggestion("unknown group '" + std::string(group) + "'", closest(group, groups)) +
            "; see memkit --help");
  }
  if (const CommandSpec* whole = find_command(group, "")) return whole;  // every word its argument
  if (words.empty()) return static_cast<const CommandSpec*>(nullptr);
  if (words.size() >= 2) {
    if (const CommandSpec* two = find_command(group, words[0] + " " + words[1])) {
      *verb_words = 2;
      return two;
    }
  }
  if (const CommandSpec* one = find_command(group, words[0])) {
    *verb_words = 1;
    return one;
  }
  // A first word of two-word verbs ("sync"): the second is missing or unknown.
  const std::string given = words.size() >= 2 ? words[0] + " " + words[1] : words[0];
  std::vector<std::string> verbs;
  for (const CommandSpec& c : command_table()) {
    if (c.group == group) verbs.emplace_back(c.verb);
  }
  return Status(Errc::invalid_argument,
                with_suggestion("unknown command '" + std::string(group) + " " + given + "'",
                                closest(given, verbs)) +
                    "; see memkit " + std::string(group) + " --help");
}

Status check_arguments(const CommandSpec& command,
                       const std::map<std::string, std::string>& options,
                       const std::vector<std::string>& flags) {
  const auto refuse = [&](const std::string& name) {
    std::vector<std::string> names;
    for (const ArgumentSpec& a : command.arguments) {
      if (!a.positional) names.emplace_back(a.name);
    }
    return Status(
        Errc::invalid_argument,
        with_suggestion("unknown option " + name + " for " + command.name(), closest(name, names)));
  };
  for (const auto& option : options) {
    const ArgumentSpec* a = command.argument(option.first);
    if (a == nullptr || a->positional || a->type == ArgumentType::boolean) {
      return refuse(option.first);
    }
  }
  for (const std::string& name : flags) {
    const ArgumentSpec* a = command.argument(name);
    if (a == nullptr || a->type != ArgumentType::boolean) return refuse(name);
  }
  return Status();
}

std::string command_table_json() {
  nlohmann::ordered_json globals = nlohmann::ordered_json::array();
  for (const ArgumentSpec& a : global_options()) globals.push_back(argument_json(a));
  nlohmann::ordered_json groups = nlohmann::ordered_json::array();
  for (const GroupSpec& g : command_groups()) {
    nlohmann::ordered_json commands = nlohmann::ordered_json::array();
    for (const CommandSpec& c : command_table()) {
      if (c.group != g.name) continue;
      nlohmann::ordered_json arguments = nlohmann::ordered_json::array();
      for (const ArgumentSpec& a : c.arguments) arguments.push_back(argument_json(a));
      commands.push_back({{"arguments", arguments},
                          {"effect", std::string(command_effect_name(c.effect))},
                          {"judged", c.judged},
                          {"name", c.name()},
                          {"summary", std::string(c.summary)},
                          {"verb", std::string(c.verb)}});
    }
    groups.push_back({{"commands", commands},
                      {"name", std::string(g.name)},
                      {"notes", std::string(g.notes)},
                      {"summary", std::string(g.summary)},
                      {"workspace", std::string(g.workspace)}});
  }
  const nlohmann::ordered_json table = {
      {"global_options", globals}, {"groups", groups}, {"table_version", 1}};
  return table.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::strict);
}

}  // namespace memkit
