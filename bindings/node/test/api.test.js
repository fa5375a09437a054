'use strict';
// The binding's own behaviour: version, the command table and the methods made from it, the
// request path (arguments by name and JS type, the errors naming them), clocks, errors, lifetimes,
// streaming and documents.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');

const memkit = require('..');

const { MemkitError, Workspace, Document, Clock, parseClock } = memkit;

const VECTORS = path.resolve(__dirname, '..', '..', '..', 'tests', 'vectors');
const NOW = '2026-03-07T10:00:00+01:00';

// A fresh project root holding a copy of a vector case's files, removed after the test.
function project(t, caseName = 'inbox_dedupe') {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'memkit-node-api-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  if (caseName) fs.cpSync(path.join(VECTORS, caseName, 'files'), root, { recursive: true });
  return root;
}

function assertMemkitError(fn, code, status, messagePattern) {
  let caught = null;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  assert.ok(caught !== null, 'expected a throw');
  assert.ok(caught instanceof MemkitError, `expected a MemkitError, got ${caught}`);
  assert.ok(caught instanceof Error);
  assert.equal(caught.code, code);
  assert.equal(caught.status, status);
  if (messagePattern) assert.match(caught.message, messagePattern);
  return caught;
}

/* Version */

test('version: the loaded library is 0.2.0, number 200; status names and messages', () => {
  assert.equal(memkit.version(), '0.2.0');
  assert.equal(memkit.versionNumber(), 200);
  assert.equal(memkit.statusName(-1), 'MK_E_ARG');
  assert.equal(memkit.statusName(memkit.Status.E_CALLBACK), 'MK_E_CALLBACK');
  assert.equal(memkit.statusName(-999), 'MK_E_UNKNOWN');
  assert.throws(() => memkit.parseClock('no time'), MemkitError);
  assert.match(memkit.errorMessage(), /.+/, 'the message of the failure just above');
  if (process.env.MEMKIT_LIBRARY) assert.equal(memkit.libraryPath, process.env.MEMKIT_LIBRARY);
});

/* The command table and the methods made from it */

// A method name for a command: 'sync push' -> syncPush, 'session-init' -> sessionInit; a command
// without a verb is its group's name ('' of search -> search).
const methodName = (group, verb) =>
  (verb || group).replace(/[ -](\w)/g, (_, c) => c.toUpperCase());

// The methods of a workspace of a layout, by the table's `workspace` key: [name, command], its
// own groups' first, then those of every layout ('any') unless the name is already taken.
function methodsOf(table, layout) {
  const methods = new Map();
  for (const runsOn of [layout, 'any']) {
    for (const group of table.groups.filter((g) => g.workspace === runsOn)) {
      for (const command of group.commands) {
        const name = methodName(group.name, command.verb);
        if (!methods.has(name)) methods.set(name, command);
      }
    }
  }
  return [...methods];
}

test('commands: the command table describes every command', () => {
  const table = memkit.commands();
  assert.equal(table.table_version, 1);
  assert.deepEqual(table.groups.map((g) => g.name),
    ['custodian', 'memorybox', 'tiers', 'curated', 'search', 'context', 'markdown', 'agent',
      'mcp', 'bench']);
  assert.deepEqual(table.groups.map((g) => g.workspace),
    ['custodian', 'memorybox', 'tiers', 'curated', 'any', 'any', 'none', 'any', 'server', 'cli']);
  const log = table.groups.flatMap((g) => g.commands).find((c) => c.name === 'memorybox log');
  const text = log.arguments.find((a) => a.name === '--text');
  assert.deepEqual([text.type, text.required, log.effect], ['string', true, 'writes']);
  assert.notEqual(memkit.commands(), table, 'a fresh copy each time');
});

