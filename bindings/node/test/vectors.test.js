'use strict';
// Runs every case of tests/vectors/ (see its README.md) through the binding and compares each step
// with what the CLI wrote: exit code, Plan ID, applied, inbox counts, budget rows and the exact
// JSON bytes. The typed accessors are also held to the JSON they come with (STYLE B5).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const memkit = require('..');

// MEMKIT_VECTORS_DIR points the runner at another copy of the cases (to see it fail on a changed one).
const VECTORS =
  process.env.MEMKIT_VECTORS_DIR || path.resolve(__dirname, '..', '..', '..', 'tests', 'vectors');

const FORGET_MODES = { soft: 'soft', hard: 'hard', purge: 'purge' };

// A step's "event" -> the event option of ws.update (the binding takes the same words).
const UPDATE_EVENTS = {
  verify: 'verify',
  confirm: 'confirm',
  contradict: 'contradict',
  resolve_keep: 'resolve_keep',
};

// A case's "layout" (absent: custodian) -> the layout option of Workspace.open.
const LAYOUTS = {
  custodian: 'custodian',
  memorybox: 'memorybox',
  tiers: 'tiers',
  curated: 'curated',
};

// A tiers step's `args` key (an mk_tiers_options field) -> [the option of ws.tiers(), the JSON
// type its value has: a string for a text field, an integer for an int64 one, true for a flag].
const TIERS_ARGS = {
  content: ['content', 'string'],
  raw_content: ['rawContent', 'string'],
  extracted_content: ['extractedContent', 'string'],
  theme: ['theme', 'string'],
  template_name: ['template', 'string'],
  title: ['title', 'string'],
  entry_type: ['entryType', 'string'],
  session_id: ['sessionId', 'string'],
  tools_json: ['tools', 'string'],
  name: ['name', 'string'],
  csv_content: ['csvContent', 'string'],
  source_file: ['sourceFile', 'string'],
  description: ['description', 'string'],
  source_label: ['sourceLabel', 'string'],
  columns_json: ['columnsJson', 'string'],
  confirm_plan_id: ['confirmPlan', 'string'],
  recent_days: ['recentDays', 'integer'],
  theme_limit: ['themeLimit', 'integer'],
  max_tokens: ['maxTokens', 'integer'],
  days_back: ['daysBack', 'integer'],
  limit: ['limit', 'integer'],
  hours_back: ['hoursBack', 'integer'],
  head: ['head', 'integer'],
  days: ['days', 'integer'],
  no_log: ['noLog', 'flag'],
  promote_global: ['promoteGlobal', 'flag'],
  append: ['append', 'flag'],
  replace: ['replace', 'flag'],
};

// A curated step's `args` key (an mk_curated_options field) -> [the option of ws.curated(), the
// JSON type its value has].
const CURATED_ARGS = {
  workspace: ['workspace', 'string'],
  actor: ['actor', 'string'],
  name: ['name', 'string'],
  dst: ['dst', 'string'],
  query: ['query', 'string'],
  id: ['id', 'string'],
  type: ['type', 'string'],
  body: ['body', 'string'],
  body_file: ['bodyFile', 'string'],
  description: ['description', 'string'],
  row_class: ['class', 'string'],
  status: ['status', 'string'],
  initiative: ['initiative', 'string'],
  project_ref: ['projectRef', 'string'],
  audience: ['audience', 'string'],
  origin_session: ['originSession', 'string'],
  field: ['field', 'string'],
  content: ['content', 'string'],
  kind: ['kind', 'string'],
  file: ['file', 'string'],
  sort: ['sort', 'string'],
  order: ['order', 'string'],
  scope: ['scope', 'string'],
  threshold: ['threshold', 'string'],
  before: ['before', 'string'],
  source: ['source', 'string'],
  agent: ['agent', 'string'],
  result: ['result', 'string'],
  severity: ['severity', 'string'],
  payload: ['payload', 'string'],
  confirm_plan_id: ['confirmPlan', 'string'],
  max_chars: ['maxChars', 'integer'],
  limit: ['limit', 'integer'],
  max_depth: ['maxDepth', 'integer'],
  dry_run: ['dryRun', 'flag'],
  links: ['links', 'flag'],
  history: ['history', 'flag'],
  include_deleted: ['includeDeleted', 'flag'],
  yes: ['yes', 'flag'],
  hard: ['hard', 'flag'],
  delete_link: ['delete', 'flag'],
  apply: ['apply', 'flag'],
  rollback: ['rollback', 'flag'],
};

