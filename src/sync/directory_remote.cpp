// The directory remote (spec memorybox.md §9, include/memkit/sync_remote.hpp): one JSON Lines file
// per table, appended under an exclusive flock of .lock and read under a shared one. A later line
// of an id supersedes earlier ones, so a file is a log whose latest line per (workspace, id) is the
// row; the cursor is each file's byte length up to its last complete line.
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "memkit/memorybox/sync.hpp"
#include "memorybox/sync_files.hpp"
#include "memkit/text.hpp"
#include "memorybox/record_lines.hpp"
#include "sync/directory_files.hpp"
#include "sync/directory_upsert.hpp"
#include "sync/remote.hpp"

namespace memkit::sync {

namespace {

using memorybox::SyncRecord;
using memorybox::SyncTable;

constexpr std::size_t kTableCount = 3;
// The file order of the cursor and of a pull's result.
constexpr std::array<SyncTable, kTableCount> kTables = {
    SyncTable::memories, SyncTable::session_logs, SyncTable::daily_logs};

using Offsets = std::array<std::uint64_t, kTableCount>;

std::size_t index_of(SyncTable table) noexcept {
  return static_cast<std::size_t>(std::find(kTables.begin(), kTables.end(), table) -
                                  kTables.begin());
}

std::string file_name(SyncTable table) {
  return std::string(memorybox::sync_table_name(table)) + ".jsonl";
}

// parse_record_line's messages read "sync record: <problem>"; here the file and line say where.
std::string_view problem_of(const Status& status) noexcept {
  constexpr std::string_view kPrefix = "sync record: ";
  std::string_view message = status.message();
  if (message.substr(0, kPrefix.size()) == kPrefix) message.remove_prefix(kPrefix.size());
  return message;
}

// "" or "A,B,C": three decimal byte offsets, in the order of kTables.
std::optional<Offsets> parse_cursor(std::string_view cursor) {
  Offsets offsets{};
  if (cursor.empty()) return offsets;
  const char* at = cursor.data();
  const char* const end = cursor.data() + cursor.size();
  for (std::size_t i = 0; i < kTableCount; ++i) {
    if (i > 0) {
      if (at == end || *at != ',') return std::nullopt;
      ++at;
    }
    if (at == end || *at < '0' || *at > '9') return std::nullopt;
    const std::from_chars_result parsed = std::from_chars(at, end, offsets[i]);
    if (parsed.ec != std::errc()) return std::nullopt;
    at = parsed.ptr;
  }
  if (at != end) return std::nullopt;
  return offsets;
}

std::string render_cursor(const Offsets& offsets) {
  return std::to_string(offsets[0]) + "," + std::to_string(offsets[1]) + "," +
         std::to_string(offsets[2]);
}

// Calls visit(line, index) for each LF-terminated line of `bytes` (LF included), index from 0;
// stops at the first failed Status.
template <class Visit>
Status for_each_line(std::string_view bytes, Visit&& visit) {
  std::size_t begin = 0;
  std::size_t index = 0;
  while (begin < bytes.size()) {
    const std::size_t lf = bytes.find('\n', begin);
    if (lf == std::string_view::npos) break;
    if (Status s = visit(bytes.substr(begin, lf - begin + 1), index); !s.ok()) return s;
    begin = lf + 1;
    ++index;
  }
  return Status();
}

// The id of a record line when it is there plainly: the first `"id":"` (a key, as no string value
// holds an unescaped quote) up to the next quote, valid UTF-8 with no escape in between, so its
// bytes are the id a parse would give. nullopt otherwise: the line is then read in full.
std::optional<std::string_view> plain_id(std::string_view line) {
  constexpr std::string_view kKey = "\"id\":\"";
  const std::size_t key = line.find(kKey);
  if (key == std::string_view::npos) return std::nullopt;
  const std::size_t begin = key + kKey.size();
  const std::size_t end = line.find('"', begin);
  if (end == std::string_view::npos) return std::nullopt;
  const std::string_view id = line.substr(begin, end - begin);
  if (id.find('\\') != std::string_view::npos || find_invalid_utf8(id)) return std::nullopt;
  return id;
}

std::string misplaced(SyncTable found, SyncTable file) {
  return "a " + std::string(memorybox::sync_table_name(found)) + " record in " + file_name(file);
}

// The complete lines of one file that a pull reads: bytes [from, from + lines.size()).
struct NewLines {
  std::uint64_t from = 0;
  std::string lines;
};

class DirectoryRemote final : public Remote {
 public:
  explicit DirectoryRemote(std::string folder) : folder_(std::move(folder)) {}