test('methods: one per command of the layout\'s groups and of every layout\'s, documented', (t) => {
  const table = memkit.commands();
  for (const layout of ['custodian', 'memorybox', 'tiers', 'curated']) {
    const ws = Workspace.open(project(t, null), { layout });
    t.after(() => ws.close());
    assert.equal(ws.group, layout);
    const methods = methodsOf(table, layout);
    assert.deepEqual(Object.keys(ws), methods.map(([name]) => name), layout);
    assert.ok(Object.keys(ws).includes('search'), `${layout}: search runs on every layout`);
    assert.equal(ws.units, undefined, 'markdown runs on no workspace');
    for (const [name, command] of methods) {
      const method = ws[name];
      assert.deepEqual(method.command, command);
      assert.ok(method.doc.startsWith(`${command.name}: ${command.summary}`), method.doc);
      for (const a of command.arguments) {
        // The roots come from the workspace, so they are not documented as arguments.
        const root = ['--project-root', '--memory-dir', '--root', '--store'].includes(a.name) ||
          (layout === 'tiers' && a.name === '--workspace');
        assert.equal(method.doc.includes(`${a.name}`), !root, `${command.name} ${a.name}`);
        if (!root) assert.ok(method.doc.includes(a.doc), `${command.name} ${a.name}: its doc`);
      }
    }
  }
  const custodian = Workspace.open(project(t));
  t.after(() => custodian.close());
  assert.match(custodian.compact.doc, /\n {2}confirmPlan \(--confirm-plan, string\): /);
  assert.match(custodian.add.doc, /\n {2}message \(MESSAGE, positional, string, required\): /);
  assert.match(custodian.undo.doc, /\n {2}planId \(PLAN_ID, positional, string, required\): /);
  assert.equal(custodian.gate, undefined, 'a custodian workspace has no memorybox methods');
  const box = Workspace.open(project(t, null), { layout: 'memorybox' });
  t.after(() => box.close());
  assert.match(box.gate.doc, /\n {2}judge \(function\): /);
  assert.equal(typeof box.syncPush, 'function');
  assert.equal(box.syncPush.name, 'syncPush');
  assert.equal(box.compact, box.compact, 'methods are shared, not made per call');
  // A name both curated and an 'any' group have stays curated's; run() reaches the other.
  const store = Workspace.open(path.join(project(t, null), 'store'), { layout: 'curated' });
  t.after(() => store.close());
  assert.equal(store.search.command.name, 'curated search');
  assert.ok(store.search.doc.startsWith('curated search: '), store.search.doc);
});

test('run: any command by name; a method is the same request', (t) => {
  const root = project(t);
  const ws = Workspace.open(root);
  t.after(() => ws.close());
  const args = { message: 'Reports render without JS', type: 'constraint' };
  const added = ws.run(NOW, 'custodian', 'add', args);
  t.after(() => added.close());
  assert.equal(added.exitCode, 0, added.json);
  assert.equal(JSON.parse(added.json).command, 'custodian add');
  assert.match(fs.readFileSync(path.join(root, 'docs/memory/constraints.md'), 'utf8'),
    /- Reports render without JS\n/);
  assert.equal(ws.run(NOW, 'custodian', 'status').json, ws.status(NOW).json);
  // camelCase, the table's dashes and snake_case name the same argument.
  const spellings = ['confirmPlan', 'confirm-plan', 'confirm_plan'].map(
    (key) => ws.compact(NOW, { apply: true, [key]: '0000000000000000' }).json,
  );
  assert.equal(new Set(spellings).size, 1);
  assert.match(spellings[0], /MK-PLAN-001/);
  // null and undefined leave an argument out; false sets a flag to off.
  const plain = ws.compact(NOW).json;
  assert.equal(ws.compact(NOW, { target: null, confirmPlan: undefined, apply: false }).json, plain);
});

test('run: an unknown argument, command or root throws MK_E_ARG naming it', (t) => {
  const ws = Workspace.open(project(t));
  t.after(() => ws.close());
  assertMemkitError(() => ws.add(NOW, { message: 'x', tpye: 'constraint' }), -1, 'MK_E_ARG',
    /^tpye: not an argument of custodian add \(did you mean '?type'?\?\)/);
  assertMemkitError(() => ws.status(NOW, { colour: 'red' }), -1, 'MK_E_ARG',
    /^colour: not an argument of custodian status/);
  assertMemkitError(() => ws.run(NOW, 'custodain', 'status'), -1, 'MK_E_ARG',
    /did you mean 'custodian'\?/);
  assertMemkitError(() => ws.run(NOW, 'custodian', 'compcat'), -1, 'MK_E_ARG', /compcat/);
  assertMemkitError(() => ws.status(NOW, { projectRoot: '/elsewhere' }), -1, 'MK_E_ARG',
    /project_root: given by the workspace/);
  // A command of another group is refused by the workspace (its layout runs custodian only).
  assertMemkitError(() => ws.run(NOW, 'memorybox', 'status'), -1, 'MK_E_ARG', /.+/);
});

test('run: a wrong type throws MK_E_ARG; a JS value the binding cannot send, a TypeError', (t) => {
  const ws = Workspace.open(project(t));
  t.after(() => ws.close());
  assertMemkitError(() => ws.compact(NOW, { apply: 1 }), -1, 'MK_E_ARG',
    /--apply: takes a boolean, not an integer/);
  assertMemkitError(() => ws.compact(NOW, { confirmPlan: true }), -1, 'MK_E_ARG',
    /--confirm-plan: takes a string, not a boolean/);
  assertMemkitError(() => ws.compact(NOW, { target: ['a.md'] }), -1, 'MK_E_ARG',
    /--target: takes a string, not a list/);
  assertMemkitError(() => ws.compact(NOW, { target: 'a\0b' }), -1, 'MK_E_ARG', /target: .*NUL/);
  assertMemkitError(() => ws.add(NOW, { message: Buffer.from('a\0b'), type: 'inbox' }), -1,
    'MK_E_ARG', /NUL/);
  for (const value of [{}, () => 1, Symbol('x'), NaN, Infinity, 2 ** 60, 2n ** 63n, [1]])
    assert.throws(() => ws.compact(NOW, { target: value }), TypeError, String(value));
  assert.throws(() => ws.status(NOW, 'apply'), TypeError);
  assert.throws(() => ws.status(NOW, ['apply']), TypeError);
  assert.throws(() => ws.run(NOW, 'custodian', 7), TypeError);
});

