// A batch's writes staged as one transaction (curated.md §10): each write is planned over the
// files as the writes before it left them, and the batch is written from the files as first read
// to as the last write left them, one operation per file.
#include <algorithm>
#include <stdexcept>
#include <utility>

#include "curated/write_plan.hpp"
#include "memkit/curated/write.hpp"

namespace memkit::curated {
namespace {

// Of a file read only at its end, the bytes kept after an append: a write looks at no more than
// its last byte (whether it ends a line), so a few KiB stand for the rest.
constexpr std::size_t kKeptTail = 4096;

bool is_row_file(std::string_view path) noexcept { return path.starts_with("rows/"); }

using Kept = ParsedRowFiles::Kept;

}  // namespace

StagedWrites::StagedWrites(Snapshot files, std::vector<std::string> tails)
    : read_(files), files_(std::move(files)), tails_(std::move(tails)) {}

void StagedWrites::stage(const std::vector<PlanOperation>& operations) {
  std::vector<FileSnapshot> next = files_.files();
  for (const PlanOperation& op : operations) {
    auto at = std::find_if(next.begin(), next.end(),
                           [&](const FileSnapshot& f) { return f.path == op.path; });
    if (at == next.end()) {
      FileSnapshot missing;
      missing.path = op.path;
      next.push_back(std::move(missing));
      at = std::prev(next.end());
    }
    Change& change = changes_[op.path];
    FileSnapshot staged;
    staged.path = op.path;
    if (op.kind == OperationKind::append) {
      change.appended += op.appended();
      std::string bytes(at->text());
      bytes += op.appended();
      std::uint64_t offset = at->offset;
      const bool tail = std::find(tails_.begin(), tails_.end(), op.path) != tails_.end();
      if (tail && bytes.size() > kKeptTail) {
        offset += bytes.size() - kKeptTail;
        bytes.erase(0, bytes.size() - kKeptTail);
      }
      staged.state = EntryState::file;
      staged.bytes = std::make_shared<const std::string>(std::move(bytes));
      staged.offset = offset;
    } else {
      change.rewritten = true;
      change.exists = op.kind != OperationKind::remove;
      change.text = std::make_shared<const std::string>(change.exists ? op.output.render() : "");
      change.appended.clear();
      if (change.exists) {
        staged.state = EntryState::file;
        staged.bytes = change.text;
      }
      // The next write parses only what this one changed in a row file (a batch of adds into one
      // file costs each add its entry, not the file).
      const auto kept = parsed_.files.find(op.path);
      if (kept != parsed_.files.end()) {
        Kept& parse = kept->second;
        if (op.kind == OperationKind::replace && parse.bytes == op.output.base &&
            parse.parsed.use_count() == 1 &&
            write_detail::update_row_file(*parse.parsed, *op.output.base, *change.text,
                                          op.output.splices, op.path)) {
          parse.bytes = change.text;
        } else {
          parsed_.files.erase(kept);
        }
      }
    }
    *at = std::move(staged);
  }
  files_ = Snapshot(std::move(next));
}

std::vector<PlanOperation> StagedWrites::operations() const {
  std::vector<std::string> paths;
  paths.reserve(changes_.size());
  for (const auto& [path, change] : changes_) paths.push_back(path);
  std::stable_partition(paths.begin(), paths.end(), is_row_file);  // each part stays sorted

  std::vector<PlanOperation> out;
  for (const std::string& path : paths) {
    const Change& change = changes_.at(path);
    const FileSnapshot* before = read_.find(path);
    const bool existed = before != nullptr && before->exists();
    if (!change.rewritten) {
      // Only appended to since it was read: one append of it all.
      out.push_back(plan_append(*before, change.appended));
      continue;
    }
    if (existed && !before->whole()) {
      // Only a file read whole is ever rewritten (write_inputs reads the logs whole for a purge).
      throw std::logic_error("staged: " + path + " rewritten, but only its end was read");
    }
    if (change.exists) {
      std::string text = *change.text + change.appended;
      if (existed && text == before->text()) continue;
      out.push_back(plan_write(path, existed ? before->bytes : nullptr, existed,
                               {Splice{.begin = 0,
                                       .end = existed ? before->text().size() : 0,
                                       .insert = std::move(text)}}));
    } else if (existed) {
      out.push_back(plan_remove(*before));
    }
  }
  return out;
}

}  // namespace memkit::curated
