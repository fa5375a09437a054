'use strict';
// ws.gate(now, {text, confidence, judge, ...}) (`memkit memorybox gate`, mk_request_set_judge): the
// five write gates of a MemoryBox root, whose judgements come from a host function registered as
// the mk_judge_fn for one run. The judge answers, abstains, throws or misbehaves; the exception
// never crosses into C, every failure comes back as the fatal finding MK-BOX-005 in a Result, and
// the Result keeps what the judge threw as judgeError.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const memkit = require('..');

const { MemkitError, Workspace, Gate } = memkit;

const NOW = '2026-11-30T10:00:00+01:00';
const TEXT = 'Bob reviews every schema change';
const LONG_TERM = '# LONG_TERM\n\n## Team\n- Alice owns deploys\n';
const GATES = ['VALUE', 'ALIGNMENT', 'REDUNDANCY', 'FRESHNESS', 'PLACEMENT'];
// An answer for every gate: the candidate belongs in LONG_TERM.md under its existing ## Team.
const ANSWERS = {
  VALUE: 'yes',
  ALIGNMENT: 'existing Team',
  REDUNDANCY: 'none',
  FRESHNESS: 'stable',
  PLACEMENT: '2 memory/LONG_TERM.md',
};

// A fresh MemoryBox root (init, then LONG_TERM.md with one category), and its open workspace.
function box(t) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'memkit-node-gate-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const ws = Workspace.open(root, { layout: 'memorybox' });
  t.after(() => ws.close());
  const init = ws.init(NOW);
  assert.equal(init.exitCode, 0, init.json);
  init.close();
  const longTerm = path.join(root, 'memory', 'LONG_TERM.md');
  fs.writeFileSync(longTerm, LONG_TERM);
  return { root, ws, longTerm };
}

// A judge that answers from `answers` (a missing gate abstains) and records what it was asked.
function recordingJudge(answers) {
  const asked = [];
  const judge = (gate, question) => {
    asked.push({ gate, question });
    return answers[gate];
  };
  return { judge, asked };
}

function run(t, ws, text, confidence, opts) {
  const result = ws.gate(NOW, { text, confidence, ...opts });
  t.after(() => result.close());
  return { result, envelope: JSON.parse(result.json) };
}

test('Gate: the mk_gate values and the gate constants', () => {
  assert.deepEqual(
    [Gate.VALUE, Gate.ALIGNMENT, Gate.REDUNDANCY, Gate.FRESHNESS, Gate.PLACEMENT],
    [0, 1, 2, 3, 4],
  );
  assert.ok(Object.isFrozen(Gate));
  const C = memkit.constants;
  assert.equal(C.MK_GATE_PLACEMENT, 4);
  assert.equal(C.MK_JUDGE_ANSWER, 0);
  assert.equal(C.MK_JUDGE_ABSTAIN, 1);
});

test('gate: without a judge the run stops at VALUE with NEEDS_JUDGEMENT', (t) => {
  const { ws, longTerm } = box(t);
  for (const opts of [undefined, {}, { judge: null }, { judge: undefined, apply: true }]) {
    const { result, envelope } = run(t, ws, TEXT, '0.85', opts);
    assert.equal(result.exitCode, 0, result.json);
    assert.equal(envelope.command, 'memorybox gate');
    assert.equal(envelope.data.outcome, 'NEEDS_JUDGEMENT');
    assert.equal(envelope.data.stopped_at, 'VALUE');
    assert.deepEqual(
      envelope.data.gates.map((g) => [g.gate, g.result]),
      [
        ['VALUE', 'needs_judgement'],
        ['ALIGNMENT', 'skipped'],
        ['REDUNDANCY', 'skipped'],
        ['FRESHNESS', 'skipped'],
        ['PLACEMENT', 'skipped'],
      ],
    );
    assert.deepEqual(envelope.data.written, []);
    assert.equal(result.applied, false);
    assert.equal(result.planId, null, 'a gate makes no plan');
  }
  assert.equal(fs.readFileSync(longTerm, 'utf8'), LONG_TERM, 'nothing written');
});