test('run: a list is set as a list; integers as Number or BigInt; fractions as text', (t) => {
  const [a, b] = [project(t, null), project(t, null)];
  const now = '2026-03-07T14:05:09+00:00';
  const logs = [];
  for (const [root, tools] of [[a, ['search', 'read']], [b, '["search","read"]']]) {
    const ws = Workspace.open(root, { layout: 'tiers' });
    t.after(() => ws.close());
    const result = ws.logTurn(now, { content: 'Looked it up.', sessionId: 's2', tools });
    t.after(() => result.close());
    assert.equal(result.exitCode, 0, result.json);
    logs.push(fs.readFileSync(path.join(root, 'memory/sessions/2026-03-07.md'), 'utf8'));
  }
  assert.match(logs[0], /\*\*Tools:\*\* search, read\n/);
  assert.equal(logs[0], logs[1], 'the list is the same JSON as its text');
  const tiers = Workspace.open(a, { layout: 'tiers' });
  t.after(() => tiers.close());
  assertMemkitError(() => tiers.logTurn(now, { content: 'x', tools: ['a\0b'] }), -1, 'MK_E_ARG',
    /NUL/);
  assert.throws(() => tiers.logTurn(now, { content: 'x', tools: ['a', 7] }), TypeError);
  const reads = [3, 3n].map((limit) => tiers.readLogs(now, { limit }).json);
  assert.equal(reads[0], reads[1]);

  const box = Workspace.open(project(t, null), { layout: 'memorybox' });
  t.after(() => box.close());
  const seen = [];
  const judge = (gate, question) => {
    seen.push(question.candidate.confidence);
    return 'no';
  };
  const text = 'Bob reviews schema changes';
  const asText = box.gate(now, { text, confidence: '0.85', judge }).json;
  const asNumber = box.gate(now, { text, confidence: 0.85, judge }).json;
  assert.equal(asNumber, asText);
  assert.deepEqual(seen, [85, 85]);
});

test('run: a judge is for memorybox gate only', (t) => {
  const ws = Workspace.open(project(t));
  t.after(() => ws.close());
  let asked = 0;
  const judge = () => {
    asked += 1;
    return 'yes';
  };
  assertMemkitError(() => ws.status(NOW, { judge }), -1, 'MK_E_ARG',
    /judge: custodian status asks no judge \(the table.s judged commands do\)/);
  assert.equal(asked, 0);
  assert.throws(() => ws.status(NOW, { judge: 'yes' }), TypeError);
  const result = ws.status(NOW, { judge: null }); // null: no judge
  t.after(() => result.close());
  assert.equal(result.judgeError, null);
});

test('fixture table: an argument or command added to the table needs no edit here', (t) => {
  const table = memkit.commands();
  const custodian = table.groups.find((g) => g.name === 'custodian');
  const status = custodian.commands.find((c) => c.verb === 'status');
  status.arguments.push({ choices: ['red', 'blue'], default: 'red', doc: 'the colour of the report',
    name: '--colour', placeholder: 'COLOUR', positional: false, required: false, type: 'string' });
  custodian.commands.push({ arguments: [], effect: 'reads', name: 'custodian audit',
    summary: 'everything, audited', verb: 'audit' });
  custodian.commands.push({ arguments: [], effect: 'reads', name: 'custodian close',
    summary: 'a verb named like a member', verb: 'close' });
  // Which workspaces run a group is its `workspace` key: every layout, or one.
  table.groups.push({ name: 'inspect', workspace: 'any', summary: 'inspects', notes: '',
    commands: [{ arguments: [], effect: 'reads', name: 'inspect', summary: 'inspect the memory',
      verb: '' }] });
  table.groups.push({ name: 'journal', workspace: 'tiers', summary: 'journals', notes: '',
    commands: [{ arguments: [], effect: 'writes', name: 'journal write',
      summary: 'write the journal', verb: 'write' }] });

  const ws = Workspace.open(project(t), { table });
  t.after(() => ws.close());
  // Exposed with its documentation ...
  assert.match(ws.status.doc,
    /\n {2}colour \(--colour, string, default red, one of red\|blue\): the colour of the report/);
  assert.equal(ws.status.command, status);
  assert.equal(ws.audit.doc, 'custodian audit: everything, audited (reads)');
  // ... and forwarded unchanged: the real library does not know it, and says so.
  assertMemkitError(() => ws.status(NOW, { colour: 'red' }), -1, 'MK_E_ARG',
    /^colour: not an argument of custodian status/);
  assertMemkitError(() => ws.audit(NOW), -1, 'MK_E_ARG', /audit/);
  // A verb that would hide a member of the class stays reachable through run() only.
  assert.equal(ws.close, Workspace.prototype.close);
  assertMemkitError(() => ws.run(NOW, 'custodian', 'close'), -1, 'MK_E_ARG', /close/);
  // The table is the workspace's own: one opened with the library's has neither.
  const plain = Workspace.open(project(t));
  t.after(() => plain.close());
  assert.equal(plain.audit, undefined);
  assert.doesNotMatch(plain.status.doc, /colour/);
  // A group of every layout is a method of each, named after the group; one of tiers, of tiers.
  const tiers = Workspace.open(project(t, null), { layout: 'tiers', table });
  t.after(() => tiers.close());
  for (const each of [ws, tiers]) {
    assert.equal(each.inspect.doc, 'inspect: inspect the memory (reads)');
    assert.equal(each.inspect.name, 'inspect');
    assertMemkitError(() => each.inspect(NOW), -1, 'MK_E_ARG', /inspect/);
  }
  assert.equal(tiers.write.doc, 'journal write: write the journal (writes)');
  assert.equal(ws.write, undefined);
  assert.equal(plain.inspect, undefined);
  const result = ws.status(NOW); // what the library knows still runs
  t.after(() => result.close());
  assert.equal(result.exitCode, 1, result.json);
});

