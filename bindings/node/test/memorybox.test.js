'use strict';
// The MemoryBox layout (MK_LAYOUT_MEMORYBOX): an agent root holding brain/ and memory/, whose init,
// status, decay, hygiene, load and update run
// `memkit memorybox init|status|decay|hygiene|load|update --root ROOT` (gate, compact, promote and
// archive have their own files: gate.test.js, memorybox_moves.test.js); a workspace of another
// layout refuses these commands (MK_E_ARG), and memoryDir is refused when opening.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const memkit = require('..');
const { tree } = require('./support.js');

const { MemkitError, Workspace, Layout } = memkit;

const isArg = (pattern) => (err) =>
  err instanceof MemkitError && err.code === -1 && err.status === 'MK_E_ARG' &&
  pattern.test(err.message);

const NOW = '2026-11-30T10:00:00+01:00';

// An empty agent root, removed after the test.
function agentRoot(t) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'memkit-node-memorybox-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  return root;
}

function openBox(t, root) {
  const ws = Workspace.open(root, { layout: 'memorybox' });
  t.after(() => ws.close());
  return ws;
}


test('Layout: the mk_layout values', () => {
  assert.equal(Layout.CUSTODIAN, 0);
  assert.equal(Layout.MEMORYBOX, 1);
  assert.equal(memkit.constants.MK_LAYOUT_CUSTODIAN, 0);
  assert.equal(memkit.constants.MK_LAYOUT_MEMORYBOX, 1);
  assert.ok(Object.isFrozen(Layout));
});

test('memorybox: init creates the tier files under the agent root', (t) => {
  const root = agentRoot(t);
  const ws = openBox(t, root);
  assert.ok(!fs.existsSync(path.join(root, 'brain', 'SOUL.md')), 'a fresh root has no SOUL.md');

  const result = ws.init(NOW);
  t.after(() => result.close());
  assert.equal(result.exitCode, 0, result.json);
  assert.ok(fs.statSync(path.join(root, 'brain', 'SOUL.md')).isFile(), 'brain/SOUL.md');
  assert.ok(fs.statSync(path.join(root, 'memory', 'daily')).isDirectory(), 'memory/daily/');
  assert.ok(!fs.existsSync(path.join(root, 'docs')), 'no custodian docs/memory');

  const envelope = JSON.parse(result.json);
  assert.equal(envelope.command, 'memorybox init');
  assert.ok(envelope.data.created.includes('brain/SOUL.md'));
  assert.ok(envelope.data.created.includes('memory/daily/'));
  // What it says it created is what is on disk.
  assert.deepEqual(
    [...envelope.data.created].sort(),
    tree(root).filter((p) => p !== 'brain/' && p !== 'memory/' && !p.startsWith('.memkit/')),
  );
  assert.equal(result.planId, null);
  assert.equal(result.inboxCounts, null);
  assert.deepEqual(result.budgetRows, []);

  // Never overwrites: a second init creates nothing and keeps an edited file.
  fs.writeFileSync(path.join(root, 'brain', 'SOUL.md'), '# Soul\nmine\n');
  const again = ws.init(NOW);
  t.after(() => again.close());
  assert.equal(again.exitCode, 0);
  assert.deepEqual(JSON.parse(again.json).data.created, []);
  assert.equal(fs.readFileSync(path.join(root, 'brain', 'SOUL.md'), 'utf8'), '# Soul\nmine\n');
});

