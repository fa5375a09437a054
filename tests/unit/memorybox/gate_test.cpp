// The five-gate write filter (spec memorybox.md §4): order and outcomes, fail-closed judgement,
// the exact match and the near-duplicates, placement rules, and the bytes a WRITE writes.
#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <string>

#include "memkit/memorybox/gate.hpp"
#include "memorybox/gate_write.hpp"

using namespace memkit;
using namespace memkit::memorybox;

namespace {

Inputs inputs_of(const std::map<std::string, std::string>& files) {
  Inputs in;
  std::vector<FileSnapshot> snaps;
  for (const auto& [path, bytes] : files) {
    snaps.push_back(
        FileSnapshot{path, EntryState::file, std::make_shared<const std::string>(bytes), ""});
    if (path.rfind("memory/daily/", 0) == 0) in.daily_files.push_back(path);
  }
  in.snapshot = Snapshot(std::move(snaps));
  return in;
}

const ClockReading kNow = *ClockReading::parse_rfc3339("2026-11-30T10:00:00+01:00");

// Answers per gate, as a host would give them in text; a gate without one gets no answer.
struct Host {
  std::map<Gate, std::string> answers;
  std::vector<Gate> asked;
  // What the questions held, copied: their spans view the index, which the run outlives.
  std::vector<std::string> categories;
  std::vector<std::string> category_entries;
  std::string category;
  Judge judge() {
    return [this](const GateQuestion& q) -> Result<std::optional<GateAnswer>> {
      asked.push_back(q.gate);
      if (q.gate == Gate::alignment) categories.assign(q.categories.begin(), q.categories.end());
      if (q.gate == Gate::redundancy) {
        category_entries.assign(q.category_entries.begin(), q.category_entries.end());
        category = q.category;
      }
      const auto it = answers.find(q.gate);
      if (it == answers.end()) return std::optional<GateAnswer>();
      Result<GateAnswer> parsed = parse_gate_answer(q.gate, it->second);
      if (!parsed) return parsed.status();
      return std::optional<GateAnswer>(*parsed);
    };
  }
};

Host host_for(std::string category, std::string tier_file) {
  Host host;
  host.answers = {{Gate::value, "yes"},
                  {Gate::alignment, std::move(category)},
                  {Gate::redundancy, "none"},
                  {Gate::freshness, "stable"},
                  {Gate::placement, std::move(tier_file)}};
  return host;
}

struct Ran {
  GateVerdict verdict;
  std::string after;  // the target file after the write, for a WRITE
};

Ran gate(const std::map<std::string, std::string>& files, const Candidate& candidate, Host& host) {
  const Inputs in = inputs_of(files);
  const Result<GateIndex> index = GateIndex::build(in);
  REQUIRE(index);
  Ran ran{run_gates(in, *index, candidate, host.judge(), kNow), ""};
  if (ran.verdict.outcome == Outcome::write && !ran.verdict.refusal) {
    const auto it = files.find(*ran.verdict.file);
    const std::string base = ran.verdict.creates_file || it == files.end() ? "" : it->second;
    ran.after = apply_splices(base, ran.verdict.splices);
  }
  return ran;
}

Candidate fact(std::string text, std::uint32_t confidence = 85) {
  Candidate c;
  c.text = std::move(text);
  c.confidence = confidence;
  return c;
}

const std::map<std::string, std::string> kRoot = {
    {"memory/LONG_TERM.md",
     "# LONG_TERM\n\n## Stack\n- Uses PostgreSQL 15 for storage\n  Confidence: 0.90\n"
     "  Verified: 2026-10-01\n\n### DB\n- Backups run nightly at two\n\n## Team\n"
     "- Alice owns the deploy pipeline and its runbooks\n"},
    {"memory/MISTAKES.md", "# MISTAKES\n\n## Forgot the migration\nRun it first.\n"},
    {"memory/SESSION_LOG.md", "# SESSION_LOG\n\n### 2026-11-29 — setup\nDid things.\n"},
};

}  // namespace

TEST_CASE("gate: speculation is not stored and no gate runs") {
  Host host = host_for("existing Stack", "2 memory/LONG_TERM.md");
  const Ran ran = gate(kRoot, fact("A guess", 19), host);
  CHECK(ran.verdict.outcome == Outcome::do_not_store);
  CHECK(host.asked.empty());
  CHECK_FALSE(ran.verdict.stopped_at.has_value());
  for (const GateStep& step : ran.verdict.gates) CHECK(step.result == "skipped");
}

