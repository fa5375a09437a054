'use strict';
// The Maven profile of MemoryBox (spec memorybox.md §10): init's profile
// (`memorybox init --profile default|maven`), the canon (ws.canonAdd, ws.canonVerify;
// `memorybox canon add|verify`) and the client lifecycle (ws.clientSet; `memorybox client set`).
// The envelopes quoted whole below are what
// `memkit memorybox ... --now 2026-11-30T10:00:00+01:00 --format json` prints for the same steps.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const memkit = require('..');

const { MemkitError, Workspace } = memkit;

const NOW = '2026-11-30T10:00:00+01:00';
const STALE = '0000000000000000';

function agentRoot(t) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'memkit-node-maven-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  return root;
}

function openBox(t, root) {
  const ws = Workspace.open(root, { layout: 'memorybox' });
  t.after(() => ws.close());
  return ws;
}

function keep(t, result) {
  t.after(() => result.close());
  return { result, envelope: JSON.parse(result.json) };
}

// A MemoryBox root initialised with `profile` ('maven' unless told), its workspace and a reader.
function box(t, profile = 'maven') {
  const root = agentRoot(t);
  const ws = openBox(t, root);
  const { result: init } = keep(t, ws.init(NOW, { profile }));
  assert.equal(init.exitCode, 0, init.json);
  const read = (rel) => {
    const full = path.join(root, rel);
    return fs.existsSync(full) ? fs.readFileSync(full, 'utf8') : null;
  };
  const write = (rel, text) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  return { root, ws, read, write };
}

// Every file under root with its bytes, to show a step wrote nothing. .memkit/ (the lock, the
// ledger) is left out: tests that need the ledger read it themselves.
function snapshot(root) {
  const out = {};
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.name === '.memkit') continue;
      if (entry.isDirectory()) walk(full);
      else out[path.relative(root, full).split(path.sep).join('/')] = fs.readFileSync(full, 'utf8');
    }
  };
  walk(root);
  return out;
}

const codes = (envelope) => envelope.findings.map((f) => f.code);
const isArg = (err) => err instanceof MemkitError && err.code === -1 && err.status === 'MK_E_ARG';

/* init --profile */

test('init {profile: maven}: the Maven brain files and .memkit/profile', (t) => {
  const root = agentRoot(t);
  const ws = openBox(t, root);
  const { result } = keep(t, ws.init(NOW, { profile: 'maven' }));
  assert.equal(result.exitCode, 0, result.json);
  assert.equal(
    result.json,
    '{"command":"memorybox init","data":{"created":["brain/ATTRIBUTION_MODEL.md",' +
      '"brain/BENCHMARK.md","brain/MARKETING_CANON.md","brain/OKRs.md","brain/RISK_REGISTER.md",' +
      '"brain/SOUL.md","brain/STATE.md","brain/USER.md","memory/ACTIVE_TASKS.md",' +
      '"memory/ARCHIVES/","memory/DECISIONS.md","memory/LONG_TERM.md","memory/MISTAKES.md",' +
      '"memory/PATTERNS.md","memory/SELF_REFLECTIONS.md","memory/SESSION_LOG.md",' +
      '"memory/SOP_LIBRARY.md","memory/daily/"]},"exit_class":"success","findings":[],' +
      '"output_schema_version":1,"status":"PASS"}',
  );
  assert.equal(
    fs.readFileSync(path.join(root, 'brain', 'MARKETING_CANON.md'), 'utf8'),
    '# MARKETING_CANON\n',
  );
  assert.equal(fs.readFileSync(path.join(root, '.memkit', 'profile'), 'utf8'), 'maven\n');

  // Without a profile, init keeps the recorded one and creates nothing more.
  const { result: again, envelope } = keep(t, ws.init(NOW, { profile: null }));
  assert.equal(again.exitCode, 0, again.json);
  assert.deepEqual(envelope.data.created, []);
  assert.equal(fs.readFileSync(path.join(root, '.memkit', 'profile'), 'utf8'), 'maven\n');
});

