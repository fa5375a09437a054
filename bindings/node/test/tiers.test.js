'use strict';
// The three-tier session memory (MK_LAYOUT_TIERS, spec tiers3.md): a workspace holding memory/,
// whose methods are the commands `memkit tiers <command> --workspace DIR` (ws.persistTurn, ...,
// ws.recover). The files written are checked byte for byte; every other
// comparison with the CLI is the vector runner's (tests/vectors/tiers_*).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const memkit = require('..');
const { tree, run } = require('./support.js');

const { MemkitError, Workspace, Layout } = memkit;
const C = memkit.constants;

const NOW = '2026-03-07T14:05:09+00:00';

// An empty workspace folder, removed after the test.
function workspaceDir(t) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'memkit-node-tiers-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  return root;
}

function openTiers(t, root) {
  const ws = Workspace.open(root, { layout: 'tiers' });
  t.after(() => ws.close());
  return ws;
}


// Every file under root with its bytes, to show that a refused command changed nothing.
function snapshot(root) {
  return Object.fromEntries(
    tree(root)
      .filter((p) => !p.endsWith('/'))
      .map((p) => [p, fs.readFileSync(path.join(root, p)).toString('hex')]),
  );
}

const read = (root, rel) => fs.readFileSync(path.join(root, rel), 'utf8');

test('tiers: the layout is the header value; its methods are the table\'s tiers commands', (t) => {
  assert.equal(Layout.TIERS, 2);
  assert.equal(C.MK_LAYOUT_TIERS, 2);
  const ws = openTiers(t, workspaceDir(t));
  const tiers = memkit.commands().groups.find((g) => g.name === 'tiers');
  const verbs = tiers.commands.map((c) => c.verb);
  assert.ok(verbs.includes('persist-turn') && verbs.includes('recover'), String(verbs));
  for (const verb of verbs) {
    const method = ws[verb.replace(/-(\w)/g, (_, c) => c.toUpperCase())];
    assert.equal(typeof method, 'function', verb);
    assert.match(method.doc, new RegExp(`^tiers ${verb}: `));
  }
});

test('tiers: persist-turn writes the bytes of tiers3.md §15', (t) => {
  const root = workspaceDir(t);
  const ws = openTiers(t, root);

  const { result, envelope } = run(t, () =>
    ws.persistTurn(NOW, {
      entryType: 'assistant',
      rawContent: '  Raw one  ',
      sessionId: 's1',
      tools: '["search","read"]',
      extractedContent: 'Use persist-turn.',
      theme: 'Decision',
      template: 'decision',
      title: 'Default command',
    }),
  );
  assert.equal(result.exitCode, 0, result.json);
  assert.equal(result.applied, true);
  assert.equal(result.planId, null);
  assert.equal(envelope.command, 'tiers persist-turn');
  assert.deepEqual(envelope.data, {
    global_path: 'memory/global.md',
    global_updated: false, // no keyword promotion
    l1_path: 'memory/sessions/2026-03-07.md',
    l1_written: true,
    l2_path: 'memory/decision/2026-03-07_14.md',
    l2_written: true,
    theme: 'decision',
  });
  const l1 =
    '# Session Log - 2026-03-07\n\n### [2026-03-07 14:05:09] ASSISTANT\n**Session:** s1\n' +
    '**Tools:** search, read\n\nRaw one\n\n---';
  const l2 = '## Decision Record: Default command\n\nUse persist-turn.\n';
  assert.equal(read(root, 'memory/sessions/2026-03-07.md'), l1);
  assert.equal(read(root, 'memory/decision/2026-03-07_14.md'), l2);
  // Only these two files (and the lock's folder): no global.md, no manifest.
  assert.deepEqual(
    tree(root).filter((p) => !p.startsWith('.memkit/')),
    [
      'memory/',
      'memory/decision/',
      'memory/decision/2026-03-07_14.md',
      'memory/sessions/',
      'memory/sessions/2026-03-07.md',
    ],
  );

  // The second turn of §15, at 14:30:00, appends to both files.
  const second = run(t, () =>
    ws.run('2026-03-07T14:30:00+00:00', 'tiers', 'persist-turn', {
      rawContent: 'second',
      extractedContent: 'second note',
      theme: 'decision',
    }),
  );
  assert.equal(second.result.exitCode, 0, second.result.json);
  assert.equal(
    read(root, 'memory/sessions/2026-03-07.md'),
    `${l1}\n\n### [2026-03-07 14:30:00] TURN\n\nsecond\n\n---`,
  );
  assert.equal(
    read(root, 'memory/decision/2026-03-07_14.md'),
    `${l2}\n\n## 2026-03-07 14:30:00\n\nsecond note\n`,
  );
});

