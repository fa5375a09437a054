'use strict';
// Runs every case of tests/vectors/ (see its README.md) through the binding and compares each step
// with what the CLI wrote: exit code, Plan ID, applied, inbox counts, budget rows and the exact
// JSON bytes. The typed accessors are also held to the JSON they come with (STYLE B5). Each step
// is a request by the table's names, run through the workspace's method for its command.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const memkit = require('..');

// MEMKIT_VECTORS_DIR points the runner at another copy of the cases (to see it fail on a change).
const VECTORS =
  process.env.MEMKIT_VECTORS_DIR || path.resolve(__dirname, '..', '..', '..', 'tests', 'vectors');

// A case's "layout" (absent: custodian): the layout of Workspace.open and the group it runs.
const LAYOUTS = ['custodian', 'memorybox', 'tiers', 'curated'];

function caseLayout(spec) {
  const layout = spec.layout === undefined ? 'custodian' : spec.layout;
  assert.ok(LAYOUTS.includes(layout), `unknown layout ${layout}: teach this runner the new layout`);
  return layout;
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

const GATES = ['VALUE', 'ALIGNMENT', 'REDUNDANCY', 'FRESHNESS', 'PLACEMENT'];

// A gate step's judge: it answers from `answers` (gate name -> the host's answer; a gate it lacks
// is abstained from), and each question must name its gate.
function judgeOf(answers, misasked) {
  for (const name of Object.keys(answers)) {
    assert.ok(GATES.includes(name), `answers names an unknown gate ${name}`);
    assert.equal(typeof answers[name], 'string', `the answer for ${name} is a string`);
  }
  return (gate, question) => {
    if (question.gate !== gate) misasked.push(`${gate} was asked about ${question.gate}`);
    return Object.hasOwn(answers, gate) ? answers[gate] : null;
  };
}

// Runs one request step (`run` "group verb", or "group" for a command without a verb; `args` by
// the table's names, each set by its JSON type, "$N" resolved) through the workspace's method
// for the command, made from the command table.
function runCommand(ws, now, step, planIds) {
  assert.equal(typeof step.run, 'string', 'a step names its command in `run`');
  const [group, ...words] = step.run.split(' ');
  const verb = words.join(' ');
  const runsOn = memkit.commands().groups.find((g) => g.name === group)?.workspace;
  assert.ok([ws.group, 'any'].includes(runsOn), `${step.run} runs on a ${ws.group} workspace`);
  const args = {};
  for (const [key, value] of Object.entries(step.args ?? {})) args[key] = resolve(value, planIds);
  const misasked = [];
  if (step.answers !== undefined) args.judge = judgeOf(step.answers, misasked);
  const method = (verb || group).replace(/[ -](\w)/g, (_, c) => c.toUpperCase());
  assert.equal(typeof ws[method], 'function', `ws.${method} (${step.run})`);
  assert.equal(ws[method].command.verb, verb);
  const result = ws[method](now, args);
  if (misasked.length > 0) {
    result.close();
    assert.fail(misasked.join('; '));
  }
  return result;
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
        const label = step.op === 'units' ? `units ${step.file}` : step.run;
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