TEST_CASE("gate: a missing judgement stops the run with NEEDS_JUDGEMENT, failing closed") {
  Host host;  // answers nothing
  const Ran ran = gate(kRoot, fact("Deploys need a green build"), host);
  CHECK(ran.verdict.outcome == Outcome::needs_judgement);
  CHECK(ran.verdict.stopped_at == Gate::value);
  CHECK(ran.verdict.gates[0].result == "needs_judgement");
  CHECK(ran.verdict.gates[1].result == "skipped");
  REQUIRE(ran.verdict.findings.size() == 1);
  CHECK(ran.verdict.findings[0].code == "MK-BOX-003");
  CHECK(ran.verdict.splices.empty());

  Host no_freshness = host_for("existing Team", "2 memory/LONG_TERM.md");
  no_freshness.answers.erase(Gate::freshness);
  const Ran later = gate(kRoot, fact("Deploys need a green build"), no_freshness);
  CHECK(later.verdict.stopped_at == Gate::freshness);
  CHECK(later.verdict.gates[2].result == "pass");
  CHECK(later.verdict.gates[4].result == "skipped");
}

TEST_CASE("gate: VALUE no and ALIGNMENT none discard") {
  Host no_value = host_for("existing Team", "2 memory/LONG_TERM.md");
  no_value.answers[Gate::value] = "no";
  const Ran a = gate(kRoot, fact("Deploys need a green build"), no_value);
  CHECK(a.verdict.outcome == Outcome::discard);
  CHECK(a.verdict.stopped_at == Gate::value);
  CHECK(a.verdict.gates[0].result == "fail");

  Host no_category = host_for("none", "2 memory/LONG_TERM.md");
  const Ran b = gate(kRoot, fact("Deploys need a green build"), no_category);
  CHECK(b.verdict.outcome == Outcome::discard);
  CHECK(b.verdict.stopped_at == Gate::alignment);
}

TEST_CASE("gate: ALIGNMENT gets every existing category and refuses an unknown one") {
  Host host = host_for("existing Nope", "2 memory/LONG_TERM.md");
  const Ran ran = gate(kRoot, fact("Deploys need a green build"), host);
  REQUIRE(ran.verdict.refusal.has_value());
  CHECK(ran.verdict.refusal->code == "MK-ARG-001");
  CHECK(ran.verdict.refusal->fatal);
  std::string all;
  for (const std::string& c : host.categories) all += c + ";";
  CHECK(all == "MISTAKES;Stack;Stack / DB;Team;");
}

TEST_CASE("gate: an exact match is UPDATE_EXISTING without asking the host") {
  Host host = host_for("existing Stack", "2 memory/LONG_TERM.md");
  const Ran ran = gate(kRoot, fact("  uses POSTGRESQL 15   for storage"), host);
  // Case and surrounding whitespace do not matter; inner whitespace does (the §6.3 key), so
  // this is only a near-duplicate (the same words), which the host judged different.
  CHECK(ran.verdict.outcome == Outcome::write);
  REQUIRE(ran.verdict.near_duplicates.size() == 1);
  CHECK(ran.verdict.near_duplicates[0].similarity == 100);
  Host again = host_for("existing Stack", "2 memory/LONG_TERM.md");
  const Ran same = gate(kRoot, fact("  uses POSTGRESQL 15 for storage\n"), again);
  CHECK(same.verdict.outcome == Outcome::update_existing);
  CHECK(same.verdict.stopped_at == Gate::redundancy);
  CHECK(same.verdict.category == "Stack");  // ALIGNMENT passed before the match was found
  CHECK(same.verdict.entry_id.value_or("").rfind("memory/LONG_TERM.md#", 0) == 0);
  CHECK(again.asked == std::vector<Gate>{Gate::value, Gate::alignment});
}