  [[nodiscard]] std::string describe() const override { return "directory " + folder_; }

  [[nodiscard]] Result<Pulled> pull(std::string_view workspace_id,
                                    std::string_view cursor) override;

  [[nodiscard]] Result<std::vector<Refusal>> push(std::string_view workspace_id,
                                                  std::span<const SyncRecord> records) override;

 private:
  [[nodiscard]] std::string path_of(SyncTable table) const {
    return folder_ + "/" + file_name(table);
  }
  [[nodiscard]] std::string lock_path() const { return folder_ + "/.lock"; }

  // The complete lines of `table`'s file after `offset`, or the whole file when the offset is
  // stale (past the end, or not just after an LF: the file was replaced).
  [[nodiscard]] Result<NewLines> read_new_lines(SyncTable table, std::uint64_t offset) const;

  // A parse failure at line `index` (from 0) of the bytes read from `from`, as
  // "<file>:<line>: <problem>". The lines before `from` are counted only now, on failure.
  [[nodiscard]] Status line_error(SyncTable table, std::uint64_t from, std::size_t index,
                                  std::string_view problem) const;

  // Reads the latest row of each id of `workspace_id` in `ids` from a whole file's complete lines.
  // A line whose id is plainly another (written without escapes) is passed over unread, so a push
  // of 100 records reads 100 ids' rows, not the table's.
  [[nodiscard]] Status read_rows(SyncTable table, std::string_view workspace_id,
                                 std::string_view bytes,
                                 const std::unordered_set<std::string_view>& ids,
                                 detail::Rows& rows) const;

  // Appends each file's stored lines with one write, then fsyncs; on failure the files are cut
  // back to `sizes`.
  [[nodiscard]] Status append(std::array<detail::FileDescriptor, kTableCount>& files,
                              const Offsets& sizes,
                              const std::array<std::string, kTableCount>& appends) const;

  // Parses the lines of one file and appends the latest record of each id of `workspace_id`, in
  // the order of those latest lines.
  [[nodiscard]] Status collect(SyncTable table, std::string_view workspace_id, const NewLines& read,
                               std::vector<SyncRecord>& out) const;

