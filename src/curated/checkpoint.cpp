// The checkpoint (curated.md §10): a session record and its pending threads, all or nothing. Three
// stages, each able to refuse before the next: the payload's shape (MK-CUR-020 BLOCKER, no
// operation at all), the validation of every operation in payload order (the first failure
// rejects the whole with one MK-CUR-020 ERROR), then the writes.
//
// The writes are add's upsert and link's link themselves, run one after the other over a store
// that each of them advances: a checkpointed row then behaves exactly as under `add` and `link`
// (resurrection, a type change's move, the no-op rules), and several new rows in one file land
// as sequential inserts would place them, which a single Planner's splices over the files as
// read cannot do. Their changes are then folded into one Write against the files as read: one
// operation per file, the history's new lines appended once, so the shell commits one
// transaction (§6).
#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "codec/strict_json.hpp"
#include "curated/words.hpp"
#include "curated/write_plan.hpp"
#include "memkit/curated.hpp"
#include "memkit/curated/write.hpp"
#include "memkit/plan.hpp"
#include "memkit/snapshot.hpp"
#include "memkit/text.hpp"

namespace memkit::curated {
namespace {

using json = nlohmann::json;

using wordlist::kTypeChoices;

// ---- stage 1: shape -----------------------------------------------------------------------------

// One object of the payload, every value a string as sent.
struct Item {
  std::string name;
  std::string type;  // the record only
  std::optional<std::string> description;
  std::string body;
};

struct Payload {
  Item record;
  std::vector<Item> pending;
};

// A payload, or what is wrong with its shape.
struct Shaped {
  std::optional<Payload> payload;
  std::string problem;
};

Shaped shape_error(std::string problem) {
  return Shaped{.payload = std::nullopt, .problem = std::move(problem)};
}

// One object of the payload (`where` names it): only the keys shown in §10, every value a string,
// the required ones present.
std::optional<Item> read_item(const json& value, const std::string& where, bool record,
                              std::string& problem) {
  if (!value.is_object()) {
    problem = where + ": expected an object, got " + std::string(value.type_name());
    return std::nullopt;
  }
  Item item;
  for (const auto& [key, field] : value.items()) {
    std::string* slot = nullptr;
    if (key == "name") {
      slot = &item.name;
    } else if (key == "body") {
      slot = &item.body;
    } else if (key == "type" && record) {
      slot = &item.type;
    } else if (key == "description") {
      item.description.emplace();
      slot = &*item.description;
    } else {
      problem = where + ": unknown key '" + to_valid_utf8(key) + "'";
      return std::nullopt;
    }
    if (!field.is_string()) {
      problem = where + "." + key + ": expected a string, got " + std::string(field.type_name());
      return std::nullopt;
    }
    *slot = field.get<std::string>();
  }
  for (const std::string_view required : {"name", "type", "body"}) {
    if (required == "type" && !record) continue;
    if (!value.contains(required)) {
      problem = where + ": missing '" + std::string(required) + "'";
      return std::nullopt;
    }
  }
  return item;
}

// §10 step 1: {record, pending?}, or the reference's {resumen, pendientes?}, never a mix.
Shaped read_payload(std::string_view text) {
  std::string problem;
  const std::optional<json> value = detail::parse_strict_json(text, problem);
  if (!value) return shape_error(problem);
  if (!value->is_object()) {
    return shape_error("expected an object, got " + std::string(value->type_name()));
  }
  bool english = false;
  bool spanish = false;
  for (const auto& [key, field] : value->items()) {
    if (key == "record" || key == "pending") {
      english = true;
    } else if (key == "resumen" || key == "pendientes") {
      spanish = true;
    } else {
      return shape_error("unknown key '" + to_valid_utf8(key) + "'");
    }
  }
  if (english && spanish) {
    return shape_error("mixes the key names record/pending with resumen/pendientes");
  }
  const std::string record_key = spanish ? "resumen" : "record";
  const std::string pending_key = spanish ? "pendientes" : "pending";
  if (!value->contains(record_key)) return shape_error("missing '" + record_key + "'");

  Payload payload;
  std::optional<Item> record = read_item(value->at(record_key), record_key, true, problem);
  if (!record) return shape_error(problem);
  payload.record = std::move(*record);
  if (value->contains(pending_key)) {
    const json& pending = value->at(pending_key);
    if (!pending.is_array()) {
      return shape_error(pending_key + ": expected an array, got " +
                         std::string(pending.type_name()));
    }
    for (std::size_t i = 0; i < pending.size(); ++i) {
      std::optional<Item> item =
          read_item(pending[i], pending_key + "[" + std::to_string(i) + "]", false, problem);
      if (!item) return shape_error(problem);
      payload.pending.push_back(std::move(*item));
    }
  }
  return Shaped{.payload = std::move(payload), .problem = {}};
}

// ---- stage 2: validation ------------------------------------------------------------------------

CheckpointOperation operation(std::string op, std::string name) {
  return CheckpointOperation{.op = std::move(op),
                             .name = std::move(name),
                             .result = "not_attempted",
                             .action = std::nullopt,
                             .row_class = std::nullopt,
                             .memory_status = std::nullopt,
                             .error = std::nullopt,
                             .dst = std::nullopt};
}

// The operations of a payload, none attempted yet: the record's upsert, each pending upsert,
// then each pending link (§10 `data`).
std::vector<CheckpointOperation> operations_of(const Payload& payload) {
  std::vector<CheckpointOperation> out;
  out.push_back(operation("upsert", payload.record.name));
  for (const Item& item : payload.pending) out.push_back(operation("upsert", item.name));
  for (const Item& item : payload.pending) {
    out.push_back(operation("link", item.name));
    out.back().dst = payload.record.name;
  }
  return out;
}

// Why the upsert of `item` (operation `index`) fails validation, or nullopt (§10 step 2, in the
// spec's order). `type` is the record's, nullopt when the record's type is not a type.
std::optional<Finding> invalid(const Item& item, std::size_t index, const Payload& payload,
                               const std::optional<RowType>& type) {
  if (!type) {  // only the record can get here: its failure stops the validation
    return make_fatal("MK-ARG-001", "",
                      "type: expected " + std::string(kTypeChoices) + ", got '" +
                          to_valid_utf8(payload.record.type) + "'");
  }
  if (std::optional<std::string> problem = slug_problem(item.name, *type)) {
    return make_fatal("MK-CUR-003", "", *problem);
  }
  for (std::size_t earlier = 0; earlier < index; ++earlier) {
    const std::string& name =
        earlier == 0 ? payload.record.name : payload.pending[earlier - 1].name;
    if (name == item.name) {
      return make_finding(
          "MK-CUR-021", Severity::error, "",
          "the name " + item.name + " is already used by operation " + std::to_string(earlier));
    }
  }
  if (CheckedBody body = check_body(item.body); body.refused) return std::move(body.refused);
  if (item.description) return check_description(*item.description);
  return std::nullopt;
}

// The one finding of a rejected checkpoint, naming the failing operation and its code.
Finding rejection(std::size_t index, const CheckpointOperation& op, const Finding& cause) {
  return make_finding("MK-CUR-020", Severity::error, "",
                      "checkpoint rejected: operation " + std::to_string(index) + " (" + op.op +
                          " " + to_valid_utf8(op.name) + ") failed with " + cause.code + ": " +
                          cause.message,
                      "fix that operation in the payload and run the checkpoint again; nothing "
                      "was written");
}

// Marks operation `index` failed with `code`, every other one not attempted.
void fail(std::vector<CheckpointOperation>& ops, std::size_t index, const std::string& code) {
  for (CheckpointOperation& op : ops) {
    op.result = "not_attempted";
    op.action.reset();
    op.row_class.reset();
    op.memory_status.reset();
  }
  ops[index].result = "failed";
  ops[index].error = code;
}

// ---- stage 3: the writes ------------------------------------------------------------------------

// The store as the steps leave it: the snapshot as read, with every path a step wrote replaced by
// its new bytes; then the whole as one set of operations against the files as read.
class Staged final {
 public:
  explicit Staged(const Snapshot& files) : read_(files), now_(files) {}