test('init {profile: default}: no Maven files; a later maven init adds them', (t) => {
  const root = agentRoot(t);
  const ws = openBox(t, root);
  const { result, envelope } = keep(t, ws.init(NOW, { profile: 'default' }));
  assert.equal(result.exitCode, 0, result.json);
  assert.ok(!envelope.data.created.includes('brain/MARKETING_CANON.md'));
  assert.ok(!fs.existsSync(path.join(root, 'brain', 'MARKETING_CANON.md')));
  assert.equal(fs.readFileSync(path.join(root, '.memkit', 'profile'), 'utf8'), 'default\n');

  const { envelope: maven } = keep(t, ws.init(NOW, { profile: 'maven' }));
  assert.deepEqual(maven.data.created, [
    'brain/ATTRIBUTION_MODEL.md',
    'brain/BENCHMARK.md',
    'brain/MARKETING_CANON.md',
    'brain/OKRs.md',
    'brain/RISK_REGISTER.md',
  ]);
  assert.equal(fs.readFileSync(path.join(root, '.memkit', 'profile'), 'utf8'), 'maven\n');
});

test('init profile: refused values are findings; a custodian root has no profile', (t) => {
  const root = agentRoot(t);
  const ws = openBox(t, root);
  for (const profile of ['Maven', 'both']) {
    const { result } = keep(t, ws.init(NOW, { profile }));
    assert.equal(result.exitCode, 2, result.json);
    assert.match(result.json, /--profile/);
  }
  assert.throws(() => ws.init(NOW, { profile: 4 }), isArg);
  assert.throws(() => ws.init(NOW, { profiles: 'maven' }), isArg);
  assert.deepEqual(fs.readdirSync(root), [], 'nothing was created');

  // A custodian workspace has no profiles: its init takes none.
  const custodian = Workspace.open(root);
  t.after(() => custodian.close());
  assert.throws(() => custodian.init(NOW, { profile: 'maven' }), isArg);
  assert.deepEqual(fs.readdirSync(root), []);
});

/* canon */

const RULE = 'We never discount below 20%';

const CANON_ADDED =
  '{"command":"memorybox canon add","data":{"ledger":[{"length":49,' +
  '"path":"brain/MARKETING_CANON.md","recorded_at":"2026-11-30T09:00:00.000Z",' +
  '"sha256":"331f5a9e103a3f9925ef963ac512324eb234d180a1333f1d113e08c61533b7ef"}],' +
  '"unrecorded":[],"violations":[],"written":["brain/MARKETING_CANON.md",' +
  '".memkit/canon-ledger.jsonl"]},"exit_class":"success","findings":[],' +
  '"output_schema_version":1,"status":"PASS"}';

test('canonAdd: appends to brain/MARKETING_CANON.md and records it; canonVerify is clean', (t) => {
  const { root, ws, read } = box(t);
  const CANON = 'brain/MARKETING_CANON.md';
  const { result: added } = keep(t, ws.canonAdd(NOW, { file: CANON, text: RULE }));
  assert.equal(added.exitCode, 0, added.json);
  assert.equal(added.json, CANON_ADDED);
  assert.equal(added.planId, null);
  assert.equal(read('brain/MARKETING_CANON.md'), `# MARKETING_CANON\n\n- ${RULE}\n`);
  const ledger = fs.readFileSync(path.join(root, '.memkit', 'canon-ledger.jsonl'), 'utf8');
  assert.equal(
    ledger,
    '{"length":49,"path":"brain/MARKETING_CANON.md","recorded_at":"2026-11-30T09:00:00.000Z",' +
      '"sha256":"331f5a9e103a3f9925ef963ac512324eb234d180a1333f1d113e08c61533b7ef"}\n',
  );

  const before = snapshot(root);
  const { result: verify, envelope } = keep(t, ws.canonVerify(NOW));
  assert.equal(verify.exitCode, 0, verify.json);
  assert.equal(envelope.command, 'memorybox canon verify');
  assert.deepEqual(envelope.findings, []);
  assert.deepEqual(envelope.data.violations, []);
  assert.deepEqual(envelope.data.unrecorded, []);
  assert.deepEqual(envelope.data.written, []);
  assert.deepEqual(envelope.data.ledger, JSON.parse(CANON_ADDED).data.ledger);
  assert.deepEqual(snapshot(root), before, 'verify writes nothing');
  assert.equal(fs.readFileSync(path.join(root, '.memkit', 'canon-ledger.jsonl'), 'utf8'), ledger);

  // A second entry appends after the first, and the ledger gets a longer record.
  const { result: second, envelope: secondEnv } = keep(
    t,
    ws.canonAdd(NOW, { file: CANON, text: Buffer.from('Café tone: plain', 'utf8') }),
  );
  assert.equal(second.exitCode, 0, second.json);
  assert.equal(
    read('brain/MARKETING_CANON.md'),
    '# MARKETING_CANON\n\n- We never discount below 20%\n- Café tone: plain\n',
  );
  const length = Buffer.byteLength(read('brain/MARKETING_CANON.md'), 'utf8');
  assert.ok(secondEnv.data.ledger.some((r) => r.length === length), secondEnv.data.ledger);
  const { result: verify2 } = keep(t, ws.canonVerify(NOW));
  assert.equal(verify2.exitCode, 0, verify2.json);
});

