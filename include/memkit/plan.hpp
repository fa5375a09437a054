// Plans (spec compaction.md §12.1): the files a mutating command would write, with their exact
// new bytes, identified by a Plan ID that changes whenever any input, argument or date does.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/budget.hpp"
#include "memkit/digest.hpp"
#include "memkit/edit.hpp"
#include "memkit/findings.hpp"
#include "memkit/snapshot.hpp"

namespace memkit {

// An append adds bytes at the end of a file memkit only ever appends to (a history, a day log):
// its journal keeps the file's length before, so undoing it cuts the file back to that length,
// and it costs what it adds, never what the file already holds.
enum class OperationKind : std::uint8_t { create, replace, remove, append };

// "create", "replace", "delete", "append": the words of the canonical JSON.
[[nodiscard]] std::string_view operation_kind_name(OperationKind kind) noexcept;

// The bytes a plan writes to one file: its base with splices applied. Kept as slices so that a
// large file is hashed, and built, only once.
struct PlannedBytes {
  std::shared_ptr<const std::string> base;  // empty string for a new file
  std::vector<Splice> splices;
  [[nodiscard]] std::string render() const { return apply_splices(*base, splices); }
  // The size of render(), without building it.
  [[nodiscard]] std::size_t size() const noexcept {
    std::size_t n = base->size();
    for (const Splice& s : splices) n = n - (s.end - s.begin) + s.insert.size();
    return n;
  }
  // The same bytes as pieces viewing `base` and the splices, for writing without building them.
  [[nodiscard]] std::vector<std::string_view> pieces() const {
    return splice_pieces(*base, splices);
  }
};

// One file a plan writes (made by plan_write or plan_remove). Its two SHA-256 digests are computed
// when first asked for (for the Plan ID, a shown plan, a journal), on two cores for a large file,
// and then kept: an operation written directly, which needs none of those, costs none.
// REQUIRES: `output` is not changed after a digest or the plan's ID was read (copies share them).
struct PlanOperation {
  std::string path;  // relative to the memory directory
  OperationKind kind = OperationKind::replace;
  // output.base is the file's bytes the plan was made from (empty for create); for remove the
  // splices delete them all. For an append it is only the file's last bytes as read, which begin
  // at `offset` in the file, and its one splice inserts the appended bytes at their end.
  PlannedBytes output;
  std::uint64_t offset = 0;  // 0 but for an append

  // The file's length the plan was made from (0 for a create).
  [[nodiscard]] std::uint64_t base_size() const noexcept { return offset + output.base->size(); }
  // What an append adds at the end of the file.
  [[nodiscard]] std::string_view appended() const noexcept {
    return output.splices.empty() ? std::string_view() : std::string_view(output.splices[0].insert);
  }

  [[nodiscard]] const Sha256& base_sha256() const { return digests().base; }
  [[nodiscard]] const Sha256& output_sha256() const { return digests().output; }

 private:
  struct Digests {
    std::once_flag once;
    Sha256 base{};
    Sha256 output{};
  };
  [[nodiscard]] const Digests& digests() const;
  std::shared_ptr<Digests> digests_ = std::make_shared<Digests>();
};

struct BudgetResult {
  std::string path;
  std::uint64_t before = 0;  // 0 for a create
  std::uint64_t after = 0;
  std::uint64_t limit = 0;
  BudgetState state = BudgetState::ok;  // the state of `after`
};

// One value of a plan's arguments: a string, or a bool where the spec's arguments have one
// (memorybox compact's "force"). Canonical JSON writes it as a string or true/false.
class PlanArgument final {
 public:
  PlanArgument(std::string text) : text_(std::move(text)) {}  // NOLINT: implicit on purpose
  PlanArgument(const char* text) : text_(text) {}             // NOLINT: implicit on purpose
  [[nodiscard]] static PlanArgument flag(bool value) { return PlanArgument(value); }

  [[nodiscard]] bool is_flag() const noexcept { return is_flag_; }
  [[nodiscard]] const std::string& text() const noexcept { return text_; }  // when !is_flag()
  [[nodiscard]] bool flag_value() const noexcept { return flag_; }          // when is_flag()
  friend bool operator==(const PlanArgument&, const PlanArgument&) = default;

 private:
  explicit PlanArgument(bool value) : is_flag_(true), flag_(value) {}
  std::string text_;
  bool is_flag_ = false;
  bool flag_ = false;
};

using PlanArguments = std::map<std::string, PlanArgument>;

class Plan final {
 public:
  // Builds a plan and its ID. `arguments` are the command's plan arguments only (never
  // confirmation flags or output options); operations and budget results are sorted by path.
  [[nodiscard]] static Plan create(std::string command, PlanArguments arguments,
                                   std::vector<PlanOperation> operations,
                                   std::vector<BudgetResult> budget_results,
                                   bool sensitive = false);

  // 16 lowercase hex, computed when first asked for (with the operations' digests), then kept.
  [[nodiscard]] const std::string& id() const;
  [[nodiscard]] const std::string& command() const noexcept { return command_; }
  [[nodiscard]] const PlanArguments& arguments() const noexcept { return arguments_; }
  [[nodiscard]] const std::vector<PlanOperation>& operations() const noexcept;
  [[nodiscard]] const std::vector<BudgetResult>& budget_results() const noexcept {
    return budget_results_;
  }
  [[nodiscard]] bool sensitive() const noexcept { return sensitive_; }

  // The canonical JSON the ID is computed from (§12.1).
  [[nodiscard]] std::string canonical_json() const;

 private:
  Plan() = default;
  struct Id {
    std::once_flag once;
    std::string text;
  };
  std::shared_ptr<Id> id_ = std::make_shared<Id>();
  std::string command_;
  PlanArguments arguments_;
  // Shared by copies (a plan never changes once made): copying a plan of a large file's
  // thousands of splices costs nothing.
  std::shared_ptr<const std::vector<PlanOperation>> operations_;
  std::vector<BudgetResult> budget_results_;
  bool sensitive_ = false;
};

// §12.5: what an unfinished transaction's targets hold now.
enum class TargetState : std::uint8_t { base, output, other };
[[nodiscard]] std::string_view target_state_name(TargetState state) noexcept;  // "base", ...

struct TransactionTarget {
  std::string path;
  TargetState state = TargetState::other;
};

// Builds the operation that deletes a file the snapshot holds.
[[nodiscard]] PlanOperation plan_remove(const FileSnapshot& file);

// Builds the operation that appends `bytes` to an existing file whose last bytes `file` holds
// (FileSnapshot::offset says where they begin; a whole file is fine too). Its base digest is of
// those last bytes, its output digest of them with `bytes` after.
// REQUIRES: file.exists().
[[nodiscard]] PlanOperation plan_append(const FileSnapshot& file, std::string bytes);

// Builds a create or replace operation from a base and splices: digests from slices.
[[nodiscard]] PlanOperation plan_write(std::string path, std::shared_ptr<const std::string> base,
                                       bool base_exists, std::vector<Splice> splices);

struct Transaction {
  std::string txid;
  std::string phase;  // "prepared", "committing" or "committed"
  std::string command;
  std::vector<TransactionTarget> targets;
  bool complete_safe = false;  // every target at its base or its output: rolling forward is safe
  bool rollback_safe = false;  // the same, and every base that existed has its backup
};

struct Recovery {
  std::vector<Transaction> transactions;  // in txid order
  std::vector<Finding> findings;
  std::vector<std::string> written;  // paths recovery wrote or deleted, in order
  [[nodiscard]] bool clean() const noexcept { return transactions.empty(); }
};

}  // namespace memkit