test('tiers: extractedContent without a theme is refused and writes nothing', (t) => {
  const root = workspaceDir(t);
  const ws = openTiers(t, root);
  const { result, envelope } = run(t, () =>
    ws.persistTurn(NOW, { rawContent: 'Half a turn', extractedContent: 'No theme given.' }),
  );
  assert.equal(result.exitCode, 2);
  assert.equal(result.applied, false);
  assert.equal(envelope.exit_class, 'fatal');
  assert.deepEqual(
    envelope.findings.map((f) => [f.code, f.severity, f.fatal]),
    [['MK-TIERS-004', 'BLOCKER', true]],
  );
  // Not even the L1 entry that the reference script writes first (tiers3.md §12 defect 1).
  assert.ok(!fs.existsSync(path.join(root, 'memory')), 'no memory/ folder');
  assert.deepEqual(tree(root), [], 'nothing at all, not even .memkit/');
});

test('tiers: a refused write leaves an initialised workspace byte for byte', (t) => {
  const root = workspaceDir(t);
  const ws = openTiers(t, root);
  assert.equal(run(t, () => ws.init(NOW)).result.exitCode, 0);
  const before = snapshot(root);
  const theme = run(t, () => ws.writeTheme(NOW, { theme: 'auto', content: 'Guess it.' }));
  assert.equal(theme.result.exitCode, 2);
  assert.deepEqual(theme.envelope.findings.map((f) => f.code), ['MK-TIERS-003']);
  const escape = run(t, () => ws.writeTheme(NOW, { theme: '../x', content: 'Out.' }));
  assert.deepEqual(escape.envelope.findings.map((f) => f.code), ['MK-TIERS-002']);
  assert.deepEqual(snapshot(root), before);
});

test('tiers: write-data, then read-data with head 1 is the header record', (t) => {
  const root = workspaceDir(t);
  const ws = openTiers(t, root);
  const csv = 'name,note\n"Smith, J","line1\nline2"\n\nx,"say ""hi"""';
  const written = run(t, () =>
    ws.writeData(NOW, { name: 'people', csvContent: csv, columnsJson: ['name', 'note'] }),
  );
  assert.equal(written.result.exitCode, 0, written.result.json);
  assert.equal(written.result.applied, true);
  assert.equal(read(root, 'memory/data/people.csv'), csv);
  const entry = written.envelope.data.manifest_entry;
  assert.deepEqual(entry.detected_columns, ['name', 'note']);
  assert.deepEqual(entry.declared_columns, ['name', 'note']);
  assert.equal(entry.row_count, 2); // the quoted line break and the empty line are no records
  assert.equal(entry.column_count, 2);
  assert.deepEqual(written.envelope.findings, []); // declared = detected: no MK-TIERS-013
  // L1 first, with the reference's wording (§10).
  assert.match(
    read(root, 'memory/sessions/2026-03-07.md'),
    /Stored CSV memory data file people\.csv/,
  );

  const head = run(t, () => ws.readData(NOW, { name: 'people', head: 1 }));
  assert.equal(head.result.exitCode, 0, head.result.json);
  assert.equal(head.result.applied, false);
  assert.equal(head.envelope.data.data.content, 'name,note\n');
  assert.equal(head.envelope.data.data.truncated, true);
  assert.deepEqual(head.envelope.data.data.metadata, entry);

  // head 2 keeps the quoted line break of record 2; a BigInt is the same integer.
  const two = run(t, () => ws.readData(NOW, { name: 'people.csv', head: 2n }));
  assert.equal(two.envelope.data.data.content, 'name,note\n"Smith, J","line1\nline2"\n');
  assert.equal(two.envelope.data.data.truncated, true);

  // Again without replace: MK-TIERS-011 (an ERROR, exit 1) and the file is unchanged.
  const again = run(t, () => ws.writeData(NOW, { name: 'people', csvContent: 'a\n' }));
  assert.equal(again.result.exitCode, 1);
  assert.equal(again.result.applied, false);
  assert.deepEqual(again.envelope.findings.map((f) => f.code), ['MK-TIERS-011']);
  assert.equal(read(root, 'memory/data/people.csv'), csv);

  // "" is an empty CSV (accepted), not "not given" (which would be MK-TIERS-010).
  const empty = run(t, () => ws.writeData(NOW, { name: 'empty', csvContent: '' }));
  assert.equal(empty.result.exitCode, 0, empty.result.json);
  assert.equal(read(root, 'memory/data/empty.csv'), '');
  const none = run(t, () => ws.writeData(NOW, { name: 'none' }));
  assert.deepEqual(none.envelope.findings.map((f) => f.code), ['MK-TIERS-010']);
});

