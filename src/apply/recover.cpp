// `memkit custodian recover` (spec compaction.md §12.5): finish or undo what a crash interrupted.
#include <nlohmann/json.hpp>
#include <string_view>

#include "apply/apply.hpp"
#include "apply/parent_folders.hpp"
#include "codec/bounded_json.hpp"
#include "codec/canonical.hpp"
#include "codec/json_fields.hpp"
#include "files/file_system.hpp"
#include "files/state_directory.hpp"
#include "text/shown_text.hpp"

namespace memkit {
namespace {

using detail::join;

struct JournalTarget {
  std::string path;
  bool base_exists = false;
  std::string base_sha256;
  std::string output_sha256;
  std::string mode;  // create, replace, delete, append
  std::string backup;
  std::string prepared;
  // An append's: where the bytes its digests cover begin, and the file's length before and after.
  std::uint64_t offset = 0;
  std::uint64_t base_size = 0;
  std::uint64_t output_size = 0;
  [[nodiscard]] bool append() const noexcept { return mode == "append"; }
};

// Whether a journal target names only files inside the memory folder and the transaction's.
bool contained(const JournalTarget& t) noexcept {
  const auto source_ok = [](std::string_view name) {
    return name.empty() ||
           (is_plain_relative_path(name) && name.find('/') == std::string_view::npos);
  };
  return is_plain_relative_path(t.path) && source_ok(t.backup) && source_ok(t.prepared);
}

// The state of a target on disk: its bytes' digest, or the empty digest when it is absent.
Result<std::string> current_digest(FileSystem& fs, const std::string& path) {
  const Result<NodeType> type = fs.node_type(path);
  if (!type) return type.status();
  if (*type == NodeType::none) return std::string();
  Result<std::string> bytes = fs.read_file(path);
  if (!bytes) return bytes.status();
  return sha256_hex(*bytes);
}

TargetState state_of(const JournalTarget& t, const std::string& digest) {
  const std::string base = t.base_exists ? t.base_sha256 : std::string();
  const std::string output = t.mode == "delete" ? std::string() : t.output_sha256;
  // An absent file is "" here, so a created target at base and a deleted one at output match.
  if (digest == output) return TargetState::output;
  if (digest == base) return TargetState::base;
  return TargetState::other;
}

// Where an appended target stands: at its output (every appended byte there), at its base with
// none or only the first part of the appended bytes after it (a write cut short: finishing appends
// again from the base, undoing cuts back to it), or other. Only the bytes from the journal's
// offset on are read; `grown` is set when the file is longer than its base.
Result<TargetState> append_state(FileSystem& fs, const std::string& target, const std::string& txn,
                                 const JournalTarget& t, bool* grown) {
  *grown = false;
  const Result<FileStat> found = fs.stat(target);
  if (!found) {
    if (found.status().code() == Errc::not_found) return TargetState::other;
    return found.status();
  }
  if (found->type != NodeType::file || found->size < t.base_size || found->size > t.output_size ||
      t.offset > t.base_size) {
    return TargetState::other;
  }
  Result<std::string> now = fs.read_range(target, t.offset, found->size - t.offset);
  if (!now) return now.status();
  const std::size_t window = t.base_size - t.offset;
  if (now->size() != found->size - t.offset ||
      sha256_hex(std::string_view(*now).substr(0, window)) != t.base_sha256) {
    return TargetState::other;
  }
  if (found->size == t.output_size && sha256_hex(*now) == t.output_sha256) {
    return TargetState::output;
  }
  *grown = found->size > t.base_size;
  if (!*grown) return TargetState::base;
  Result<std::string> appended = fs.read_file(join(txn, t.prepared));
  if (!appended) return TargetState::other;
  const std::string_view part = std::string_view(*now).substr(window);
  return std::string_view(*appended).substr(0, part.size()) == part ? TargetState::base
                                                                    : TargetState::other;
}

// Finishes an append (from its base, whatever part of it got there) or undoes it.
Status settle_append(FileSystem& fs, const ApplyPaths& paths, const std::string& txn,
                     const JournalTarget& t, bool rollback) {
  const std::string target = join(paths.memory_dir, t.path);
  if (Status cut = fs.truncate_file(target, t.base_size); !cut.ok() || rollback) return cut;
  Result<std::string> appended = fs.read_file(join(txn, t.prepared));
  if (!appended) return appended.status();
  const std::string_view bytes(*appended);
  if (Status w = fs.append_at(target, t.base_size, std::span<const std::string_view>(&bytes, 1));
      !w.ok()) {
    return w;
  }
  bool grown = false;
  const Result<TargetState> state = append_state(fs, target, txn, t, &grown);
  if (!state) return state.status();
  if (*state != TargetState::output) {
    return Status(Errc::io, target + ": read-back mismatch after the append");
  }
  return Status();
}

// Gives a target the bytes of `source` in the transaction folder, whose SHA-256 must be `digest`
// (a backup or prepared file changed since it was written is never copied back), or deletes it
// when there is no such file (a delete rolled forward, or a create rolled back).
Status restore(FileSystem& fs, const ApplyPaths& paths, const std::string& txn,
               const JournalTarget& t, const std::string& source, const std::string& digest) {
  const std::string target = join(paths.memory_dir, t.path);
  if (source.empty()) {
    if (Status removed = fs.remove_file(target); !removed.ok()) return removed;
    return fs.sync_directory(target.substr(0, target.rfind('/')));
  }
  Result<std::string> bytes = fs.read_file(join(txn, source));
  if (!bytes) return bytes.status();
  if (sha256_hex(*bytes) != digest) {
    return Status(Errc::io, join(txn, source) + ": does not hold the bytes its journal names");
  }
  // A crash can come before the apply made a new file's folders.
  if (Status made = detail::create_parent_folders(fs, paths.memory_dir, t.path); !made.ok()) {
    return made;
  }
  return write_file_atomically(fs, target, *bytes, false);
}

// Why recovery stopped at one target, precisely: the transaction, the target, what failed and
// what to do next. The transaction stays in .memkit/txn, so running recover again is safe.
Status kept(const std::string& txid, const JournalTarget& t, bool rollback, const Status& failed,
            const ApplyPaths& paths) {
  std::string why = failed.message();
  for (const std::string& prefix : {join(paths.memory_dir, t.path) + ": ", t.path + ": "}) {
    if (why.compare(0, prefix.size(), prefix) == 0) {
      why.erase(0, prefix.size());
      break;
    }
  }
  std::string message = "transaction " + txid + ": " + (rollback ? "undoing " : "finishing ") +
                        t.path + " failed: " + why + "; the transaction is kept: run recover " +
                        (rollback ? "--apply --rollback" : "--apply") + " again once that is fixed";
  if (!rollback) message += ", or --apply --rollback to undo it";
  return Status(failed.code(), message);
}

}  // namespace

Result<Recovery> recover_transactions(FileSystem& fs, const ApplyPaths& paths, bool apply,
                                      bool rollback) {
  Recovery recovery;
  if (apply) {
    // Any write may have been killed, journaled or not: every folder below the root is swept.
    if (Status swept = remove_stale_temporaries(fs, {paths.memory_dir, paths.state_dir},
                                                paths.state_dir, true);
        !swept.ok()) {
      return swept;
    }
  }
  const std::string root = join(paths.state_dir, "txn");
  const Result<NodeType> root_type = fs.node_type(root);
  if (!root_type) return root_type.status();
  if (*root_type != NodeType::directory) return recovery;
  Result<std::vector<std::string>> ids = fs.list_directory(root);
  if (!ids) return ids.status();
  for (const std::string& txid : *ids) {
    const std::string dir = join(root, txid);
    Result<NodeType> type = fs.node_type(dir);
    if (!type || *type != NodeType::directory) continue;
    Result<std::string> text = fs.read_file(join(dir, "journal.json"));
    Transaction txn;
    txn.txid = txid;
    std::vector<JournalTarget> targets;
    if (text) {
      const nlohmann::json journal = detail::parse_bounded_json(*text);
      if (journal.is_object()) {
        // A field of the wrong type reads as absent (json_fields.hpp), never as an exception.
        txn.phase = detail::string_field(journal, "phase");
        txn.command = detail::string_field(journal, "command");
        for (const nlohmann::json& t : detail::array_field(journal, "targets")) {
          JournalTarget target;
          target.path = detail::string_field(t, "path");
          target.base_exists = detail::bool_field(t, "base_exists");
          target.base_sha256 = detail::string_field(t, "base_sha256");
          target.output_sha256 = detail::string_field(t, "output_sha256");
          target.mode = detail::string_field(t, "mode");
          target.backup = detail::string_field(t, "backup");
          target.prepared = detail::string_field(t, "prepared");
          target.offset = detail::uint_field(t, "offset");
          target.base_size = detail::uint_field(t, "base_size");
          target.output_size = detail::uint_field(t, "output_size");
          targets.push_back(std::move(target));
        }
      }
    }
    if (txn.phase.empty()) {
      // A transaction whose journal never reached the disk touched no target (step 1 writes
      // the journal before any target): it is discarded like a prepared one.
      txn.phase = "prepared";
    }
    txn.complete_safe = true;
    txn.rollback_safe = true;
    std::vector<bool> grown(targets.size(), false);  // appends: longer than their base
    for (std::size_t i = 0; i < targets.size(); ++i) {
      const JournalTarget& t = targets[i];
      if (!contained(t)) {  // never looked at, never restored: a conflict to resolve by hand
        txn.targets.push_back(TransactionTarget{t.path, TargetState::other});
        txn.complete_safe = false;
        txn.rollback_safe = false;
        continue;
      }
      TargetState state = TargetState::other;
      if (t.append()) {
        bool longer = false;
        const Result<TargetState> found =
            append_state(fs, join(paths.memory_dir, t.path), dir, t, &longer);
        if (!found) return found.status();
        state = *found;
        grown[i] = longer;
      } else {
        Result<std::string> digest = current_digest(fs, join(paths.memory_dir, t.path));
        if (!digest) return digest.status();
        state = state_of(t, *digest);
      }
      txn.targets.push_back(TransactionTarget{t.path, state});
      txn.complete_safe = txn.complete_safe && state != TargetState::other;
      txn.rollback_safe = txn.rollback_safe && state != TargetState::other &&
                          (!t.base_exists || !t.backup.empty() || t.append());
    }
    if (apply) {
      bool conflict = false;
      if (txn.phase == "committing") {
        for (std::size_t i = 0; i < targets.size(); ++i) {
          if (txn.targets[i].state != TargetState::other) continue;
          conflict = true;
          recovery.findings.push_back(make_finding(
              "MK-TXN-002", Severity::blocker, targets[i].path,
              targets[i].path +
                  (contained(targets[i])
                       ? ": holds neither its base nor its output (transaction "
                       : ": the journal names a file outside the memory folder (transaction ") +
                  txid + ")",
              "resolve the file by hand; the transaction is kept"));
        }
        for (std::size_t i = 0; i < targets.size() && !conflict; ++i) {
          const JournalTarget& t = targets[i];
          const TargetState state = txn.targets[i].state;
          Status done;
          if (t.append()) {
            // A base with part of the appended bytes after it is finished or cut back too.
            if (rollback ? state == TargetState::base && !grown[i] : state == TargetState::output) {
              continue;
            }
            done = settle_append(fs, paths, dir, t, rollback);
          } else if (!rollback && state == TargetState::base) {
            done = restore(fs, paths, dir, t, t.mode == "delete" ? std::string() : t.prepared,
                           t.output_sha256);
          } else if (rollback && state == TargetState::output) {
            done = restore(fs, paths, dir, t, t.base_exists ? t.backup : std::string(),
                           t.base_sha256);
          } else {
            continue;
          }
          if (!done.ok()) return kept(txid, t, rollback, done, paths);
          recovery.written.push_back(t.path);
        }
      }
      if (!conflict) {
        if (Status removed = detail::remove_state_directory(fs, dir); !removed.ok()) {
          return Status(removed.code(), "transaction " + txid +
                                            ": every target is settled, but its folder in "
                                            ".memkit/txn cannot be removed: " +
                                            removed.message());
        }
        continue;  // finished: no longer unfinished
      }
    }
    recovery.transactions.push_back(std::move(txn));
  }
  return recovery;
}

}  // namespace memkit