test('gate: a judge answers all five; a dry run writes nothing, apply writes the entry', (t) => {
  const { ws, longTerm } = box(t);

  const dry = recordingJudge(ANSWERS);
  const { result, envelope } = run(t, ws, TEXT, '0.85', { judge: dry.judge, source: 'standup' });
  assert.equal(result.exitCode, 0, result.json);
  assert.deepEqual(
    dry.asked.map((a) => a.gate),
    GATES,
    'each gate asked once, in order',
  );
  const { data } = envelope;
  assert.equal(data.outcome, 'WRITE');
  assert.equal(data.stopped_at, null);
  assert.deepEqual(
    data.gates.map((g) => g.result),
    ['pass', 'pass', 'pass', 'pass', 'pass'],
  );
  assert.equal(data.category, 'Team');
  assert.equal(data.file, 'memory/LONG_TERM.md');
  assert.equal(data.tier, 2);
  assert.match(data.entry_id, /^memory\/LONG_TERM\.md#[0-9a-f]{12}$/);
  assert.ok(
    data.entry_text.startsWith(
      `- ${TEXT}\n  Confidence: 0.85\n  Verified: 2026-11-30\n  Stable: yes\n  Source: standup\n`,
    ),
    data.entry_text,
  );
  assert.equal(data.applied, false);
  assert.deepEqual(data.written, []);
  assert.equal(result.applied, false);
  assert.equal(fs.readFileSync(longTerm, 'utf8'), LONG_TERM, 'a dry run writes nothing');

  // apply: true writes the same entry at the end of its ## Team section.
  const wet = recordingJudge(ANSWERS);
  const applied = run(t, ws, TEXT, '0.85', { judge: wet.judge, source: 'standup', apply: true });
  assert.equal(applied.result.exitCode, 0, applied.result.json);
  assert.equal(applied.result.applied, true);
  assert.equal(applied.result.planId, null, 'an additive write needs no plan');
  assert.equal(applied.envelope.data.outcome, 'WRITE');
  assert.deepEqual(applied.envelope.data.written, ['memory/LONG_TERM.md']);
  assert.equal(applied.envelope.data.entry_id, data.entry_id);
  const written = fs.readFileSync(longTerm, 'utf8');
  assert.ok(
    written.startsWith(
      '# LONG_TERM\n\n## Team\n- Alice owns deploys\n' +
        `- ${TEXT}\n  Confidence: 0.85\n  Verified: 2026-11-30\n  Stable: yes\n` +
        '  Source: standup\n',
    ),
    written,
  );
  assert.ok(written.endsWith(`${applied.envelope.data.entry_text}\n`), written);

  // The same text again matches exactly: UPDATE_EXISTING, REDUNDANCY is not asked, nothing written.
  const again = recordingJudge(ANSWERS);
  const repeat = run(t, ws, TEXT, '0.85', { judge: again.judge, apply: true });
  assert.equal(repeat.result.exitCode, 0, repeat.result.json);
  assert.equal(repeat.envelope.data.outcome, 'UPDATE_EXISTING');
  assert.ok(!again.asked.some((a) => a.gate === 'REDUNDANCY'), 'REDUNDANCY not asked');
  assert.equal(repeat.result.applied, false);
  assert.equal(fs.readFileSync(longTerm, 'utf8'), written);
});

test('gate: the judge sees each question as parsed JSON (the categories at ALIGNMENT)', (t) => {
  const { ws } = box(t);
  const { judge, asked } = recordingJudge(ANSWERS);
  run(t, ws, TEXT, '0.85', { judge, title: 'Reviews', source: 'standup', client: 'acme' });
  assert.equal(asked.length, 5);
  for (const { gate, question } of asked) {
    assert.equal(question.gate, gate, 'the name passed is the question\'s gate');
    assert.deepEqual(question.candidate, {
      client: 'acme',
      confidence: 85,
      source: 'standup',
      text: TEXT,
      title: 'Reviews',
    });
    for (const key of ['categories', 'category', 'category_entries', 'near_duplicates'])
      assert.ok(key in question, `${gate}: the question has ${key}`);
  }
  const alignment = asked[1].question;
  assert.equal(alignment.gate, 'ALIGNMENT');
  // Sorted; init made the section files, LONG_TERM.md holds ## Team.
  assert.ok(alignment.categories.includes('Team'), JSON.stringify(alignment.categories));
  assert.deepEqual(alignment.categories, [...alignment.categories].sort());
  assert.equal(alignment.category, null, 'no category chosen yet');
  // After ALIGNMENT the chosen category and its entries are in the question.
  const redundancy = asked[2].question;
  assert.equal(redundancy.category, 'Team');
  assert.equal(redundancy.category_entries.length, 1);
  assert.match(redundancy.category_entries[0], /^memory\/LONG_TERM\.md#[0-9a-f]{12}$/);
});

test('gate: a judge that abstains at FRESHNESS stops the run there', (t) => {
  const { ws, longTerm } = box(t);
  for (const abstain of [undefined, null]) {
    const { judge, asked } = recordingJudge({ ...ANSWERS, FRESHNESS: abstain });
    const { result, envelope } = run(t, ws, TEXT, '0.85', { judge, apply: true });
    assert.equal(result.exitCode, 0, result.json);
    assert.equal(envelope.data.outcome, 'NEEDS_JUDGEMENT');
    assert.equal(envelope.data.stopped_at, 'FRESHNESS');
    assert.deepEqual(
      asked.map((a) => a.gate),
      ['VALUE', 'ALIGNMENT', 'REDUNDANCY', 'FRESHNESS'],
      'PLACEMENT is not asked',
    );
    assert.deepEqual(
      envelope.data.gates.map((g) => g.result),
      ['pass', 'pass', 'pass', 'needs_judgement', 'skipped'],
    );
    assert.equal(result.applied, false);
  }
  assert.equal(fs.readFileSync(longTerm, 'utf8'), LONG_TERM, 'nothing written');
});

test('gate: "no" at VALUE discards the candidate', (t) => {
  const { ws } = box(t);
  const { judge, asked } = recordingJudge({ VALUE: 'no' });
  const { result, envelope } = run(t, ws, 'Bob likes tea', '0.85', { judge });
  assert.equal(result.exitCode, 0, result.json);
  assert.equal(envelope.data.outcome, 'DISCARD');
  assert.equal(envelope.data.stopped_at, 'VALUE');
  assert.equal(asked.length, 1);
});

test('gate: a judge that throws gives MK-BOX-005 (exit code 2) and writes nothing', (t) => {
  const { ws, longTerm } = box(t);
  let calls = 0;
  const judge = (gate) => {
    calls += 1;
    if (gate === 'ALIGNMENT') throw new Error('the host failed');
    return ANSWERS[gate];
  };
  const { result, envelope } = run(t, ws, TEXT, '0.85', { judge, apply: true });
  assert.equal(result.exitCode, 2, result.json);
  assert.equal(envelope.exit_class, 'fatal');
  const finding = envelope.findings.find((f) => f.code === 'MK-BOX-005');
  assert.ok(finding, result.json);
  assert.equal(finding.fatal, true);
  // The callback returned MK_E_CALLBACK: neither MK_JUDGE_ANSWER nor MK_JUDGE_ABSTAIN.
  assert.match(finding.message, /^ALIGNMENT: .*-50/);
  assert.equal(calls, 2, 'the run stopped at the failing gate');
  assert.equal(result.applied, false);
  assert.equal(result.judgeError.message, 'the host failed', 'the Result keeps what it threw');
  assert.equal(fs.readFileSync(longTerm, 'utf8'), LONG_TERM, 'nothing written');

  // A non-Error throw is caught the same way, and the workspace works afterwards.
  const odd = run(t, ws, TEXT, '0.85', {
    judge: () => {
      throw 'a string'; // eslint-disable-line no-throw-literal
    },
  });
  assert.equal(odd.result.exitCode, 2);
  assert.equal(odd.envelope.findings[0].code, 'MK-BOX-005');
  assert.equal(odd.result.judgeError, 'a string');
  const status = ws.status(NOW);
  t.after(() => status.close());
  assert.equal(status.exitCode, 0, status.json);
});

test('gate: a judge returning no string, or an answer that does not parse, is MK-BOX-005', (t) => {
  const { ws, longTerm } = box(t);
  const returns = [
    ['a number', 1],
    ['an object', { answer: 'yes' }],
    ['a Promise', Promise.resolve('yes')],
    ['true', true],
    ['an unparseable answer', 'perhaps'],
    ['an empty answer', ''],
  ];
  for (const [what, value] of returns) {
    const { result, envelope } = run(t, ws, TEXT, '0.85', { judge: () => value, apply: true });
    assert.equal(result.exitCode, 2, `${what}: ${result.json}`);
    assert.deepEqual(
      envelope.findings.map((f) => [f.code, f.fatal]),
      [['MK-BOX-005', true]],
      what,
    );
    assert.equal(result.applied, false, what);
    if (what.includes('answer')) assert.equal(result.judgeError, null, `${what}: the library's`);
    else assert.ok(result.judgeError instanceof TypeError, `${what}: ${result.judgeError}`);
  }
  // A Buffer answer is sent as its bytes.
  const buffered = run(t, ws, TEXT, '0.85', {
    judge: (gate) => (gate === 'VALUE' ? Buffer.from('no') : null),
  });
  assert.equal(buffered.result.exitCode, 0, buffered.result.json);
  assert.equal(buffered.envelope.data.outcome, 'DISCARD');
  assert.equal(buffered.result.judgeError, null);
  assert.equal(fs.readFileSync(longTerm, 'utf8'), LONG_TERM, 'nothing written');
});

test('gate: the judge may not use its own workspace (memkit.h forbids the re-entry)', (t) => {
  const { ws, longTerm } = box(t);
  let caught = null;
  const judge = () => {
    try {
      ws.status(NOW).close();
    } catch (err) {
      caught = err;
      throw err;
    }
    return 'yes';
  };
  const { result, envelope } = run(t, ws, TEXT, '0.85', { judge, apply: true });
  assert.ok(caught instanceof MemkitError && caught.code === -1, `got ${caught}`);
  assert.match(caught.message, /inside its own judge/);
  assert.equal(result.exitCode, 2, result.json);
  assert.equal(envelope.findings[0].code, 'MK-BOX-005');
  assert.equal(fs.readFileSync(longTerm, 'utf8'), LONG_TERM, 'nothing written');
  // close() inside the judge is refused too, and the workspace is usable after the call.
  const closing = run(t, ws, TEXT, '0.85', {
    judge: () => {
      ws.close();
      return 'yes';
    },
  });
  assert.equal(closing.result.exitCode, 2);
  assert.equal(ws.closed, false);
  const after = run(t, ws, TEXT, '0.85', { judge: () => 'no' });
  assert.equal(after.envelope.data.outcome, 'DISCARD');
});

test('gate: UTF-8 text (a Buffer too), a new category and time-sensitive freshness', (t) => {
  const { ws, longTerm } = box(t);
  const text = 'Zoë reviews every migration';
  const answers = {
    ...ANSWERS,
    ALIGNMENT: 'new Reviews',
    FRESHNESS: 'time_sensitive 2027-01-31',
  };
  const { result, envelope } = run(t, ws, Buffer.from(text, 'utf8'), '0.9', {
    judge: (gate) => answers[gate],
    client: 'acme',
    apply: true,
  });
  assert.equal(result.exitCode, 0, result.json);
  assert.equal(envelope.data.category, 'Reviews');
  assert.equal(result.applied, true);
  const written = fs.readFileSync(longTerm, 'utf8');
  assert.match(written, /\n## Reviews\n/);
  assert.ok(
    written.includes(`- ${text}\n  Confidence: 0.90\n  Verified: 2026-11-30\n`),
    written,
  );
  assert.match(written, /^ {2}Decay-Trigger: 2027-01-31$/m);
  assert.match(written, /^ {2}Client: acme$/m);
});

test('gate: a malformed confidence or empty text is a fatal finding, not a thrown error', (t) => {
  const { ws, longTerm } = box(t);
  for (const confidence of ['85', '0.855', '']) {
    const { result, envelope } = run(t, ws, TEXT, confidence, { judge: () => 'yes' });
    assert.equal(result.exitCode, 2, result.json);
    assert.equal(envelope.findings[0].code, 'MK-BOX-001', confidence);
  }
  const empty = run(t, ws, '', '0.85');
  assert.equal(empty.result.exitCode, 2, empty.result.json);
  assert.equal(empty.envelope.findings[0].code, 'MK-ARG-001');
  assert.equal(fs.readFileSync(longTerm, 'utf8'), LONG_TERM, 'nothing written');
});

test('gate: arguments are the table\'s, set by their JS type', (t) => {
  const { ws, longTerm } = box(t);
  const isArg = (pattern) => (err) =>
    err instanceof MemkitError && err.code === -1 && err.status === 'MK_E_ARG' &&
    pattern.test(err.message);
  // A confidence as a number is its decimal text.
  const numeric = run(t, ws, TEXT, 0.85, { judge: () => 'no' });
  assert.equal(numeric.envelope.data.outcome, 'DISCARD');
  // What the command requires comes back as a finding.
  const bare = run(t, ws, undefined, undefined, {});
  assert.equal(bare.result.exitCode, 2, bare.result.json);
  assert.match(bare.result.json, /--text/);
  // What the request refuses throws, naming the argument.
  assert.throws(() => ws.gate(NOW, { text: TEXT, confidence: '0.85', title: 7 }),
    isArg(/--title: takes a string, not an integer/));
  assert.throws(() => ws.gate(NOW, { text: TEXT, confidence: '0.85', dryRun: true }),
    isArg(/dry_run: not an argument of memorybox gate/));
  assert.throws(() => ws.gate(NOW, { text: TEXT, confidence: '0.8\u00005' }), isArg(/NUL/));
  assert.throws(() => ws.gate(NOW, { text: TEXT, source: 'a\0b' }), isArg(/NUL/));
  assert.throws(() => ws.gate(NOW, { text: TEXT, judge: 'yes' }), TypeError);
  assert.throws(() => ws.gate(NOW, 'apply'), TypeError);
  assert.throws(() => ws.gate('yesterday', { text: TEXT }), MemkitError);
  assert.equal(fs.readFileSync(longTerm, 'utf8'), LONG_TERM, 'nothing written');
});

test('gate: a judge is registered for the call only', (t) => {
  const { ws } = box(t);
  // koffi has 8192 registration slots: a leaked one per call would run out here.
  for (let i = 0; i < 9000; i++) {
    const result = ws.gate(NOW, { text: TEXT, confidence: '0.85', judge: () => 'no' });
    result.close();
  }
  const last = run(t, ws, TEXT, '0.85', { judge: () => 'no' });
  assert.equal(last.envelope.data.outcome, 'DISCARD');
});

test('gate: a custodian workspace has no gate, and refuses the request', (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'memkit-node-gate-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const ws = Workspace.open(root, { layout: 'custodian' });
  t.after(() => ws.close());
  assert.equal(ws.gate, undefined);
  let asked = 0;
  const judge = () => {
    asked += 1;
    return 'yes';
  };
  assert.throws(
    () => ws.run(NOW, 'memorybox', 'gate', { text: TEXT, confidence: '0.85', judge }),
    (err) => err instanceof MemkitError && err.code === -1,
  );
  assert.equal(asked, 0, 'the judge is never asked');
  assert.deepEqual(fs.readdirSync(root), [], 'nothing written');
});
