// Maven canon (spec memorybox.md §10): the ledger, its verification, and `canon add`.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "codec/bounded_json.hpp"
#include "codec/canonical.hpp"
#include "memkit/digest.hpp"
#include "memkit/edit.hpp"
#include "memkit/markdown.hpp"
#include "memkit/memorybox/canon.hpp"
#include "memkit/text.hpp"

namespace memkit::memorybox {
namespace {

constexpr std::string_view kMarketingCanon = "brain/MARKETING_CANON.md";

bool is_hex64(std::string_view text) {
  return text.size() == 64 && std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

// Every canon file of the root: the marketing canon (when it exists) and brain/canon/*.md.
std::vector<std::string> canon_files_of(const Inputs& inputs) {
  std::vector<std::string> files;
  const FileSnapshot* canon = inputs.snapshot.find(kMarketingCanon);
  if (canon != nullptr && canon->state == EntryState::file) files.emplace_back(kMarketingCanon);
  files.insert(files.end(), inputs.canon_files.begin(), inputs.canon_files.end());
  std::sort(files.begin(), files.end());
  return files;
}

// The violation of one file against its latest record, if any.
std::optional<std::string> violation_of(const Inputs& inputs, const CanonRecord& record) {
  const FileSnapshot* file = inputs.snapshot.find(record.path);
  if (file == nullptr || file->state != EntryState::file) {
    return std::string("recorded in the ledger but missing");
  }
  const std::string_view bytes = file->text();
  if (bytes.size() < record.length) {
    return fmt::format("{} bytes, fewer than the {} recorded: canon was removed", bytes.size(),
                       record.length);
  }
  if (sha256_hex(bytes.substr(0, record.length)) != record.sha256) {
    return fmt::format("its first {} bytes changed since {}", record.length, record.recorded_at);
  }
  if (record.path != kMarketingCanon && bytes.size() != record.length) {
    return fmt::format("write-once, but {} bytes were added after {}", bytes.size() - record.length,
                       record.recorded_at);
  }
  return std::nullopt;
}

// A bullet of canon text: `- ` before the first line, two spaces before later non-blank lines.
std::vector<std::string> bullet_lines(std::string_view text) {
  std::vector<std::string> lines;
  LineCursor cursor(text, 0, text.size(), 1);
  Line line{};
  while (cursor.next(line)) {
    if (lines.empty()) {
      lines.push_back("- " + std::string(line.content));
    } else {
      lines.push_back(strip_w(line.content).empty() ? "" : "  " + std::string(line.content));
    }
  }
  return lines;
}

}  // namespace

Status check_maven(const Inputs& inputs) {
  if (inputs.profile == Profile::maven) return Status();
  return Status(Errc::invalid_argument,
                "memorybox canon: the root's profile is default; canon is Maven's "
                "(memkit memorybox init --profile maven)");
}

Result<std::vector<CanonRecord>> parse_canon_ledger(std::string_view bytes) {
  std::vector<CanonRecord> records;
  LineCursor cursor(bytes, 0, bytes.size(), 1);
  Line line{};
  while (cursor.next(line)) {
    if (strip_w(line.content).empty()) continue;
    auto bad = [&](std::string_view why) {
      return Status(Errc::parse, fmt::format("{}:{}: {}", kCanonLedger, line.number, why));
    };
    std::string problem = "not a JSON object";
    const nlohmann::json value = memkit::detail::parse_bounded_json(line.content, &problem);
    if (value.is_discarded() || !value.is_object()) return bad(problem);
    CanonRecord record;
    const auto path = value.find("path");
    const auto length = value.find("length");
    const auto sha = value.find("sha256");
    const auto at = value.find("recorded_at");
    if (path == value.end() || !path->is_string() || !is_canon_file(path->get<std::string>())) {
      return bad("\"path\" is not a canon file");
    }
    if (length == value.end() || !length->is_number_unsigned()) {
      return bad("\"length\" is not a byte count");
    }
    if (sha == value.end() || !sha->is_string() || !is_hex64(sha->get<std::string>())) {
      return bad("\"sha256\" is not 64 lowercase hex digits");
    }
    if (at == value.end() || !at->is_string()) return bad("\"recorded_at\" is not a time");
    record.path = path->get<std::string>();
    record.length = length->get<std::uint64_t>();
    record.sha256 = sha->get<std::string>();
    record.recorded_at = at->get<std::string>();
    records.push_back(std::move(record));
  }
  return records;
}

std::string canon_ledger_line(const CanonRecord& record) {
  return memkit::detail::canonical_dump({{"path", memkit::detail::utf8(record.path)},
                                         {"length", record.length},
                                         {"sha256", record.sha256},
                                         {"recorded_at", record.recorded_at}}) +
         "\n";
}

CanonCheck verify_canon(const Inputs& inputs) {
  CanonCheck check;
  std::map<std::string, CanonRecord> latest;
  if (inputs.canon_ledger) {
    Result<std::vector<CanonRecord>> records = parse_canon_ledger(*inputs.canon_ledger);
    if (!records) {
      check.violations.push_back({std::string(kCanonLedger), records.status().message()});
      check.findings.push_back(make_finding("MK-BOX-030", Severity::error,
                                            std::string(kCanonLedger), records.status().message(),
                                            "restore the ledger from your backups or VCS"));
      return check;
    }
    for (CanonRecord& record : *records) latest[record.path] = std::move(record);
  }
  for (auto& [path, record] : latest) {
    if (std::optional<std::string> why = violation_of(inputs, record)) {
      check.findings.push_back(make_finding(
          "MK-BOX-030", Severity::error, path, path + ": " + *why,
          "canon is immutable: restore the recorded bytes (the ledger has their SHA-256)"));
      check.violations.push_back({path, std::move(*why)});
    }
    check.ledger.push_back(record);
  }
  for (const std::string& path : canon_files_of(inputs)) {
    if (latest.count(path) == 0) check.unrecorded.push_back(path);
  }
  sort_findings(check.findings);
  return check;
}

Result<CanonAddition> plan_canon_add(const Inputs& inputs, std::string_view file,
                                     std::string_view text, const ClockReading& now) {
  if (Status maven = check_maven(inputs); !maven.ok()) return maven;
  const std::string path(file);
  if (!is_canon_file(path)) {
    return Status(Errc::invalid_argument, "--file: " + path +
                                              ": not a canon file (brain/MARKETING_CANON.md, "
                                              "brain/canon/<name>.md)");
  }
  const std::string_view given = strip_w(text);
  if (given.empty()) return Status(Errc::invalid_argument, "--text: empty");
  if (Status plain = check_plain_text("--text", given); !plain.ok()) return plain;
  CanonAddition add;
  add.path = path;
  const CanonCheck before = verify_canon(inputs);
  for (const CanonViolation& v : before.violations) {
    if (v.path == path || v.path == kCanonLedger) {
      add.refusal = make_finding("MK-BOX-030", Severity::error, v.path,
                                 v.path + ": " + v.reason + "; nothing is added",
                                 "restore the recorded bytes first");
      return add;
    }
  }
  const FileSnapshot* existing = inputs.snapshot.find(path);
  const bool exists = existing != nullptr && existing->state == EntryState::file;
  if (path == kMarketingCanon) {
    const std::string base = exists ? std::string(existing->text()) : "# MARKETING_CANON\n";
    const Document doc = parse_markdown(base);
    if (!doc.parseable()) return Status(Errc::parse, describe_issue(*doc.parse_error(), path));
    const std::vector<Splice> splices{append_block(doc, bullet_lines(given), true)};
    add.bytes = apply_splices(base, splices);
  } else {
    if (exists || (existing != nullptr && existing->state != EntryState::missing)) {
      return Status(Errc::invalid_argument,
                    "--file: " + path + ": exists, and brain/canon/*.md files are write-once");
    }
    add.bytes = std::string(given) + "\n";
  }
  add.record = CanonRecord{path, add.bytes.size(), sha256_hex(add.bytes), now.utc_rfc3339_millis()};
  add.ledger = inputs.canon_ledger ? *inputs.canon_ledger : std::string();
  if (!add.ledger.empty() && add.ledger.back() != '\n') add.ledger += '\n';
  add.ledger += canon_ledger_line(add.record);
  // The ledger after the addition, as verify will see it.
  Inputs after = inputs;
  std::vector<FileSnapshot> files = after.snapshot.files();
  std::erase_if(files, [&](const FileSnapshot& f) { return f.path == path; });
  files.push_back(
      FileSnapshot{path, EntryState::file, std::make_shared<const std::string>(add.bytes), ""});
  after.snapshot = Snapshot(std::move(files));
  after.canon_ledger = std::make_shared<const std::string>(add.ledger);
  if (path != kMarketingCanon && std::find(after.canon_files.begin(), after.canon_files.end(),
                                           path) == after.canon_files.end()) {
    after.canon_files.push_back(path);
    std::sort(after.canon_files.begin(), after.canon_files.end());
  }
  add.check = verify_canon(after);
  return add;
}

}  // namespace memkit::memorybox