  std::string folder_;
};

Result<NewLines> DirectoryRemote::read_new_lines(SyncTable table, std::uint64_t offset) const {
  const std::string path = path_of(table);
  NewLines out;
  Result<detail::FileDescriptor> file = detail::open_if_present(path, false);
  if (!file) return file.status();
  if (!file->is_open()) return out;
  Result<std::uint64_t> size = detail::size_of(*file, path);
  if (!size) return size.status();
  std::uint64_t from = offset <= *size ? offset : 0;
  if (from > 0) {
    std::string before;
    if (Status s = detail::read_range(*file, path, from - 1, 1, before); !s.ok()) return s;
    if (before[0] != '\n') from = 0;
  }
  if (Status s = detail::read_range(*file, path, from, *size - from, out.lines); !s.ok()) return s;
  const std::size_t last_lf = out.lines.rfind('\n');
  out.lines.resize(last_lf == std::string::npos ? 0 : last_lf + 1);
  out.from = from;
  return out;
}

Status DirectoryRemote::line_error(SyncTable table, std::uint64_t from, std::size_t index,
                                   std::string_view problem) const {
  const std::string path = path_of(table);
  std::uint64_t line = index + 1;
  if (from > 0) {
    Result<detail::FileDescriptor> file = detail::open_if_present(path, false);
    if (!file) return file.status();
    std::string before;
    if (file->is_open()) {
      if (Status s = detail::read_range(*file, path, 0, from, before); !s.ok()) return s;
    }
    line += static_cast<std::uint64_t>(count_newlines(before));
  }
  return Status(Errc::parse, path + ":" + std::to_string(line) + ": " + std::string(problem));
}

Status DirectoryRemote::collect(SyncTable table, std::string_view workspace_id,
                                const NewLines& read, std::vector<SyncRecord>& out) const {
  const std::string_view lines = read.lines;
  std::vector<SyncRecord> parsed;
  parsed.reserve(static_cast<std::size_t>(count_newlines(lines)));
  Status status = for_each_line(lines, [&](std::string_view line, std::size_t index) {
    Result<SyncRecord> record = memorybox::parse_record_line(line);
    if (!record) return line_error(table, read.from, index, problem_of(record.status()));
    if (record->table != table) {
      return line_error(table, read.from, index, misplaced(record->table, table));
    }
    if (record->workspace_id == workspace_id) parsed.push_back(std::move(record).value());
    return Status();
  });
  if (!status.ok()) return status;

  // The views point into `parsed`, which no longer grows.
  std::unordered_map<std::string_view, std::size_t> latest;
  latest.reserve(parsed.size());
  for (std::size_t i = 0; i < parsed.size(); ++i) latest.insert_or_assign(parsed[i].id, i);
  std::vector<bool> keep(parsed.size(), false);
  for (const auto& [id, index] : latest) keep[index] = true;
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    if (keep[i]) out.push_back(std::move(parsed[i]));
  }
  return Status();
}

Result<Pulled> DirectoryRemote::pull(std::string_view workspace_id, std::string_view cursor) {
  if (!memorybox::is_uuid(workspace_id)) {
    return Status(Errc::invalid_argument,
                  "workspace_id: \"" + std::string(workspace_id) + "\" is not a canonical UUID");
  }
  const std::optional<Offsets> offsets = parse_cursor(cursor);
  if (!offsets) {
    return Status(Errc::invalid_argument,
                  "cursor: \"" + std::string(cursor) + "\" is not three byte offsets A,B,C");
  }

  // Read under the shared lock, so that no push is seen half done; parse after releasing it.
  std::array<NewLines, kTableCount> reads;
  {
    Result<detail::FileDescriptor> lock = detail::lock_file(lock_path(), detail::LockMode::shared);
    if (!lock) return lock.status();
    for (std::size_t i = 0; i < kTableCount; ++i) {
      Result<NewLines> read = read_new_lines(kTables[i], (*offsets)[i]);
      if (!read) return read.status();
      reads[i] = std::move(read).value();
    }
  }

  Pulled pulled;
  Offsets next{};
  for (std::size_t i = 0; i < kTableCount; ++i) {
    if (Status s = collect(kTables[i], workspace_id, reads[i], pulled.records); !s.ok()) return s;
    next[i] = reads[i].from + reads[i].lines.size();
  }
  pulled.cursor = render_cursor(next);
  return pulled;
}

Result<std::vector<Refusal>> DirectoryRemote::push(std::string_view workspace_id,
                                                   std::span<const SyncRecord> records) {
  if (!memorybox::is_uuid(workspace_id)) {
    return Status(Errc::invalid_argument,
                  "workspace_id: \"" + std::string(workspace_id) + "\" is not a canonical UUID");
  }
  // Every record is checked as a pull will read it, so that no push can leave a line that makes
  // the files unreadable for every workspace.
  std::array<std::vector<detail::Pending>, kTableCount> pending;
  for (const SyncRecord& record : records) {
    if (record.workspace_id != workspace_id) {
      return Status(Errc::invalid_argument, "record " + record.id + ": workspace_id " +
                                                record.workspace_id + " is not the pushed " +
                                                std::string(workspace_id));
    }
    std::string line;
    memorybox::append_record_line(line, record);
    if (memorybox::detail::reads_back_unchanged(record)) {
      pending[index_of(record.table)].push_back(
          detail::Pending{record.id, detail::fixed_time(record.updated_at), std::move(line)});
      continue;
    }
    Result<SyncRecord> checked = memorybox::parse_record_line(line);
    if (!checked) {
      return Status(Errc::invalid_argument,
                    "record " + record.id + ": " + std::string(problem_of(checked.status())));
    }
    pending[index_of(checked->table)].push_back(detail::Pending{
        std::move(checked->id), detail::fixed_time(checked->updated_at), std::move(line)});
  }

  Result<detail::FileDescriptor> lock = detail::lock_file(lock_path(), detail::LockMode::exclusive);
  if (!lock) return lock.status();

  std::array<detail::FileDescriptor, kTableCount> files;
  Offsets sizes{};
  std::array<std::string, kTableCount> appends;
  std::vector<Refusal> refusals;
  for (std::size_t t = 0; t < kTableCount; ++t) {
    const SyncTable table = kTables[t];
    const std::string path = path_of(table);
    Result<detail::FileDescriptor> file = detail::open_if_present(path, true);
    if (!file) return file.status();
    files[t] = std::move(file).value();
    // Holds views into `bytes`, which outlives it.
    std::string bytes;
    detail::Rows rows;
    if (files[t].is_open()) {
      // A final line without its LF is a push that crashed mid-write: cut it off first.
      Result<std::uint64_t> size = detail::size_of(files[t], path);
      if (!size) return size.status();
      Result<std::uint64_t> complete = detail::complete_size(files[t], path, *size);
      if (!complete) return complete.status();
      if (*complete != *size) {
        if (Status s = detail::truncate_to(files[t], path, *complete); !s.ok()) return s;
      }
      sizes[t] = *complete;
      if (!pending[t].empty()) {
        if (Status s = detail::read_range(files[t], path, 0, sizes[t], bytes); !s.ok()) return s;
        std::unordered_set<std::string_view> ids;
        for (const detail::Pending& p : pending[t]) ids.insert(p.id);
        if (Status s = read_rows(table, workspace_id, bytes, ids, rows); !s.ok()) return s;
      }
    }
    detail::decide_upserts(table, pending[t], rows, appends[t], refusals);
  }

  if (Status s = append(files, sizes, appends); !s.ok()) return s;
  return refusals;
}

Status DirectoryRemote::read_rows(SyncTable table, std::string_view workspace_id,
                                  std::string_view bytes,
                                  const std::unordered_set<std::string_view>& ids,
                                  detail::Rows& rows) const {
  return for_each_line(bytes, [&](std::string_view line, std::size_t index) {
    if (const std::optional<std::string_view> id = plain_id(line); id && !ids.contains(*id)) {
      return Status();
    }
    std::string_view canonical = line;
    std::optional<SyncRecord> record = memorybox::detail::read_canonical_record_line(line);
    if (!record) {  // another JSON form of the record (or a bad line): rewritten canonically
      Result<SyncRecord> parsed = memorybox::detail::parse_record_line_json(line);
      if (!parsed) return line_error(table, 0, index, problem_of(parsed.status()));
      record = std::move(parsed).value();
      if (record->workspace_id == workspace_id) {
        memorybox::append_record_line(rows.rewritten.emplace_back(), *record);
        canonical = rows.rewritten.back();
      }
    }
    if (record->table != table) return line_error(table, 0, index, misplaced(record->table, table));
    if (record->workspace_id == workspace_id) {
      rows.latest.insert_or_assign(
          std::move(record->id), detail::Stored{detail::fixed_time(record->updated_at), canonical});
    }
    return Status();
  });
}

Status DirectoryRemote::append(std::array<detail::FileDescriptor, kTableCount>& files,
                               const Offsets& sizes,
                               const std::array<std::string, kTableCount>& appends) const {
  std::array<bool, kTableCount> touched{};
  bool created_any = false;
  Status failure;
  for (std::size_t t = 0; t < kTableCount && failure.ok(); ++t) {
    if (appends[t].empty()) continue;
    const std::string path = path_of(kTables[t]);
    if (!files[t].is_open()) {
      bool created = false;
      Result<detail::FileDescriptor> file = detail::open_for_append(path, created);
      if (!file) {
        failure = file.status();
        break;
      }
      files[t] = std::move(file).value();
      created_any = created_any || created;
    }
    touched[t] = true;
    failure = detail::append_all(files[t], path, appends[t]);
  }
  for (std::size_t t = 0; t < kTableCount && failure.ok(); ++t) {
    if (touched[t]) failure = detail::sync_file(files[t], path_of(kTables[t]));
  }
  if (failure.ok() && created_any) failure = detail::sync_folder(folder_);
  if (!failure.ok()) {
    // The caller retries the whole push; cutting what this one appended keeps the files as they
    // were (and a retry would acknowledge those lines anyway).
    for (std::size_t t = 0; t < kTableCount; ++t) {
      if (touched[t]) (void)detail::truncate_to(files[t], path_of(kTables[t]), sizes[t]);
    }
  }
  return failure;
}

}  // namespace

Result<std::unique_ptr<Remote>> open_directory_remote(std::string folder) {
  struct stat st {};
  if (::stat(folder.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) {
      return Status(Errc::not_found, folder + ": no such folder");
    }
    return detail::io_error(folder, errno);
  }
  if (!S_ISDIR(st.st_mode)) return Status(Errc::invalid_argument, folder + ": not a folder");
  return std::unique_ptr<Remote>(std::make_unique<DirectoryRemote>(std::move(folder)));
}

}  // namespace memkit::sync
