'use strict';
// MemoryBox sync (spec memorybox.md §9) as ws.syncPush, ws.syncPull, ws.syncStatus and
// ws.syncResolve: one root pushes to a folder remote and another pulls from it; the connection
// string (read from the conninfo-file argument) never reaches a result; the refusals.
// Byte-for-byte comparison with the CLI is the vector runner's (tests/vectors/memorybox_sync).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const memkit = require('..');
const { run } = require('./support.js');

const { MemkitError, Workspace } = memkit;
const C = memkit.constants;

const NOW = '2026-11-30T09:00:00Z';
const LATER = '2026-11-30T10:00:00Z';
const WORKSPACE = '0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b';
const LONG_TERM =
  '# LONG_TERM\n\n## Facts\n\n' +
  '- The API base URL is https://api.example.com\n' +
  '  Confidence: 0.90\n  Verified: 2026-11-20\n  Updated: 2026-11-20T10:00:00.000Z\n' +
  '- Deploys happen on Tuesdays\n' +
  '  Confidence: 0.80\n  Verified: 2026-11-25\n  Updated: 2026-11-25T10:00:00.000Z\n';

function tempDir(t) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'memkit-node-sync-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  return root;
}

// A MemoryBox root at dir/name, initialised; closed after the test.
function openRoot(t, dir, name) {
  const root = path.join(dir, name);
  fs.mkdirSync(root);
  const ws = Workspace.open(root, { layout: 'memorybox' });
  t.after(() => ws.close());
  ws.init(NOW).close();
  return { root, ws };
}

const codes = (envelope) => envelope.findings.map((f) => f.code);

test('sync: a push from one root, a pull into another', (t) => {
  const dir = tempDir(t);
  const remote = path.join(dir, 'remote');
  fs.mkdirSync(remote);
  const a = openRoot(t, dir, 'a');
  fs.writeFileSync(path.join(a.root, 'memory', 'LONG_TERM.md'), LONG_TERM);

  let { envelope } = run(t, () => a.ws.syncStatus(NOW));
  assert.equal(envelope.data.workspace_id, null);
  assert.equal(envelope.data.pending_push, 2);

  const pushed = run(t, () =>
    a.ws.syncPush(NOW, { remote: `dir:${remote}`, workspaceId: WORKSPACE }),
  );
  assert.equal(pushed.result.exitCode, 0, pushed.result.json);
  assert.equal(pushed.envelope.data.sent, 2);
  assert.equal(pushed.envelope.data.last_push_ok, true);
  assert.equal(pushed.envelope.data.workspace_id, WORKSPACE);
  assert.equal(pushed.result.planId, null);
  assert.equal(pushed.result.applied, false);
  const assigned = pushed.envelope.data.assigned;
  assert.equal(assigned.length, 2);
  const text = fs.readFileSync(path.join(a.root, 'memory', 'LONG_TERM.md'), 'utf8');
  for (const id of assigned) assert.ok(text.includes(`  Id: ${id}\n`), text);
  assert.ok(fs.existsSync(path.join(remote, 'memories.jsonl')));

  ({ envelope } = run(t, () => a.ws.syncStatus(LATER, { remote: `dir:${remote}` })));
  assert.deepEqual(
    [envelope.data.workspace_id, envelope.data.pending_push, envelope.data.pending_pull],
    [WORKSPACE, 0, 0],
  );

  // B's first pull only adds entries: written at once, nothing to confirm.
  const b = openRoot(t, dir, 'b');
  const pulled = run(t, () =>
    b.ws.syncPull(LATER, { remote: `dir:${remote}`, workspaceId: WORKSPACE }),
  );
  assert.equal(pulled.result.exitCode, 0, pulled.result.json);
  assert.equal(pulled.envelope.data.pulled, 2);
  assert.equal(pulled.envelope.data.needs_confirmation, false);
  assert.deepEqual(
    pulled.envelope.data.items.map((item) => item.action),
    ['added', 'added'],
  );
  assert.equal(pulled.result.applied, true);
  assert.equal(pulled.result.planId, pulled.envelope.data.plan.plan_id);
  const copy = fs.readFileSync(path.join(b.root, 'memory', 'LONG_TERM.md'), 'utf8');
  assert.ok(copy.includes('Deploys happen on Tuesdays'), copy);
  for (const id of assigned) assert.ok(copy.includes(`Id: ${id}`), copy);

  // Pulling again brings nothing new (the remote's cursor moved on) and writes nothing; B knows
  // its workspace now.
  const again = run(t, () => b.ws.syncPull(LATER, { remote: `dir:${remote}` }));
  assert.deepEqual([again.envelope.data.pulled, again.envelope.data.items], [0, []]);
  assert.equal(again.envelope.data.workspace_id, WORKSPACE);
  assert.equal(again.result.applied, false);
  assert.equal(again.result.planId, null);
});

test('sync: the connection string never reaches a result', (t) => {
  const dir = tempDir(t);
  const { ws } = openRoot(t, dir, 'a');
  const conninfo = path.join(dir, 'conninfo');
  fs.writeFileSync(conninfo, 'host=/nonexistent/memkit-node port=1 password=sekrit-conninfo\n');
  const { result, envelope } = run(t, () =>
    ws.syncPush(NOW, { remote: 'postgres', conninfoFile: conninfo, workspaceId: WORKSPACE }),
  );
  assert.equal(result.exitCode, 2);
  assert.ok(
    codes(envelope).some((code) => code === 'MK-BOX-023' || code === 'MK-ARG-001'),
    result.json,
  );
  assert.ok(!result.json.includes('sekrit'));
});

test('sync: refusals are results, or throws before the call', (t) => {
  const dir = tempDir(t);
  const { ws } = openRoot(t, dir, 'a');
  let { result, envelope } = run(t, () =>
    ws.syncResolve(NOW, { id: '0190a1b2-0000-7000-8000-000000000000', take: 'remote' }),
  );
  assert.equal(result.exitCode, 2);
  assert.deepEqual(codes(envelope), ['MK-ARG-001']);
  assert.ok(result.json.includes('no open sync conflict'));
  ({ result } = run(t, () => ws.syncPull(NOW)));
  assert.ok(result.json.includes('--remote: required'));
  const isArg = (pattern) => (e) => e instanceof MemkitError && e.code === C.MK_E_ARG &&
    pattern.test(e.message);
  assert.throws(() => ws.syncStatus(NOW, { take: 'local' }),
    isArg(/^take: not an argument of memorybox sync status/));
  assert.throws(() => ws.run(NOW, 'memorybox', 'sync fetch'), isArg(/fetch/));
  assert.throws(() => ws.syncPull(NOW, { workspace: WORKSPACE }), isArg(/workspace/));

  const custodianRoot = path.join(dir, 'custodian');
  fs.mkdirSync(custodianRoot);
  const custodian = Workspace.open(custodianRoot);
  t.after(() => custodian.close());
  assert.equal(custodian.syncStatus, undefined);
  assert.throws(() => custodian.run(NOW, 'memorybox', 'sync status'), isArg(/another layout/));
});