test('memorybox: status has 5 tiers in its JSON and no budget rows', (t) => {
  const root = agentRoot(t);
  const ws = Workspace.open(root, { layout: Layout.MEMORYBOX }); // the number works too
  t.after(() => ws.close());
  const init = ws.init(NOW);
  t.after(() => init.close());
  assert.equal(init.exitCode, 0);

  const result = ws.status(NOW);
  t.after(() => result.close());
  assert.equal(result.exitCode, 0, result.json);
  const envelope = JSON.parse(result.json);
  assert.equal(envelope.command, 'memorybox status');
  assert.ok(Array.isArray(envelope.data.tiers), 'data.tiers');
  assert.equal(envelope.data.tiers.length, 5);
  assert.deepEqual(envelope.data.tiers.map((tier) => tier.tier), [1, 2, 3, 4, 5]);
  const files = envelope.data.tiers.flatMap((tier) => tier.files.map((file) => file.path));
  assert.ok(files.includes('brain/SOUL.md'), 'the JSON lists the files');
  // mk_result_budget_row_count is 0 for a MemoryBox status: its line budgets are only in the JSON.
  assert.deepEqual(result.budgetRows, []);
  assert.equal(result.planId, null);
  assert.equal(result.applied, false);

  // The same root opened as custodian: its status has rows, so budgetRows does read them.
  const custodian = Workspace.open(root, { layout: 'custodian' });
  t.after(() => custodian.close());
  const rows = custodian.status(NOW);
  t.after(() => rows.close());
  assert.equal(JSON.parse(rows.json).command, 'custodian status');
  assert.ok(rows.budgetRows.length > 0, 'a custodian status has rows');
});

test('memorybox: memoryDir is refused with MK_E_ARG (code -1)', (t) => {
  const root = agentRoot(t);
  for (const layout of ['memorybox', Layout.MEMORYBOX]) {
    let caught = null;
    try {
      Workspace.open(root, { layout, memoryDir: 'docs/memory' });
    } catch (err) {
      caught = err;
    }
    assert.ok(caught instanceof MemkitError, `expected a MemkitError, got ${caught}`);
    assert.equal(caught.code, -1);
    assert.equal(caught.status, 'MK_E_ARG');
    assert.match(caught.message, /memory_dir/);
  }
  // The same memoryDir opens with the custodian layout: the layout is what refuses it.
  Workspace.open(root, { layout: 'custodian', memoryDir: 'docs/memory' }).close();
  Workspace.open(root, { memoryDir: 'docs/memory' }).close();
});

test('memorybox: the methods are memorybox commands; custodian ones are refused', (t) => {
  const root = agentRoot(t);
  const ws = openBox(t, root);
  const init = ws.init(NOW);
  t.after(() => init.close());
  assert.equal(init.exitCode, 0);
  const before = tree(root);
  for (const name of ['check', 'add', 'forget', 'undo'])
    assert.equal(ws[name], undefined, `no ${name} on a MemoryBox workspace`);
  for (const verb of ['compact', 'check', 'add', 'status'])
    assert.throws(() => ws.run(NOW, 'custodian', verb), isArg(/another layout/), verb);
  assert.deepEqual(tree(root), before, 'nothing written');

  // compact and recover are the agent root's own (`memorybox compact`, `memorybox recover`).
  for (const [verb, result] of [['compact', ws.compact(NOW)], ['recover', ws.recover(NOW)]]) {
    try {
      assert.equal(result.exitCode, 0, result.json);
      assert.equal(JSON.parse(result.json).command, `memorybox ${verb}`);
    } finally {
      result.close();
    }
  }
  assert.deepEqual(tree(root), before, 'nothing written');

  // And the other way: a custodian workspace has no memorybox method, and refuses the request.
  const custodian = Workspace.open(root, { layout: 'custodian' });
  t.after(() => custodian.close());
  for (const verb of ['decay', 'hygiene', 'load', 'update']) {
    assert.equal(custodian[verb], undefined, verb);
    assert.throws(() => custodian.run(NOW, 'memorybox', verb),
      isArg(/another layout/), verb);
  }
  assert.deepEqual(tree(root), before, 'nothing written');
});
test('memorybox: decay reports a scored entry and writes nothing', (t) => {
  const root = agentRoot(t);
  const ws = openBox(t, root);
  const init = ws.init(NOW);
  t.after(() => init.close());
  assert.equal(init.exitCode, 0);
  fs.writeFileSync(
    path.join(root, 'memory', 'LONG_TERM.md'),
    '- fact\n  Confidence: 0.90\n  Verified: 2026-10-01\n',
  );
  const before = tree(root);
  const bytes = fs.readFileSync(path.join(root, 'memory', 'LONG_TERM.md'));

  // Every tier 1-4 file (no options, {} and {file: null} alike), then the one file.
  for (const [name, run] of [
    ['decay(now)', () => ws.decay(NOW)],
    ['decay(now, {})', () => ws.decay(NOW, {})],
    ['decay(now, {file: null})', () => ws.decay(NOW, { file: null })],
    ['decay(now, {file})', () => ws.decay(NOW, { file: 'memory/LONG_TERM.md' })],
  ]) {
    const result = run();
    try {
      assert.equal(result.exitCode, 0, `${name}: ${result.json}`);
      assert.match(result.json, /"effective":80/, name);
      assert.match(result.json, /"band":"high"/, name);
      const envelope = JSON.parse(result.json);
      assert.equal(envelope.command, 'memorybox decay', name);
      const entries = envelope.data.entries.filter((e) => e.file === 'memory/LONG_TERM.md');
      assert.equal(entries.length, 1, name);
      assert.equal(entries[0].stored, 90, name);
      assert.equal(entries[0].effective, 80, name);
      assert.equal(entries[0].band, 'high', name);
      assert.equal(entries[0].verified, '2026-10-01', name);
      assert.equal(result.planId, null, name);
      assert.equal(result.applied, false, name);
      assert.equal(result.inboxCounts, null, name);
      assert.deepEqual(result.budgetRows, [], name);
    } finally {
      result.close();
    }
  }
  assert.deepEqual(tree(root), before, 'nothing written');
  assert.ok(fs.readFileSync(path.join(root, 'memory', 'LONG_TERM.md')).equals(bytes));

  // A file that is no tier 1-4 file is a fatal finding, not a thrown error.
  const outside = ws.decay(NOW, { file: 'memory/ARCHIVES/x.md' });
  t.after(() => outside.close());
  assert.equal(outside.exitCode, 2);
  assert.equal(JSON.parse(outside.json).findings[0].code, 'MK-ARG-001');
});

