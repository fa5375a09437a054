// Confirmed plans reach the disk here (spec compaction.md §12.3, §12.4, §12.6).
#include "apply/apply.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <random>

#include "apply/parent_folders.hpp"
#include "codec/bounded_json.hpp"
#include "codec/canonical.hpp"
#include "files/file_system.hpp"
#include "files/progress.hpp"
#include "files/state_directory.hpp"

namespace memkit {

std::string new_transaction_id() {
  static thread_local std::mt19937_64 rng(std::random_device{}());
  static constexpr char kHex[] = "0123456789abcdef";
  std::string txid(32, '0');
  for (std::size_t i = 0; i < txid.size(); i += 16) {
    std::uint64_t bits = rng();
    for (std::size_t j = 0; j < 16; ++j, bits >>= 4) txid[i + j] = kHex[bits & 0xF];
  }
  return txid;
}
namespace {

int write_rank(const std::string& path) {
  if (path == "archive/README.md") return 0;
  // Archives first (custodian archive/, MemoryBox memory/ARCHIVES/
  // and tiers memory/archive/): moved text is in its archive before it leaves its source.
  if (path.rfind("archive/", 0) == 0 || path.rfind("memory/ARCHIVES/", 0) == 0 ||
      path.rfind("memory/archive/", 0) == 0) {
    return 1;
  }
  if (path == "do-not-use.md") return 3;
  if (path == "changelog.md") return 4;
  if (path == "manifest.md") return 5;
  return 2;
}

using detail::join;

// Whether `target` holds `op`'s last bytes read and its appended bytes after them, and no more.
Result<bool> appended_in_place(FileSystem& fs, const std::string& target, const PlanOperation& op) {
  const std::string expected = op.output.render();
  Result<std::string> tail = fs.read_range(target, op.offset, expected.size() + 1);
  if (!tail) return tail.status();
  return *tail == expected;
}

// Appends an append's bytes and reads back the end of the file: the last bytes the plan was made
// from, then exactly the appended ones.
Status append_target(FileSystem& fs, const std::string& target, const PlanOperation& op) {
  const std::string_view appended = op.appended();
  if (Status w =
          fs.append_at(target, op.base_size(), std::span<const std::string_view>(&appended, 1));
      !w.ok()) {
    return w;
  }
  const Result<bool> written = appended_in_place(fs, target, op);
  if (!written) return written.status();
  if (!*written) return Status(Errc::io, target + ": read-back mismatch after the append");
  return Status();
}

// Writes or deletes one target in place; the read-back is part of write_file_atomically. A
// journal's prepared file (`prepared`, when not empty) is renamed into place where it can be.
Status write_target(FileSystem& fs, const ApplyPaths& paths, const PlanOperation& op,
                    const std::string& prepared = std::string()) {
  const std::string target = join(paths.memory_dir, op.path);
  if (op.kind == OperationKind::append) return append_target(fs, target, op);
  if (op.kind == OperationKind::remove) {
    if (Status removed = fs.remove_file(target); !removed.ok()) return removed;
    const std::size_t slash = target.rfind('/');
    return fs.sync_directory(target.substr(0, slash));
  }
  if (Status made = detail::create_parent_folders(fs, paths.memory_dir, op.path); !made.ok()) {
    return made;
  }
  if (!prepared.empty()) return replace_with_file(fs, target, prepared, op.output.pieces());
  return write_file_atomically(fs, target, op.output.pieces(), false);
}

// A whole buffer as the one piece write_file_atomically takes.
std::span<const std::string_view> one_piece(const std::string_view& bytes) {
  return std::span<const std::string_view>(&bytes, 1);
}

// The base bytes of each target (for journals and applied records): the plan's own, after
// checking that the file on disk still holds exactly them (nullopt for a create, whose target
// must still be absent). The plan was rebuilt moments ago under the lock, so a difference means
// something outside memkit changed the file.
Result<std::vector<std::optional<std::string_view>>> check_bases(
    FileSystem& fs, const ApplyPaths& paths, const Plan& plan,
    const std::vector<std::size_t>& order) {
  std::vector<std::optional<std::string_view>> bases;
  for (std::size_t i : order) {
    const PlanOperation& op = plan.operations()[i];
    const std::string target = join(paths.memory_dir, op.path);
    if (op.kind == OperationKind::create) {
      const Result<NodeType> type = fs.node_type(target);
      if (!type) return type.status();
      if (*type != NodeType::none) {
        return Status(Errc::io, op.path + ": appeared while the plan was being applied");
      }
      bases.emplace_back();
      continue;
    }
    if (op.kind == OperationKind::append) {
      // The file's length and its last bytes as the plan read them: the rest was never read.
      const Result<FileStat> found = fs.stat(target);
      if (!found) return found.status();
      const Result<std::string> tail =
          found->size == op.base_size() ? fs.read_range(target, op.offset, op.output.base->size())
                                        : Result<std::string>(std::string());
      if (!tail) return tail.status();
      if (found->type != NodeType::file || found->size != op.base_size() ||
          *tail != *op.output.base) {
        return Status(Errc::io, op.path + ": changed while the plan was being applied");
      }
      bases.emplace_back(std::nullopt);  // nothing to back up: undoing an append cuts it off
      continue;
    }
    // The bytes the plan was made from, whose SHA-256 is base_sha256, compared as they are.
    const std::string_view base(*op.output.base);
    const Result<bool> unchanged =
        fs.file_matches(target, std::span<const std::string_view>(&base, 1));
    if (!unchanged) return unchanged.status();
    if (!*unchanged) {
      return Status(Errc::io, op.path + ": changed while the plan was being applied");
    }
    bases.emplace_back(base);
  }
  return bases;
}

// The command a group's user runs to finish or undo one of its transactions (every group with a
// journal has `recover`).
std::string recover_command(const Plan& plan) {
  const std::string& command = plan.command();
  const std::string group = command.substr(0, command.find(' '));
  return "memkit " + group + " recover";
}

// The targets of `order` that no longer hold their base (replaced, created or deleted), as far as
// the disk tells; a target that cannot be read counts as replaced.
std::vector<std::string> replaced_targets(FileSystem& fs, const ApplyPaths& paths, const Plan& plan,
                                          const std::vector<std::size_t>& order) {
  std::vector<std::string> replaced;
  for (std::size_t i : order) {
    const PlanOperation& op = plan.operations()[i];
    const std::string target = join(paths.memory_dir, op.path);
    bool at_base = false;
    if (op.kind == OperationKind::create) {
      const Result<NodeType> type = fs.node_type(target);
      at_base = type && *type == NodeType::none;
    } else if (op.kind == OperationKind::append) {
      const Result<FileStat> found = fs.stat(target);
      at_base = found && found->size == op.base_size();
    } else {
      const std::string_view base(*op.output.base);
      const Result<bool> same =
          fs.file_matches(target, std::span<const std::string_view>(&base, 1));
      at_base = same && *same;
    }
    if (!at_base) replaced.push_back(op.path);
  }
  return replaced;
}

// A file of the transaction folder, written once under its final name: its bytes fsynced and read
// back; its name is made durable by an fsync of the folder that the caller makes once for all.
Status write_transaction_file(FileSystem& fs, const std::string& dir, const std::string& name,
                              std::span<const std::string_view> pieces, bool replace) {
  const std::string path = join(dir, name);
  const Result<std::string> temporary = fs.write_temporary(dir, pieces);
  if (!temporary) return temporary.status();
  Status renamed =
      replace ? fs.rename_replace(*temporary, path) : fs.rename_no_replace(*temporary, path);
  if (!renamed.ok()) {
    (void)fs.remove_file(*temporary);  // best effort: nothing names it
    return renamed;
  }
  const Result<bool> written = fs.file_matches(path, pieces);
  if (!written) return written.status();
  if (!*written) return Status(Errc::io, path + ": read-back mismatch after the write");
  return Status();
}

// A backup of a target about to be replaced or deleted, named `name` in the transaction folder:
// a second name of the target's file where the system can link it (the replace gives the target
// a new file, and a delete removes only its name, so the old bytes stay as they were checked),
// else a copy of `base`; always a copy of a file read at its end (`copy`). Its name is made
// durable by the caller's fsync of the folder.
Status write_backup(FileSystem& fs, const std::string& target, const std::string& dir,
                    const std::string& name, std::string_view base, bool copy) {
  if (Result<std::string> linked = copy ? Result<std::string>(Status(Errc::io, "a copy"))
                                         : fs.link_temporary(target, dir)) {
    const Result<FileStat> found = fs.stat(*linked);
    if (found && found->size == base.size() &&
        fs.rename_no_replace(*linked, join(dir, name)).ok()) {
      return Status();
    }
    (void)fs.remove_file(*linked);  // best effort: nothing names it; the copy below decides
  }
  return write_transaction_file(fs, dir, name, one_piece(base), false);
}

// §12.4: backups and prepared bytes first, then the commit, one atomic replace per target.
// A failure before any target is replaced drops the transaction at once (nothing changed, and no
// journal is left to block later writes); one after names what was replaced and the command that
// finishes or undoes the transaction, which stays in .memkit/txn.
Status run_transaction(FileSystem& fs, const ApplyPaths& paths, const Plan& plan,
                       const std::vector<std::size_t>& order,
                       const std::vector<std::optional<std::string_view>>& bases,
                       const ClockReading& now, const std::string& txid) {
  const std::string txn_root = join(paths.state_dir, "txn");
  const std::string dir = join(txn_root, txid);
  if (Status made = fs.create_directory(txn_root); !made.ok()) return made;
  if (Status made = fs.create_directory(dir); !made.ok()) return made;
  if (Status synced = fs.sync_directory(txn_root); !synced.ok()) return synced;
  auto nothing_changed = [&](const Status& failed) {
    (void)detail::remove_state_directory(fs, dir);  // best effort: it holds no journal that counts
    return Status(failed.code(), failed.message() + "; nothing was changed");
  };
  nlohmann::json targets = nlohmann::json::array();
  for (std::size_t n = 0; n < order.size(); ++n) {
    const PlanOperation& op = plan.operations()[order[n]];
    const std::string backup = "b-" + std::to_string(n);
    const std::string prepared = "p-" + std::to_string(n);
    if (bases[n]) {
      const bool copy = paths.read_at_end && paths.read_at_end(op.path);
      if (Status w =
              write_backup(fs, join(paths.memory_dir, op.path), dir, backup, *bases[n], copy);
          !w.ok()) {
        return nothing_changed(w);
      }
    }
    const bool append = op.kind == OperationKind::append;
    if (op.kind != OperationKind::remove) {
      // An append's prepared file holds only the bytes it adds.
      const std::string_view appended = op.appended();
      if (Status w = write_transaction_file(
              fs, dir, prepared,
              append ? std::span<const std::string_view>(&appended, 1) : op.output.pieces(), false);
          !w.ok()) {
        return nothing_changed(w);
      }
    }
    nlohmann::json target = {
        {"path", detail::utf8(op.path)},
        {"base_exists", bases[n].has_value() || append},
        {"base_sha256", to_hex(op.base_sha256())},
        {"output_sha256", to_hex(op.output_sha256())},
        {"mode", std::string(operation_kind_name(op.kind))},
        {"backup", bases[n] ? nlohmann::json(backup) : nlohmann::json(nullptr)},
        {"prepared",
         op.kind != OperationKind::remove ? nlohmann::json(prepared) : nlohmann::json(nullptr)}};
    if (append) {
      // Recovery reads the file from `offset` on: its digests are of those bytes only.
      target["offset"] = op.offset;
      target["base_size"] = op.base_size();
      target["output_size"] = op.base_size() + op.appended().size();
    }
    targets.push_back(std::move(target));
  }
  // The journal is written once, already "committing" (§12.4's steps 1 and 2 as one): it is
  // renamed into place only after every backup and prepared file is durable, names and all (one
  // fsync of the folder for them all), so a journal that exists names a complete transaction, and
  // a crash before it leaves no journal, which recover discards like a prepared one.
  if (Status synced = fs.sync_directory(dir); !synced.ok()) return nothing_changed(synced);
  nlohmann::json journal = {
      {"schema", 1},          {"txid", txid},          {"command", plan.command()},
      {"plan_id", plan.id()}, {"phase", "committing"}, {"created_at", now.utc_rfc3339_millis()},
      {"targets", targets}};
  const std::string journal_dump = detail::canonical_dump(journal);
  if (Status w = write_transaction_file(fs, dir, "journal.json", one_piece(journal_dump), false);
      !w.ok()) {
    return nothing_changed(w);
  }
  if (Status synced = fs.sync_directory(dir); !synced.ok()) {
    return nothing_changed(synced);  // no target has been touched yet, whatever the journal says
  }
  for (std::size_t n = 0; n < order.size(); ++n) {
    const PlanOperation& op = plan.operations()[order[n]];
    // A replaced or created target is its prepared file moved, not a third copy of the bytes.
    const bool whole = op.kind == OperationKind::replace || op.kind == OperationKind::create;
    Status w = write_target(fs, paths, op, whole ? join(dir, "p-" + std::to_string(n)) : "");
    if (w.ok()) continue;
    const std::vector<std::string> replaced = replaced_targets(fs, paths, plan, order);
    if (replaced.empty()) return nothing_changed(w);
    std::string message = w.message() + "; already replaced:";
    for (const std::string& path : replaced) message += " " + path;
    const std::string recover = recover_command(plan);
    message += "; transaction " + txid + " is pending in .memkit/txn: run `" + recover +
               " --apply` to finish it or `" + recover + " --apply --rollback` to undo it";
    return Status(w.code(), message);
  }
  // Every target holds its output now. A journal that cannot be marked committed or removed is
  // harmless (recover finds each target at its output and only drops it), so the write stands.
  // The mark needs no fsync of the folder: lost in a crash, the journal reads "committing" with
  // every target at its output, which recover only drops.
  journal["phase"] = "committed";
  const std::string committed = detail::canonical_dump(journal);
  (void)write_transaction_file(fs, dir, "journal.json", one_piece(committed), true);
  (void)detail::remove_state_directory(fs, dir);
  return Status();
}

// §12.6: applied.json and the base bytes, so `undo` can restore them; the oldest records beyond
// kAppliedRecordsKept are pruned.
Status keep_applied_record(FileSystem& fs, const ApplyPaths& paths, const Plan& plan,
                           const std::vector<std::size_t>& order,
                           const std::vector<std::optional<std::string_view>>& bases,
                           const ClockReading& now) {
  const std::string root = join(paths.state_dir, "applied");
  const std::string dir = join(root, plan.id());
  if (Status made = fs.create_directory(root); !made.ok()) return made;
  if (Result<NodeType> type = fs.node_type(dir); type && *type == NodeType::directory) {
    if (Status removed = detail::remove_state_directory(fs, dir); !removed.ok())
      return removed;  // replaced
  }
  if (Status made = fs.create_directory(dir); !made.ok()) return made;
  nlohmann::json targets = nlohmann::json::array();
  for (std::size_t n = 0; n < order.size(); ++n) {
    const PlanOperation& op = plan.operations()[order[n]];
    if (bases[n]) {
      if (Status w = write_file_atomically(fs, join(dir, "b-" + std::to_string(n)),
                                           one_piece(*bases[n]), true);
          !w.ok()) {
        return w;
      }
    }
    targets.push_back({{"path", detail::utf8(op.path)},
                       {"base_exists", bases[n].has_value()},
                       {"base_sha256", to_hex(op.base_sha256())},
                       {"output_exists", op.kind != OperationKind::remove},
                       {"output_sha256", to_hex(op.output_sha256())}});
  }
  const nlohmann::json record = {{"schema", 1},
                                 {"plan_id", plan.id()},
                                 {"command", plan.command()},
                                 {"applied_at", now.utc_rfc3339_millis()},
                                 {"targets", targets}};
  if (Status w = write_file_atomically(fs, join(dir, "applied.json"),
                                       detail::canonical_dump(record), true);
      !w.ok()) {
    return w;
  }
  // Prune: oldest apply first, by applied_at, then plan ID for a stable order.
  Result<std::vector<std::string>> ids = fs.list_directory(root);
  if (!ids || ids->size() <= kAppliedRecordsKept) return Status();
  std::vector<std::pair<std::string, std::string>> dated;
  for (const std::string& id : *ids) {
    Result<std::string> text = fs.read_file(join(join(root, id), "applied.json"));
    std::string at;
    if (text) {
      const nlohmann::json parsed = detail::parse_bounded_json(*text);
      if (parsed.is_object() && parsed.contains("applied_at") && parsed["applied_at"].is_string()) {
        at = parsed["applied_at"].get<std::string>();
      }
    }
    dated.emplace_back(at, id);
  }
  std::sort(dated.begin(), dated.end());
  for (std::size_t i = 0; i + kAppliedRecordsKept < dated.size(); ++i) {
    if (dated[i].second == plan.id()) continue;
    if (Status removed = detail::remove_state_directory(fs, join(root, dated[i].second));
        !removed.ok()) {
      return removed;
    }
  }
  return Status();
}

}  // namespace

std::vector<std::size_t> write_order(const Plan& plan) {
  std::vector<std::size_t> order(plan.operations().size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const std::string& pa = plan.operations()[a].path;
    const std::string& pb = plan.operations()[b].path;
    const int ra = write_rank(pa);
    const int rb = write_rank(pb);
    return ra != rb ? ra < rb : pa < pb;
  });
  return order;
}

