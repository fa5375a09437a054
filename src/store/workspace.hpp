// A workspace: one memory folder opened with a layout profile. The only object that reads or
// writes memory files; everything it decides, it asks the pure core to decide.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "apply/apply.hpp"
#include "files/file_system.hpp"
#include "memkit/audit.hpp"
#include "memkit/clock.hpp"
#include "memkit/layouts.hpp"
#include "memkit/plan.hpp"
#include "memkit/result.hpp"
#include "memkit/undo.hpp"

namespace memkit {

struct WorkspaceOptions {
  std::string project_root = ".";
  std::string memory_dir;              // relative to the project root; empty: the profile default
  double lock_timeout_seconds = 10.0;  // --lock-timeout
};

class Workspace final {
 public:
  // Fails with Errc::invalid_argument when the project root is not a directory, Errc::layout when
  // the memory directory lies outside the profile's parent, and Errc::unsafe_path when a
  // component between the root and the memory directory is a symbolic link.
  [[nodiscard]] static Result<Workspace> open(FileSystem& fs, const LayoutProfile& profile,
                                              WorkspaceOptions options);

  [[nodiscard]] const std::string& memory_dir() const noexcept { return memory_dir_; }
  [[nodiscard]] bool memory_dir_exists() const;

  // Reads the fixed files, module files, archive count and journal count (custodian layout).
  // `extra` names further memory-relative files a command needs (archive files, say); each is
  // read when it is there, never through a link.
  [[nodiscard]] Result<CustodianInputs> read_custodian_inputs(
      const std::vector<std::string>& extra = {}) const;

  // Takes .memkit/lock (creating .memkit and its .gitignore), waiting up to the lock timeout
  // (Errc::lock_busy).
  [[nodiscard]] Result<std::unique_ptr<LockHandle>> lock();

  // Writes a confirmed plan (memkit/apply.hpp) and returns the paths written, in write order.
  // REQUIRES: lock() is held and the plan was rebuilt from disk under it.
  // `keep_record` false: no applied record (additive writes such as `add` show no Plan ID).
  [[nodiscard]] Result<std::vector<std::string>> apply(const Plan& plan, const ClockReading& now,
                                                       bool keep_record = true);

  // §12.6: the record `.memkit/applied/<plan_id>/` keeps for undo, or nullopt when there is none.
  [[nodiscard]] Result<std::optional<AppliedRecord>> read_applied_record(
      std::string_view plan_id) const;

  // Every .md file under the memory directory, archive/ included, memory-relative and sorted;
  // links are never followed (forget --mode purge searches them all).
  [[nodiscard]] Result<std::vector<std::string>> list_markdown_files() const;

  // §14 purge: deletes every applied record whose stored base bytes mention `needle`
  // (casefolded). REQUIRES: lock() is held.
  [[nodiscard]] Status purge_applied_records(std::string_view needle);

  // §12.5: lists unfinished transactions; with `apply`, finishes or rolls them back.
  // REQUIRES with `apply`: lock() is held.
  [[nodiscard]] Result<Recovery> recover(bool apply, bool rollback);

  // §16: creates the memory directory and every missing template file, never replacing one.
  // REQUIRES: lock() is held and no transaction is unfinished (recover(false) is clean).
  [[nodiscard]] Result<InitResult> init_custodian(bool extended, const ClockReading& now);

 private:
  Workspace(FileSystem& fs, const LayoutProfile& profile, WorkspaceOptions options,
            std::string memory_dir)
      : fs_(&fs),
        profile_(&profile),
        options_(std::move(options)),
        memory_dir_(std::move(memory_dir)) {}

  [[nodiscard]] static Result<Workspace> open_unchecked(FileSystem& fs,
                                                        const LayoutProfile& profile,
                                                        WorkspaceOptions options);
  [[nodiscard]] Result<CustodianInputs> read_custodian_inputs_from_disk(
      const std::vector<std::string>& extra) const;
  [[nodiscard]] Result<InitResult> write_custodian_templates(bool extended,
                                                             const ClockReading& now);
  [[nodiscard]] Status relative(const Status& status) const;
  [[nodiscard]] EntryState entry_state_without_links(const std::string& path) const;
  [[nodiscard]] std::string absolute(std::string_view relative_to_root) const;
  [[nodiscard]] std::string memory_path(std::string_view relative_to_memory) const;
  [[nodiscard]] Status ensure_directories(std::string_view relative_to_root);

  FileSystem* fs_;
  const LayoutProfile* profile_;
  WorkspaceOptions options_;
  std::string memory_dir_;
};

}  // namespace memkit