TEST_CASE("gate: near-duplicates go to the host, without an answer the run stops") {
  const Candidate near = fact("Alice owns the deploy pipeline and its runbooks now");
  Host silent = host_for("existing Team", "2 memory/LONG_TERM.md");
  silent.answers.erase(Gate::redundancy);
  const Ran stopped = gate(kRoot, near, silent);
  CHECK(stopped.verdict.outcome == Outcome::needs_judgement);
  CHECK(stopped.verdict.stopped_at == Gate::redundancy);
  REQUIRE(stopped.verdict.near_duplicates.size() == 1);
  // 7 shingles against 6, sharing 6: 6/7 = 85 hundredths.
  CHECK(stopped.verdict.near_duplicates[0].similarity == 85);
  CHECK(stopped.verdict.near_duplicates[0].file == "memory/LONG_TERM.md");
  CHECK(silent.asked.back() == Gate::redundancy);
  CHECK(silent.category == "Team");
  CHECK(silent.category_entries.size() == 1);

  Host names_it = host_for("existing Team", "2 memory/LONG_TERM.md");
  names_it.answers[Gate::redundancy] = stopped.verdict.near_duplicates[0].entry_id;
  const Ran update = gate(kRoot, near, names_it);
  CHECK(update.verdict.outcome == Outcome::update_existing);
  CHECK(update.verdict.entry_id == stopped.verdict.near_duplicates[0].entry_id);

  Host unknown = host_for("existing Team", "2 memory/LONG_TERM.md");
  unknown.answers[Gate::redundancy] = "memory/LONG_TERM.md#000000000000";
  CHECK(gate(kRoot, near, unknown).verdict.refusal->code == "MK-ARG-001");

  Host different = host_for("existing Team", "2 memory/LONG_TERM.md");
  CHECK(gate(kRoot, near, different).verdict.outcome == Outcome::write);

  // No near-duplicate and no answer: the gate passes.
  Host quiet = host_for("existing Team", "2 memory/LONG_TERM.md");
  quiet.answers.erase(Gate::redundancy);
  const Ran passed = gate(kRoot, fact("Bob reviews every schema change"), quiet);
  CHECK(passed.verdict.outcome == Outcome::write);
  CHECK(passed.verdict.gates[2].result == "pass");
}

TEST_CASE("gate: a decay trigger must lie after today") {
  Host today = host_for("existing Team", "2 memory/LONG_TERM.md");
  today.answers[Gate::freshness] = "time_sensitive 2026-11-30";
  const Ran refused = gate(kRoot, fact("Bob is on call this week"), today);
  REQUIRE(refused.verdict.refusal.has_value());
  CHECK(refused.verdict.refusal->code == "MK-BOX-001");

  Host tomorrow = host_for("existing Team", "2 memory/LONG_TERM.md");
  tomorrow.answers[Gate::freshness] = "time_sensitive 2026-12-01";
  const Ran ran = gate(kRoot, fact("Bob is on call this week"), tomorrow);
  CHECK(ran.verdict.outcome == Outcome::write);
  CHECK(ran.after.find("- Bob is on call this week\n  Confidence: 0.85\n  Verified: 2026-11-30\n"
                       "  Decay-Trigger: 2026-12-01\n  Updated: 2026-11-30T09:00:00.000Z\n"
                       "  Id: ") != std::string::npos);
}

TEST_CASE("gate: PLACEMENT rejects tier 5, a file outside the tier and another day's log") {
  for (const char* placement :
       {"5 memory/ARCHIVES/x.md", "3 memory/LONG_TERM.md", "4 memory/daily/2026-11-29.md"}) {
    Host host = host_for("existing Team", placement);
    const Ran ran = gate(kRoot, fact("Bob reviews every schema change"), host);
    CHECK(ran.verdict.outcome == Outcome::rejected);
    CHECK(ran.verdict.stopped_at == Gate::placement);
    REQUIRE(ran.verdict.findings.size() == 1);
    CHECK(ran.verdict.findings[0].code == "MK-BOX-004");
    CHECK(ran.verdict.findings[0].severity == Severity::error);
    CHECK(ran.verdict.splices.empty());
  }
  Host bad_tier = host_for("existing Team", "6 memory/LONG_TERM.md");
  CHECK(gate(kRoot, fact("Bob reviews"), bad_tier).verdict.refusal->code == "MK-ARG-001");
}

