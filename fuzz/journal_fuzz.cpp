// Transaction journals and applied records (compaction.md §12.5, §12.6): a custodian workspace on
// an in-memory FileSystem, whose `.memkit/txn/<txid>/journal.json` (the input's first part) is
// listed and then finished (rolled forward, or back; the first byte chooses) by Workspace::recover,
// and whose `.memkit/applied/<plan id>/applied.json` (the second part) is read for undo. Whatever
// they say, each returns a result or a status, never throws, and recovery writes nothing outside
// the root.
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "apply/apply.hpp"
#include "files/file_system.hpp"
#include "fuzz_support.hpp"
#include "memkit/layouts.hpp"
#include "store/workspace.hpp"

namespace {

using memkit::Errc;
using memkit::FileStat;
using memkit::NodeType;
using memkit::Result;
using memkit::Status;

std::string joined(std::span<const std::string_view> pieces) {
  std::string out;
  for (const std::string_view piece : pieces) out += piece;
  return out;
}

// Files and directories in maps; no links, no modes, no locks that wait.
class MemoryFileSystem final : public memkit::FileSystem {
 public:
  std::map<std::string, std::string, std::less<>> files;
  std::set<std::string, std::less<>> directories{"/"};

  Result<NodeType> node_type(const std::string& path) const override {
    if (files.contains(path)) return NodeType::file;
    if (directories.contains(path)) return NodeType::directory;
    // "<dir>/." names the directory itself (Workspace::open reads the root so).
    if (path.ends_with("/.") && directories.contains(path.substr(0, path.size() - 2))) {
      return NodeType::directory;
    }
    return NodeType::none;
  }
  Result<std::string> read_file(const std::string& path) const override {
    const auto it = files.find(path);
    if (it == files.end()) return Status(Errc::io, path + ": no such file");
    return it->second;
  }
  Result<bool> file_matches(const std::string& path,
                            std::span<const std::string_view> pieces) const override {
    const auto it = files.find(path);
    if (it == files.end()) return Status(Errc::io, path + ": no such file");
    return it->second == joined(pieces);
  }
  Result<std::string> read_range(const std::string& path, std::uint64_t offset,
                                 std::size_t size) const override {
    const auto it = files.find(path);
    if (it == files.end()) return Status(Errc::io, path + ": no such file");
    if (offset >= it->second.size()) return std::string();
    return it->second.substr(static_cast<std::size_t>(offset), size);
  }
  Result<std::vector<std::string>> list_directory(const std::string& path) const override {
    if (!directories.contains(path)) return Status(Errc::io, path + ": not a directory");
    std::set<std::string> names;
    const std::string prefix = path + "/";
    auto add = [&](const std::string& child) {
      if (!child.starts_with(prefix)) return;
      const std::string rest = child.substr(prefix.size());
      if (!rest.empty() && rest.find('/') == std::string::npos) names.insert(rest);
    };
    for (const auto& [name, bytes] : files) add(name);
    for (const std::string& name : directories) add(name);
    return std::vector<std::string>(names.begin(), names.end());
  }
  Result<std::uint32_t> file_mode(const std::string& path) const override {
    if (!files.contains(path)) return Status(Errc::io, path + ": no such file");
    return 0644u;
  }
  Result<std::int64_t> modified_millis(const std::string& path) const override {
    if (!files.contains(path)) return Status(Errc::io, path + ": no such file");
    return std::int64_t{0};
  }
  Result<FileStat> stat(const std::string& path) const override {
    if (const auto it = files.find(path); it != files.end()) {
      return FileStat{NodeType::file, it->second.size(), 0, 0, 0, 0};
    }
    if (directories.contains(path)) return FileStat{NodeType::directory, 0, 0, 0, 0, 0};
    return Status(Errc::not_found, path + ": no such file");
  }
  Status create_directory(const std::string& path) override {
    if (files.contains(path)) return Status(Errc::io, path + ": a file");
    directories.insert(path);
    return Status();
  }
  Result<std::string> write_temporary(const std::string& directory,
                                      std::span<const std::string_view> pieces) override {
    if (!directories.contains(directory)) return Status(Errc::io, directory + ": no directory");
    const std::string path = directory + "/.tmp" + std::to_string(++temporaries_);
    files[path] = joined(pieces);
    return path;
  }
  Status append_file(const std::string& path, std::string_view bytes) override {
    files[path] += bytes;
    return Status();
  }
  Status append_at(const std::string& path, std::uint64_t offset,
                   std::span<const std::string_view> pieces) override {
    const auto it = files.find(path);
    if (it == files.end()) return Status(Errc::io, path + ": no such file");
    if (it->second.size() != offset) return Status(Errc::io, path + ": changed");
    it->second += joined(pieces);
    return Status();
  }
  Status truncate_file(const std::string& path, std::uint64_t size) override {
    const auto it = files.find(path);
    if (it == files.end()) return Status(Errc::io, path + ": no such file");
    if (it->second.size() < size) return Status(Errc::io, path + ": shorter");
    it->second.resize(static_cast<std::size_t>(size));
    return Status();
  }
  Status set_mode(const std::string&, std::uint32_t) override { return Status(); }
  Status rename_replace(const std::string& from, const std::string& to) override {
    const auto it = files.find(from);
    if (it == files.end() || directories.contains(to)) return Status(Errc::io, from + ": rename");
    std::string bytes = std::move(it->second);
    files.erase(it);
    files[to] = std::move(bytes);
    return Status();
  }
  Status rename_no_replace(const std::string& from, const std::string& to) override {
    if (files.contains(to) || directories.contains(to)) return Status(Errc::io, to + ": exists");
    return rename_replace(from, to);
  }
  Status sync_directory(const std::string&) override { return Status(); }
  Status remove_file(const std::string& path) override {
    if (files.erase(path) == 0) return Status(Errc::io, path + ": no such file");
    return Status();
  }
  Status remove_directory(const std::string& path) override {
    directories.erase(path);
    return Status();
  }
  Result<std::unique_ptr<memkit::LockHandle>> lock_exclusive(const std::string&, double) override {
    return std::make_unique<memkit::LockHandle>();
  }