// A sync step's `args` key (an mk_sync_options field) -> [the option of ws.sync(), the JSON type
// its value has].
const SYNC_ARGS = {
  remote: ['remote', 'string'],
  conninfo: ['conninfo', 'string'],
  workspace_id: ['workspaceId', 'string'],
  id: ['id', 'string'],
  take: ['take', 'string'],
  confirm_plan: ['confirmPlan', 'string'],
  apply: ['apply', 'flag'],
};

function caseLayout(spec) {
  const layout = spec.layout === undefined ? 'custodian' : spec.layout;
  assert.ok(
    Object.hasOwn(LAYOUTS, layout),
    `unknown layout ${JSON.stringify(spec.layout)}: teach this runner the new layout`,
  );
  return LAYOUTS[layout];
}

// mk_unit_kind -> the "kind" the document JSON gives the same unit.
const UNIT_KIND_NAMES = {
  [memkit.UnitKind.FRONT_MATTER]: 'front_matter',
  [memkit.UnitKind.BULLET]: 'bullet_unit',
  [memkit.UnitKind.FENCE]: 'fence',
  [memkit.UnitKind.COMMENT]: 'comment',
  [memkit.UnitKind.HEADING]: 'heading',
  [memkit.UnitKind.BLANK]: 'blank',
  [memkit.UnitKind.TEXT]: 'text',
};

