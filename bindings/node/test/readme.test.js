'use strict';
// Runs the README's examples (the custodian one on a copy of examples/project, the gate and tiers
// ones in an empty folder), so that the README stays true.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const PACKAGE = path.resolve(__dirname, '..');
const EXAMPLE_PROJECT = path.resolve(PACKAGE, '..', '..', 'examples', 'project');

test('README: the example prints the CLI Plan ID of examples/project', (t) => {
  const readme = fs.readFileSync(path.join(PACKAGE, 'README.md'), 'utf8');
  const match = /## Example\n\n```js\n([\s\S]*?)```/.exec(readme);
  assert.ok(match, 'README.md has a js block under "## Example"');
  const code = match[1];
  assert.ok(code.trimEnd().split('\n').length <= 10, 'the example is ten lines at most');

  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'memkit-node-readme-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.cpSync(EXAMPLE_PROJECT, path.join(root, 'examples', 'project'), { recursive: true });

  // The example requires the installed name; here it is this folder.
  const script = code.replace("require('memkit')", `require(${JSON.stringify(PACKAGE)})`);
  assert.notEqual(script, code, "the example requires 'memkit'");
  const run = spawnSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, '4 items, 1 duplicates, plan 5a05e9af4948c186\n');
  // The example also applied its plan to the copy.
  const inbox = (dir) => fs.readFileSync(path.join(dir, 'docs', 'memory', 'inbox.md'));
  assert.ok(
    !inbox(path.join(root, 'examples', 'project')).equals(inbox(EXAMPLE_PROJECT)),
    'applied',
  );
});

test('README: the tiers example runs and prints what its comments say', (t) => {
  const readme = fs.readFileSync(path.join(PACKAGE, 'README.md'), 'utf8');
  const match = /### The tiers layout\n[\s\S]*?```js\n([\s\S]*?)```/.exec(readme);
  assert.ok(match, 'README.md has a js block under "### The tiers layout"');

  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'memkit-node-readme-tiers-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.mkdirSync(path.join(root, 'project'));
  // The block uses `memkit` and `now` from the example above it.
  const script =
    `const memkit = require(${JSON.stringify(PACKAGE)});\n` +
    "const now = memkit.parseClock('2026-03-07T14:05:09+00:00');\n" +
    match[1];
  const run = spawnSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, '0 true\n2\nname,note\n\n');
  const memory = path.join(root, 'project', 'memory');
  assert.match(
    fs.readFileSync(path.join(memory, 'global.md'), 'utf8'),
    /\n\n## Persisted Turn Promotion - 2026-03-07 14:05\n\nUse X\.$/,
  );
  assert.ok(fs.existsSync(path.join(memory, 'decision', '2026-03-07_14.md')));
});

test('README: the gate example writes the entry its judge placed', (t) => {
  const readme = fs.readFileSync(path.join(PACKAGE, 'README.md'), 'utf8');
  const match = /### The gate's judge\n[\s\S]*?```js\n([\s\S]*?)```/.exec(readme);
  assert.ok(match, 'README.md has a js block under "### The gate\'s judge"');

  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'memkit-node-readme-gate-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.mkdirSync(path.join(root, 'agent'));
  const script =
    `const memkit = require(${JSON.stringify(PACKAGE)});\n` +
    "const now = memkit.parseClock('2026-11-30T10:00:00+00:00');\n" +
    match[1];
  const run = spawnSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, 'WRITE true\nmemorybox gate: the five-gate write filter; --apply ' +
    'writes a WRITE outcome directly (writes)\n');
  assert.match(
    fs.readFileSync(path.join(root, 'agent', 'memory', 'LONG_TERM.md'), 'utf8'),
    /\n## Team\n\n- Bob reviews every schema change\n {2}Confidence: 0\.85\n/,
  );
});
