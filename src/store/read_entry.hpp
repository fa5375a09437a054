// One file of a memory folder read into a snapshot entry: shared by the custodian workspace and
// the MemoryBox agent root.
#pragma once

#include <string>

#include "files/file_system.hpp"
#include "memkit/snapshot.hpp"

namespace memkit::detail {

// Reads one memory file into a snapshot entry; problems become entry states, not failures,
// because reports go on past an unreadable file.
inline FileSnapshot read_entry(const FileSystem& fs, const std::string& absolute,
                               std::string path) {
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
  Result<std::string> bytes = fs.read_file(absolute);
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
  return entry;
}

}  // namespace memkit::detail