namespace {

Result<std::vector<std::string>> apply_ordered(FileSystem& fs, const ApplyPaths& paths,
                                               const Plan& plan,
                                               const std::vector<std::size_t>& order,
                                               const ClockReading& now, const std::string& txid,
                                               bool keep_record) {
  // A killed write's temporary sits beside its target: the folders written now are swept first.
  std::vector<std::string> folders{paths.state_dir};
  for (std::size_t i : order) {
    const std::string target = join(paths.memory_dir, plan.operations()[i].path);
    folders.push_back(target.substr(0, target.rfind('/')));
  }
  std::sort(folders.begin(), folders.end());
  folders.erase(std::unique(folders.begin(), folders.end()), folders.end());
  if (Status swept = remove_stale_temporaries(fs, folders, paths.state_dir, false); !swept.ok()) {
    return swept;
  }
  Result<std::vector<std::optional<std::string_view>>> bases = check_bases(fs, paths, plan, order);
  if (!bases) return bases.status();
  // Every state folder this apply writes into is checked before any file is written, and the
  // applied record is kept before the targets change: a failure after a target was written
  // would leave the files changed while the reply says nothing was.
  const bool record = keep_record && !plan.sensitive();
  const bool appends = std::any_of(order.begin(), order.end(), [&](std::size_t i) {
    return plan.operations()[i].kind == OperationKind::append;
  });
  if (record && appends) {
    // An applied record restores whole bases, which an append never read.
    return Status(Errc::invalid_argument,
                  "a plan with appends is applied without an undo record; nothing was written");
  }
  for (const auto& [name, used] :
       {std::pair{"txn", order.size() > 1 || appends}, std::pair{"applied", record}}) {
    if (!used) continue;
    const std::string folder = join(paths.state_dir, name);
    const Result<NodeType> type = fs.node_type(folder);
    if (!type) return type.status();
    if (*type != NodeType::none && *type != NodeType::directory) {
      return Status(Errc::io, folder + ": not a directory; nothing was written");
    }
  }
  // One target is replaced atomically on its own; an append needs its journal even alone, since
  // only the journal knows where to cut the file back to.
  const bool journal = order.size() > 1 || appends;
  // What a progress display counts: every byte this apply writes (the undo record's copies, the
  // journal's backups and prepared files, the targets), told by the file system as it goes.
  std::uint64_t total = 0;
  for (std::size_t n = 0; n < order.size(); ++n) {
    const PlanOperation& op = plan.operations()[order[n]];
    const std::uint64_t base = (*bases)[n] ? (*bases)[n]->size() : 0;
    const std::uint64_t output = op.kind == OperationKind::append   ? op.appended().size()
                                 : op.kind == OperationKind::remove ? 0
                                                                    : op.output.size();
    total += (record ? base : 0) + (journal ? base + output : 0) + output;
  }
  const progress::Stage stage("writing " + plan.command(), total, progress::Unit::bytes,
                              progress::Counts::written);
  if (record) {
    if (Status kept = keep_applied_record(fs, paths, plan, order, *bases, now); !kept.ok()) {
      (void)detail::remove_state_directory(fs, join(join(paths.state_dir, "applied"), plan.id()));
      return Status(kept.code(), kept.message() + "; nothing was changed");
    }
  }
  Status done;
  if (!journal) {
    done = write_target(fs, paths, plan.operations()[order[0]]);
  } else {
    done = run_transaction(fs, paths, plan, order, *bases, now, txid);
  }
  if (!done.ok()) {
    // Nothing of the plan was applied, or its journal is left for `recover`: either way the
    // record of an apply that did not finish must not offer an undo.
    if (record) {
      (void)detail::remove_state_directory(fs, join(join(paths.state_dir, "applied"), plan.id()));
    }
    return done;
  }
  std::vector<std::string> written;
  for (std::size_t i : order) written.push_back(plan.operations()[i].path);
  return written;
}

}  // namespace

Result<std::vector<std::string>> apply_plan(FileSystem& fs, const ApplyPaths& paths,
                                            const Plan& plan, const ClockReading& now,
                                            const std::string& txid, bool keep_record) {
  return apply_ordered(fs, paths, plan, write_order(plan), now, txid, keep_record);
}

Result<std::vector<std::string>> apply_plan_in_order(FileSystem& fs, const ApplyPaths& paths,
                                                     const Plan& plan,
                                                     const std::vector<std::size_t>& order,
                                                     const ClockReading& now,
                                                     const std::string& txid) {
  return apply_ordered(fs, paths, plan, order, now, txid, false);
}

}  // namespace memkit