  [[nodiscard]] const Snapshot& now() const noexcept { return now_; }

  // Gives `path` its final bytes directly (the new threads, planned at once); now() is not
  // advanced, so nothing may be planned over it afterwards.
  void set(const std::string& path, std::string bytes) {
    written_[path] = std::make_shared<const std::string>(std::move(bytes));
  }

  void apply(const Write& write) {
    if (write.operations.empty()) return;
    std::map<std::string, std::shared_ptr<const std::string>> changed;
    for (const PlanOperation& op : write.operations) {
      changed[op.path] = std::make_shared<const std::string>(op.output.render());
      written_[op.path] = changed[op.path];
    }
    std::vector<FileSnapshot> files = now_.files();
    for (FileSnapshot& file : files) {
      if (const auto it = changed.find(file.path); it != changed.end()) {
        file.state = EntryState::file;
        file.bytes = it->second;
        file.error.clear();
        changed.erase(it);
      }
    }
    for (auto& [path, bytes] : changed) {  // a path the snapshot never looked at
      files.push_back(FileSnapshot{
          .path = path, .state = EntryState::file, .bytes = std::move(bytes), .error = {}});
    }
    now_ = Snapshot(std::move(files));
  }

  // One operation per path whose bytes changed, in commit order: the row files by path, then
  // history.jsonl. Each is a single splice over the bytes as read (their common head and tail
  // kept), so the history's is an append.
  [[nodiscard]] std::vector<PlanOperation> operations(std::string_view workspace) const {
    const std::string history = history_path(workspace);
    std::vector<PlanOperation> rows;
    std::vector<PlanOperation> logs;
    for (const auto& [path, after] : written_) {
      const FileSnapshot* file = read_.find(path);
      const bool exists = file != nullptr && file->exists();
      const std::string_view before = exists ? file->text() : std::string_view();
      if (exists && before == *after) continue;
      std::size_t head = 0;
      while (head < before.size() && head < after->size() && before[head] == (*after)[head]) {
        ++head;
      }
      std::size_t tail = 0;
      while (tail < before.size() - head && tail < after->size() - head &&
             before[before.size() - 1 - tail] == (*after)[after->size() - 1 - tail]) {
        ++tail;
      }
      // The history only grows, and was read only at its end: its change is an append.
      const bool append = exists && head == before.size() && (path == history || !file->whole());
      PlanOperation op =
          append ? plan_append(*file, after->substr(head))
                 : plan_write(path, exists ? file->bytes : nullptr, exists,
                              {Splice{.begin = head,
                                      .end = before.size() - tail,
                                      .insert = after->substr(head, after->size() - tail - head)}});
      (path == history || path.starts_with("log/") ? logs : rows).push_back(std::move(op));
    }
    // written_ is a map, so each group is in path order; history.jsonl sorts after the others.
    for (PlanOperation& op : logs) rows.push_back(std::move(op));
    return rows;
  }