test('canon edited by hand: canonVerify reports MK-BOX-030; canonAdd writes nothing', (t) => {
  const { root, ws, read, write } = box(t);
  keep(t, ws.canonAdd(NOW, { file: 'brain/MARKETING_CANON.md', text: RULE }));
  write('brain/MARKETING_CANON.md', read('brain/MARKETING_CANON.md').replace('20%', '10%'));

  const { result: verify, envelope } = keep(t, ws.canonVerify(NOW));
  assert.equal(verify.exitCode, 1, verify.json);
  assert.deepEqual(codes(envelope), ['MK-BOX-030']);
  assert.equal(envelope.findings[0].severity, 'ERROR');
  assert.equal(envelope.findings[0].path, 'brain/MARKETING_CANON.md');
  assert.deepEqual(envelope.data.violations, [
    {
      path: 'brain/MARKETING_CANON.md',
      reason: 'its first 49 bytes changed since 2026-11-30T09:00:00.000Z',
    },
  ]);

  const ledgerFile = path.join(root, '.memkit', 'canon-ledger.jsonl');
  const ledger = fs.readFileSync(ledgerFile, 'utf8');
  const before = snapshot(root);
  const { result: add, envelope: addEnv } = keep(
    t,
    ws.canonAdd(NOW, { file: 'brain/MARKETING_CANON.md', text: 'More' }),
  );
  assert.equal(add.exitCode, 1, add.json);
  assert.deepEqual(codes(addEnv), ['MK-BOX-030']);
  assert.match(addEnv.findings[0].message, /nothing is added/);
  assert.deepEqual(addEnv.data.written, []);
  assert.equal(add.applied, false);
  assert.deepEqual(snapshot(root), before, 'nothing written');
  assert.equal(fs.readFileSync(ledgerFile, 'utf8'), ledger, 'the ledger is unchanged');
  // The refusal is the broken file's: another canon file is still added, and the violation stays.
  const { result: other, envelope: otherEnv } = keep(
    t,
    ws.canonAdd(NOW, { file: 'brain/canon/x.md', text: 'x' }),
  );
  assert.equal(other.exitCode, 1, other.json);
  assert.deepEqual(codes(otherEnv), ['MK-BOX-030']);
  assert.deepEqual(otherEnv.data.written, ['brain/canon/x.md', '.memkit/canon-ledger.jsonl']);
  assert.equal(read('brain/canon/x.md'), 'x\n');
});

