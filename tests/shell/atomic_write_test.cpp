// write_file_atomically on a real folder, with a fault injected at every step (spec README.md
// "Writes"; STYLE T2): the target holds its old bytes or its new bytes, never a mix, no
// temporary file survives, and the failure is returned.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "faulty_file_system.hpp"
#include "store/workspace.hpp"
#include "temp_dir.hpp"

namespace memkit::shell_test {
namespace {

const std::string kOld = "# Old\r\n\r\n- old bytes, CRLF and all\r\n";
const std::string kNew = "# New\n\n- new bytes\n- a longer file than the old one, so a mix shows\n";

// Restores the process umask when a test that changes it ends.
class UmaskGuard final {
 public:
  explicit UmaskGuard(mode_t mask) : saved_(::umask(mask)) {}
  ~UmaskGuard() { ::umask(saved_); }
  UmaskGuard(const UmaskGuard&) = delete;
  UmaskGuard& operator=(const UmaskGuard&) = delete;

 private:
  mode_t saved_;
};

struct Scenario {
  bool existing;     // the target exists (with kOld, mode 0600) before the write
  bool create_only;  // write_file_atomically's create_only
  Op op;
  Timing timing;
};

std::string describe(const Scenario& s) {
  return std::string(s.existing ? "replace" : "create") + (s.create_only ? " create_only" : "") +
         ", fault in " + std::string(op_name(s.op)) +
         (s.timing == Timing::before ? " before its effect" : " after its effect");
}

// True when the fault leaves the rename undone, so the old state must survive.
bool old_state_expected(const Scenario& s) {
  if (s.op == Op::write_temporary || s.op == Op::set_mode) return true;
  if (s.op == Op::rename_replace || s.op == Op::rename_no_replace)
    return s.timing == Timing::before;
  return false;  // sync_directory runs after the rename
}

std::vector<Scenario> every_fault_point() {
  std::vector<Scenario> out;
  for (const bool existing : {false, true}) {
    for (const bool create_only : {false, true}) {
      if (existing && create_only) continue;  // refused before any write; tested on its own
      const Op rename = create_only ? Op::rename_no_replace : Op::rename_replace;
      for (const Op op : {Op::write_temporary, Op::set_mode, rename, Op::sync_directory}) {
        for (const Timing timing : {Timing::before, Timing::after}) {
          if (op == Op::write_temporary && timing == Timing::after) continue;
          out.push_back({existing, create_only, op, timing});
        }
      }
    }
  }
  return out;
}

TEST_CASE(
    "shell: a fault at any step of an atomic write leaves the old bytes or the new, never a mix") {
  const std::vector<Scenario> scenarios = every_fault_point();
  CHECK(scenarios.size() == 21);
  for (const Scenario& s : scenarios) {
    CAPTURE(describe(s));
    TempDir dir;
    const fs::path target = dir.path() / "docs" / "memory" / "brief.md";
    fs::create_directories(target.parent_path());
    if (s.existing) {
      write_bytes(target, kOld);
      set_mode_of(target, 0600);
    }
    FaultyFileSystem faulty;
    faulty.fail_nth(s.op, 1, s.timing);

    const Status status = write_file_atomically(faulty, target.string(), kNew, s.create_only);

    REQUIRE(faulty.fault_struck());
    CHECK_FALSE(status.ok());
    CHECK(status.code() == Errc::io);
    CHECK(status.message().find("injected fault") != std::string::npos);
    if (s.op == Op::write_temporary) {  // named by its target, not by the temporary
      CHECK(status.message().rfind(target.string() + ": not written: ", 0) == 0);
    }
    if (old_state_expected(s)) {
      if (s.existing) {
        CHECK(read_bytes(target) == kOld);
        CHECK(mode_of(target) == 0600);
      } else {
        CHECK_FALSE(fs::exists(fs::symlink_status(target)));
      }
    } else {
      CHECK(read_bytes(target) == kNew);
      CHECK(mode_of(target) == (s.existing ? 0600u : 0644u));
    }
    CHECK(temporaries_in(target.parent_path()).empty());
    // Nothing else appeared beside the target.
    CHECK(tree_of(target.parent_path()).size() <= 1);

    // The same write, retried without the fault, completes.
    FaultyFileSystem healthy;
    if (!(s.create_only && fs::exists(target))) {
      REQUIRE(write_file_atomically(healthy, target.string(), kNew, s.create_only).ok());
      CHECK(read_bytes(target) == kNew);
    }
  }
}

TEST_CASE(
    "shell: an atomic write writes a temporary in the target's folder, sets its mode, renames, "
    "then syncs the folder") {
  for (const bool create_only : {false, true}) {
    CAPTURE(create_only);
    TempDir dir;
    const fs::path folder = dir.path() / "docs" / "memory";
    fs::create_directories(folder);
    const std::string target = (folder / "inbox.md").string();
    FaultyFileSystem faulty;

    REQUIRE(write_file_atomically(faulty, target, kNew, create_only).ok());

    const std::vector<LoggedCall>& log = faulty.log();
    REQUIRE(log.size() == 4);
    CHECK(log[0].op == Op::write_temporary);
    CHECK(log[0].path == folder.string());
    REQUIRE(faulty.temporaries().size() == 1);
    const fs::path temporary(faulty.temporaries()[0]);
    CHECK(temporary.parent_path() == folder);
    CHECK(temporary.filename().string().rfind(".memkit-tmp-", 0) == 0);
    CHECK(log[1].op == Op::set_mode);
    CHECK(log[1].path == temporary.string());
    CHECK(log[2].op == (create_only ? Op::rename_no_replace : Op::rename_replace));
    CHECK(log[2].path == temporary.string());
    CHECK(log[2].to == target);
    CHECK(log[3].op == Op::sync_directory);
    CHECK(log[3].path == folder.string());
    CHECK(read_bytes(target) == kNew);
    CHECK(temporaries_in(folder).empty());
  }
}

TEST_CASE("shell: an atomic write reads the file back and reports a failed read-back") {
  TempDir dir;
  const fs::path folder = dir.path() / "docs" / "memory";
  fs::create_directories(folder);
  const std::string target = (folder / "inbox.md").string();
  FaultyFileSystem faulty;
  faulty.fail_reads_of("inbox.md");
  const Status status = write_file_atomically(faulty, target, kNew, false);
  REQUIRE_FALSE(status.ok());
  CHECK(status.code() == Errc::io);
  CHECK(read_bytes(target) == kNew);  // the write happened; the failure can only be the read-back
}

TEST_CASE("shell: file_matches compares a file with pieces as it reads, across chunk ends") {
  TempDir dir;
  FileSystem& fs = posix_file_system();
  // Over two 1 MiB read chunks, with a piece boundary inside a chunk and on one.
  std::string bytes(2 * 1024 * 1024 + 300, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>('a' + i % 23);
  const fs::path target = dir.path() / "big.md";
  write_bytes(target, bytes);
  const auto matches = [&](const std::vector<std::string_view>& pieces) {
    const Result<bool> r = fs.file_matches(target.string(), pieces);
    REQUIRE(r);
    return *r;
  };
  const std::string_view all(bytes);
  CHECK(matches({all}));
  CHECK(matches({all.substr(0, 1024 * 1024), all.substr(1024 * 1024)}));
  CHECK(matches({"", all.substr(0, 7), "", all.substr(7, 1500000), all.substr(1500007), ""}));
  CHECK_FALSE(matches({all.substr(0, all.size() - 1)}));  // the file is longer
  CHECK_FALSE(matches({all, "x"}));                       // the file is shorter
  std::string one_off = bytes;
  one_off[1024 * 1024 + 5] = '!';  // the same length, one byte different in the second chunk
  CHECK_FALSE(matches({std::string_view(one_off)}));
  CHECK_FALSE(matches({}));
  write_bytes(dir.path() / "empty.md", "");
  const Result<bool> empty = fs.file_matches((dir.path() / "empty.md").string(), {});
  REQUIRE(empty);
  CHECK(*empty);
  // A link is not followed, a folder is not a file, and a missing file is an error.
  fs::create_symlink(target, dir.path() / "link.md");
  CHECK_FALSE(fs.file_matches((dir.path() / "link.md").string(), {}));
  CHECK_FALSE(fs.file_matches(dir.path().string(), {}));
  CHECK_FALSE(fs.file_matches((dir.path() / "none.md").string(), {}));
}

TEST_CASE("shell: a new file gets mode 0644 whatever the umask") {
  for (const mode_t mask : {mode_t{0}, mode_t{022}, mode_t{077}, mode_t{0777}}) {
    CAPTURE(mask);
    const UmaskGuard guard(mask);
    TempDir dir;
    for (const bool create_only : {false, true}) {
      const fs::path target = dir.path() / (create_only ? "a.md" : "b.md");
      REQUIRE(write_file_atomically(posix_file_system(), target.string(), kNew, create_only).ok());
      CHECK(mode_of(target) == 0644);
      CHECK(read_bytes(target) == kNew);
    }
  }
}

TEST_CASE("shell: a replaced file keeps its permission bits") {
  for (const std::uint32_t mode : {0600u, 0640u, 0644u, 0664u, 0755u, 0400u}) {
    CAPTURE(mode);
    TempDir dir;
    const fs::path target = dir.path() / "decisions.md";
    write_bytes(target, kOld);
    set_mode_of(target, mode);
    REQUIRE(write_file_atomically(posix_file_system(), target.string(), kNew, false).ok());
    CHECK(read_bytes(target) == kNew);
    CHECK(mode_of(target) == mode);
    CHECK(temporaries_in(dir.path()).empty());
  }
}

TEST_CASE("shell: every byte is written as given: empty, binary and large contents") {
  std::string binary;
  for (int i = 0; i < 256; ++i) binary.push_back(static_cast<char>(i));
  const std::string large(3 * 1024 * 1024 + 7, 'x');
  for (const std::string* bytes : std::vector<const std::string*>{&kNew, &binary, &large}) {
    TempDir dir;
    const fs::path target = dir.path() / "f.md";
    write_bytes(target, kOld);
    REQUIRE(write_file_atomically(posix_file_system(), target.string(), *bytes, false).ok());
    CHECK(read_bytes(target) == *bytes);
  }
  TempDir dir;
  const fs::path target = dir.path() / "empty.md";
  write_bytes(target, kOld);
  REQUIRE(write_file_atomically(posix_file_system(), target.string(), "", false).ok());
  CHECK(read_bytes(target).empty());
}

TEST_CASE("shell: read_file gives every byte of small and large files") {
  // 9 MiB + 5: many pages and an odd end; the pattern has no period a misplaced page could hide
  // behind.
  std::string large(9 * 1024 * 1024 + 5, '\0');
  std::uint32_t x = 12345;
  for (char& c : large) {
    x = x * 1103515245u + 12345u;
    c = static_cast<char>(x >> 24);
  }
  for (const std::string& bytes : {std::string(), std::string("abc"), large}) {
    TempDir dir;
    const fs::path target = dir.path() / "f.md";
    write_bytes(target, bytes);
    const Result<std::string> read = posix_file_system().read_file(target.string());
    REQUIRE(read.ok());
    CHECK(read->size() == bytes.size());
    CHECK(*read == bytes);
  }
}

TEST_CASE("shell: create_only never replaces an existing file") {
  TempDir dir;
  const fs::path target = dir.path() / "brief.md";
  write_bytes(target, kOld);
  set_mode_of(target, 0600);
  FaultyFileSystem faulty;
  const Status status = write_file_atomically(faulty, target.string(), kNew, true);
  CHECK_FALSE(status.ok());
  CHECK(read_bytes(target) == kOld);
  CHECK(mode_of(target) == 0600);
  CHECK(faulty.calls(Op::write_temporary) == 0);
  CHECK(temporaries_in(dir.path()).empty());
}

TEST_CASE("shell: write_file_atomically refuses to write through a symbolic link") {
  TempDir dir;
  const fs::path outside = dir.path() / "outside";
  fs::create_directories(outside);
  const fs::path real = outside / "real.md";
  write_bytes(real, kOld);
  const fs::path memory = dir.path() / "docs" / "memory";
  fs::create_directories(memory);
  const fs::path link = memory / "brief.md";
  fs::create_symlink(real, link);
  const fs::path dangling = memory / "inbox.md";
  fs::create_symlink(outside / "not-there.md", dangling);

  for (const bool create_only : {false, true}) {
    CAPTURE(create_only);
    for (const fs::path& target : {link, dangling}) {
      CAPTURE(target.filename().string());
      FaultyFileSystem faulty;
      const Status status = write_file_atomically(faulty, target.string(), kNew, create_only);
      CHECK(status.code() == Errc::unsafe_path);
      CHECK(faulty.calls(Op::write_temporary) == 0);
      CHECK(fs::is_symlink(target));
    }
  }
  CHECK(read_bytes(real) == kOld);
  CHECK_FALSE(fs::exists(outside / "not-there.md"));
  CHECK(temporaries_in(memory).empty());
  CHECK(temporaries_in(outside).empty());
}

TEST_CASE("shell: write_file_atomically refuses a directory at the target") {
  TempDir dir;
  const fs::path target = dir.path() / "brief.md";
  fs::create_directories(target / "inside");
  for (const bool create_only : {false, true}) {
    FaultyFileSystem faulty;
    const Status status = write_file_atomically(faulty, target.string(), kNew, create_only);
    CHECK_FALSE(status.ok());
    CHECK(faulty.calls(Op::write_temporary) == 0);
    CHECK(fs::is_directory(target / "inside"));
  }
  CHECK(temporaries_in(dir.path()).empty());
}

TEST_CASE("shell: a failed write into a missing folder leaves nothing behind") {
  TempDir dir;
  const fs::path target = dir.path() / "no-such-folder" / "brief.md";
  const Status status = write_file_atomically(posix_file_system(), target.string(), kNew, false);
  CHECK_FALSE(status.ok());
  CHECK_FALSE(fs::exists(target.parent_path()));
  CHECK(tree_of(dir.path()).empty());
}

}  // namespace
}  // namespace memkit::shell_test