 private:
  const Snapshot& read_;
  Snapshot now_;
  std::map<std::string, std::shared_ptr<const std::string>> written_;
};

// The code of the first refusal among `findings`.
const Finding& first_refusal(const std::vector<Finding>& findings) {
  const auto it = std::find_if(findings.begin(), findings.end(), [](const Finding& f) {
    return f.fatal || f.severity == Severity::blocker || f.severity == Severity::error;
  });
  return it != findings.end() ? *it : findings.front();
}

void keep_warnings(const std::vector<Finding>& from, std::vector<Finding>& into) {
  for (const Finding& f : from) {
    if (std::find(into.begin(), into.end(), f) == into.end()) into.push_back(f);
  }
}

Checkpoint refused_arguments(std::vector<Finding> findings) {
  Checkpoint out;
  out.rejected = true;
  out.write.findings = std::move(findings);
  return out;
}

// ---- the threads at once ------------------------------------------------------------------------

// One pending thread planned alone: its upsert and its link, each over a store holding only what
// the write needs (the thread's own entry, when it exists, and the record's), so that each costs
// the same whatever the workspace holds.
struct Thread {
  Write add;
  Write link;
  std::string name;
  std::optional<std::size_t> existing;  // its entry's index in the row file, when it has one
  std::string rendered;                 // the entry after its upsert, before its link
  std::string linked;        // the entry after its link: what the row file ends up holding
  std::string upsert_lines;  // its history lines: the upsert's ("" when unchanged)
  std::string link_lines;    // and the link's
};

// The history lines a write over a store without history.jsonl appends: "" when it changed
// nothing, nullopt when it changed something else.
std::optional<std::string> history_lines(const Write& write, const std::string& history) {
  if (!write.changed) return std::string();
  for (const PlanOperation& op : write.operations) {
    if (op.path == history) return op.output.render();
  }
  return std::nullopt;
}

// The pending threads of a checkpoint as sequential add and link calls would leave them, planned
// in time linear in the payload and the row file (issue 24, defect 13: planning each step over
// the whole store made a checkpoint quadratic, a repeated one too). Applies when the record's
// upsert changed its row file (so every refusal a thread's write could meet, an invalid entry, an
// open fence, a link, was met by the record's write already) and every pending name is either new
// to the workspace or the name of a valid entry of that same row file. A new thread is inserted
// before the first entry of the file (in file order) whose name sorts after it, several landing
// in one place standing in name order, each followed by an empty line, exactly as one insert after
// another places them; an existing one is rewritten in place, as an update edits it. Each thread's
// entry and history lines come from add and link themselves, planned over a file holding only the
// thread's entry and then the record. nullopt: not applicable, the caller plans step by step.
struct PlannedThreads {
  std::vector<Thread> threads;  // in payload order
  std::string row_path;
  std::string row_file;  // the file's final bytes
  std::string history;   // history.jsonl's final bytes
};

std::optional<PlannedThreads> plan_threads(const Snapshot& now, const WriteContext& context,
                                           const Write& record, std::string_view record_name,
                                           const std::vector<AddRequest>& adds) {
  if (adds.empty() || !record.changed || !record.row) return std::nullopt;
  const RowType type = record.row->type;
  const auto record_text = record.entries.find(std::string(record_name));
  if (record_text == record.entries.end()) return std::nullopt;
  const write_detail::LoadedWorkspace loaded = write_detail::load_workspace(now, context.workspace);
  const std::string path = rows_path(context.workspace, type);
  const write_detail::LoadedFile* target = nullptr;
  std::unordered_map<std::string_view, std::size_t> here;  // name -> entry index in the target
  std::unordered_set<std::string_view> elsewhere;
  for (const write_detail::LoadedFile& file : loaded.files) {
    if (file.path == path) {
      target = &file;
      for (std::size_t i = 0; i < file.parsed->entries.size(); ++i) {
        here.emplace(file.parsed->entries[i].row.name, i);
      }
    } else {
      for (const Entry& entry : file.parsed->entries) elsewhere.insert(entry.row.name);
    }
  }
  if (target == nullptr || !target->exists || !target->readable || !target->invalid.empty() ||
      target->parsed->parse_error) {
    return std::nullopt;
  }
  for (const AddRequest& add : adds) {
    if (elsewhere.contains(add.name)) return std::nullopt;  // a move, or a name used twice
  }
  const std::string history = history_path(context.workspace);
  const FileSnapshot* history_file = now.find(history);
  if (history_file == nullptr || !history_file->exists() || !history_file->text().ends_with('\n')) {
    return std::nullopt;
  }

  const std::string_view bytes = *target->bytes;
  const std::vector<Entry>& entries = target->parsed->entries;
  const bool crlf = target->parsed->crlf;
  const std::string t = crlf ? "\r\n" : "\n";
  const std::string header = row_file_header(type, crlf);
  const auto alone = [&](std::string file) {
    return Snapshot({FileSnapshot{.path = path,
                                  .state = EntryState::file,
                                  .bytes = std::make_shared<const std::string>(std::move(file)),
                                  .error = {}}});
  };
  PlannedThreads out;
  out.row_path = path;
  out.threads.reserve(adds.size());
  for (const AddRequest& add : adds) {
    Thread thread;
    thread.name = add.name;
    std::string own = header;
    if (const auto at = here.find(add.name); at != here.end()) {
      thread.existing = at->second;
      const Entry& entry = entries[at->second];
      own += t;
      own += bytes.substr(entry.begin, entry.end - entry.begin);
    }
    thread.add = plan_add(alone(std::move(own)), context, add);
    if (thread.add.refused() || (thread.add.action != (thread.existing ? "updated" : "inserted") &&
                                 !(thread.existing && thread.add.action == "unchanged"))) {
      return std::nullopt;
    }
    const auto rendered = thread.add.entries.find(add.name);
    const std::optional<std::string> upserted = history_lines(thread.add, history);
    if (rendered == thread.add.entries.end() || !upserted) return std::nullopt;
    thread.rendered = rendered->second;
    thread.upsert_lines = *upserted;
    const Snapshot pair = alone(header + t + record_text->second + t + thread.rendered);
    thread.link = plan_link(pair, context, add.name, record_name, name_of(LinkKind::derived_from),
                            /*remove=*/false);
    if (thread.link.refused()) return std::nullopt;
    const auto linked = thread.link.entries.find(add.name);
    const std::optional<std::string> linked_lines = history_lines(thread.link, history);
    if (!linked_lines || (thread.link.changed && linked == thread.link.entries.end())) {
      return std::nullopt;
    }
    thread.linked = thread.link.changed ? linked->second : thread.rendered;
    thread.link_lines = *linked_lines;
    out.threads.push_back(std::move(thread));
  }

  // An existing thread's entry is rewritten where it stands.
  std::vector<Splice> splices;
  for (const Thread& thread : out.threads) {
    if (!thread.existing) continue;
    const Entry& entry = entries[*thread.existing];
    if (thread.linked != bytes.substr(entry.begin, entry.end - entry.begin)) {
      // An unterminated last line that the rewrite terminates would move where an insert after
      // it begins: such a file is planned step by step.
      if (entry.end == bytes.size() && !bytes.ends_with('\n')) return std::nullopt;
      splices.push_back(Splice{entry.begin, entry.end, thread.linked});
    }
  }
  // A new one goes before the first entry in file order whose name sorts after its name: the first
  // whose running maximum of names does, found by a binary search over the running maxima.
  std::vector<std::string_view> running;
  running.reserve(entries.size());
  for (const Entry& entry : entries) {
    running.push_back(running.empty() ? std::string_view(entry.row.name)
                                      : std::max(running.back(), std::string_view(entry.row.name)));
  }
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < out.threads.size(); ++i) {
    if (!out.threads[i].existing) order.push_back(i);
  }
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return out.threads[a].name < out.threads[b].name;
  });
  std::vector<Splice> inserts;
  for (std::size_t k = 0; k < order.size();) {
    const Thread& first = out.threads[order[k]];
    const std::size_t next = static_cast<std::size_t>(
        std::upper_bound(running.begin(), running.end(), std::string_view(first.name)) -
        running.begin());
    // The place and the separator come from insert_entry itself, shown only the entry to precede.
    RowFile probe;
    probe.crlf = crlf;
    if (next < entries.size()) probe.entries.push_back(entries[next]);
    std::vector<Splice> placed = insert_entry(bytes, probe, *first.add.row);
    if (placed.size() != 1) return std::nullopt;
    Splice splice = std::move(placed[0]);
    const bool before_entry = next < entries.size();
    const std::string tail = before_entry ? first.rendered + t : first.rendered;
    if (!splice.insert.ends_with(tail)) return std::nullopt;
    splice.insert.resize(splice.insert.size() - tail.size());
    splice.insert += before_entry ? first.linked + t : first.linked;
    for (++k; k < order.size(); ++k) {
      const Thread& thread = out.threads[order[k]];
      const std::size_t at = static_cast<std::size_t>(
          std::upper_bound(running.begin(), running.end(), std::string_view(thread.name)) -
          running.begin());
      if (at != next) break;
      splice.insert += before_entry ? thread.linked + t : t + thread.linked;
    }
    inserts.push_back(std::move(splice));
  }
  // At one offset an insert goes before the rewrite of the entry that starts there.
  for (Splice& insert : inserts) splices.push_back(std::move(insert));
  std::stable_sort(splices.begin(), splices.end(), [](const Splice& a, const Splice& b) {
    return a.begin != b.begin ? a.begin < b.begin : (a.end == a.begin) > (b.end == b.begin);
  });
  out.row_file = apply_splices(bytes, splices);
  out.history = std::string(history_file->text());
  for (const Thread& thread : out.threads) out.history += thread.upsert_lines;
  for (const Thread& thread : out.threads) out.history += thread.link_lines;
  return out;
}

}  // namespace

