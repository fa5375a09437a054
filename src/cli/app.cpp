// Dispatch, the envelope, and the mapping from failures to findings.
#include "cli/app.hpp"

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <ostream>

#include "cli/invocation.hpp"
#include "commands/commands.hpp"
#include "commands/text_view.hpp"
#include "json/json.hpp"
#include "memkit/version.hpp"
#include "text/shown_text.hpp"

namespace memkit::cli {
namespace {

using view::findings_text;
using view::Style;

constexpr const char* kUsage =
    "usage: memkit <group> <command> [args] [--format text|json] [--now TIME] "
    "[--lock-timeout SECONDS]\n"
    "\n"
    "groups:\n"
    "  custodian   the memory-custodian layout under docs/memory\n"
    "  memorybox   the MemoryBox tiers under an agent root (brain/, memory/)\n"
    "  tiers       three-tier session memory under a workspace (memory/sessions, themes, global.md)\n"
    "  curated     curated memory: rows with roles, lifecycle and lineage, read telemetry, floors\n"
    "  markdown    text-model tools\n"
    "\n"
    "Run `memkit <group> --help` for its commands.\n";

constexpr const char* kCustodianUsage =
    "usage: memkit custodian <command> [--project-root DIR] [--memory-dir DIR]\n"
    "\n"
    "commands:\n"
    "  init [--extended]   create the memory directory and any missing file; never overwrites\n"
    "  status              token budgets and states per file; writes nothing\n"
    "  check               layout consistency: manifest routes, budgets, modules; writes nothing\n"
    "  compact [--target FILE] [--apply --confirm-plan ID] [--archive-oldest]\n"
    "                      inbox cleanup (exact duplicates, tombstone matches), or with --target\n"
    "                      a budgeted file's exact dedupe or oldest-entry archival; a dry run\n"
    "                      prints the plan and its ID, which --apply --confirm-plan writes\n"
    "  add MESSAGE --type T [--reason R] [--allow-long] [--name N] [--area A]\n"
    "                      writes one entry where its type belongs (decision, tombstone, inbox,\n"
    "                      constraint, preference, rule, profile, area); applied directly\n"
    "  forget TOPIC [--mode soft|hard|purge] [--apply --confirm-plan ID] [--allow-broad-match]\n"
    "                      removes the entries and bullets that mention TOPIC and leaves a\n"
    "                      tombstone (soft); hard and purge never print the topic\n"
    "  undo PLAN_ID [--apply --confirm-plan ID]\n"
    "                      restores the bytes an applied plan replaced, if nothing changed since\n"
    "  recover [--apply [--rollback]]\n"
    "                      lists transactions a crash left unfinished; --apply rolls them\n"
    "                      forward (or back, with --rollback)\n"
    "\n"
    "--project-root defaults to the current directory, --memory-dir to docs/memory.\n";

constexpr const char* kTiersUsage =
    "usage: memkit tiers <command> [--workspace DIR]\n"
    "\n"
    "commands (writes apply directly, all their files or none, under .memkit/lock):\n"
    "  init                create memory/, sessions/, data/, manifest.json and the global.md\n"
    "                      skeleton; never overwrites\n"
    "  session-init [--session-id S] [--recent-days 7] [--theme-limit 8] [--no-log]\n"
    "               [--max-tokens N]\n"
    "                      global.md's excerpt, recent logs and themes; with --max-tokens the\n"
    "                      context in read order under that budget; logs SESSION_INIT\n"
    "  log-turn --content C [--entry-type turn] [--tools JSON] [--session-id S]\n"
    "                      append one L1 entry to memory/sessions/YYYY-MM-DD.md\n"
    "  persist-turn --raw-content R [--extracted-content E --theme T [--template decision|\n"
    "               error|task] [--title S] [--promote-global]] [--entry-type turn] [--tools JSON]\n"
    "               [--session-id S]\n"
    "                      L1, then the L2 note memory/<theme>/YYYY-MM-DD_HH.md, then global.md\n"
    "  write-theme --theme T --content C [--template X] [--title S] [--promote-global]\n"
    "              [--raw-content R] [--entry-type turn] [--tools JSON] [--session-id S]\n"
    "  write-global --content C [--append | --replace] [--raw-content R] [--entry-type turn]\n"
    "               [--tools JSON] [--session-id S]\n"
    "                      append (the default), or replace keeping the old text in\n"
    "                      memory/archive/global/\n"
    "  write-data --name N (--csv-content C | --source-file F) [--replace] [--description D]\n"
    "             [--source-label L] [--columns-json JSON] [--raw-content R] [--entry-type turn]\n"
    "             [--tools JSON] [--session-id S]\n"
    "                      store memory/data/N.csv and its manifest.json entry\n"
    "  read-logs [--days-back 7] [--limit 20]\n"
    "  read-theme --theme T [--hours-back 24] [--limit 20]\n"
    "  read-global         global.md and its read order (Active Mission, Key Constraints,\n"
    "                      Research Index, User Preferences)\n"
    "  list-themes\n"
    "  read-data --name N [--head N]\n"
    "  list-data\n"
    "  archive-themes [--days 90] [--apply --confirm-plan ID]\n"
    "                      move L2 notes older than the window to memory/archive/<theme>/\n"
    "  template decision|error|task\n"
    "                      the body skeleton of a template\n"
    "  recover [--apply [--rollback]]\n"
    "                      lists transactions a crash left unfinished; --apply finishes them\n"
    "\n"
    "--workspace defaults to the current directory. Reads never write.\n";

constexpr const char* kCuratedUsage =
    "usage: memkit curated <command> --workspace W [--store DIR] [--actor NAME]\n"
    "\n"
    "writes (all their files or none, under .memkit/lock; --dry-run shows the exact entry):\n"
    "  add --name N --type T (--body B | --body-file F|-) [--description D] [--class C]\n"
    "      [--status S|null] [--initiative I] [--project-ref R] [--audience A]\n"
    "      [--origin-session S]      upsert a row (class log by default)\n"
    "  append <name> (--body B | --body-file F)\n"
    "  edit --name N --field description|body (--content C | --body-file F)\n"
    "  reclassify <name> [--class anchor|thread|log] [--status open|carry_forward|graduated|\n"
    "             closed|null]\n"
    "  link <src> <dst> --kind relates_to|supersedes|derived_from|graduated_to [--delete]\n"
    "  unlink <src> <dst> --kind K\n"
    "  delete <name> [--hard] [--yes]  soft delete (a tombstone), or purge; a dry run without --yes\n"
    "  restore <name>\n"
    "  checkpoint --file F|- [--initiative I] [--project-ref R]\n"
    "                      the session record, its pending threads and their links, all or nothing\n"
    "  batch --file F      independent operations, each in its own transaction\n"
    "  recover [--apply [--rollback]]\n"
    "\n"
    "reads (deliberate, kernel and injection reads are counted apart; counters never select):\n"
    "  get-relevant [--initiative K] [--max-chars 800]\n"
    "                      the live-pending digest, or every live-pending row of one initiative\n"
    "  kernel [--max-chars N]\n"
    "  show <name> [--links] [--history] [--include-deleted]\n"
    "  list [--type] [--class] [--status] [--audience] [--initiative] [--sort name|injection|\n"
    "       deliberate|kernel] [--order asc|desc] [--limit N] [--include-deleted]\n"
    "  search <query> [--scope memory|episodes|both] [--limit 10]\n"
    "  stats | conflicts [--threshold 0.3]\n"
    "  lineage <name> [--max-depth 5] [--include-deleted]\n"
    "  story <name> [--max-depth 5] [--include-deleted]\n"
    "\n"
    "floors (append-only JSON Lines by UTC day) and telemetry:\n"
    "  event add --type T [--source] [--agent] [--result] [--severity] [--payload JSON]\n"
    "  episode add --file F|- | episode show <id>\n"
    "  floors prune [--apply --confirm-plan ID]\n"
    "  telemetry compact --before TS [--apply --confirm-plan ID]\n"
    "\n"
    "--store defaults to MEMKIT_STORE, else ./curated; --workspace (or MEMKIT_WORKSPACE) is\n"
    "required; --actor defaults to MEMKIT_ACTOR (none: the human owner).\n";

constexpr const char* kMemoryBoxUsage =
    "usage: memkit memorybox <command> [--root DIR]\n"
    "\n"
    "commands:\n"
    "  init [--profile default|maven]\n"
    "                      create the tier files that are missing (# <stem>) and memory/daily/,\n"
    "                      memory/ARCHIVES/; never overwrites; records the profile\n"
    "  client set --client C --to active|maintenance|archived [--apply --confirm-plan ID]\n"
    "                      Maven client lifecycle: a field update, or (archived and back)\n"
    "                      a plan that moves the client's files\n"
    "  canon add --file F --text T | verify\n"
    "                      Maven canon: append or create, recorded in .memkit/canon-ledger.jsonl;\n"
    "                      verify reports any other change\n"
    "  status              lines, items and budget states of tiers 1 to 5, and the bloat rules\n"
    "                      whose threshold is breached; writes nothing\n"
    "  decay [--file F]    each scored entry's effective confidence, band and review due date;\n"
    "                      writes nothing\n"
    "  log --text T [--session S]\n"
    "                      records a session: an entry of SESSION_LOG.md and a line in today's\n"
    "                      daily file, written directly (no gates)\n"
    "  gate --text T --confidence C [--title T] [--source S] [--client C]\n"
    "       [--value yes|no] [--category C | --new-category C | --no-category]\n"
    "       [--redundant-with ID | --not-redundant] [--stable | --decay-trigger DATE]\n"
    "       [--tier N --file F] [--apply]\n"
    "                      the five-gate write filter; a missing judgement stops with\n"
    "                      NEEDS_JUDGEMENT; --apply writes a WRITE outcome directly\n"
    "  update --entry ID --verify | --confirm | --contradict --note N |\n"
    "         --resolve keep [--confidence C] |\n"
    "         --resolve archive [--apply --confirm-plan ID]\n"
    "                      records an event on one entry's field lines (applied directly), or\n"
    "                      plans moving the entry to its archive\n"
    "  compact [--file F] [--force] [--apply --confirm-plan ID]\n"
    "                      the bloat rules: moves old entries to memory/ARCHIVES/ (a plan)\n"
    "  promote --entry ID [--apply --confirm-plan ID]\n"
    "                      moves a pattern to SOP_LIBRARY.md (a plan)\n"
    "  hygiene             the ten items of the monthly checklist, orphaned links included;\n"
    "                      writes nothing\n"
    "  load --tier N | --file F [--include-archive]\n"
    "                      a tier's files with their contents (tier 5 only with\n"
    "                      --include-archive); writes nothing\n"
    "  recover [--apply [--rollback]]\n"
    "                      lists transactions a crash left unfinished; finishes them (or\n"
    "                      rolls them back)\n"
    "\n"
    "--root defaults to the current directory.\n";

constexpr const char* kMarkdownUsage =
    "usage: memkit markdown units FILE\n"
    "\n"
    "Lists the units that partition FILE's lines (kind, first and last line, key) and its\n"
    "sections. Reads one file, writes nothing.\n";

int emit(const CommandReply& reply, const Invocation& inv, const Environment& env,
         std::ostream& out, std::ostream& err) {
  std::vector<Finding> findings = reply.findings;
  sort_findings(findings);
  const ExitClass exit_class = derive_exit_class(findings);
  std::size_t written = 0;
  const TextSink sink = [&](std::string_view piece) {
    out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
    written += piece.size();
  };
  if (inv.format == Format::json) {
    write_reply_json(reply, sink);
    out << '\n';
  } else if (exit_class == ExitClass::fatal && !reply.text) {
    for (const Finding& f : findings) err << "memkit: " << shown_text(f.message) << '\n';
  } else {
    // The human view, then every finding: those of the report and those the shell added.
    const Style style{env.stdout_is_terminal && !env.no_colour};
    if (reply.text) reply.text(sink);
    if (written != 0 && !findings.empty()) out << '\n';
    out << findings_text(findings, style);
  }
  return exit_code(exit_class);
}

}  // namespace

int run(const std::vector<std::string>& args, const Environment& env, std::ostream& out,
        std::ostream& err) {
  Result<Invocation> parsed = parse_invocation(args, command_options());
  if (!parsed) {
    // Without a parse there is no format either; look for --format json by hand so that
    // scripts still receive an envelope for their typo.
    Invocation fallback;
    for (std::size_t i = 0; i + 1 < args.size(); ++i) {
      if (args[i] == "--format" && args[i + 1] == "json") fallback.format = Format::json;
    }
    for (const std::string& a : args) {
      if (a == "--format=json") fallback.format = Format::json;
    }
    CommandReply reply;
    const std::vector<std::string> words = plain_words(args, command_options());
    for (std::size_t w = 0; w < words.size() && w < 2; ++w) {
      reply.command += (w == 0 ? "" : " ") + words[w];
    }
    reply.findings.push_back(finding_from(parsed.status()));
    return emit(reply, fallback, env, out, err);
  }
  const Invocation& inv = *parsed;
  const std::string name = inv.group + (inv.command.empty() ? "" : " " + inv.command);
  if (inv.version) {
    out << "memkit " << version() << '\n';
    return 0;
  }
  if (inv.group.empty() && !inv.help && inv.format == Format::json) {
    CommandReply reply;
    reply.findings.push_back(
        finding_from(Status(Errc::invalid_argument, "missing group; see memkit --help")));
    return emit(reply, inv, env, out, err);
  }
  if (inv.help || inv.group.empty()) {
    if (inv.group == "custodian") {
      out << kCustodianUsage;
    } else if (inv.group == "markdown") {
      out << kMarkdownUsage;
    } else if (inv.group == "memorybox") {
      out << kMemoryBoxUsage;
    } else if (inv.group == "tiers") {
      out << kTiersUsage;
    } else if (inv.group == "curated") {
      out << kCuratedUsage;
    } else {
      out << kUsage;
    }
    if (!inv.help && inv.group.empty()) return 2;
    return 0;
  }
  const CommandReply reply = execute(inv, env);
  return emit(reply, inv, env, out, err);
}

}  // namespace memkit::cli