/* Clock */

test('clock: an RFC 3339 time with an offset parses to its instant and offset', () => {
  const clock = parseClock('2026-11-30T10:00:00+01:00');
  assert.ok(clock instanceof Clock);
  assert.equal(clock.unixMs, Date.UTC(2026, 10, 30, 9, 0, 0));
  assert.equal(clock.utcOffsetMinutes, 60);
  assert.equal(clock.flags, 0);
  assert.equal(clock.version, memkit.constants.MK_CLOCK_VERSION);
  assert.equal(clock.isSystem, false);

  const zulu = Clock.parse('2026-03-07T10:00:00Z');
  assert.equal(zulu.unixMs, Date.UTC(2026, 2, 7, 10, 0, 0));
  assert.equal(zulu.utcOffsetMinutes, 0);

  const west = parseClock('2026-03-07T10:00:00.250-05:30');
  assert.equal(west.unixMs, Date.UTC(2026, 2, 7, 15, 30, 0, 250));
  assert.equal(west.utcOffsetMinutes, -330);
});

test('clock: a time without an offset throws MK_E_ARG naming the offset', () => {
  const err = assertMemkitError(() => parseClock('2026-03-07T10:00:00'), -1, 'MK_E_ARG', /offset/);
  assert.equal(err.name, 'MemkitError');
  assertMemkitError(() => parseClock('not a time'), -1, 'MK_E_ARG', /.+/);
  assertMemkitError(() => parseClock('2026-03-07T10:00:00+01:00\0junk'), -1, 'MK_E_ARG', /NUL/);
  assert.throws(() => parseClock(1234), TypeError);
});

test('clock: the system clock is a flag, read when a command runs', (t) => {
  const clock = Clock.system();
  assert.equal(clock.flags, memkit.constants.MK_CLOCK_SYSTEM);
  assert.equal(clock.isSystem, true);
  const ws = Workspace.open(project(t));
  t.after(() => ws.close());
  const result = ws.status(clock);
  t.after(() => result.close());
  assert.equal(result.exitCode, 1);
  assert.equal(result.budgetRows.length, 8);
});

test('clock: a command takes a Clock or the same time as a string', (t) => {
  const ws = Workspace.open(project(t));
  t.after(() => ws.close());
  const fromString = ws.compact(NOW);
  const fromClock = ws.compact(parseClock(NOW));
  t.after(() => fromString.close());
  t.after(() => fromClock.close());
  assert.equal(fromString.planId, 'd39b937e8c1c36cf');
  assert.equal(fromClock.planId, fromString.planId);
  assert.throws(() => ws.status(new Date()), TypeError);
  assert.throws(() => ws.status({ unixMs: 0, utcOffsetMinutes: 0 }), TypeError);
  assertMemkitError(() => ws.status('2026-03-07 10:00'), -1, 'MK_E_ARG');
});