TEST_CASE("gate: a bullet goes tight after its H2's own content, before the H3") {
  Host host = host_for("existing Stack", "2 memory/LONG_TERM.md");
  const Ran ran = gate(kRoot, fact("Redis caches sessions"), host);
  REQUIRE(ran.verdict.outcome == Outcome::write);
  CHECK(ran.after.find("  Verified: 2026-10-01\n- Redis caches sessions\n") != std::string::npos);
  CHECK(ran.after.find("\n\n### DB\n") != std::string::npos);
  CHECK(ran.verdict.category == "Stack");
  CHECK(ran.verdict.entry_id.value_or("").rfind("memory/LONG_TERM.md#", 0) == 0);
  // Nothing else changed: removing the entry gives back the file.
  std::string back = ran.after;
  back.erase(back.find("- Redis"), ran.verdict.entry_text->size() + 1);
  CHECK(back == kRoot.at("memory/LONG_TERM.md"));

  Host sub = host_for("existing Stack / DB", "2 memory/LONG_TERM.md");
  const Ran under = gate(kRoot, fact("Restores are tested monthly"), sub);
  CHECK(under.after.find("- Backups run nightly at two\n- Restores are tested monthly\n") !=
        std::string::npos);

  Host fresh = host_for("new Vendors", "2 memory/LONG_TERM.md");
  const Ran created = gate(kRoot, fact("Stripe handles billing"), fresh);
  CHECK(created.verdict.gates[1].detail == "creates the category 'Vendors'");
  const std::string tail = "## Vendors\n\n- Stripe handles billing\n";
  CHECK(created.after.find("runbooks\n\n" + tail) != std::string::npos);
}

TEST_CASE("gate: section files and the session log get a dated heading, ids only where synced") {
  Candidate lesson = fact("Always run the migration before the deploy.");
  lesson.title = "Migration order";
  Host host = host_for("new Deploys", "3 memory/MISTAKES.md");
  const Ran ran = gate(kRoot, lesson, host);
  REQUIRE(ran.verdict.outcome == Outcome::write);
  const std::size_t at = ran.after.find("\n\n## 2026-11-30 — Migration order\nConfidence: 0.85\n");
  REQUIRE(at != std::string::npos);
  CHECK(ran.after.find("Category: Deploys\nUpdated: 2026-11-30T09:00:00.000Z\nId: ", at) !=
        std::string::npos);
  CHECK(ran.after.substr(ran.after.size() - 46) ==
        "\n\nAlways run the migration before the deploy.\n");

  Candidate untitled = fact("Always run it");
  Host again = host_for("existing MISTAKES", "3 memory/MISTAKES.md");
  CHECK(gate(kRoot, untitled, again).verdict.refusal->message.find("--title") != std::string::npos);

  Candidate session = fact("Set up the gate.");
  session.title = "gates";
  Host log = host_for("existing Team", "4 memory/SESSION_LOG.md");
  const Ran logged = gate(kRoot, session, log);
  CHECK(logged.after.find("Did things.\n\n### 2026-11-30 — gates\nConfidence: 0.85\n") !=
        std::string::npos);
  // The same title on the same day would make a second entry with the same ID.
  const std::map<std::string, std::string> twice = {{"memory/SESSION_LOG.md", logged.after}};
  Host log_again = host_for("new Team", "4 memory/SESSION_LOG.md");
  Candidate other = fact("Something else.");
  other.title = "gates";
  const GateVerdict refused = gate(twice, other, log_again).verdict;
  REQUIRE(refused.refusal.has_value());
  CHECK(refused.refusal->message.find("already has the entry") != std::string::npos);
}

TEST_CASE("gate: today's daily file is created with its Id line, the bullet has none") {
  Host host = host_for("existing Team", "4 memory/daily/2026-11-30.md");
  const Ran ran = gate(kRoot, fact("Paired with Bob on the gate"), host);
  REQUIRE(ran.verdict.outcome == Outcome::write);
  CHECK(ran.verdict.creates_file);
  REQUIRE(ran.after.rfind("Id: ", 0) == 0);
  const std::string id = ran.after.substr(4, 36);
  CHECK(id[14] == '7');                                          // version 7
  CHECK(std::string("89ab").find(id[19]) != std::string::npos);  // RFC 9562 variant
  CHECK(ran.after.substr(40) ==
        "\n\n- Paired with Bob on the gate\n  Confidence: 0.85\n  Verified: 2026-11-30\n"
        "  Stable: yes\n  Updated: 2026-11-30T09:00:00.000Z\n");
  CHECK(ran.verdict.entry_id ==
        "memory/daily/2026-11-30.md#" + std::string(ran.verdict.entry_id->substr(27)));
}