test('tiers: archive-themes is a dry run, then applies its Plan ID', (t) => {
  const root = workspaceDir(t);
  const ws = openTiers(t, root);
  const old = 'memory/research/2025-11-01_09.md';
  const recent = 'memory/research/2026-03-07_14.md';
  run(t, () =>
    ws.writeTheme('2025-11-01T09:30:00+00:00', { theme: 'research', content: 'Old.' }),
  );
  run(t, () => ws.writeTheme(NOW, { theme: 'research', content: 'New.' }));
  const oldBytes = read(root, old);
  assert.equal(oldBytes, '## 2025-11-01 09:30:00\n\nOld.\n');
  const before = snapshot(root);

  const plan = run(t, () => ws.archiveThemes(NOW));
  assert.equal(plan.result.exitCode, 0, plan.result.json);
  assert.equal(plan.result.applied, false);
  assert.match(plan.result.planId, /^[0-9a-f]{16}$/);
  assert.equal(plan.envelope.data.plan.plan_id, plan.result.planId);
  assert.equal(plan.result.planOperationCount, 2); // create the archive copy, delete the note
  assert.deepEqual(plan.envelope.data.candidates, [
    { path: old, theme: 'research', timestamp: '2025-11-01T09:00:00' },
  ]);
  assert.deepEqual(snapshot(root), before, 'the dry run wrote nothing');

  // session-init counts what the plan would archive (and logs nothing with noLog).
  const init = run(t, () => ws.sessionInit(NOW, { noLog: true }));
  assert.equal(init.envelope.data.l2_archive_due, 1);
  assert.equal(init.result.applied, false);

  // A stale Plan ID: MK-PLAN-001, exit 2, nothing written.
  const staleId = { apply: true, confirmPlan: '0123456789abcdef' };
  const stale = run(t, () => ws.archiveThemes(NOW, staleId));
  assert.equal(stale.result.exitCode, 2);
  assert.equal(stale.result.applied, false);
  assert.deepEqual(stale.envelope.findings.map((f) => f.code), ['MK-PLAN-001']);
  assert.deepEqual(snapshot(root), before);

  const confirmed = { apply: true, confirmPlan: plan.result.planId };
  const applied = run(t, () => ws.archiveThemes(NOW, confirmed));
  assert.equal(applied.result.exitCode, 0, applied.result.json);
  assert.equal(applied.result.applied, true);
  assert.equal(applied.result.planId, plan.result.planId);
  assert.ok(!fs.existsSync(path.join(root, old)), 'the old note left memory/research/');
  assert.equal(read(root, 'memory/archive/research/2025-11-01_09.md'), oldBytes);
  assert.equal(read(root, recent), '## 2026-03-07 14:05:09\n\nNew.\n');

  // Nothing is left to archive, and `tiers recover` finds no unfinished transaction.
  assert.equal(run(t, () => ws.archiveThemes(NOW)).result.planId, null);
  const recover = run(t, () => ws.recover(NOW));
  assert.equal(recover.result.exitCode, 0, recover.result.json);
  assert.equal(recover.envelope.command, 'tiers recover');
  assert.equal(recover.envelope.data.recovery_status, 'clean');
});