test('clock: the UTC offset decides local dates', (t) => {
  // One instant, two offsets: just past midnight in +01:00 is still the day before in UTC.
  const dated = (now) => {
    const root = project(t);
    const ws = Workspace.open(root);
    const result = ws.add(now, { message: 'a note written at midnight', type: 'inbox' });
    assert.equal(result.applied, true);
    result.close();
    ws.close();
    return fs.readFileSync(path.join(root, 'docs', 'memory', 'inbox.md'), 'utf8');
  };
  const local = parseClock('2026-03-08T00:30:00+01:00');
  const utc = parseClock('2026-03-07T23:30:00Z');
  assert.equal(local.unixMs, utc.unixMs);
  assert.match(dated(local), /^## 2026-03-08\n- a note written at midnight$/m);
  assert.match(dated(utc), /^## 2026-03-07\n- a note written at midnight$/m);
});

/* Workspace.open */

test('Workspace.open: a root that is a regular file is refused with MK_E_ARG', (t) => {
  const root = project(t);
  const file = path.join(root, 'docs', 'memory', 'brief.md');
  assertMemkitError(() => Workspace.open(file), -1, 'MK_E_ARG', /brief\.md/);
  assertMemkitError(() => Workspace.open(path.join(root, 'missing')), -1, 'MK_E_ARG', /missing/);
  assertMemkitError(() => Workspace.open(''), -1, 'MK_E_ARG', /project_root/);
});

test('Workspace.open: a memory directory outside docs/ is refused with MK_E_LAYOUT', (t) => {
  const root = project(t);
  for (const memoryDir of ['memory', 'docs', '../elsewhere', path.join(root, 'docs', 'memory')]) {
    assertMemkitError(() => Workspace.open(root, { memoryDir }), -30, 'MK_E_LAYOUT', /.+/);
  }
  const err = assertMemkitError(
    () => Workspace.open(root, { memoryDir: 'notes' }),
    -30,
    'MK_E_LAYOUT',
  );
  assert.match(err.message, /docs\//);
});

test('Workspace.open: a symbolic link to the memory directory is MK_E_UNSAFE_PATH', (t) => {
  const target = project(t);
  const root = project(t, null);
  fs.mkdirSync(path.join(root, 'docs'));
  fs.symlinkSync(path.join(target, 'docs', 'memory'), path.join(root, 'docs', 'memory'));
  assertMemkitError(() => Workspace.open(root), -31, 'MK_E_UNSAFE_PATH', /symbolic link/);
});

test('Workspace.open: options are checked', (t) => {
  const root = project(t);
  assertMemkitError(
    () => Workspace.open(root, { lockTimeout: -1 }),
    -1,
    'MK_E_ARG',
    /lock_timeout/,
  );
  assert.throws(
    () => Workspace.open(root, { memory_dir: 'docs/memory' }),
    /unknown option "memory_dir"/,
  );
  assert.throws(() => Workspace.open(root, { lockTimeout: '5' }), TypeError);
  assert.throws(() => Workspace.open(root, { table: 'commands.json' }), TypeError);
  for (const layout of ['MemoryBox', 'box', 1.5, true])
    assert.throws(() => Workspace.open(root, { layout }), TypeError, String(layout));
  // A layout number the binding does not know is the library's to refuse.
  for (const layout of [4, -1])
    assertMemkitError(() => Workspace.open(root, { layout }), -1, 'MK_E_ARG', /layout/);
  const byNumber = Workspace.open(root, { layout: memkit.Layout.TIERS });
  assert.equal(byNumber.group, 'tiers');
  byNumber.close();
  assert.throws(() => Workspace.open(42), TypeError);
  assert.throws(() => new Workspace(), TypeError);
});

test('Workspace.open: memoryDir chooses the folder that init creates', (t) => {
  const root = project(t, 'init_add_forget');
  const ws = Workspace.open(root, { memoryDir: 'docs/notes', lockTimeout: 1 });
  t.after(() => ws.close());
  const result = ws.init(NOW);
  t.after(() => result.close());
  assert.equal(result.exitCode, 0);
  assert.ok(fs.existsSync(path.join(root, 'docs', 'notes', 'inbox.md')));
  assert.ok(!fs.existsSync(path.join(root, 'docs', 'memory')));
});

/* Lifetimes */

test('close(): idempotent, and a closed object throws a clear error instead of crashing', (t) => {
  const ws = Workspace.open(project(t));
  const result = ws.compact(NOW);
  const doc = Document.parse('- a\n');
  assert.equal(ws.closed, false);

  result.close();
  result.close();
  assert.equal(result.closed, true);
  for (const use of [
    () => result.exitCode,
    () => result.json,
    () => result.planId,
    () => result.applied,
    () => result.inboxCounts,
    () => result.budgetRows,
    () => result.writeJson(() => {}),
  ]) {
    assertMemkitError(use, -1, 'MK_E_ARG', /Result: used after close\(\)/);
  }

  ws.close();
  ws.close();
  assert.equal(ws.closed, true);
  assertMemkitError(() => ws.status(NOW), -1, 'MK_E_ARG', /Workspace: used after close\(\)/);
  assertMemkitError(
    () => ws.compact(NOW, { apply: true, confirmPlan: 'd39b937e8c1c36cf' }),
    -1,
    'MK_E_ARG',
    /after close/,
  );
  assertMemkitError(() => ws.add(NOW, { message: 'x', type: 'inbox' }), -1, 'MK_E_ARG',
    /after close/);
  assertMemkitError(() => ws.run(NOW, 'custodian', 'check'), -1, 'MK_E_ARG', /after close/);

  doc[Symbol.dispose]();
  doc.close();
  assert.equal(doc.closed, true);
  assertMemkitError(() => doc.units, -1, 'MK_E_ARG', /Document: used after close\(\)/);
  assertMemkitError(() => doc.json, -1, 'MK_E_ARG', /Document: used after close\(\)/);
});

test('close(): a Result outlives its Workspace', (t) => {
  const ws = Workspace.open(project(t));
  const result = ws.compact(NOW);
  t.after(() => result.close());
  ws.close();
  assert.equal(result.planId, 'd39b937e8c1c36cf');
  assert.ok(result.json.startsWith('{"command":"custodian compact"'));
});

test('Symbol.dispose closes', (t) => {
  const ws = Workspace.open(project(t));
  assert.equal(typeof ws[Symbol.dispose], 'function');
  ws[Symbol.dispose]();
  assert.equal(ws.closed, true);
});

/* Results and commands */

test('a stale Plan ID is a result, not a throw', (t) => {
  const ws = Workspace.open(project(t));
  t.after(() => ws.close());
  const result = ws.compact(NOW, { apply: true, confirmPlan: '0000000000000000' });
  t.after(() => result.close());
  assert.equal(result.exitCode, 2);
  assert.equal(result.applied, false);
  assert.match(result.json, /MK-PLAN-001/);
});

test('inboxCounts is null for a result that is no inbox compaction', (t) => {
  const ws = Workspace.open(project(t));
  t.after(() => ws.close());
  const status = ws.status(NOW);
  const target = ws.compact(NOW, { target: 'decisions.md' });
  const inbox = ws.compact(NOW);
  t.after(() => [status, target, inbox].forEach((r) => r.close()));
  assert.equal(status.inboxCounts, null);
  assert.equal(target.inboxCounts, null);
  assert.deepEqual(inbox.inboxCounts, {
    inboxItems: 6,
    emptyItems: 0,
    duplicates: 2,
    tombstoneMatches: 1,
    candidates: 3,
  });
  assert.equal(inbox.planOperationCount, 2);
  assert.deepEqual(inbox.budgetRows, []);
  assert.equal(status.budgetRows[0].path, 'manifest.md');
  assert.equal(status.budgetRows[6].state, memkit.BudgetState.NOT_ENABLED);
});

test('add: an empty message reaches the command (a blocker), and so does a missing type', (t) => {
  const root = project(t);
  const ws = Workspace.open(root);
  t.after(() => ws.close());
  for (const empty of ['', Buffer.alloc(0), new Uint8Array(0)]) {
    const result = ws.add(NOW, { message: empty, type: 'inbox' });
    assert.equal(result.exitCode, 2);
    assert.equal(result.applied, false);
    result.close();
  }
  const untyped = ws.add(NOW, { message: 'hello' }); // the command checks what it requires
  t.after(() => untyped.close());
  assert.equal(untyped.exitCode, 2, untyped.json);
  assert.match(untyped.json, /--type/);

  // A message in a Uint8Array view that does not start at its buffer's first byte.
  const backing = Buffer.from('xxxxremember the build cache');
  const view = new Uint8Array(backing.buffer, backing.byteOffset + 4, backing.length - 4);
  const added = ws.add(NOW, { message: view, type: 'inbox' });
  t.after(() => added.close());
  assert.equal(added.exitCode, 0);
  assert.equal(added.applied, true);
  const inbox = fs.readFileSync(path.join(root, 'docs', 'memory', 'inbox.md'), 'utf8');
  assert.match(inbox, /^- remember the build cache$/m);
  assert.doesNotMatch(inbox, /xxxx/);
});

test('forget: modes are the command\'s to check', (t) => {
  const ws = Workspace.open(project(t));
  t.after(() => ws.close());
  const hard = ws.forget(NOW, { topic: 'Redis for sessions', mode: 'hard' });
  t.after(() => hard.close());
  assert.equal(JSON.parse(hard.json).data.mode, 'hard');
  const gentle = ws.forget(NOW, { topic: 'Redis', mode: 'gentle' });
  t.after(() => gentle.close());
  assert.equal(gentle.exitCode, 2, gentle.json);
  assert.match(gentle.json, /--mode/);
  assertMemkitError(() => ws.forget(NOW, { topic: 'Redis', mode: 7 }), -1, 'MK_E_ARG', /mode/);
});

test('recover: the flags reach the command', (t) => {
  const ws = Workspace.open(project(t));
  t.after(() => ws.close());
  const listed = ws.recover(NOW);
  const rollbackAlone = ws.recover(NOW, { rollback: true });
  t.after(() => [listed, rollbackAlone].forEach((r) => r.close()));
  assert.equal(listed.exitCode, 0);
  assert.equal(rollbackAlone.exitCode, 2);
  assert.match(rollbackAlone.json, /--rollback: only with --apply/);
});

test('lockTimeout: a lock held elsewhere makes the apply a blocker, not a throw', async (t) => {
  const root = project(t);
  const lockFile = path.join(root, '.memkit', 'lock');
  fs.mkdirSync(path.dirname(lockFile), { recursive: true }); // a fresh project has no state folder
  // flock(1) from util-linux holds the lock in a process of its own.
  let holder;
  try {
    // detached: its own process group, so the kill below also ends the sleep that holds the lock.
    holder = spawn('flock', ['--exclusive', lockFile, 'sh', '-c', 'echo locked; exec sleep 30'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true,
    });
    await new Promise((resolve, reject) => {
      holder.once('error', reject);
      holder.once('exit', (code) => reject(new Error(`flock(1) exited with ${code}`)));
      holder.stdout.once('data', resolve);
    });
  } catch (err) {
    if (err.code !== 'ENOENT') throw err; // only a missing flock(1) skips this test
    t.skip(`flock(1) is not available: ${err.message}`);
    return;
  }
  t.after(() => process.kill(-holder.pid, 'SIGKILL'));

  const ws = Workspace.open(root, { lockTimeout: 0.2 });
  t.after(() => ws.close());
  const started = Date.now();
  const result = ws.compact(NOW, { apply: true, confirmPlan: 'd39b937e8c1c36cf' });
  t.after(() => result.close());
  assert.ok(Date.now() - started < 5000, 'the short timeout was used');
  assert.equal(result.exitCode, 2);
  assert.equal(result.applied, false);
  assert.match(result.json, /MK-LOCK-001/);
});

/* Streaming */

test('writeJson: the streamed pieces are the json bytes', (t) => {
  const root = project(t);
  // A large inbox, so that the envelope outweighs one 64 KiB piece.
  const bullets = Array.from({ length: 3000 }, (_, i) => `- distinct inbox note number ${i}\n`);
  fs.appendFileSync(path.join(root, 'docs', 'memory', 'inbox.md'), bullets.join(''));
  const ws = Workspace.open(root);
  t.after(() => ws.close());
  const result = ws.compact(NOW);
  t.after(() => result.close());

  const pieces = [];
  assert.equal(
    result.writeJson((piece) => pieces.push(piece)),
    undefined,
  );
  const whole = result.jsonBytes;
  assert.ok(whole.length > 64 * 1024, `the envelope is ${whole.length} bytes`);
  assert.ok(pieces.length > 1, `${pieces.length} pieces`);
  assert.ok(pieces.every((piece) => Buffer.isBuffer(piece)));
  assert.ok(Buffer.concat(pieces).equals(whole));
  assert.equal(Buffer.concat(pieces).toString('utf8'), result.json);
});

test('writeJson: a callback that throws stops the writer with MK_E_CALLBACK', (t) => {
  const ws = Workspace.open(project(t));
  t.after(() => ws.close());
  const result = ws.compact(NOW);
  t.after(() => result.close());

  const boom = new Error('disk full');
  let calls = 0;
  const err = assertMemkitError(
    () =>
      result.writeJson(() => {
        calls += 1;
        throw boom;
      }),
    -50,
    'MK_E_CALLBACK',
  );
  assert.equal(err.cause, boom, 'the thrown error is the cause');
  assert.equal(calls, 1, 'no piece after the failing one');

  // The callback may not use the result it is writing (memkit.h forbids the re-entry).
  const reentry = assertMemkitError(
    () => result.writeJson(() => result.json),
    -50,
    'MK_E_CALLBACK',
  );
  assert.match(reentry.cause.message, /inside its own writeJson\(\) callback/);
  const closing = assertMemkitError(
    () => result.writeJson(() => result.close()),
    -50,
    'MK_E_CALLBACK',
  );
  assert.match(closing.cause.message, /close\(\) inside/);

  // The result is still whole afterwards.
  assert.equal(result.closed, false);
  assert.equal(result.planId, 'd39b937e8c1c36cf');
  assert.throws(() => result.writeJson('not a function'), TypeError);
});

test('writeJson: each call gives its callback slot back', (t) => {
  // koffi has 8192 registered-callback slots; a leak would run out before this loop ends.
  const ws = Workspace.open(project(t));
  t.after(() => ws.close());
  const result = ws.check(NOW);
  t.after(() => result.close());
  let bytes = 0;
  for (let i = 0; i < 8300; i++) result.writeJson((piece) => (bytes += piece.length));
  assert.equal(bytes, 8300 * result.jsonBytes.length);
});

/* Document */

test('Document: units carry their kind, heading level, lines and byte offsets', () => {
  // Each line with its terminator; the comment gives the unit it belongs to.
  const lines = [
    '---\n', // 1 front matter (lines 1-3)
    'title: x\n', // 2
    '---\n', // 3
    '## Decisions\r\n', // 4 heading, level 2, CRLF
    '\n', // 5 blank
    '- first\n', // 6 one bullet (lines 6-7) with its continuation
    '  continued\n', // 7
    '- é\n', // 8 bullet, a two-byte character
    '```js\n', // 9 fence (lines 9-11)
    'x\n', // 10
    '```\n', // 11
    '<!--\n', // 12 comment (lines 12-14)
    'c\n', // 13
    '-->\n', // 14
    'plain text\n', // 15 text
    '### Deep', // 16 heading, level 3, no final newline
  ];
  const starts = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += Buffer.byteLength(line);
  }
  const total = offset;
  const at = (line) => starts[line - 1]; // byte offset of a 1-based line
  const K = memkit.UnitKind;
  const expected = [
    { kind: K.FRONT_MATTER, headingLevel: 0, firstLine: 1, lastLine: 3, begin: at(1), end: at(4) },
    { kind: K.HEADING, headingLevel: 2, firstLine: 4, lastLine: 4, begin: at(4), end: at(5) },
    { kind: K.BLANK, headingLevel: 0, firstLine: 5, lastLine: 5, begin: at(5), end: at(6) },
    { kind: K.BULLET, headingLevel: 0, firstLine: 6, lastLine: 7, begin: at(6), end: at(8) },
    { kind: K.BULLET, headingLevel: 0, firstLine: 8, lastLine: 8, begin: at(8), end: at(9) },
    { kind: K.FENCE, headingLevel: 0, firstLine: 9, lastLine: 11, begin: at(9), end: at(12) },
    { kind: K.COMMENT, headingLevel: 0, firstLine: 12, lastLine: 14, begin: at(12), end: at(15) },
    { kind: K.TEXT, headingLevel: 0, firstLine: 15, lastLine: 15, begin: at(15), end: at(16) },
    { kind: K.HEADING, headingLevel: 3, firstLine: 16, lastLine: 16, begin: at(16), end: total },
  ];
  assert.equal(at(9) - at(8), 5, 'é is two bytes: offsets are bytes, not characters');

  const text = lines.join('');
  const fromString = Document.parse(text);
  const fromBuffer = Document.parse(Buffer.from(text, 'utf8'));
  try {
    assert.equal(fromString.unitCount, expected.length);
    assert.deepEqual(fromString.units, expected);
    assert.deepEqual(fromBuffer.units, expected);
    assert.ok(fromString.jsonBytes.equals(fromBuffer.jsonBytes));
    const data = JSON.parse(fromString.json);
    assert.deepEqual(
      data.units.map((u) => u.kind),
      [
        'front_matter',
        'heading',
        'blank',
        'bullet_unit',
        'bullet_unit',
        'fence',
        'comment',
        'text',
        'heading',
      ],
    );
    assert.equal(data.sections[1].heading, 'Decisions');
  } finally {
    fromString.close();
    fromBuffer.close();
  }
});

test('Document: an unclosed fence leaves no units; empty input has none either', () => {
  const open = Document.parse('# T\n```\nnever closed\n');
  try {
    assert.equal(open.unitCount, 0);
    assert.deepEqual(open.units, []);
    assert.equal(open.json, '{"sections":null,"units":null}');
  } finally {
    open.close();
  }
  const empty = Document.parse('');
  try {
    assert.equal(empty.unitCount, 0);
    assert.equal(empty.json, '{"sections":[],"units":[]}');
  } finally {
    empty.close();
  }
  assert.throws(() => Document.parse(42), TypeError);
  assert.throws(() => new Document(), TypeError);
});

test('Document: a Uint8Array view is read from its own first byte', () => {
  const backing = Buffer.from('JUNK- only this\n');
  const view = new Uint8Array(backing.buffer, backing.byteOffset + 4, backing.length - 4);
  const doc = Document.parse(view);
  try {
    assert.deepEqual(doc.units, [
      {
        kind: memkit.UnitKind.BULLET,
        headingLevel: 0,
        firstLine: 1,
        lastLine: 1,
        begin: 0,
        end: 12,
      },
    ]);
    assert.match(doc.json, /"key":"only this"/);
  } finally {
    doc.close();
  }
});

test(
  'add: a message that is not UTF-8 is refused (memkit.h: text arguments are UTF-8)',
  (t) => {
    const root = project(t);
    const ws = Workspace.open(root);
    t.after(() => ws.close());
    let refused = false;
    try {
      const result = ws.add(NOW, { message: Buffer.from([0xff, 0xfe]), type: 'inbox' });
      refused = result.exitCode !== 0 && !result.applied;
      result.close();
    } catch (err) {
      refused = err instanceof MemkitError && err.code === memkit.Status.E_UTF8;
    }
    assert.ok(refused, 'the invalid bytes were accepted');
  },
);