TEST_CASE("gate: CRLF files and an unterminated last line keep their style") {
  const std::map<std::string, std::string> crlf = {
      {"memory/LONG_TERM.md", "# LONG_TERM\r\n\r\n## Team\r\n- Alice owns deploys"}};
  Host host = host_for("existing Team", "2 memory/LONG_TERM.md");
  const Ran ran = gate(crlf, fact("Bob owns the database"), host);
  REQUIRE(ran.verdict.outcome == Outcome::write);
  CHECK(ran.after.rfind("# LONG_TERM\r\n\r\n## Team\r\n- Alice owns deploys\r\n- Bob owns the "
                        "database\r\n  Confidence: 0.85\r\n",
                        0) == 0);
  CHECK(ran.after.find('\n') == ran.after.find("\r\n") + 1);
}

TEST_CASE(
    "gate: advice on a WRITE: verified outside LONG_TERM, medium outside tier 2, low, budget") {
  Host verified = host_for("existing Team", "1 brain/STATE.md");
  const Ran v = gate(kRoot, fact("Production runs in eu-west-1", 97), verified);
  REQUIRE(v.verdict.outcome == Outcome::write);
  REQUIRE(v.verdict.findings.size() == 1);
  CHECK(v.verdict.findings[0].code == "MK-BOX-010");
  CHECK(v.verdict.budget->limit == 2500u);  // the tier-1 combined total

  Host medium = host_for("existing Team", "1 brain/STATE.md");
  const Ran m = gate(kRoot, fact("Production runs in eu-west-1", 60), medium);
  REQUIRE(m.verdict.findings.size() == 1);
  CHECK(m.verdict.findings[0].code == "MK-BOX-011");

  Host low = host_for("existing Team", "2 memory/LONG_TERM.md");
  const Ran l = gate(kRoot, fact("Production might move to us-east-1", 30), low);
  CHECK(l.after.find("  Review: needs verification\n  Updated: ") != std::string::npos);
  CHECK(l.verdict.findings.empty());

  std::string long_term = "# LONG_TERM\n\n## Team\n";
  for (int i = 0; i < 236; ++i) long_term += "- fact number " + std::to_string(i) + "\n";
  Host near = host_for("existing Team", "2 memory/LONG_TERM.md");
  const Ran n = gate({{"memory/LONG_TERM.md", long_term}}, fact("One more fact"), near);
  REQUIRE(n.verdict.budget.has_value());
  CHECK(n.verdict.budget->lines_before == 239);
  CHECK(n.verdict.budget->lines_after == 245);
  CHECK(n.verdict.budget->state == BudgetState::near_limit);
  REQUIRE(n.verdict.findings.size() == 1);
  CHECK(n.verdict.findings[0].code == "MK-BOX-012");
}

TEST_CASE("gate: a text that would not read back as one entry is refused") {
  Host host = host_for("existing Team", "2 memory/LONG_TERM.md");
  const Ran ran = gate(kRoot, fact("Bob owns billing\nSource: hearsay"), host);
  REQUIRE(ran.verdict.refusal.has_value());
  CHECK(ran.verdict.refusal->code == "MK-ARG-001");
  CHECK(ran.verdict.splices.empty());
}

TEST_CASE("gate: a failing judgement refuses with MK-BOX-005") {
  const Inputs in = inputs_of(kRoot);
  const Result<GateIndex> index = GateIndex::build(in);
  REQUIRE(index);
  const Judge failing = [](const GateQuestion&) -> Result<std::optional<GateAnswer>> {
    return Status(Errc::callback, "the host is down");
  };
  const GateVerdict verdict = run_gates(in, *index, fact("Anything"), failing, kNow);
  REQUIRE(verdict.refusal.has_value());
  CHECK(verdict.refusal->code == "MK-BOX-005");
  CHECK(verdict.refusal->message.find("the host is down") != std::string::npos);
}

TEST_CASE("gate: an unparseable tier file stops the gate before it runs") {
  const Inputs in = inputs_of({{"memory/LONG_TERM.md", "# LONG_TERM\n```\nopen fence\n"}});
  const Result<GateIndex> index = GateIndex::build(in);
  REQUIRE_FALSE(index);
  CHECK(index.status().code() == Errc::parse);
  CHECK(index.status().message().find("memory/LONG_TERM.md:2") != std::string::npos);
}

