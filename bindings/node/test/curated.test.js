'use strict';
// Curated memory (MK_LAYOUT_CURATED, spec curated.md): a store folder whose commands are
// `memkit curated <command> --store DIR` through mk_curated_run. The row file is checked byte for
// byte; every other comparison with the CLI is the vector runner's (tests/vectors/curated_*).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const memkit = require('..');
const { tree } = require('./support.js');
const capi = require('../lib/capi.js');

const { MemkitError, Workspace, Layout, CuratedCommand } = memkit;
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

// Runs a command and returns {result, envelope}; the result is closed after the test.
function run(t, fn) {
  const result = fn();
  t.after(() => result.close());
  return { result, envelope: JSON.parse(result.json) };
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

test('curated: the layout and the command numbers are the header values', () => {
  assert.equal(Layout.CURATED, 3);
  assert.equal(C.MK_LAYOUT_CURATED, 3);
  const names = [
    'ADD', 'APPEND', 'EDIT', 'RECLASSIFY', 'LINK', 'UNLINK', 'DELETE', 'RESTORE', 'CHECKPOINT',
    'BATCH', 'GET_RELEVANT', 'KERNEL', 'SHOW', 'LIST', 'SEARCH', 'STATS', 'CONFLICTS',
    'LINEAGE', 'STORY', 'EVENT_ADD', 'EPISODE_ADD', 'EPISODE_SHOW', 'FLOORS_PRUNE',
    'TELEMETRY_COMPACT', 'RECOVER',
  ];
  assert.deepEqual(Object.entries(CuratedCommand), names.map((n, i) => [n, i]));
  for (const name of names) assert.equal(C[`MK_CURATED_${name}`], CuratedCommand[name]);
  assert.equal(C.MK_CURATED_UNSET, -(2n ** 63n));
});

test('curated: options init leaves every field unset', () => {
  const c = {};
  capi.mk_curated_options_init(c);
  assert.equal(c.version, C.MK_CURATED_OPTIONS_VERSION);
  for (const [field, value] of Object.entries(c)) {
    if (field === 'version') continue;
    if (['max_chars', 'limit', 'max_depth'].includes(field))
      assert.equal(BigInt(value), C.MK_CURATED_UNSET, field);
    else if (typeof value === 'number') assert.equal(value, 0, field);
    else assert.equal(value, null, field);
  }
  assert.equal(Object.keys(c).length, 44);
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

  const dry = run(t, () => ws.curated(NOW, 'add', { ...ADD_A, dryRun: true }));
  assert.equal(dry.result.exitCode, 0);
  assert.equal(dry.result.applied, false);
  assert.ok(dry.envelope.data.entry.startsWith('## project_a\nType: project\n'));
  assert.deepEqual(snapshot(store), {});

  const added = run(t, () => ws.curated(NOW, CuratedCommand.ADD, ADD_A));
  assert.equal(added.result.exitCode, 0, added.result.json);
  assert.equal(added.result.applied, true);
  assert.equal(added.result.planId, null);
  assert.equal(added.envelope.command, 'curated add');
  assert.equal(added.envelope.data.action, 'inserted');
  assert.deepEqual(added.envelope.data.files, ['log/ws1/history.jsonl', 'rows/ws1/project.md']);
  assert.equal(fs.readFileSync(path.join(store, 'rows/ws1/project.md'), 'utf8'), PROJECT_ROWS);

  const shown = run(t, () =>
    ws.curated(LATER, 'show', { workspace: 'ws1', name: 'project_a', history: true }),
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
    ws.curated(LATER, 'reclassify', {
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
  const stats = run(t, () => ws.curated(NOW, 'stats'));
  assert.deepEqual(codes(stats.envelope), ['MK-CUR-001']);
  const limited = run(t, () => ws.curated(NOW, 'add', { ...ADD_A, limit: 3 }));
  assert.deepEqual(codes(limited.envelope), ['MK-ARG-001']);
  assert.match(limited.result.json, /--limit/);
  const { body, ...withoutBody } = ADD_A;
  assert.equal(body, 'Fix the flaky build');
  const stdin = run(t, () => ws.curated(NOW, 'add', { ...withoutBody, bodyFile: '-' }));
  assert.deepEqual(codes(stdin.envelope), ['MK-ARG-001']); // no standard input here
  assert.deepEqual(snapshot(store), {});

  assert.throws(() => ws.curated(NOW, 'add', { nickname: 'x' }), TypeError);
  assert.throws(() => ws.curated(NOW, 'forget', { workspace: 'ws1' }), TypeError);
  assert.throws(() => ws.curated(NOW, 'list', { workspace: 'ws1', limit: 1.5 }), TypeError);
  assert.throws(
    () => ws.curated(NOW, 99, { workspace: 'ws1' }),
    (e) => e instanceof MemkitError && e.code === C.MK_E_ARG,
  );

  // recover is a curated command (it needs the workspace); nothing is unfinished.
  const recovered = run(t, () => ws.curated(NOW, 'recover', { workspace: 'ws1' }));
  assert.equal(recovered.result.exitCode, 0, recovered.result.json);
  assert.equal(recovered.envelope.data.recovery_status, 'clean');
});

test('curated: other layouts\u2019 commands are fatal findings, both ways', (t) => {
  const dir = tempDir(t);
  const store = path.join(dir, 'store');
  const ws = openStore(t, store);
  for (const call of [
    () => ws.status(NOW),
    () => ws.add(NOW, 'a note', { type: 'project' }),
    () => ws.recover(NOW),
    () => ws.tiers(NOW, 'init'),
  ]) {
    const { result, envelope } = run(t, call);
    assert.equal(result.exitCode, 2, result.json);
    assert.deepEqual(codes(envelope), ['MK-ARG-001']);
    assert.equal(result.applied, false);
  }
  assert.deepEqual(snapshot(store), {});

  const tiersRoot = path.join(dir, 'tiers');
  fs.mkdirSync(tiersRoot);
  const tiers = Workspace.open(tiersRoot, { layout: 'tiers' });
  t.after(() => tiers.close());
  const { result, envelope } = run(t, () => tiers.curated(NOW, 'add', ADD_A));
  assert.equal(result.exitCode, 2);
  assert.deepEqual(codes(envelope), ['MK-ARG-001']);
  assert.match(result.json, /MK_LAYOUT_CURATED/);
  assert.deepEqual(snapshot(tiersRoot), {});
});
