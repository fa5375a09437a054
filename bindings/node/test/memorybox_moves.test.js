'use strict';
// The MemoryBox moves, each a dry run whose Plan ID only its own apply (--apply --confirm-plan ID)
// accepts: ws.compact (`memorybox compact`), ws.promote (`memorybox promote`) and ws.update with
// resolve: 'archive' (`memorybox update --resolve archive`). Entries move
// verbatim into memory/ARCHIVES/ or memory/SOP_LIBRARY.md.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const memkit = require('..');

const { MemkitError, Workspace } = memkit;

const NOW = '2026-11-30T10:00:00+01:00';
const STALE = '0000000000000000';

// 45 open tasks and 5 completed ones (50 items: the active_tasks rule's threshold). Three were
// done more than 7 days before NOW, one two days before, and one has no date.
const OPEN = Array.from({ length: 45 }, (_, i) => `- [ ] open task ${i + 1}\n`).join('');
const ACTIVE_TASKS =
  '# ACTIVE_TASKS\n\n## Now\n' +
  OPEN +
  '- [x] ship the release Done: 2026-10-02\n' +
  '- [x] migrate the database Done: 2026-11-10\n' +
  '- [x] fix the login bug Done: 2026-11-28\n' +
  '- [x] write the changelog Done: 2026-11-05\n' +
  '- [x] tidy up\n';
const PATTERNS =
  '# PATTERNS\n\n' +
  '## Retry with backoff\nConfidence: 0.90\nVerified: 2026-11-20\nLast-Used: 2026-11-28\n\n' +
  '## Log everything\nLast-Used: 2026-08-01\n';
const SOP_LIBRARY = '# SOP_LIBRARY\n\n## Release\n1. Tag.\n2. Build.\n';
const ARCHIVE_HEADER = (source) =>
  `# Archived Memory: ${source}\n\n` +
  'Complete entries moved out of active memory by reviewed compaction.\n' +
  'Load this file only when explicitly asked; it is not part of normal task context.\n\n';

// A MemoryBox root after init, with the files above; its open workspace and a reader.
function box(t) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'memkit-node-moves-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const ws = Workspace.open(root, { layout: 'memorybox' });
  t.after(() => ws.close());
  const init = ws.init(NOW);
  assert.equal(init.exitCode, 0, init.json);
  init.close();
  const write = (rel, text) => fs.writeFileSync(path.join(root, rel), text);
  write('memory/ACTIVE_TASKS.md', ACTIVE_TASKS);
  write('memory/PATTERNS.md', PATTERNS);
  write('memory/SOP_LIBRARY.md', SOP_LIBRARY);
  const read = (rel) => {
    const full = path.join(root, rel);
    return fs.existsSync(full) ? fs.readFileSync(full, 'utf8') : null;
  };
  return { root, ws, read };
}

// Every file under root with its bytes, to show a step wrote nothing. .memkit/ (the lock an
// apply takes, even one that then writes nothing) is no memory.
function snapshot(root) {
  const out = {};
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.name === '.memkit') continue;
      if (entry.isDirectory()) walk(full);
      else out[path.relative(root, full)] = fs.readFileSync(full, 'utf8');
    }
  };
  walk(root);
  return out;
}

function keep(t, result) {
  t.after(() => result.close());
  return { result, envelope: JSON.parse(result.json) };
}