TEST_CASE("gate: answers in text form") {
  CHECK(parse_gate_answer(Gate::value, "yes")->value);
  CHECK_FALSE(parse_gate_answer(Gate::value, "no")->value);
  CHECK_FALSE(parse_gate_answer(Gate::value, "maybe"));
  CHECK(parse_gate_answer(Gate::alignment, "existing Stack / DB")->category == "Stack / DB");
  CHECK(parse_gate_answer(Gate::alignment, "new X")->alignment == Alignment::create);
  CHECK(parse_gate_answer(Gate::alignment, "none")->alignment == Alignment::none);
  CHECK_FALSE(parse_gate_answer(Gate::alignment, "existing"));
  CHECK_FALSE(parse_gate_answer(Gate::redundancy, "none")->redundant_with.has_value());
  CHECK(parse_gate_answer(Gate::redundancy, "a#b")->redundant_with == "a#b");
  CHECK(parse_gate_answer(Gate::freshness, "stable")->stable);
  CHECK(parse_gate_answer(Gate::freshness, "time_sensitive 2027-01-01")->decay_trigger ==
        "2027-01-01");
  CHECK_FALSE(parse_gate_answer(Gate::freshness, "soon"));
  const Result<GateAnswer> placement = parse_gate_answer(Gate::placement, "2 memory/LONG_TERM.md");
  CHECK(placement->tier == 2);
  CHECK(placement->file == "memory/LONG_TERM.md");
  CHECK_FALSE(parse_gate_answer(Gate::placement, "two memory/LONG_TERM.md"));
}

TEST_CASE("gate: Ids are UUIDv7 from the clock, the same for the same write") {
  const std::string a = uuid7(kNow.unix_millis(), "seed");
  CHECK(a == uuid7(kNow.unix_millis(), "seed"));
  CHECK(a != uuid7(kNow.unix_millis(), "other seed"));
  CHECK(a.size() == 36);
  CHECK(a.substr(0, 13) == "01a22bae-b680");  // 2026-11-30T09:00:00.000Z in milliseconds
  CHECK(a[14] == '7');
}

TEST_CASE("gate: a WRITE carries the candidate's source and client in the field order") {
  Candidate c = fact("Acme renews in March");
  c.source = "call with Acme";
  c.client = "acme";
  // `new` naming a category that exists already is that category (it has a place in the file).
  Host host = host_for("new Team", "2 memory/LONG_TERM.md");
  const Ran ran = gate(kRoot, c, host);
  REQUIRE(ran.verdict.outcome == Outcome::write);
  CHECK(ran.verdict.gates[1].detail == "fits the existing category 'Team'");
  CHECK(ran.after.find("runbooks\n- Acme renews in March\n  Confidence: 0.85\n  Verified: "
                       "2026-11-30\n  Stable: yes\n  Source: call with Acme\n  Client: acme\n"
                       "  Updated: 2026-11-30T09:00:00.000Z\n  Id: ") != std::string::npos);
  Candidate two_lines = c;
  two_lines.client = "acme\nbeta";
  Host again = host_for("new Team", "2 memory/LONG_TERM.md");
  const GateVerdict refused = gate(kRoot, two_lines, again).verdict;
  REQUIRE(refused.refusal.has_value());
  CHECK(refused.refusal->message.rfind("--client:", 0) == 0);
}

TEST_CASE("gate: a Maven root's canon is never a PLACEMENT, its other brain files are tier 1") {
  Inputs in = inputs_of({{"brain/MARKETING_CANON.md", "# MARKETING_CANON\n"},
                         {"brain/OKRs.md", "# OKRs\n\n## Q4\n"}});
  in.profile = Profile::maven;
  in.tiers = profile_tiers(Profile::maven, {});
  const Result<GateIndex> index = GateIndex::build(in);
  REQUIRE(index);
  Host canon = host_for("existing Q4", "1 brain/MARKETING_CANON.md");
  const GateVerdict rejected =
      run_gates(in, *index, fact("Our voice is plain"), canon.judge(), kNow);
  CHECK(rejected.outcome == Outcome::rejected);
  REQUIRE(rejected.findings.size() == 1);
  CHECK(rejected.findings[0].message.find("canon add") != std::string::npos);
  Host okrs = host_for("existing Q4", "1 brain/OKRs.md");
  CHECK(run_gates(in, *index, fact("Grow trials 20%"), okrs.judge(), kNow).outcome ==
        Outcome::write);
}
