'use strict';
// The three-tier session memory (MK_LAYOUT_TIERS, spec tiers3.md): a workspace holding memory/,
// whose commands are `memkit tiers <command> --workspace DIR` through mk_tiers_run, and whose
// `tiers recover` is recover(). The files written are checked byte for byte; every other
// comparison with the CLI is the vector runner's (tests/vectors/tiers_*).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const memkit = require('..');
const { tree } = require('./support.js');
const capi = require('../lib/capi.js');

const { MemkitError, Workspace, Layout, TiersCommand } = memkit;
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

// Runs a command and returns {result, envelope}; the result is closed after the test.
function run(t, fn) {
  const result = fn();
  t.after(() => result.close());
  return { result, envelope: JSON.parse(result.json) };
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

test('tiers: the layout and the command numbers are the header values', () => {
  assert.equal(Layout.TIERS, 2);
  assert.equal(C.MK_LAYOUT_TIERS, 2);
  assert.deepEqual(
    Object.entries(TiersCommand),
    Object.entries({
      INIT: 0,
      SESSION_INIT: 1,
      LOG_TURN: 2,
      READ_LOGS: 3,
      PERSIST_TURN: 4,
      WRITE_THEME: 5,
      READ_THEME: 6,
      READ_GLOBAL: 7,
      WRITE_GLOBAL: 8,
      LIST_THEMES: 9,
      WRITE_DATA: 10,
      READ_DATA: 11,
      LIST_DATA: 12,
      ARCHIVE_THEMES: 13,
      TEMPLATE: 14,
    }),
  );
  assert.ok(Object.isFrozen(TiersCommand));
  assert.equal(C.MK_TIERS_UNSET, -(2n ** 63n));
  assert.equal(C.MK_TIERS_OPTIONS_VERSION, 1);
});

test('tiers: mk_tiers_options_init fills "nothing given", as C lays the struct out', () => {
  const c = {};
  capi.mk_tiers_options_init(c);
  const strings = Object.keys(c).filter((k) => c[k] === null);
  const unset = Object.keys(c).filter((k) => c[k] === C.MK_TIERS_UNSET);
  const zero = Object.keys(c).filter((k) => c[k] === 0);
  assert.equal(c.version, C.MK_TIERS_OPTIONS_VERSION);
  assert.equal(strings.length, 16, `NULL strings: ${strings}`);
  assert.deepEqual(unset, [
    'recent_days',
    'theme_limit',
    'max_tokens',
    'days_back',
    'limit',
    'hours_back',
    'head',
    'days',
  ]);
  assert.deepEqual(zero, ['no_log', 'promote_global', 'append', 'replace']);
  // 4 + 4 padding + 16 pointers + 8 int64 + 4 int32 on LP64: the C sizeof.
  assert.equal(capi.koffi.sizeof(capi.types.mk_tiers_options), 216);
});

test('tiers: persist-turn writes the bytes of tiers3.md §15', (t) => {
  const root = workspaceDir(t);
  const ws = openTiers(t, root);

  const { result, envelope } = run(t, () =>
    ws.tiersPersistTurn(NOW, {
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
    ws.tiers('2026-03-07T14:30:00+00:00', 'persist-turn', {
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

test('tiers: tools as an array reach C as the same JSON as the text', (t) => {
  const [a, b] = [workspaceDir(t), workspaceDir(t)];
  const opts = { content: 'Looked it up.', sessionId: 's2' };
  run(t, () => openTiers(t, a).tiersLogTurn(NOW, { ...opts, tools: ['search', 'read'] }));
  run(t, () =>
    openTiers(t, b).tiers(NOW, TiersCommand.LOG_TURN, { ...opts, tools: '["search","read"]' }),
  );
  const log = 'memory/sessions/2026-03-07.md';
  assert.match(read(a, log), /\*\*Tools:\*\* search, read\n/);
  assert.equal(read(a, log), read(b, log));
});

test('tiers: extractedContent without a theme is refused and writes nothing', (t) => {
  const root = workspaceDir(t);
  const ws = openTiers(t, root);
  const { result, envelope } = run(t, () =>
    ws.tiersPersistTurn(NOW, { rawContent: 'Half a turn', extractedContent: 'No theme given.' }),
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
  assert.equal(run(t, () => ws.tiersInit(NOW)).result.exitCode, 0);
  const before = snapshot(root);
  const theme = run(t, () => ws.tiersWriteTheme(NOW, { theme: 'auto', content: 'Guess it.' }));
  assert.equal(theme.result.exitCode, 2);
  assert.deepEqual(theme.envelope.findings.map((f) => f.code), ['MK-TIERS-003']);
  const escape = run(t, () => ws.tiersWriteTheme(NOW, { theme: '../x', content: 'Out.' }));
  assert.deepEqual(escape.envelope.findings.map((f) => f.code), ['MK-TIERS-002']);
  assert.deepEqual(snapshot(root), before);
});

test('tiers: write-data, then read-data with head 1 is the header record', (t) => {
  const root = workspaceDir(t);
  const ws = openTiers(t, root);
  const csv = 'name,note\n"Smith, J","line1\nline2"\n\nx,"say ""hi"""';
  const written = run(t, () =>
    ws.tiersWriteData(NOW, { name: 'people', csvContent: csv, columnsJson: ['name', 'note'] }),
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

  const head = run(t, () => ws.tiersReadData(NOW, { name: 'people', head: 1 }));
  assert.equal(head.result.exitCode, 0, head.result.json);
  assert.equal(head.result.applied, false);
  assert.equal(head.envelope.data.data.content, 'name,note\n');
  assert.equal(head.envelope.data.data.truncated, true);
  assert.deepEqual(head.envelope.data.data.metadata, entry);

  // head 2 keeps the quoted line break of record 2; a BigInt is the same integer.
  const two = run(t, () => ws.tiersReadData(NOW, { name: 'people.csv', head: 2n }));
  assert.equal(two.envelope.data.data.content, 'name,note\n"Smith, J","line1\nline2"\n');
  assert.equal(two.envelope.data.data.truncated, true);

  // Again without replace: MK-TIERS-011 (an ERROR, exit 1) and the file is unchanged.
  const again = run(t, () => ws.tiersWriteData(NOW, { name: 'people', csvContent: 'a\n' }));
  assert.equal(again.result.exitCode, 1);
  assert.equal(again.result.applied, false);
  assert.deepEqual(again.envelope.findings.map((f) => f.code), ['MK-TIERS-011']);
  assert.equal(read(root, 'memory/data/people.csv'), csv);

  // "" is an empty CSV (accepted), not "not given" (which would be MK-TIERS-010).
  const empty = run(t, () => ws.tiersWriteData(NOW, { name: 'empty', csvContent: '' }));
  assert.equal(empty.result.exitCode, 0, empty.result.json);
  assert.equal(read(root, 'memory/data/empty.csv'), '');
  const none = run(t, () => ws.tiersWriteData(NOW, { name: 'none' }));
  assert.deepEqual(none.envelope.findings.map((f) => f.code), ['MK-TIERS-010']);
});

test('tiers: archive-themes is a dry run, then applies its Plan ID', (t) => {
  const root = workspaceDir(t);
  const ws = openTiers(t, root);
  const old = 'memory/research/2025-11-01_09.md';
  const recent = 'memory/research/2026-03-07_14.md';
  run(t, () =>
    ws.tiersWriteTheme('2025-11-01T09:30:00+00:00', { theme: 'research', content: 'Old.' }),
  );
  run(t, () => ws.tiersWriteTheme(NOW, { theme: 'research', content: 'New.' }));
  const oldBytes = read(root, old);
  assert.equal(oldBytes, '## 2025-11-01 09:30:00\n\nOld.\n');
  const before = snapshot(root);

  const plan = run(t, () => ws.tiersArchiveThemes(NOW));
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
  const init = run(t, () => ws.tiersSessionInit(NOW, { noLog: true }));
  assert.equal(init.envelope.data.l2_archive_due, 1);
  assert.equal(init.result.applied, false);

  // A stale Plan ID: MK-PLAN-001, exit 2, nothing written.
  const stale = run(t, () => ws.tiersArchiveThemes(NOW, { confirmPlan: '0123456789abcdef' }));
  assert.equal(stale.result.exitCode, 2);
  assert.equal(stale.result.applied, false);
  assert.deepEqual(stale.envelope.findings.map((f) => f.code), ['MK-PLAN-001']);
  assert.deepEqual(snapshot(root), before);

  const applied = run(t, () => ws.tiersArchiveThemes(NOW, { confirmPlan: plan.result.planId }));
  assert.equal(applied.result.exitCode, 0, applied.result.json);
  assert.equal(applied.result.applied, true);
  assert.equal(applied.result.planId, plan.result.planId);
  assert.ok(!fs.existsSync(path.join(root, old)), 'the old note left memory/research/');
  assert.equal(read(root, 'memory/archive/research/2025-11-01_09.md'), oldBytes);
  assert.equal(read(root, recent), '## 2026-03-07 14:05:09\n\nNew.\n');

  // Nothing is left to archive, and `tiers recover` finds no unfinished transaction.
  assert.equal(run(t, () => ws.tiersArchiveThemes(NOW)).result.planId, null);
  const recover = run(t, () => ws.recover(NOW));
  assert.equal(recover.result.exitCode, 0, recover.result.json);
  assert.equal(recover.envelope.command, 'tiers recover');
  assert.equal(recover.envelope.data.recovery_status, 'clean');
});

test('tiers: options reach C as given, and C judges them as the CLI does', (t) => {
  const root = workspaceDir(t);
  const ws = openTiers(t, root);
  const findings = (r) => r.envelope.findings.map((f) => f.code);

  // An option the command does not take: the CLI's "unknown option", not the binding's.
  const extra = run(t, () => ws.tiersReadLogs(NOW, { head: 1 }));
  assert.equal(extra.result.exitCode, 2);
  assert.deepEqual(findings(extra), ['MK-ARG-001']);
  assert.match(extra.envelope.findings[0].message, /--head/);
  // A negative integer is passed on and refused as the CLI's text '-1'.
  const negative = run(t, () => ws.tiersReadLogs(NOW, { limit: -1 }));
  assert.equal(negative.result.exitCode, 2);
  assert.match(negative.envelope.findings[0].message, /--limit.*'-1'/);
  // MK_TIERS_UNSET, null and undefined are all "not given".
  for (const limit of [C.MK_TIERS_UNSET, null, undefined]) {
    assert.equal(run(t, () => ws.tiersReadLogs(NOW, { limit })).result.exitCode, 0);
  }
  // append with replace: MK-ARG-001; a bad template: MK-ARG-001.
  const both = run(t, () =>
    ws.tiersWriteGlobal(NOW, { content: 'x', append: true, replace: true }),
  );
  assert.deepEqual(findings(both), ['MK-ARG-001']);
  assert.deepEqual(findings(run(t, () => ws.tiersTemplate(NOW, 'nope'))), ['MK-ARG-001']);
  const template = run(t, () => ws.tiersTemplate(NOW, 'decision'));
  assert.equal(template.result.exitCode, 0);
  assert.match(template.envelope.data.text, /^\*\*Context\*\*:/);
  // Not one of these commands wrote anything.
  assert.deepEqual(tree(root), []);

  // What the binding itself refuses: a name no command has, a value of the wrong JS type.
  assert.throws(() => ws.tiersLogTurn(NOW, { raw_content: 'x' }), /unknown option "raw_content"/);
  assert.throws(() => ws.tiersReadLogs(NOW, { limit: 1.5 }), TypeError);
  assert.throws(() => ws.tiersReadLogs(NOW, { limit: '3' }), TypeError);
  assert.throws(() => ws.tiersReadLogs(NOW, { limit: 2n ** 63n }), TypeError);
  assert.throws(() => ws.tiersLogTurn(NOW, { content: 7 }), TypeError);
  assert.throws(() => ws.tiersLogTurn(NOW, { content: 'x', tools: { a: 1 } }), TypeError);
  assert.throws(
    () => ws.tiersLogTurn(NOW, { content: 'a\0b' }),
    (err) => err instanceof MemkitError && err.code === C.MK_E_ARG,
  );
  assert.throws(() => ws.tiers(NOW, 'persist_turn'), TypeError);
  // An unknown command number is the library's to refuse (MK_E_ARG).
  assert.throws(
    () => ws.tiers(NOW, 15),
    (err) => err instanceof MemkitError && err.status === 'MK_E_ARG',
  );
});

test('tiers: the commands need a tiers workspace, and the tiers layout no other command', (t) => {
  const root = workspaceDir(t);
  const custodian = Workspace.open(root);
  t.after(() => custodian.close());
  const wrong = run(t, () => custodian.tiersInit(NOW));
  assert.equal(wrong.result.exitCode, 2);
  assert.deepEqual(wrong.envelope.findings.map((f) => f.code), ['MK-ARG-001']);

  const ws = openTiers(t, root);
  const status = run(t, () => ws.status(NOW));
  assert.equal(status.result.exitCode, 2);
  assert.deepEqual(status.envelope.findings.map((f) => f.code), ['MK-ARG-001']);
  assert.deepEqual(tree(root).filter((p) => !p.startsWith('.memkit/')), []);

  // memoryDir is custodian only.
  assert.throws(
    () => Workspace.open(root, { layout: 'tiers', memoryDir: 'memory' }),
    (err) => err instanceof MemkitError && err.code === C.MK_E_ARG,
  );
  // The layout by number opens the same kind of workspace.
  const byNumber = Workspace.open(root, { layout: Layout.TIERS });
  t.after(() => byNumber.close());
  const init = run(t, () => byNumber.tiers(NOW, 'init'));
  assert.equal(init.result.exitCode, 0, init.result.json);
  assert.equal(read(root, 'memory/data/manifest.json'), '{}\n');
});