test('canonAdd: brain/canon/<name>.md is write-once', (t) => {
  const { root, ws, read } = box(t);
  const { result: first, envelope } = keep(
    t,
    ws.canonAdd(NOW, { file: 'brain/canon/x.md', text: 'Tone: plain' }),
  );
  assert.equal(first.exitCode, 0, first.json);
  assert.deepEqual(envelope.data.written, ['brain/canon/x.md', '.memkit/canon-ledger.jsonl']);
  assert.deepEqual(envelope.data.ledger, [
    {
      length: 12,
      path: 'brain/canon/x.md',
      recorded_at: '2026-11-30T09:00:00.000Z',
      sha256: 'bcc41032e484a63098c6abcca300a5c63671075f60c6fe77d35db17354709639',
    },
  ]);
  assert.equal(read('brain/canon/x.md'), 'Tone: plain\n');

  const ledger = fs.readFileSync(path.join(root, '.memkit', 'canon-ledger.jsonl'), 'utf8');
  const before = snapshot(root);
  const { result: second, envelope: secondEnv } = keep(
    t,
    ws.canonAdd(NOW, { file: 'brain/canon/x.md', text: 'Tone: other' }),
  );
  assert.equal(second.exitCode, 2, second.json);
  assert.deepEqual(codes(secondEnv), ['MK-ARG-001']);
  assert.match(secondEnv.findings[0].message, /write-once/);
  assert.deepEqual(snapshot(root), before, 'nothing written');
  assert.equal(fs.readFileSync(path.join(root, '.memkit', 'canon-ledger.jsonl'), 'utf8'), ledger);

  // A write-once file that grows is a violation too.
  fs.appendFileSync(path.join(root, 'brain', 'canon', 'x.md'), 'more\n');
  const { result: verify, envelope: verifyEnv } = keep(t, ws.canonVerify(NOW));
  assert.equal(verify.exitCode, 1, verify.json);
  assert.deepEqual(codes(verifyEnv), ['MK-BOX-030']);
});

test('canon: refused files, roots and arguments', (t) => {
  const { root, ws } = box(t);
  const before = snapshot(root);
  for (const file of ['brain/SOUL.md', 'brain/other.md', 'memory/LONG_TERM.md']) {
    const { result, envelope } = keep(t, ws.canonAdd(NOW, { file, text: 'x' }));
    assert.equal(result.exitCode, 2, `${file}: ${result.json}`);
    assert.deepEqual(codes(envelope), ['MK-ARG-001']);
  }
  assert.deepEqual(snapshot(root), before);

  assert.throws(() => ws.canonAdd(NOW, { file: 'brain/canon/a\0b.md', text: 'x' }), isArg);
  assert.throws(() => ws.canonAdd(NOW, { file: 'brain/canon/y.md', text: 42 }), isArg);
  const { result: noFile } = keep(t, ws.canonAdd(NOW, { file: null, text: 'x' }));
  assert.equal(noFile.exitCode, 2, noFile.json);
  assert.deepEqual(snapshot(root), before);

  // A root of the default profile has no canon.
  const { ws: plain } = box(t, 'default');
  const refused = [
    plain.canonVerify(NOW),
    plain.canonAdd(NOW, { file: 'brain/MARKETING_CANON.md', text: 'x' }),
  ];
  for (const result of refused) {
    const { envelope } = keep(t, result);
    assert.equal(result.exitCode, 2, result.json);
    assert.deepEqual(codes(envelope), ['MK-ARG-001']);
    assert.match(envelope.findings[0].message, /profile is default/);
  }
});

/* client set */

const ACME = '# acme\n\nLifecycle: active\nOwner: Ann\n';
const NOTES = '# notes\n- prefers email\n';

function clientBox(t) {
  const b = box(t);
  b.write('brain/clients/acme.md', ACME);
  b.write('memory/clients/acme/notes.md', NOTES);
  return b;
}

test('clientSet: active -> archived is refused with MK-BOX-031', (t) => {
  const { root, ws } = clientBox(t);
  const before = snapshot(root);
  const { result, envelope } = keep(t, ws.clientSet(NOW, { client: 'acme', to: 'archived' }));
  assert.equal(result.exitCode, 1, result.json);
  assert.equal(
    result.json,
    '{"command":"memorybox client set","data":{"applied":false,"client":"acme",' +
      '"from":"active","plan":null,"to":"archived","written":[]},' +
      '"exit_class":"domain-failure","findings":[{"code":"MK-BOX-031","fatal":false,' +
      '"message":"lifecycle transition not allowed: acme active -> archived",' +
      '"path":"brain/clients/acme.md","remediation":"set it to maintenance first",' +
      '"severity":"ERROR"}],"output_schema_version":1,"status":"FAIL"}',
  );
  assert.equal(result.planId, null);
  assert.equal(envelope.data.applied, false);
  assert.deepEqual(snapshot(root), before, 'nothing written');
});

