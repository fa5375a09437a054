// The same declarations seen from an ES module: index.js is CommonJS, so its exports are both the
// default import and named imports.
import memkit, { Workspace } from 'memkit';

const ws = Workspace.open('examples/project');
const plan = ws.compact(memkit.parseClock('2026-11-30T10:00:00+00:00'));
const id: string | null = plan.planId;
plan.close();
ws.close();
void id;