test('compact: 50 tasks breach the rule; plan then apply moves old done tasks to ARCHIVES', (t) => {
  const { root, ws, read } = box(t);
  const before = snapshot(root);

  const { result: plan, envelope } = keep(t, ws.compact(NOW));
  assert.equal(plan.exitCode, 0, plan.json);
  assert.equal(envelope.command, 'memorybox compact');
  const rule = envelope.data.rules.find((r) => r.rule === 'active_tasks');
  assert.deepEqual(rule, {
    breached: true,
    file: 'memory/ACTIVE_TASKS.md',
    rule: 'active_tasks',
    threshold: 50,
    value: 50,
  });
  const tasks = envelope.data.actions.filter((a) => a.rule === 'active_tasks');
  assert.deepEqual(
    tasks.map((a) => [a.kind, a.detail]),
    [
      ['move', 'memory/ARCHIVES/tasks-2026-10.md'],
      ['move', 'memory/ARCHIVES/tasks-2026-11.md'],
      ['move', 'memory/ARCHIVES/tasks-2026-11.md'],
      ['list', 'completed without a date'],
    ],
  );
  for (const action of tasks) assert.match(action.path, /^memory\/ACTIVE_TASKS\.md#[0-9a-f]{12}$/);
  assert.match(plan.planId, /^[0-9a-f]{16}$/);
  assert.equal(envelope.data.plan.plan_id, plan.planId);
  assert.deepEqual(
    envelope.data.plan.operations.map((op) => [op.operation, op.path]),
    [
      ['replace', 'memory/ACTIVE_TASKS.md'],
      ['create', 'memory/ARCHIVES/tasks-2026-10.md'],
      ['create', 'memory/ARCHIVES/tasks-2026-11.md'],
    ],
  );
  assert.equal(plan.planOperationCount, 3);
  assert.equal(plan.applied, false);
  assert.equal(envelope.data.applied, false);
  assert.deepEqual(envelope.data.written, []);
  assert.deepEqual(snapshot(root), before, 'a dry run writes nothing');

  // A stale Plan ID is MK-PLAN-001 (exit code 2), and nothing is written.
  const { result: stale, envelope: staleJson } = keep(
    t,
    ws.compact(NOW, { apply: true, confirmPlan: STALE }),
  );
  assert.equal(stale.exitCode, 2, stale.json);
  assert.ok(staleJson.findings.some((f) => f.code === 'MK-PLAN-001'), stale.json);
  assert.equal(stale.applied, false);
  assert.deepEqual(snapshot(root), before, 'a stale Plan ID writes nothing');

  // The Plan ID of the dry run applies it.
  const { result: applied, envelope: appliedJson } = keep(
    t,
    ws.compact(NOW, { apply: true, confirmPlan: plan.planId }),
  );
  assert.equal(applied.exitCode, 0, applied.json);
  assert.equal(applied.applied, true);
  assert.equal(applied.planId, plan.planId);
  assert.deepEqual(
    [...appliedJson.data.written].sort(),
    [
      'memory/ACTIVE_TASKS.md',
      'memory/ARCHIVES/tasks-2026-10.md',
      'memory/ARCHIVES/tasks-2026-11.md',
    ],
  );
  assert.equal(
    read('memory/ACTIVE_TASKS.md'),
    '# ACTIVE_TASKS\n\n## Now\n' +
      OPEN +
      '- [x] fix the login bug Done: 2026-11-28\n' +
      '- [x] tidy up\n',
    'the tasks done within 7 days, or without a date, stay',
  );
  assert.equal(
    read('memory/ARCHIVES/tasks-2026-10.md'),
    `${ARCHIVE_HEADER('memory/ACTIVE_TASKS.md')}- [x] ship the release Done: 2026-10-02\n`,
  );
  assert.equal(
    read('memory/ARCHIVES/tasks-2026-11.md'),
    `${ARCHIVE_HEADER('memory/ACTIVE_TASKS.md')}` +
      '- [x] migrate the database Done: 2026-11-10\n\n' +
      '- [x] write the changelog Done: 2026-11-05\n',
  );

  // Now under the threshold: no plan, and the same Plan ID has nothing left to apply.
  const { result: after } = keep(t, ws.compact(NOW));
  assert.equal(after.exitCode, 0, after.json);
  assert.equal(after.planId, null);
  const done = snapshot(root);
  const { result: again, envelope: againJson } = keep(
    t,
    ws.compact(NOW, { apply: true, confirmPlan: plan.planId }),
  );
  assert.equal(again.exitCode, 0, again.json);
  assert.deepEqual(
    againJson.findings.map((f) => [f.code, f.fatal]),
    [['MK-PLAN-003', false]],
  );
  assert.equal(again.applied, false);
  assert.deepEqual(snapshot(root), done, 'nothing written twice');
});

test('compact: file and force choose the rule; the apply needs the same options', (t) => {
  const { root, ws, read } = box(t);
  const before = snapshot(root);

  // PATTERNS.md alone, forced: its review candidates are listed, but nothing moves.
  const { result: patterns, envelope } = keep(
    t,
    ws.compact(NOW, { file: 'memory/PATTERNS.md', force: true }),
  );
  assert.equal(patterns.exitCode, 0, patterns.json);
  assert.deepEqual(
    envelope.data.actions.map((a) => [a.rule, a.kind, a.detail]),
    [
      ['patterns', 'list', 'promotion candidate: effective 0.90'],
      ['patterns', 'list', 'low use: Last-Used 2026-08-01'],
    ],
  );
  assert.equal(patterns.planId, null);

  // ACTIVE_TASKS.md alone. The arguments are part of the Plan ID: every rule (file null or
  // absent, force false or absent) gives another plan, and so does force.
  const { result: tasks } = keep(
    t,
    ws.compact(NOW, { file: 'memory/ACTIVE_TASKS.md', force: false }),
  );
  assert.equal(tasks.exitCode, 0, tasks.json);
  assert.match(tasks.planId, /^[0-9a-f]{16}$/);
  const { result: all } = keep(t, ws.compact(NOW, { file: null, force: false }));
  const { result: defaults } = keep(t, ws.compact(NOW, {}));
  assert.equal(all.planId, defaults.planId);
  assert.notEqual(all.planId, tasks.planId);
  const { result: forced } = keep(t, ws.compact(NOW, { force: true }));
  assert.notEqual(forced.planId, all.planId);

  // Applying with other options than the dry run's plans something else: stale.
  const { result: mismatch } = keep(
    t,
    ws.compact(NOW, { force: true, apply: true, confirmPlan: tasks.planId }),
  );
  assert.equal(mismatch.exitCode, 2, mismatch.json);
  assert.deepEqual(snapshot(root), before, 'nothing written');

  // A file that is not a rule's is a fatal finding.
  const { result: bad, envelope: badJson } = keep(
    t,
    ws.compact(NOW, { file: 'memory/LONG_TERM.md' }),
  );
  assert.equal(bad.exitCode, 2, bad.json);
  assert.equal(badJson.findings[0].fatal, true);

  const { result: applied } = keep(
    t,
    ws.compact(NOW, { file: 'memory/ACTIVE_TASKS.md', apply: true, confirmPlan: tasks.planId }),
  );
  assert.equal(applied.exitCode, 0, applied.json);
  assert.equal(applied.applied, true);
  assert.ok(read('memory/ARCHIVES/tasks-2026-10.md') !== null);
});

test('promote: a PATTERNS.md entry moves verbatim to the end of SOP_LIBRARY.md', (t) => {
  const { root, ws, read } = box(t);
  // The entry ID comes from decay's JSON (the compact plan JSON lists it too).
  const { envelope: decay } = keep(t, ws.decay(NOW, { file: 'memory/PATTERNS.md' }));
  assert.equal(decay.data.entries.length, 1, JSON.stringify(decay));
  const retry = decay.data.entries[0].entry_id;
  assert.match(retry, /^memory\/PATTERNS\.md#[0-9a-f]{12}$/);
  const before = snapshot(root);

  const { result: plan, envelope } = keep(t, ws.promote(NOW, { entry: retry }));
  assert.equal(plan.exitCode, 0, plan.json);
  assert.equal(envelope.command, 'memorybox promote');
  assert.match(plan.planId, /^[0-9a-f]{16}$/);
  assert.equal(plan.planOperationCount, 2);
  assert.equal(plan.applied, false);
  assert.deepEqual(envelope.data.written, []);
  assert.deepEqual(snapshot(root), before, 'a dry run writes nothing');

  const { result: stale } = keep(
    t,
    ws.promote(NOW, { entry: retry, apply: true, confirmPlan: STALE }),
  );
  assert.equal(stale.exitCode, 2, stale.json);
  assert.ok(JSON.parse(stale.json).findings.some((f) => f.code === 'MK-PLAN-001'));
  assert.deepEqual(snapshot(root), before, 'a stale Plan ID writes nothing');

  const { result: applied, envelope: appliedJson } = keep(
    t,
    ws.promote(NOW, { entry: retry, apply: true, confirmPlan: plan.planId }),
  );
  assert.equal(applied.exitCode, 0, applied.json);
  assert.equal(applied.applied, true);
  assert.deepEqual(
    [...appliedJson.data.written].sort(),
    ['memory/PATTERNS.md', 'memory/SOP_LIBRARY.md'],
  );
  assert.equal(
    read('memory/PATTERNS.md'),
    '# PATTERNS\n\n## Log everything\nLast-Used: 2026-08-01\n',
  );
  assert.equal(
    read('memory/SOP_LIBRARY.md'),
    `${SOP_LIBRARY}\n## Retry with backoff\nConfidence: 0.90\nVerified: 2026-11-20\n` +
      'Last-Used: 2026-11-28\n',
  );

  // An entry that is no pattern is a fatal MK-ARG-001 finding.
  const { result: notPattern, envelope: notJson } = keep(
    t,
    ws.promote(NOW, { entry: 'memory/LONG_TERM.md#000000000000' }),
  );
  assert.equal(notPattern.exitCode, 2, notPattern.json);
  assert.equal(notJson.findings[0].code, 'MK-ARG-001');
  assert.equal(notPattern.planId, null);
});

test('archive_entry: a PATTERNS.md entry moves to memory/ARCHIVES/patterns-YYYY-MM.md', (t) => {
  const { root, ws, read } = box(t);
  // The unscored "Log everything" entry: its ID from the forced compact plan's review list.
  const { envelope: compact } = keep(
    t,
    ws.compact(NOW, { file: 'memory/PATTERNS.md', force: true }),
  );
  const lowUse = compact.data.actions.find((a) => a.detail.startsWith('low use'));
  assert.ok(lowUse, JSON.stringify(compact.data.actions));
  const entry = lowUse.path;
  assert.match(entry, /^memory\/PATTERNS\.md#[0-9a-f]{12}$/);
  const before = snapshot(root);

  const { result: plan, envelope } = keep(t, ws.update(NOW, { entry, resolve: 'archive' }));
  assert.equal(plan.exitCode, 0, plan.json);
  assert.equal(envelope.command, 'memorybox update');
  assert.equal(envelope.data.entry_id, entry);
  assert.match(plan.planId, /^[0-9a-f]{16}$/);
  assert.equal(plan.planOperationCount, 2);
  assert.equal(plan.applied, false);
  assert.deepEqual(snapshot(root), before, 'a dry run writes nothing');

  const { result: stale } = keep(
    t,
    ws.update(NOW, { entry, resolve: 'archive', apply: true, confirmPlan: STALE }),
  );
  assert.equal(stale.exitCode, 2, stale.json);
  assert.equal(stale.applied, false);
  assert.deepEqual(snapshot(root), before, 'a stale Plan ID writes nothing');

  const { result: applied, envelope: appliedJson } = keep(
    t,
    ws.update(NOW, { entry, resolve: 'archive', apply: true, confirmPlan: plan.planId }),
  );
  assert.equal(applied.exitCode, 0, applied.json);
  assert.equal(applied.applied, true);
  assert.equal(applied.planId, plan.planId);
  assert.deepEqual(
    [...appliedJson.data.written].sort(),
    ['memory/ARCHIVES/patterns-2026-11.md', 'memory/PATTERNS.md'],
  );
  assert.equal(
    read('memory/PATTERNS.md'),
    '# PATTERNS\n\n## Retry with backoff\nConfidence: 0.90\nVerified: 2026-11-20\n' +
      'Last-Used: 2026-11-28\n',
  );
  assert.equal(
    read('memory/ARCHIVES/patterns-2026-11.md'),
    `${ARCHIVE_HEADER('memory/PATTERNS.md')}## Log everything\nLast-Used: 2026-08-01\n`,
  );

  // The entry is gone: planning it again is a fatal finding.
  const { result: gone } = keep(t, ws.update(NOW, { entry, resolve: 'archive' }));
  assert.equal(gone.exitCode, 2, gone.json);
  assert.equal(gone.planId, null);
});

test('memorybox moves: arguments are checked by the request', (t) => {
  const { ws, root } = box(t);
  const before = snapshot(root);
  const isArg = (pattern) => (err) =>
    err instanceof MemkitError && err.code === -1 && pattern.test(err.message);
  const id = 'memory/PATTERNS.md#000000000000';
  assert.throws(() => ws.compact(NOW, { files: 'memory/PATTERNS.md' }),
    isArg(/^files: not an argument of memorybox compact/));
  assert.throws(() => ws.compact(NOW, { file: 42 }), isArg(/--file: takes a string/));
  assert.throws(() => ws.compact(NOW, 'memory/PATTERNS.md'), TypeError);
  assert.throws(() => ws.compact(NOW, { archiveOldest: true }), isArg(/archive_oldest/));
  assert.throws(() => ws.compact(NOW, { file: 'memory/\0' }), isArg(/NUL/));
  assert.throws(() => ws.promote(NOW, { entry: `${id}\0` }), isArg(/NUL/));
  assert.throws(() => ws.update(NOW, { entry: id, resolve: 'archive', confirmPlan: 7 }),
    isArg(/--confirm-plan: takes a string/));
  // A missing entry, or a Plan ID without --apply, is the command's to report.
  for (const result of [ws.promote(NOW), ws.compact(NOW, { confirmPlan: STALE })]) {
    try {
      assert.equal(result.exitCode, 2, result.json);
      assert.equal(result.applied, false);
    } finally {
      result.close();
    }
  }
  assert.deepEqual(snapshot(root), before, 'nothing written');
});

test('memorybox moves: a custodian workspace refuses them', (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'memkit-node-moves-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const ws = Workspace.open(root, { layout: 'custodian' });
  t.after(() => ws.close());
  const entry = 'memory/PATTERNS.md#000000000000';
  assert.equal(ws.promote, undefined);
  for (const [verb, args] of [
    ['compact', {}],
    ['compact', { apply: true, confirmPlan: STALE }],
    ['promote', { entry }],
    ['update', { entry, resolve: 'archive', apply: true, confirmPlan: STALE }],
  ]) {
    assert.throws(
      () => ws.run(NOW, 'memorybox', verb, args),
      (err) => err instanceof MemkitError && err.code === -1 && /another layout/.test(err.message),
      verb,
    );
  }
  assert.deepEqual(fs.readdirSync(root), [], 'nothing written');
});