test('clientSet: active -> maintenance -> archived (plan, stale ID, apply) -> active', (t) => {
  const { root, ws, read } = clientBox(t);

  // active -> maintenance: a direct field update.
  const { result: maint, envelope: maintEnv } = keep(
    t,
    ws.clientSet(NOW, { client: 'acme', to: 'maintenance' }),
  );
  assert.equal(maint.exitCode, 0, maint.json);
  assert.equal(
    maint.json,
    '{"command":"memorybox client set","data":{"applied":true,"client":"acme",' +
      '"from":"active","plan":null,"to":"maintenance","written":["brain/clients/acme.md"]},' +
      '"exit_class":"success","findings":[],"output_schema_version":1,"status":"PASS"}',
  );
  assert.equal(maint.applied, true);
  assert.equal(maint.planId, null);
  assert.equal(maintEnv.data.from, 'active');
  assert.equal(read('brain/clients/acme.md'), '# acme\n\nLifecycle: maintenance\nOwner: Ann\n');
  assert.match(read('brain/clients/acme.md'), /^Lifecycle: maintenance$/m);

  // maintenance -> maintenance writes nothing.
  let before = snapshot(root);
  const { result: same } = keep(t, ws.clientSet(NOW, { client: 'acme', to: 'maintenance' }));
  assert.equal(same.exitCode, 0, same.json);
  assert.equal(same.applied, false);
  assert.deepEqual(JSON.parse(same.json).data.written, []);
  assert.deepEqual(snapshot(root), before);

  // maintenance -> archived: a dry run.
  const { result: plan, envelope: planEnv } = keep(
    t,
    ws.clientSet(NOW, { client: 'acme', to: 'archived' }),
  );
  assert.equal(plan.exitCode, 0, plan.json);
  assert.equal(plan.applied, false);
  assert.match(plan.planId, /^[0-9a-f]{16}$/);
  assert.equal(planEnv.data.plan.plan_id, plan.planId);
  assert.deepEqual(planEnv.data.written, []);
  assert.deepEqual(
    planEnv.data.plan.operations.map((op) => [op.operation, op.path]),
    [
      ['delete', 'brain/clients/acme.md'],
      ['create', 'memory/ARCHIVES/clients/acme/acme.md'],
      ['create', 'memory/ARCHIVES/clients/acme/notes.md'],
      ['delete', 'memory/clients/acme/notes.md'],
    ],
  );
  assert.equal(Number(plan.planOperationCount), 4);
  assert.deepEqual(snapshot(root), before, 'the dry run writes nothing');

  // A stale Plan ID is refused.
  const { result: stale, envelope: staleEnv } = keep(
    t,
    ws.clientSet(NOW, { client: 'acme', to: 'archived', apply: true, confirmPlan: STALE }),
  );
  assert.equal(stale.exitCode, 2, stale.json);
  assert.deepEqual(codes(staleEnv), ['MK-PLAN-001']);
  assert.equal(stale.applied, false);
  assert.deepEqual(snapshot(root), before, 'nothing written');

  // The dry run's Plan ID moves the files.
  const { result: applied, envelope: appliedEnv } = keep(
    t,
    ws.clientSet(NOW, { client: 'acme', to: 'archived', apply: true, confirmPlan: plan.planId }),
  );
  assert.equal(applied.exitCode, 0, applied.json);
  assert.equal(applied.applied, true);
  assert.equal(applied.planId, plan.planId);
  assert.deepEqual([...appliedEnv.data.written].sort(), [
    'brain/clients/acme.md',
    'memory/ARCHIVES/clients/acme/acme.md',
    'memory/ARCHIVES/clients/acme/notes.md',
    'memory/clients/acme/notes.md',
  ]);
  assert.equal(read('brain/clients/acme.md'), null);
  assert.equal(read('memory/clients/acme/notes.md'), null);
  assert.equal(
    read('memory/ARCHIVES/clients/acme/acme.md'),
    '# acme\n\nLifecycle: archived\nOwner: Ann\n',
  );
  assert.equal(read('memory/ARCHIVES/clients/acme/notes.md'), NOTES);

  // archived -> maintenance must pass through active.
  before = snapshot(root);
  const { result: refused, envelope: refusedEnv } = keep(
    t,
    ws.clientSet(NOW, { client: 'acme', to: 'maintenance' }),
  );
  assert.equal(refused.exitCode, 1, refused.json);
  assert.deepEqual(codes(refusedEnv), ['MK-BOX-031']);
  assert.equal(refusedEnv.findings[0].path, 'memory/ARCHIVES/clients/acme/acme.md');
  assert.deepEqual(snapshot(root), before);

  // archived -> active: reactivation, a dry run and its apply, moves them back.
  const { result: back } = keep(t, ws.clientSet(NOW, { client: 'acme', to: 'active' }));
  assert.equal(back.exitCode, 0, back.json);
  assert.match(back.planId, /^[0-9a-f]{16}$/);
  assert.deepEqual(snapshot(root), before);
  const { result: backApplied } = keep(
    t,
    ws.clientSet(NOW, { client: 'acme', to: 'active', apply: true, confirmPlan: back.planId }),
  );
  assert.equal(backApplied.exitCode, 0, backApplied.json);
  assert.equal(backApplied.applied, true);
  assert.equal(read('brain/clients/acme.md'), ACME);
  assert.equal(read('memory/clients/acme/notes.md'), NOTES);
  assert.equal(read('memory/ARCHIVES/clients/acme/acme.md'), null);
});

