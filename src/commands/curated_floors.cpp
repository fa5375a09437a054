// PLACEHOLDER (being written): floors and telemetry.
#include "commands/curated_flow.hpp"

namespace memkit::commands_detail {
namespace {
void pending(CuratedRun& run) { curated_refuse(run, "MK-ARG-001", "not yet implemented"); }
}  // namespace
void run_curated_event(CuratedRun& run) { pending(run); }
void run_curated_episode(CuratedRun& run) { pending(run); }
void run_curated_floors(CuratedRun& run) { pending(run); }
void run_curated_telemetry(CuratedRun& run) { pending(run); }
}  // namespace memkit::commands_detail
