// The curated writes (curated.md §5-§7, §10): add, append, edit, reclassify, link and unlink,
// delete, restore, checkpoint and batch, each planned by src/curated and written by run_write().
#include "commands/curated_flow.hpp"
#include "memkit/curated_json.hpp"

namespace memkit::commands_detail {

void run_curated_add(CuratedRun& run) {
  if (!positionals(run, 0, "add")) return;
  const std::optional<std::string> name = curated_required(run, "--name");
  if (!name) return;
  const std::optional<std::string> type = curated_required(run, "--type");
  if (!type) return;
  std::optional<std::string> body = text_argument(run, "--body", "--body-file", true);
  if (!body) return;
  curated::AddRequest request;
  request.name = *name;
  request.type = *type;
  request.body = std::move(*body);
  request.description = option(run.inv, "--description");
  request.row_class = option(run.inv, "--class");
  request.status = option(run.inv, "--status");
  request.initiative = option(run.inv, "--initiative");
  request.project_ref = option(run.inv, "--project-ref");
  request.audience = option(run.inv, "--audience");
  request.origin_session = option(run.inv, "--origin-session");
  const bool dry_run = is_dry_run(run);
  const std::optional<curated::Write> write =
      run_write(run, dry_run, [&](const Snapshot& files, const curated::WriteContext& context) {
        return curated::plan_add(files, context, request);
      });
  if (!write || write->refused()) return;
  run.reply.data = fixed(curated_add_json(run.workspace, dry_run, *write));
}

namespace {
void pending(CuratedRun& run) { curated_refuse(run, "MK-ARG-001", "not yet implemented"); }
}  // namespace
void run_curated_append(CuratedRun& run) { pending(run); }
void run_curated_edit(CuratedRun& run) { pending(run); }
void run_curated_reclassify(CuratedRun& run) { pending(run); }
void run_curated_link(CuratedRun& run) { pending(run); }
void run_curated_delete(CuratedRun& run) { pending(run); }
void run_curated_restore(CuratedRun& run) { pending(run); }
void run_curated_checkpoint(CuratedRun& run) { pending(run); }
void run_curated_batch(CuratedRun& run) { pending(run); }

}  // namespace memkit::commands_detail