test('clientSet --apply: active <-> maintenance has no plan (MK-ARG-001, nothing written)', (t) => {
  const { root, ws } = clientBox(t);
  const before = snapshot(root);
  const { result, envelope } = keep(
    t,
    ws.clientSet(NOW, { client: 'acme', to: 'maintenance', apply: true, confirmPlan: STALE }),
  );
  assert.equal(result.exitCode, 2, result.json);
  assert.deepEqual(codes(envelope), ['MK-ARG-001']);
  assert.equal(result.applied, false);
  assert.deepEqual(snapshot(root), before);
});

test('clientSet: refused clients, lifecycles, roots and arguments', (t) => {
  const { root, ws } = clientBox(t);
  const before = snapshot(root);
  for (const client of ['nobody', '.hidden', 'a/b']) {
    const { result, envelope } = keep(t, ws.clientSet(NOW, { client, to: 'maintenance' }));
    assert.equal(result.exitCode, 2, `${client}: ${result.json}`);
    assert.deepEqual(codes(envelope), ['MK-ARG-001']);
  }
  assert.deepEqual(snapshot(root), before);

  for (const to of ['paused', 'Active', undefined]) {
    const { result } = keep(t, ws.clientSet(NOW, { client: 'acme', to }));
    assert.equal(result.exitCode, 2, `${to}: ${result.json}`);
    assert.match(result.json, /--to/);
  }
  assert.throws(() => ws.clientSet(NOW, { client: 'acme', to: 3 }), isArg);
  assert.throws(() => ws.clientSet(NOW, { client: 'acme', to: {} }), TypeError);
  assert.throws(() => ws.clientSet(NOW, { client: 'ac\0me', to: 'active' }), isArg);
  assert.throws(() => ws.clientSet(NOW, { client: 'acme', to: 'archived', confirmPlan: 'a\0b' }),
    isArg);
  assert.deepEqual(snapshot(root), before);

  // A root of the default profile has no client lifecycles.
  const { ws: plain, write } = box(t, 'default');
  write('brain/clients/acme.md', ACME);
  const { result, envelope } = keep(t, plain.clientSet(NOW, { client: 'acme', to: 'maintenance' }));
  assert.equal(result.exitCode, 2, result.json);
  assert.deepEqual(codes(envelope), ['MK-ARG-001']);
  assert.match(envelope.findings[0].message, /profile is default/);

  // Nor may a closed workspace be used.
  ws.close();
  assert.throws(() => ws.clientSet(NOW, { client: 'acme', to: 'active' }), isArg);
  assert.throws(() => ws.canonVerify(NOW), isArg);
});
