'use strict';
// Curated memory (MK_LAYOUT_CURATED, spec curated.md): a store folder whose methods are the
// commands `memkit curated <command> --store DIR` (ws.add, ws.show, ws.episodeAdd, ...). The row
// file is checked byte for byte; every other comparison with the CLI is the vector runner's
// (tests/vectors/curated_*).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const memkit = require('..');
const { tree, run } = require('./support.js');

const { MemkitError, Workspace, Layout } = memkit;
const C = memkit.constants;

const NOW = '2026-11-30T09:00:00Z';
const LATER = '2026-11-30T10:00:00Z';
// The row file after the first add (§4): the field order, the thread's status, no optional field.
const PROJECT_ROWS =
  '# Curated memory: project\n\n## project_a\nType: project\nClass: thread\nStatus: open\n' +
  'Audience: any\nCreated: 2026-11-30T09:00:00.000Z\nUpdated: 2026-11-30T09:00:00.000Z\n\n' +
  'Fix the flaky build\n';
const ADD_A = {
  workspace: 'ws1',
  name: 'project_a',
  type: 'project',
  body: 'Fix the flaky build',
  class: 'thread',
  status: 'open',
};

// A temporary folder, removed after the test; the store is its missing subfolder "store".
function tempDir(t) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'memkit-node-curated-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  return root;
}

function openStore(t, root) {
  const ws = Workspace.open(root, { layout: 'curated' });
  t.after(() => ws.close());
  return ws;
}

// Every file under root with its bytes, .memkit/ aside: what the commands wrote.
function snapshot(root) {
  if (!fs.existsSync(root)) return {};
  return Object.fromEntries(
    tree(root)
      .filter((p) => !p.endsWith('/') && !p.startsWith('.memkit/'))
      .map((p) => [p, fs.readFileSync(path.join(root, p)).toString('hex')]),
  );
}

const codes = (envelope) => envelope.findings.map((f) => f.code);

test('curated: the layout is the header value; two-word verbs are camelCased methods', (t) => {
  assert.equal(Layout.CURATED, 3);
  assert.equal(C.MK_LAYOUT_CURATED, 3);
  const ws = openStore(t, path.join(tempDir(t), 'store'));
  for (const [name, verb] of [
    ['episodeAdd', 'episode add'],
    ['getRelevant', 'get-relevant'],
    ['floorsPrune', 'floors prune'],
    ['telemetryCompact', 'telemetry compact'],
    ['delete', 'delete'],
  ])
    assert.equal(ws[name].command.verb, verb);
});

test('curated: a missing store opens; memoryDir and a file are refused', (t) => {
  const dir = tempDir(t);
  const store = path.join(dir, 'store');
  openStore(t, store).close();
  assert.equal(fs.existsSync(store), false);
  assert.throws(
    () => Workspace.open(store, { layout: 'curated', memoryDir: 'docs/memory' }),
    (e) => e instanceof MemkitError && e.code === C.MK_E_ARG,
  );
  fs.writeFileSync(path.join(dir, 'a-file'), 'not a store\n');
  assert.throws(
    () => Workspace.open(path.join(dir, 'a-file'), { layout: 'curated' }),
    (e) => e instanceof MemkitError && e.code === C.MK_E_ARG,
  );
});