test('memorybox: decay arguments are checked by the request', (t) => {
  const ws = openBox(t, agentRoot(t));
  assert.throws(() => ws.decay(NOW, { path: 'memory/LONG_TERM.md' }),
    isArg(/^path: not an argument of memorybox decay/));
  assert.throws(() => ws.decay(NOW, { file: 42 }), isArg(/--file: takes a string/));
  assert.throws(() => ws.decay(NOW, 'memory/LONG_TERM.md'), TypeError);
  assert.throws(() => ws.decay(NOW, { file: 'memory/LONG\0TERM.md' }), isArg(/NUL/));
});
test('memorybox: hygiene finds an orphaned link, fails (exit code 1) and writes nothing', (t) => {
  const root = agentRoot(t);
  const ws = openBox(t, root);
  const init = ws.init(NOW);
  t.after(() => init.close());
  assert.equal(init.exitCode, 0);

  // A fresh root passes: no orphans.
  const clean = ws.hygiene(NOW);
  t.after(() => clean.close());
  assert.equal(clean.exitCode, 0, clean.json);
  assert.deepEqual(JSON.parse(clean.json).data.orphans, []);

  fs.appendFileSync(path.join(root, 'brain', 'SOUL.md'), 'See [[missing/PAGE]].\n');
  const before = tree(root);
  const soul = fs.readFileSync(path.join(root, 'brain', 'SOUL.md'));

  const result = ws.hygiene(NOW);
  t.after(() => result.close());
  assert.equal(result.exitCode, 1, result.json);
  const envelope = JSON.parse(result.json);
  assert.equal(envelope.command, 'memorybox hygiene');
  const { items, orphans } = envelope.data;
  assert.equal(items.length, 10);
  assert.deepEqual(items.map((item) => item.n), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  for (const item of items)
    for (const key of ['n', 'check', 'result', 'value', 'limit', 'details'])
      assert.ok(key in item, `item ${item.n} has ${key}`);
  const orphan = orphans.find((o) => o.target === 'missing/PAGE.md');
  assert.ok(orphan, `an orphan with target missing/PAGE.md: ${JSON.stringify(orphans)}`);
  assert.equal(orphan.file, 'brain/SOUL.md');
  assert.equal(items[8].result, 'FAIL', 'item 9, orphaned references');
  assert.equal(result.planId, null);
  assert.equal(result.applied, false);
  assert.deepEqual(result.budgetRows, []);
  assert.deepEqual(tree(root), before, 'nothing written');
  assert.ok(fs.readFileSync(path.join(root, 'brain', 'SOUL.md')).equals(soul));
});

test('memorybox: load returns the files of a tier or one file and writes nothing', (t) => {
  const root = agentRoot(t);
  const ws = openBox(t, root);
  const init = ws.init(NOW);
  t.after(() => init.close());
  assert.equal(init.exitCode, 0);
  const before = tree(root);

  const tier1 = ws.load(NOW, { tier: 1 });
  t.after(() => tier1.close());
  assert.equal(tier1.exitCode, 0, tier1.json);
  assert.match(tier1.json, /"content":"# SOUL\\n"/);
  const envelope = JSON.parse(tier1.json);
  assert.equal(envelope.command, 'memorybox load');
  const soul = envelope.data.files.find((f) => f.path === 'brain/SOUL.md');
  assert.deepEqual(soul, { content: '# SOUL\n', lines: 1, path: 'brain/SOUL.md', tier: 1 });
  assert.ok(envelope.data.files.every((f) => f.tier === 1));
  assert.equal(tier1.planId, null);
  assert.equal(tier1.applied, false);
  assert.equal(tier1.inboxCounts, null);
  assert.deepEqual(tier1.budgetRows, []);

  // One file (tier absent or null: the C API's tier 0).
  for (const opts of [{ file: 'brain/SOUL.md' }, { tier: null, file: 'brain/SOUL.md' }]) {
    const one = ws.load(NOW, opts);
    try {
      assert.equal(one.exitCode, 0, one.json);
      assert.deepEqual(JSON.parse(one.json).data.files, [soul]);
    } finally {
      one.close();
    }
  }

  // The archive (tier 5) is a fatal finding without includeArchive, and loads with it.
  const archive = ws.load(NOW, { tier: 5 });
  t.after(() => archive.close());
  assert.equal(archive.exitCode, 2, archive.json);
  assert.deepEqual(
    JSON.parse(archive.json).findings.map((f) => [f.code, f.fatal]),
    [['MK-ARG-001', true]],
  );
  const included = ws.load(NOW, { tier: 5, includeArchive: true });
  t.after(() => included.close());
  assert.equal(included.exitCode, 0, included.json);
  assert.ok(Array.isArray(JSON.parse(included.json).data.files));

  assert.deepEqual(tree(root), before, 'nothing written');
});

test('memorybox: load needs exactly one of tier and file (a fatal finding)', (t) => {
  const ws = openBox(t, agentRoot(t));
  const both = { tier: 1, file: 'brain/SOUL.md' };
  for (const args of [both, undefined, {}, { includeArchive: true }]) {
    const result = ws.load(NOW, args);
    try {
      assert.equal(result.exitCode, 2, result.json);
      assert.match(result.json, /give exactly one of --tier N and --file F/);
    } finally {
      result.close();
    }
  }
  // The tier as text is the CLI's; a fraction is refused as the CLI refuses '1.5'.
  const text = ws.load(NOW, { tier: '1' });
  t.after(() => text.close());
  assert.equal(text.exitCode, 0, text.json);
  const fraction = ws.load(NOW, { tier: 1.5 });
  t.after(() => fraction.close());
  assert.match(fraction.json, /--tier: expected 1 to 5, got '1\.5'/);
  assert.throws(() => ws.load(NOW, { tier: 1, archive: true }), isArg(/archive/));
  assert.throws(() => ws.load(NOW, 1), TypeError);
});
test('memorybox: update confirms an entry and writes its field lines', (t) => {
  const root = agentRoot(t);
  const ws = openBox(t, root);
  const init = ws.init(NOW);
  t.after(() => init.close());
  assert.equal(init.exitCode, 0);
  const file = path.join(root, 'memory', 'LONG_TERM.md');
  fs.writeFileSync(file, '- fact\n  Confidence: 0.90\n  Verified: 2026-10-01\n');

  // The entry ID comes from decay's JSON.
  const decay = ws.decay(NOW, { file: 'memory/LONG_TERM.md' });
  t.after(() => decay.close());
  const entries = JSON.parse(decay.json).data.entries;
  assert.equal(entries.length, 1, decay.json);
  const entryId = entries[0].entry_id;
  assert.match(entryId, /^memory\/LONG_TERM\.md#[0-9a-f]{12}$/);

  const result = ws.update('2026-11-30T10:00:00+01:00', { entry: entryId, confirm: true });
  t.after(() => result.close());
  assert.equal(result.exitCode, 0, result.json);
  assert.equal(result.applied, true);
  assert.equal(result.planId, null, 'an update applies directly: no Plan ID');
  assert.equal(result.inboxCounts, null);
  assert.deepEqual(result.budgetRows, []);
  const envelope = JSON.parse(result.json);
  assert.equal(envelope.command, 'memorybox update');
  assert.equal(envelope.data.entry_id, entryId);
  assert.deepEqual(envelope.data.written, ['memory/LONG_TERM.md']);
  assert.equal(envelope.data.before.stored, 90);
  assert.equal(envelope.data.after.stored, 95);
  const text = fs.readFileSync(file, 'utf8');
  assert.match(text, /^ {2}Confidence: 0\.95$/m);
  assert.match(text, /^ {2}Verified: 2026-11-30$/m);
  assert.ok(text.startsWith('- fact\n'), text);

  const verify = ws.update(NOW, { entry: entryId, verify: true });
  t.after(() => verify.close());
  assert.equal(verify.exitCode, 0, verify.json);
  assert.equal(verify.applied, true);

  // contradict without a note is a fatal finding, and writes nothing.
  const bytes = fs.readFileSync(file);
  const noNote = ws.update(NOW, { entry: entryId, contradict: true });
  t.after(() => noNote.close());
  assert.equal(noNote.exitCode, 2, noNote.json);
  assert.equal(noNote.applied, false);
  assert.equal(JSON.parse(noNote.json).findings[0].fatal, true);
  assert.ok(fs.readFileSync(file).equals(bytes), 'nothing written');

  // With a note it records the Review, and resolve_keep clears it with a new confidence.
  const contradict = ws.update(NOW, { entry: entryId, contradict: true, note: 'it changed' });
  t.after(() => contradict.close());
  assert.equal(contradict.exitCode, 0, contradict.json);
  assert.match(fs.readFileSync(file, 'utf8'), /Review: contradicted 2026-11-30: it changed/);
  const resolve = ws.update(NOW, { entry: entryId, resolve: 'keep', confidence: '0.70' });
  t.after(() => resolve.close());
  assert.equal(resolve.exitCode, 0, resolve.json);
  const resolved = fs.readFileSync(file, 'utf8');
  assert.doesNotMatch(resolved, /Review:/);
  assert.match(resolved, /^ {2}Confidence: 0\.70$/m);
});

test('memorybox: update checks its event and options', (t) => {
  const ws = openBox(t, agentRoot(t));
  const entry = 'memory/LONG_TERM.md#000000000000';
  // What the command checks comes back as a fatal finding that wrote nothing.
  for (const [args, pattern] of [
    [{ entry }, /give exactly one of --verify, --confirm, --contradict/],
    [{ entry, verify: true, confirm: true }, /give exactly one of/],
    [{ entry, resolve: 'keep', confidence: 101 }, /--confidence: expected 0 to 1/],
    [{ entry, verify: true }, /.+/], // an unknown entry
  ]) {
    const result = ws.update(NOW, args);
    try {
      assert.equal(result.exitCode, 2, result.json);
      assert.equal(result.applied, false);
      assert.match(JSON.parse(result.json).findings[0].message, pattern);
    } finally {
      result.close();
    }
  }
  // What the request refuses throws.
  assert.throws(() => ws.update(NOW, { entry, refute: true }), isArg(/^refute: not an argument/));
  assert.throws(() => ws.update(NOW, { entry, verify: 'yes' }), isArg(/--verify: takes a boolean/));
  assert.throws(() => ws.update(NOW, { entry: `${entry}\0` }), isArg(/NUL/));
});