 private:
  std::uint64_t temporaries_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bool rollback = (data[0] & 1) != 0;
  const bool apply = (data[0] & 2) != 0;
  const std::vector<std::string_view> parts =
      memkit::fuzz::split(memkit::fuzz::as_text(data + 1, size - 1), 2);
  MemoryFileSystem fs;
  for (const char* dir :
       {"/r", "/r/docs", "/r/docs/memory", "/r/.memkit", "/r/.memkit/txn", "/r/.memkit/txn/t1",
        "/r/.memkit/applied", "/r/.memkit/applied/0123456789abcdef"}) {
    fs.directories.insert(dir);
  }
  fs.files["/r/docs/memory/manifest.md"] = "# M\n";
  fs.files["/r/docs/memory/inbox.md"] = "# Inbox\n\n- one\n";
  fs.files["/r/.memkit/txn/t1/journal.json"] = std::string(parts[0]);
  fs.files["/r/.memkit/txn/t1/backup-0"] = "# Inbox\n";
  fs.files["/r/.memkit/txn/t1/prepared-0"] = "# Inbox\n\n- one\n- two\n";
  fs.files["/r/.memkit/applied/0123456789abcdef/applied.json"] = std::string(parts[1]);
  fs.files["/r/.memkit/applied/0123456789abcdef/b-0"] = "# Inbox\n";

  memkit::WorkspaceOptions options;
  options.project_root = "/r";
  memkit::Result<memkit::Workspace> ws =
      memkit::Workspace::open(fs, memkit::custodian_layout(), options);
  if (!ws.ok()) std::fprintf(stderr, "workspace: %s\n", ws.status().message().c_str());
  MEMKIT_FUZZ_CHECK(ws.ok());
  (void)ws->read_applied_record("0123456789abcdef");
  const Result<memkit::Recovery> recovery = ws->recover(apply, rollback);
  if (recovery) {
    for (const memkit::Transaction& txn : recovery->transactions) {
      MEMKIT_FUZZ_CHECK(txn.txid == "t1");
    }
  }
  // Recovery writes only inside the root, whatever path a journal names.
  for (const auto& [path, bytes] : fs.files) {
    MEMKIT_FUZZ_CHECK(path.starts_with("/r/") && path.find("/../") == std::string::npos);
  }
  return 0;
}