test('curated: add, show, then a refused reclassify writes nothing', (t) => {
  const store = path.join(tempDir(t), 'store');
  const ws = openStore(t, store);

  const dry = run(t, () => ws.add(NOW, { ...ADD_A, dryRun: true }));
  assert.equal(dry.result.exitCode, 0);
  assert.equal(dry.result.applied, false);
  assert.ok(dry.envelope.data.entry.startsWith('## project_a\nType: project\n'));
  assert.deepEqual(snapshot(store), {});

  const added = run(t, () => ws.add(NOW, ADD_A));
  assert.equal(added.result.exitCode, 0, added.result.json);
  assert.equal(added.result.applied, true);
  assert.equal(added.result.planId, null);
  assert.equal(added.envelope.command, 'curated add');
  assert.equal(added.envelope.data.action, 'inserted');
  assert.deepEqual(added.envelope.data.files, ['log/ws1/history.jsonl', 'rows/ws1/project.md']);
  assert.equal(fs.readFileSync(path.join(store, 'rows/ws1/project.md'), 'utf8'), PROJECT_ROWS);

  const shown = run(t, () =>
    ws.show(LATER, { workspace: 'ws1', name: 'project_a', history: true }),
  );
  assert.equal(shown.result.exitCode, 0, shown.result.json);
  assert.equal(shown.result.applied, false);
  const view = shown.envelope.data;
  assert.deepEqual(
    [view.name, view.class, view.status, view.body],
    ['project_a', 'thread', 'open', 'Fix the flaky build'],
  );
  assert.equal(view.deliberate_count, 1); // this read, recorded before the counters (§8)
  assert.deepEqual(
    view.history.map((r) => r.op),
    ['insert'],
  );
  const before = snapshot(store);

  // §14: reclassify --status open on what would be an anchor is MK-CUR-007, fatal.
  const refused = run(t, () =>
    ws.reclassify(LATER, {
      workspace: 'ws1',
      name: 'project_a',
      class: 'anchor',
      status: 'open',
    }),
  );
  assert.equal(refused.result.exitCode, 2, refused.result.json);
  assert.deepEqual(codes(refused.envelope), ['MK-CUR-007']);
  assert.equal(refused.result.applied, false);
  assert.deepEqual(snapshot(store), before);
});

test('curated: no workspace, an option the command lacks, and bad requests', (t) => {
  const store = path.join(tempDir(t), 'store');
  const ws = openStore(t, store);
  // The library reads no MEMKIT_WORKSPACE: none given is the CLI's missing_scope.
  const stats = run(t, () => ws.stats(NOW));
  assert.deepEqual(codes(stats.envelope), ['MK-CUR-001']);
  const { body, ...withoutBody } = ADD_A;
  assert.equal(body, 'Fix the flaky build');
  const stdin = run(t, () => ws.add(NOW, { ...withoutBody, bodyFile: '-' }));
  assert.deepEqual(codes(stdin.envelope), ['MK-ARG-001']); // no standard input here
  assert.deepEqual(snapshot(store), {});

  // What the request refuses throws, and writes nothing.
  const isArg = (pattern) => (e) => e instanceof MemkitError && e.code === C.MK_E_ARG &&
    pattern.test(e.message);
  assert.throws(() => ws.add(NOW, { ...ADD_A, limit: 3 }),
    isArg(/^limit: not an argument of curated add/));
  assert.throws(() => ws.add(NOW, { nickname: 'x' }), isArg(/nickname/));
  assert.throws(() => ws.run(NOW, 'curated', 'forget', { workspace: 'ws1' }), isArg(/forget/));
  assert.throws(() => ws.list(NOW, { workspace: 'ws1', limit: true }), isArg(/--limit/));
  assert.deepEqual(snapshot(store), {});

  // recover is a curated command (it needs the workspace); nothing is unfinished.
  const recovered = run(t, () => ws.recover(NOW, { workspace: 'ws1' }));
  assert.equal(recovered.result.exitCode, 0, recovered.result.json);
  assert.equal(recovered.envelope.data.recovery_status, 'clean');
});

test('curated: other layouts\u2019 commands are refused, both ways', (t) => {
  const dir = tempDir(t);
  const store = path.join(dir, 'store');
  const ws = openStore(t, store);
  const refused = (e) => e instanceof MemkitError && /another layout/.test(e.message);
  assert.equal(ws.status, undefined);
  for (const [group, verb, args] of [
    ['custodian', 'status', {}],
    ['custodian', 'add', { message: 'a note', type: 'project' }],
    ['custodian', 'recover', {}],
    ['tiers', 'init', {}],
  ])
    assert.throws(() => ws.run(NOW, group, verb, args), refused, `${group} ${verb}`);
  assert.deepEqual(snapshot(store), {});

  const tiersRoot = path.join(dir, 'tiers');
  fs.mkdirSync(tiersRoot);
  const tiers = Workspace.open(tiersRoot, { layout: 'tiers' });
  t.after(() => tiers.close());
  assert.throws(() => tiers.run(NOW, 'curated', 'add', ADD_A), refused);
  assert.deepEqual(snapshot(tiersRoot), {});
});