function discoverCases() {
  return fs
    .readdirSync(VECTORS, { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() && fs.existsSync(path.join(VECTORS, entry.name, 'case.json')),
    )
    .map((entry) => entry.name)
    .sort();
}

// "$N" is the Plan ID that step N (1-based) returned.
function resolve(value, planIds) {
  if (typeof value !== 'string' || !value.startsWith('$')) return value;
  const n = Number(value.slice(1));
  assert.ok(
    Number.isInteger(n) && n >= 1 && n <= planIds.length,
    `no step ${value} before this one`,
  );
  return planIds[n - 1];
}

function compactOpts(step) {
  const opts = {};
  if (step.target !== undefined && step.target !== null) opts.target = step.target;
  if (step.archive_oldest) opts.archiveOldest = true;
  return opts;
}

function forgetOpts(step) {
  const opts = {};
  if (step.mode !== undefined) {
    assert.ok(Object.hasOwn(FORGET_MODES, step.mode), `unknown forget mode ${step.mode}`);
    opts.mode = step.mode;
  }
  if (step.allow_broad_match) opts.allowBroadMatch = true;
  return opts;
}

function updateOpts(step) {
  assert.ok(Object.hasOwn(UPDATE_EVENTS, step.event), `unknown update event ${step.event}`);
  const opts = { event: UPDATE_EVENTS[step.event] };
  if (step.note !== undefined && step.note !== null) opts.note = step.note;
  if (step.confidence !== undefined && step.confidence !== null) opts.confidence = step.confidence;
  return opts;
}

function memoryboxCompactOpts(step) {
  const opts = {};
  if (step.file !== undefined && step.file !== null) opts.file = step.file;
  if (step.force) opts.force = true;
  return opts;
}

const GATES = ['VALUE', 'ALIGNMENT', 'REDUNDANCY', 'FRESHNESS', 'PLACEMENT'];

// A gate step: the candidate's fields, `apply`, and a judge that answers from `answers` (gate name
// -> the host's answer; a gate it lacks is abstained from). Each question must name its gate.
function gateOpts(step) {
  const answers = step.answers ?? {};
  for (const name of Object.keys(answers)) {
    assert.ok(GATES.includes(name), `answers names an unknown gate ${name}`);
    assert.equal(typeof answers[name], 'string', `the answer for ${name} is a string`);
  }
  const misasked = [];
  const opts = {
    apply: Boolean(step.apply),
    judge: (gate, question) => {
      if (question.gate !== gate) misasked.push(`${gate} was asked about ${question.gate}`);
      return Object.hasOwn(answers, gate) ? answers[gate] : null;
    },
  };
  for (const key of ['title', 'source', 'client']) {
    if (step[key] !== undefined && step[key] !== null) opts[key] = step[key];
  }
  return { opts, misasked };
}

function gate(ws, now, step) {
  const { opts, misasked } = gateOpts(step);
  const result = ws.gate(now, step.text, step.confidence, opts);
  if (misasked.length > 0) {
    result.close();
    assert.fail(misasked.join('; '));
  }
  return result;
}

// A tiers step's `args` -> the options of ws.tiers(), each value as the case gives it (the tools
// and columns JSON as text, as the CLI gets it), confirm_plan_id resolved from "$N".
function tiersOpts(step, planIds) {
  const opts = {};
  for (const [key, value] of Object.entries(step.args ?? {})) {
    assert.ok(Object.hasOwn(TIERS_ARGS, key), `tiers: unknown argument ${key}`);
    const [option, type] = TIERS_ARGS[key];
    if (type === 'string') assert.equal(typeof value, 'string', `tiers: ${key} is a string`);
    else if (type === 'integer') assert.ok(Number.isInteger(value), `tiers: ${key} is an integer`);
    else assert.equal(value, true, `tiers: ${key} is a flag, true when given`);
    opts[option] = key === 'confirm_plan_id' ? resolve(value, planIds) : value;
  }
  return opts;
}

// A curated step's `args` -> the options of ws.curated(), each value as the case gives it (the
// payload as JSON text, as the CLI gets it), confirm_plan_id resolved from "$N".
function curatedOpts(step, planIds) {
  const opts = {};
  for (const [key, value] of Object.entries(step.args ?? {})) {
    assert.ok(Object.hasOwn(CURATED_ARGS, key), `curated: unknown argument ${key}`);
    const [option, type] = CURATED_ARGS[key];
    if (type === 'string') assert.equal(typeof value, 'string', `curated: ${key} is a string`);
    else if (type === 'integer')
      assert.ok(Number.isInteger(value), `curated: ${key} is an integer`);
    else assert.equal(value, true, `curated: ${key} is a flag, true when given`);
    opts[option] = key === 'confirm_plan_id' ? resolve(value, planIds) : value;
  }
  return opts;
}

// A sync step's `args` -> the options of ws.sync(), confirm_plan resolved from "$N".
function syncOpts(step, planIds) {
  const opts = {};
  for (const [key, value] of Object.entries(step.args ?? {})) {
    assert.ok(Object.hasOwn(SYNC_ARGS, key), `sync: unknown argument ${key}`);
    const [option, type] = SYNC_ARGS[key];
    if (type === 'string') assert.equal(typeof value, 'string', `sync: ${key} is a string`);
    else assert.equal(value, true, `sync: ${key} is a flag, true when given`);
    opts[option] = key === 'confirm_plan' ? resolve(value, planIds) : value;
  }
  return opts;
}

function addOpts(step) {
  const opts = {};
  for (const key of ['type', 'reason', 'name', 'area']) {
    if (step[key] !== undefined && step[key] !== null) opts[key] = step[key];
  }
  if (step.allow_long) opts.allowLong = true;
  return opts;
}

// Runs one command step; returns its Result.
function runCommand(ws, now, step, planIds) {
  const confirm = () => resolve(step.confirm, planIds);
  switch (step.op) {
    case 'init':
      return ws.init(now, { extended: Boolean(step.extended) });
    case 'status':
      return ws.status(now);
    case 'check':
      return ws.check(now);
    case 'plan_compaction':
      return ws.planCompaction(now, compactOpts(step));
    case 'apply_compaction':
      return ws.applyCompaction(now, confirm(), compactOpts(step));
    case 'add':
      return ws.add(now, Buffer.from(step.message, 'utf8'), addOpts(step));
    case 'plan_forget':
      return ws.planForget(now, Buffer.from(step.topic, 'utf8'), forgetOpts(step));
    case 'apply_forget':
      return ws.applyForget(now, Buffer.from(step.topic, 'utf8'), confirm(), forgetOpts(step));
    case 'plan_undo':
      return ws.planUndo(now, resolve(step.plan_id, planIds));
    case 'apply_undo':
      return ws.applyUndo(now, resolve(step.plan_id, planIds), confirm());
    case 'recover':
      return ws.recover(now, { apply: Boolean(step.apply), rollback: Boolean(step.rollback) });
    case 'decay':
      return ws.decay(now, step.file === undefined ? {} : { file: step.file });
    case 'hygiene':
      return ws.hygiene(now);
    case 'load':
      return ws.load(now, {
        tier: step.tier, // absent: undefined, tier 0
        file: step.file,
        includeArchive: Boolean(step.include_archive),
      });
    case 'update':
      return ws.update(now, step.entry, updateOpts(step));
    case 'gate':
      return gate(ws, now, step);
    case 'plan_memorybox_compact':
      return ws.planMemoryboxCompact(now, memoryboxCompactOpts(step));
    case 'apply_memorybox_compact':
      return ws.applyMemoryboxCompact(now, confirm(), memoryboxCompactOpts(step));
    case 'plan_promote':
      return ws.planPromote(now, step.entry);
    case 'apply_promote':
      return ws.applyPromote(now, step.entry, confirm());
    case 'plan_archive_entry':
      return ws.planArchiveEntry(now, step.entry);
    case 'apply_archive_entry':
      return ws.applyArchiveEntry(now, step.entry, confirm());
    case 'tiers':
      return ws.tiers(now, step.command, tiersOpts(step, planIds));
    case 'curated':
      return ws.curated(now, step.command, curatedOpts(step, planIds));
    case 'sync':
      return ws.sync(now, step.command, syncOpts(step, planIds));
    default:
      throw new Error(`unknown op "${step.op}": teach this runner the new operation`);
  }
}

function checkResult(result, expect, expectedJson, planIds) {
  if ('exit_code' in expect) assert.equal(result.exitCode, expect.exit_code, 'exit_code');
  if ('plan_id' in expect) assert.equal(result.planId, resolve(expect.plan_id, planIds), 'plan_id');
  if ('applied' in expect) assert.equal(result.applied, expect.applied, 'applied');
  if ('inbox_counts' in expect) {
    const counts = result.inboxCounts;
    const actual =
      counts === null
        ? null
        : {
            inbox_items: Number(counts.inboxItems),
            empty_items: Number(counts.emptyItems),
            duplicates: Number(counts.duplicates),
            tombstone_matches: Number(counts.tombstoneMatches),
            candidates: Number(counts.candidates),
          };
    assert.deepEqual(actual, expect.inbox_counts, 'inbox_counts');
  }
  if ('budget_rows' in expect) {
    const rows = result.budgetRows.map((row) => ({
      path: row.path,
      tokens: Number(row.tokens),
      limit: Number(row.limit),
      state: row.state,
    }));
    assert.deepEqual(rows, expect.budget_rows, 'budget_rows');
  } else {
    // Rows come only with a custodian status; every other command (and a MemoryBox status,
    // whose line budgets are only in the JSON) has none.
    assert.deepEqual(result.budgetRows, [], 'budget_rows of a command other than status');
  }

  // The JSON, byte for byte, three ways: the buffer, the string and the stream.
  assert.ok(result.jsonBytes.equals(expectedJson), 'json bytes (mk_result_json)');
  assert.equal(result.json, expectedJson.toString('utf8'), 'json string');
  const pieces = [];
  result.writeJson((piece) => pieces.push(piece));
  assert.ok(Buffer.concat(pieces).equals(expectedJson), 'json bytes (mk_result_write_json)');

  // The typed Plan ID is the one the JSON shows or applied.
  const planId = result.planId;
  if (planId !== null) {
    assert.match(planId, /^[0-9a-f]{16}$/);
    assert.ok(result.json.includes(`"${planId}"`), 'the JSON names the typed Plan ID');
  } else {
    assert.equal(result.planOperationCount, 0, 'no plan, no operations');
  }
}

function checkUnits(root, step, expectedJson) {
  const bytes = fs.readFileSync(path.join(root, step.file));
  const doc = memkit.Document.parse(bytes);
  try {
    assert.ok(doc.jsonBytes.equals(expectedJson), 'document json bytes (mk_document_json)');
    assert.equal(doc.json, expectedJson.toString('utf8'), 'document json string');

    // The typed units agree with the JSON's, and tile the file's bytes in order.
    const data = JSON.parse(doc.json);
    const units = doc.units;
    assert.equal(doc.unitCount, units.length);
    if (data.units === null) {
      assert.equal(units.length, 0, 'an unparseable document has no units');
      return;
    }
    assert.equal(units.length, data.units.length, 'unit count');
    let offset = 0;
    units.forEach((unit, i) => {
      const json = data.units[i];
      assert.equal(UNIT_KIND_NAMES[unit.kind], json.kind, `unit ${i} kind`);
      assert.equal(unit.firstLine, json.first_line, `unit ${i} first_line`);
      assert.equal(unit.lastLine, json.last_line, `unit ${i} last_line`);
      assert.equal(Number(unit.begin), offset, `unit ${i} begins where the last one ended`);
      offset = Number(unit.end);
    });
    assert.equal(offset, bytes.length, 'the units cover the whole file');
  } finally {
    doc.close();
  }
}

const cases = discoverCases();

test('tests/vectors holds cases', () => {
  assert.ok(cases.length > 0, `no case found under ${VECTORS}`);
});

for (const name of cases) {
  test(`vector ${name}`, async (t) => {
    const caseDir = path.join(VECTORS, name);
    const spec = JSON.parse(fs.readFileSync(path.join(caseDir, 'case.json'), 'utf8'));
    assert.ok(Array.isArray(spec.steps) && spec.steps.length > 0, 'case.json has steps');

    const root = fs.mkdtempSync(path.join(os.tmpdir(), `memkit-node-${name}-`));
    const filesDir = path.join(caseDir, 'files');
    if (fs.existsSync(filesDir)) fs.cpSync(filesDir, root, { recursive: true });
    const now = memkit.parseClock(spec.clock);
    const layout = caseLayout(spec);
    const planIds = [];
    let ws = null;
    try {
      for (const [index, step] of spec.steps.entries()) {
        const label =
          step.op === 'tiers' || step.op === 'curated' || step.op === 'sync'
            ? `${step.op} ${step.command}`
            : step.op;
        await t.test(`step ${index + 1}: ${label}`, () => {
          const expectedJson = fs.readFileSync(path.join(caseDir, step.expect.json));
          if (step.op === 'units') {
            planIds.push(null);
            checkUnits(root, step, expectedJson);
            return;
          }
          if (ws === null) ws = memkit.Workspace.open(root, { layout });
          // cli.py runs each step in the case's folder, and a relative path the library resolves
          // against the working directory (tiers write-data --source-file, a sync dir:PATH
          // remote) must find the same file.
          const cwd = process.cwd();
          process.chdir(root);
          let result;
          try {
            result = runCommand(ws, now, step, planIds);
          } finally {
            process.chdir(cwd);
          }
          try {
            planIds.push(result.planId);
            checkResult(result, step.expect, expectedJson, planIds);
          } finally {
            result.close();
          }
        });
        // A step that could not run leaves no Plan ID or files for the steps after it.
        if (planIds.length !== index + 1) break;
      }
    } finally {
      if (ws !== null) ws.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
}
