// One file of a memory folder read into a snapshot entry: shared by the custodian workspace and
// the MemoryBox agent root.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "files/file_system.hpp"
#include "memkit/snapshot.hpp"

namespace memkit::detail {

// How much of a file a write that only appends to it reads: its last bytes, enough to know how it
// ends (and, in the Plan ID and the journal, to tell it from another file of the same length).
inline constexpr std::size_t kAppendTailBytes = 4096;

// Reads one memory file into a snapshot entry; problems become entry states, not failures,
// because reports go on past an unreadable file. With `tail`, only the file's last `tail` bytes
// are read (FileSnapshot::offset says where they begin).
inline FileSnapshot read_entry(const FileSystem& fs, const std::string& absolute, std::string path,
                               std::optional<std::size_t> tail = std::nullopt) {
  FileSnapshot entry;
  entry.path = std::move(path);
  const Result<NodeType> type = fs.node_type(absolute);
  if (!type) {
    entry.state = EntryState::unreadable;
    entry.error = type.status().message();
    return entry;
  }
  switch (*type) {
    case NodeType::none:
      entry.state = EntryState::missing;
      return entry;
    case NodeType::directory:
    case NodeType::other:
      entry.state = EntryState::not_a_file;
      return entry;
    case NodeType::symlink:
      entry.state = EntryState::symlink;
      return entry;
    case NodeType::file:
      break;
  }
  std::uint64_t offset = 0;
  Result<std::string> bytes = std::string();
  if (tail) {
    // An append writes in place, through every name of the file: one of several names is refused
    // here, before anything (the lock included) is written.
    const Result<FileStat> found = fs.stat(absolute);
    if (found && found->links > 1) {
      entry.state = EntryState::unreadable;
      entry.error = "has " + std::to_string(found->links) +
                    " hard links; memkit changes in place only a file of one name";
      return entry;
    }
    if (found) {
      offset = found->size > *tail ? found->size - *tail : 0;
      bytes = fs.read_range(absolute, offset, *tail);
    } else {
      bytes = found.status();
    }
  } else {
    bytes = fs.read_file(absolute);
  }
  if (!bytes) {
    entry.state = EntryState::unreadable;
    const Status failed = bytes.status();
    const std::string& message = failed.message();
    const std::size_t colon = message.rfind(": ");
    entry.error = colon == std::string::npos ? message : message.substr(colon + 2);
    return entry;
  }
  entry.state = EntryState::file;
  entry.bytes = std::make_shared<const std::string>(std::move(bytes).value());
  entry.offset = offset;
  return entry;
}

}  // namespace memkit::detail