namespace write_detail {

Checkpoint plan_checkpoint_stepping(const Snapshot& files, const WriteContext& context,
                                    std::string_view payload,
                                    const std::optional<std::string>& initiative,
                                    const std::optional<std::string>& project_ref, Stepping mode,
                                    bool* batched) {
  // The arguments first, like any command's (§10 step 2): no operation exists yet.
  std::vector<Finding> refusals;
  const std::optional<std::string> initiative_key =
      write_detail::initiative_argument(initiative, refusals);
  const auto ref = write_detail::one_line("--project-ref", project_ref, refusals);
  if (write_detail::refuses(refusals)) return refused_arguments(std::move(refusals));

  Shaped shaped = read_payload(payload);
  if (!shaped.payload) {
    return refused_arguments({make_fatal(
        "MK-CUR-020", "", "--file: checkpoint payload: " + shaped.problem,
        R"(send {"record": {"name", "type", "body", "description"?}, "pending"?: [{"name", )"
        R"("body", "description"?}]}, every value a string)")});
  }
  const Payload& request = *shaped.payload;

  Checkpoint out;
  out.operations = operations_of(request);
  const std::optional<RowType> type = parse_row_type(request.record.type);
  for (std::size_t i = 0; i <= request.pending.size(); ++i) {
    const Item& item = i == 0 ? request.record : request.pending[i - 1];
    if (std::optional<Finding> cause = invalid(item, i, request, type)) {
      fail(out.operations, i, cause->code);
      out.rejected = true;
      out.write.findings.push_back(rejection(i, out.operations[i], *cause));
      return out;
    }
  }

  // §10 step 3: every row takes --initiative, or else the one --project-ref gives (§3).
  std::optional<std::string> row_initiative = initiative_key;
  if (!row_initiative && ref && *ref) row_initiative = initiative_of_project_ref(**ref);

  Staged store(files);
  std::vector<Finding> warnings;
  std::map<std::string, std::string> entries;
  bool changed = false;
  // Runs operation `index`'s write; false (the checkpoint rejected) when it was refused.
  const auto step = [&](std::size_t index, const Write& write) {
    if (write.refused()) {
      fail(out.operations, index, first_refusal(write.findings).code);
      out.rejected = true;
      out.write = Write{};
      out.write.findings.push_back(
          rejection(index, out.operations[index], first_refusal(write.findings)));
      keep_warnings(write.findings, out.write.findings);
      return false;
    }
    CheckpointOperation& op = out.operations[index];
    op.result = write.changed ? "applied" : "unchanged";
    if (op.op == "upsert") {
      if (write.changed) op.action = write.action;
      op.row_class = write.row->row_class;
      op.memory_status = write.row->status;
    }
    keep_warnings(write.findings, warnings);
    for (const auto& [name, text] : write.entries) entries[name] = text;
    changed = changed || write.changed;
    store.apply(write);
    return true;
  };
  const auto upsert = [&](const Item& item, bool thread) {
    AddRequest add;
    add.name = item.name;
    add.type = request.record.type;
    add.body = item.body;
    add.description = item.description;
    add.row_class = thread ? "thread" : "anchor";
    if (thread) add.status = "carry_forward";
    add.initiative = row_initiative;
    add.project_ref = project_ref;
    return plan_add(store.now(), context, add);
  };

  const auto thread_request = [&](const Item& item) {
    AddRequest add;
    add.name = item.name;
    add.type = request.record.type;
    add.body = item.body;
    add.description = item.description;
    add.row_class = "thread";
    add.status = "carry_forward";
    add.initiative = row_initiative;
    add.project_ref = project_ref;
    return add;
  };

  const Write record = upsert(request.record, false);
  if (!step(0, record)) return out;
  std::optional<PlannedThreads> batch;
  if (mode == Stepping::batch_when_new) {
    std::vector<AddRequest> adds;
    adds.reserve(request.pending.size());
    for (const Item& item : request.pending) adds.push_back(thread_request(item));
    batch = plan_threads(store.now(), context, record, request.record.name, adds);
  }
  if (batched != nullptr) *batched = batch.has_value();
  if (batch) {
    // The same outcome, operation by operation, as the steps below would give.
    const std::size_t n = request.pending.size();
    for (std::size_t i = 0; i < n; ++i) {
      const Thread& thread = batch->threads[i];
      CheckpointOperation& add = out.operations[1 + i];
      add.result = thread.add.changed ? "applied" : "unchanged";
      if (thread.add.changed) add.action = thread.add.action;
      add.row_class = thread.add.row->row_class;
      add.memory_status = thread.add.row->status;
      keep_warnings(thread.add.findings, warnings);
      entries[thread.name] = thread.linked;
    }
    for (std::size_t i = 0; i < n; ++i) {
      out.operations[1 + n + i].result = batch->threads[i].link.changed ? "applied" : "unchanged";
      keep_warnings(batch->threads[i].link.findings, warnings);
    }
    store.set(batch->row_path, std::move(batch->row_file));
    store.set(history_path(context.workspace), std::move(batch->history));
  } else {
    for (std::size_t i = 0; i < request.pending.size(); ++i) {
      if (!step(1 + i, upsert(request.pending[i], true))) return out;
    }
    for (std::size_t i = 0; i < request.pending.size(); ++i) {
      const Write link =
          plan_link(store.now(), context, request.pending[i].name, request.record.name,
                    name_of(LinkKind::derived_from), /*remove=*/false);
      if (!step(1 + request.pending.size() + i, link)) return out;
    }
  }

  out.write.findings = std::move(warnings);
  out.write.changed = changed;
  out.write.row = record.row;
  out.write.entries = std::move(entries);  // unchanged too: a dry run shows the rows as they stand
  if (changed) out.write.operations = store.operations(context.workspace);
  return out;
}

}  // namespace write_detail

Checkpoint plan_checkpoint(const Snapshot& files, const WriteContext& context,
                           std::string_view payload, const std::optional<std::string>& initiative,
                           const std::optional<std::string>& project_ref) {
  return write_detail::plan_checkpoint_stepping(files, context, payload, initiative, project_ref,
                                                write_detail::Stepping::batch_when_new);
}

}  // namespace memkit::curated