test('tiers: arguments reach C as given, and C judges them as the CLI does', (t) => {
  const root = workspaceDir(t);
  const ws = openTiers(t, root);
  const findings = (r) => r.envelope.findings.map((f) => f.code);
  const isArg = (pattern) => (err) =>
    err instanceof MemkitError && err.code === C.MK_E_ARG && pattern.test(err.message);

  // A negative integer is passed on and refused as the CLI's text '-1'; a fraction as its text.
  const negative = run(t, () => ws.readLogs(NOW, { limit: -1 }));
  assert.equal(negative.result.exitCode, 2);
  assert.match(negative.envelope.findings[0].message, /--limit.*'-1'/);
  const fraction = run(t, () => ws.readLogs(NOW, { limit: 1.5 }));
  assert.match(fraction.envelope.findings[0].message, /--limit.*'1\.5'/);
  // null and undefined are "not given"; an integer as text is the CLI's.
  for (const limit of [null, undefined, '3', 3n]) {
    assert.equal(run(t, () => ws.readLogs(NOW, { limit })).result.exitCode, 0, String(limit));
  }
  // append with replace: MK-ARG-001; a bad template: MK-ARG-001.
  const both = run(t, () => ws.writeGlobal(NOW, { content: 'x', append: true, replace: true }));
  assert.deepEqual(findings(both), ['MK-ARG-001']);
  assert.deepEqual(findings(run(t, () => ws.template(NOW, { kind: 'nope' }))), ['MK-ARG-001']);
  const template = run(t, () => ws.template(NOW, { kind: 'decision' }));
  assert.equal(template.result.exitCode, 0);
  assert.match(template.envelope.data.text, /^\*\*Context\*\*:/);
  // Not one of these commands wrote anything.
  assert.deepEqual(tree(root), []);

  // What the request refuses: an argument the command does not take, a wrong type.
  assert.throws(() => ws.readLogs(NOW, { head: 1 }),
    isArg(/^head: not an argument of tiers read-logs/));
  assert.throws(() => ws.logTurn(NOW, { content: 7 }), isArg(/--content: takes a string/));
  assert.throws(() => ws.logTurn(NOW, { content: 'a\0b' }), isArg(/NUL/));
  assert.throws(() => ws.run(NOW, 'tiers', 'persist_turn'), isArg(/persist_turn/));
  // What the binding cannot send: past int64, an object.
  assert.throws(() => ws.readLogs(NOW, { limit: 2n ** 63n }), TypeError);
  assert.throws(() => ws.logTurn(NOW, { content: 'x', tools: { a: 1 } }), TypeError);
  assert.deepEqual(tree(root), []);
});

test('tiers: the commands need a tiers workspace, and the tiers layout no other command', (t) => {
  const root = workspaceDir(t);
  const custodian = Workspace.open(root);
  t.after(() => custodian.close());
  const refused = (err) => err instanceof MemkitError && /another layout/.test(err.message);
  assert.throws(() => custodian.run(NOW, 'tiers', 'init'), refused);
  assert.equal(custodian.persistTurn, undefined);

  const ws = openTiers(t, root);
  assert.equal(ws.status, undefined);
  assert.throws(() => ws.run(NOW, 'custodian', 'status'), refused);
  assert.deepEqual(tree(root).filter((p) => !p.startsWith('.memkit/')), []);

  // memoryDir is custodian only.
  assert.throws(
    () => Workspace.open(root, { layout: 'tiers', memoryDir: 'memory' }),
    (err) => err instanceof MemkitError && err.code === C.MK_E_ARG,
  );
  // The layout by number opens the same kind of workspace.
  const byNumber = Workspace.open(root, { layout: Layout.TIERS });
  t.after(() => byNumber.close());
  const init = run(t, () => byNumber.init(NOW));
  assert.equal(init.result.exitCode, 0, init.result.json);
  assert.equal(read(root, 'memory/data/manifest.json'), '{}\n');
});
