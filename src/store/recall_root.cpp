// Finding the layouts under a search root and reading their files (recall_root.hpp).
#include "store/recall_root.hpp"

#include <algorithm>

#include "store/agent_root.hpp"
#include "text/shown_text.hpp"

namespace memkit {
namespace {

using recall::Layout;

// `a` and `b` joined with '/', either of them possibly empty.
std::string join(const std::string& a, const std::string& b) {
  return a.empty() ? b : b.empty() ? a : a + "/" + b;
}

class RecallReader {
 public:
  RecallReader(FileSystem& fs, std::string root, bool read_bytes)
      : fs_(fs), root_(std::move(root)), read_bytes_(read_bytes) {}

  [[nodiscard]] NodeType type(const std::string& relative) const {
    const Result<NodeType> t = fs_.node_type(root_ + "/" + relative);
    return t ? *t : NodeType::none;
  }

  // Every file under the folder `base`/`folder` (relative to the root), recursively, in bytewise
  // order of paths, as sources of `layout` whose root is `base`. Dot-folders (.memkit, .git) are
  // not memory.
  void walk(Layout layout, const std::string& base, const std::string& folder) {
    // One stat of each entry, read with the listing: what it is and, for a file, what the index
    // compares.
    const Result<std::vector<std::pair<std::string, FileStat>>> entries =
        fs_.list_directory_stats(root_ + "/" + join(base, folder));
    if (!entries) {
      add(layout, base, folder, unreadable(entries.status()));
      return;
    }
    for (const auto& [name, stat] : *entries) {
      if (name.starts_with('.')) continue;
      const std::string path = join(folder, name);
      const NodeType t = stat.type;
      if (t == NodeType::directory) {
        walk(layout, base, path);
      } else if (t == NodeType::file) {
        read(layout, base, path, stat);
      } else if (t == NodeType::symlink || t == NodeType::other) {  // never followed or opened
        FileSnapshot skipped;
        skipped.state = t == NodeType::symlink ? EntryState::symlink : EntryState::not_a_file;
        add(layout, base, path, std::move(skipped));
      }
    }
  }

  // A regular file that stat() found so: read, unless only its stat is wanted.
  void read(Layout layout, const std::string& base, const std::string& path, const FileStat& stat) {
    FileSnapshot file;
    file.state = EntryState::file;
    if (read_bytes_) {
      Result<std::string> bytes = fs_.read_file(root_ + "/" + join(base, path));
      if (bytes) {
        file.bytes = std::make_shared<const std::string>(std::move(bytes).value());
      } else {
        file = unreadable(bytes.status());
      }
    }
    add(layout, base, path, std::move(file), 0, std::nullopt, stat);
  }

  // A file the caller read (or found missing), as a source of `layout`.
  void add(Layout layout, const std::string& base, const std::string& path, FileSnapshot file,
           int tier = 0, std::optional<std::size_t> load_order = std::nullopt,
           const FileStat& stat = {}) {
    RecallFile found;
    found.load_order = load_order;
    found.stat = stat;
    found.source.layout = layout;
    found.source.root = base;
    found.source.path = path;
    found.source.tier = tier;
    file.path = recall::display_path(found.source);
    found.file = std::move(file);
    files_.push_back(std::move(found));
  }

  std::vector<RecallFile> take() {
    std::sort(files_.begin(), files_.end(),
              [](const RecallFile& a, const RecallFile& b) { return a.file.path < b.file.path; });
    return std::move(files_);
  }

 private:
  FileSnapshot unreadable(const Status& status) const {
    FileSnapshot file;
    file.state = EntryState::unreadable;
    std::string message = status.message();
    if (message.starts_with(root_ + "/")) message.erase(0, root_.size() + 1);
    file.error = std::move(message);
    return file;
  }

  FileSystem& fs_;
  std::string root_;
  bool read_bytes_;
  std::vector<RecallFile> files_;
};

}  // namespace

Result<std::vector<RecallFile>> read_recall_files(FileSystem& fs, std::string root,
                                                  const std::string& option,
                                                  const std::string& custodian_dir,
                                                  std::optional<recall::Layout> only,
                                                  bool read_bytes) {
  if (root.empty()) return Status(Errc::invalid_argument, option + ": empty path");
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  const Result<NodeType> type = fs.node_type(root + "/.");
  if (!type || *type != NodeType::directory) {
    const Result<NodeType> plain = fs.node_type(root);
    const bool exists = plain && *plain != NodeType::none;
    return Status(Errc::invalid_argument, option + ": " + shown_text(root) +
                                              (exists ? ": not a directory" : ": no such directory"));
  }
  RecallReader reader(fs, root, read_bytes);
  const auto wanted = [&only](Layout layout) { return !only || *only == layout; };
  // A layout's folder that is a link is said (a symlink entry), never followed.
  const auto linked = [&reader](Layout layout, const std::string& folder) {
    if (reader.type(folder) != NodeType::symlink) return false;
    FileSnapshot link;
    link.state = EntryState::symlink;
    reader.add(layout, "", folder, std::move(link));
    return true;
  };
  if (wanted(Layout::custodian) && !linked(Layout::custodian, custodian_dir) &&
      reader.type(custodian_dir) == NodeType::directory) {
    reader.walk(Layout::custodian, custodian_dir, "");
  }
  // MemoryBox and the three tiers both keep memory/; brain/ or LONG_TERM.md tells MemoryBox's.
  const bool memorybox = reader.type("brain") == NodeType::directory ||
                         reader.type("memory/LONG_TERM.md") == NodeType::file;
  if (wanted(Layout::memorybox) && memorybox) {
    Result<AgentRoot> agent = AgentRoot::open(fs, root);
    if (!agent) return agent.status();
    Result<memorybox::Inputs> inputs = agent->read_memorybox_inputs();
    if (!inputs) return inputs.status();
    const std::vector<std::string> order = memorybox::tier_files_1_to_4(*inputs);
    for (const FileSnapshot& file : inputs->snapshot.files()) {
      if (file.state == EntryState::missing) continue;
      const auto at = std::find(order.begin(), order.end(), file.path);
      const Result<FileStat> stat =
          file.exists() ? fs.stat(root + "/" + file.path) : Result<FileStat>(FileStat{});
      reader.add(Layout::memorybox, "", file.path, file, memorybox::tier_of(*inputs, file.path),
                 at == order.end() ? std::nullopt
                                   : std::optional<std::size_t>(at - order.begin()),
                 stat ? *stat : FileStat{});
    }
  }
  const bool tiers = only == Layout::tiers || (!only && !memorybox);
  if (tiers && !linked(Layout::tiers, "memory") &&
      (only == Layout::tiers ? reader.type("memory") == NodeType::directory
                             : reader.type("memory/global.md") == NodeType::file ||
                                   reader.type("memory/sessions") == NodeType::directory)) {
    reader.walk(Layout::tiers, "", "memory");
  }
  if (wanted(Layout::curated) && !linked(Layout::curated, "rows") &&
      reader.type("rows") == NodeType::directory) {
    reader.walk(Layout::curated, "", "rows");
    if (reader.type("floors/episodes") == NodeType::directory) {
      reader.walk(Layout::curated, "", "floors/episodes");
    }
  }
  return reader.take();
}

}  // namespace memkit
