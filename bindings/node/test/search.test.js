'use strict';
// `memkit search` (the table's search group, workspace 'any'): a method of a workspace of every
// layout, named after its group because its one command has no verb, searching the workspace's
// root. Each test runs on a copy of an example under examples/; the comparison with the CLI byte
// for byte is the vector runner's (tests/vectors/search_layouts).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const memkit = require('..');
const { openWorkspace, run } = require('./support.js');

const { MemkitError } = memkit;

const EXAMPLES = path.resolve(__dirname, '..', '..', '..', 'examples');
const NOW = '2026-11-30T10:00:00+00:00';

// A copy of examples/<name> in a fresh folder, removed after the test.
function example(t, name) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memkit-node-search-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const root = path.join(dir, name);
  fs.cpSync(path.join(EXAMPLES, name), root, { recursive: true });
  return root;
}

const HIT_KEYS = ['facets', 'file', 'first_line', 'id', 'kind', 'last_line', 'layout', 'score',
  'snippet'];

test('search: a method of a custodian and of a memorybox workspace, searching its root', (t) => {
  for (const [layout, name, word] of [['custodian', 'project', 'postgresql'],
    ['memorybox', 'memorybox', 'invoices']]) {
    const ws = openWorkspace(t, example(t, name), layout);
    assert.equal(typeof ws.search, 'function', layout);
    assert.equal(ws.search.name, 'search');
    assert.equal(ws.search.command.name, 'search');
    assert.equal(ws.search.command.verb, '');
    assert.ok(ws.search.doc.startsWith('search: the units of memory that match'), ws.search.doc);
    assert.match(ws.search.doc, /\n {2}query \(QUERY, positional, string, required\): /);
    assert.match(ws.search.doc, /\n {2}limit \(--limit, integer, default 10\): /);

    const { result, envelope } = run(t, () => ws.search(NOW, { query: word }));
    assert.equal(result.exitCode, 0, result.json);
    assert.equal(result.planId, null);
    assert.equal(result.applied, false);
    assert.equal(envelope.command, 'search');
    const { data } = envelope;
    assert.ok(Array.isArray(data.hits), `${layout}: hits is a list`);
    assert.ok(data.total >= 1, `${layout}: ${word} is in examples/${name}`);
    assert.equal(data.query, word);
    assert.deepEqual([...new Set(data.hits.map((hit) => hit.layout))], [layout]);
    assert.deepEqual(Object.keys(data.hits[0]).sort(), HIT_KEYS);

    const one = run(t, () => ws.search(NOW, { query: word, limit: 1 })).envelope;
    assert.equal(one.data.hits.length, 1);
    const byRun = run(t, () => ws.run(NOW, 'search', '', { query: word })).result;
    assert.ok(byRun.jsonBytes.equals(result.jsonBytes), 'the method is run(now, "search", "")');
  }
});

test('search: a query that does not parse is a finding in the result, not a throw', (t) => {
  const ws = openWorkspace(t, example(t, 'project'), 'custodian');
  const { result, envelope } = run(t, () => ws.search(NOW, { query: '"unbalanced' }));
  assert.equal(result.exitCode, 2, result.json);
  assert.equal(envelope.status, 'FAIL');
  assert.deepEqual(envelope.findings.map((f) => f.code), ['MK-ARG-001']);
  assert.match(envelope.findings[0].message, /^query: /);
  const missing = run(t, () => ws.search(NOW)).result; // the required QUERY
  assert.equal(missing.exitCode, 2, missing.json);
});

test('search: a layout\'s own search keeps the name; the other is run(now, "search", "")', (t) => {
  const ws = openWorkspace(t, example(t, 'tiers'), 'tiers');
  const own = run(t, () => ws.search(NOW, { query: 'ledger' })).envelope;
  const every = run(t, () => ws.run(NOW, 'search', '', { query: 'ledger' })).envelope;
  assert.equal(own.command, 'tiers search');
  assert.equal(every.command, 'search');
  assert.deepEqual(own.data.hits, every.data.hits);
});

test('search: the root is the workspace\'s; a request that sets it throws MK_E_ARG', (t) => {
  const root = example(t, 'project');
  const ws = openWorkspace(t, root, 'custodian');
  assert.doesNotMatch(ws.search.doc, /--root/);
  for (const key of ['root', '--root']) {
    let caught = null;
    try {
      ws.search(NOW, { query: 'postgresql', [key]: path.dirname(root) });
    } catch (err) {
      caught = err;
    }
    assert.ok(caught instanceof MemkitError, `${key}: expected a MemkitError, got ${caught}`);
    assert.equal(caught.status, 'MK_E_ARG');
    assert.equal(caught.message, `${key}: given by the workspace, not the request`);
  }
});
