// PLACEHOLDER (being written): the curated reads.
#include "commands/curated_flow.hpp"

namespace memkit::commands_detail {
namespace {
void pending(CuratedRun& run) { curated_refuse(run, "MK-ARG-001", "not yet implemented"); }
}  // namespace
void run_curated_get_relevant(CuratedRun& run) { pending(run); }
void run_curated_kernel(CuratedRun& run) { pending(run); }
void run_curated_show(CuratedRun& run) { pending(run); }
void run_curated_list(CuratedRun& run) { pending(run); }
void run_curated_search(CuratedRun& run) { pending(run); }
void run_curated_stats(CuratedRun& run) { pending(run); }
void run_curated_conflicts(CuratedRun& run) { pending(run); }
void run_curated_lineage(CuratedRun& run) { pending(run); }
void run_curated_story(CuratedRun& run) { pending(run); }
}  // namespace memkit::commands_detail
