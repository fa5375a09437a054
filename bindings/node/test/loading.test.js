'use strict';
// Where the library comes from (MEMKIT_LIBRARY, the package folder, the system) and the version
// check on load. Each case loads the binding in a child process with its own environment.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const memkit = require('..');

const PACKAGE = path.resolve(__dirname, '..');
const LIBRARY_NAME = 'libmemkit.so';

// The library this run loaded, when it is a file (it is under MEMKIT_LIBRARY).
const loadedFile = path.isAbsolute(memkit.libraryPath) ? memkit.libraryPath : null;

function tempDir(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memkit-node-load-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// Loads the binding at `pkg` in a fresh node; returns its exit status, output and report.
function loadIn(pkg, env) {
  const script =
    `const m = require(${JSON.stringify(pkg)});` +
    'console.log(JSON.stringify({ path: m.libraryPath, number: m.versionNumber() }));';
  const childEnv = { ...process.env, ...env };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete childEnv[key];
  const run = spawnSync(process.execPath, ['-e', script], { env: childEnv, encoding: 'utf8' });
  return {
    status: run.status,
    stderr: run.stderr,
    report: run.status === 0 ? JSON.parse(run.stdout) : null,
  };
}

test(
  'loading: MEMKIT_LIBRARY comes first',
  { skip: !loadedFile && 'no library file to point at' },
  () => {
    const run = loadIn(PACKAGE, { MEMKIT_LIBRARY: loadedFile });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.report, { path: loadedFile, number: 200 });
  },
);

test('loading: a MEMKIT_LIBRARY that does not load is a clear error', (t) => {
  const missing = path.join(tempDir(t), 'nowhere', LIBRARY_NAME);
  const run = loadIn(PACKAGE, { MEMKIT_LIBRARY: missing });
  assert.notEqual(run.status, 0);
  assert.match(run.stderr, /memkit: cannot load MEMKIT_LIBRARY=/);
  assert.ok(run.stderr.includes(missing), run.stderr);
});

test('loading: a library of another version is refused', (t) => {
  const dir = tempDir(t);
  const source = path.join(dir, 'old.c');
  const lib = path.join(dir, 'libold.so');
  fs.writeFileSync(
    source,
    '#include <stdint.h>\n' +
      'int32_t mk_version_number(void) { return 99; }\n' +
      'const char* mk_version_string(void) { return "0.0.99"; }\n',
  );
  const cc = spawnSync('cc', ['-shared', '-fPIC', '-o', lib, source], { encoding: 'utf8' });
  if (cc.error || cc.status !== 0) {
    t.skip(`no C compiler to build a stand-in library: ${cc.error ? cc.error.message : cc.stderr}`);
    return;
  }
  const run = loadIn(PACKAGE, { MEMKIT_LIBRARY: lib });
  assert.notEqual(run.status, 0);
  assert.match(
    run.stderr,
    /is version 99 \(0\.0\.99\), but this binding needs MK_VERSION_NUMBER 200/,
  );
});

test(
  'loading: without MEMKIT_LIBRARY, a copy in the package folder is used',
  { skip: !loadedFile && 'no library file to copy' },
  (t) => {
    // A copy of the package (its code, koffi through a link, and the library beside index.js).
    const pkg = tempDir(t);
    fs.copyFileSync(path.join(PACKAGE, 'index.js'), path.join(pkg, 'index.js'));
    fs.copyFileSync(path.join(PACKAGE, 'package.json'), path.join(pkg, 'package.json'));
    fs.cpSync(path.join(PACKAGE, 'lib'), path.join(pkg, 'lib'), { recursive: true });
    fs.symlinkSync(path.join(PACKAGE, 'node_modules'), path.join(pkg, 'node_modules'));
    fs.copyFileSync(loadedFile, path.join(pkg, LIBRARY_NAME));
    const run = loadIn(pkg, { MEMKIT_LIBRARY: undefined });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.report, { path: path.join(pkg, LIBRARY_NAME), number: 200 });
  },
);

test(
  'loading: else the system name, found through the loader path',
  { skip: !loadedFile && 'no library folder to search' },
  (t) => {
    if (fs.existsSync(path.join(PACKAGE, LIBRARY_NAME))) {
      t.skip(`${LIBRARY_NAME} in the package folder would be loaded first`);
      return;
    }
    const run = loadIn(PACKAGE, {
      MEMKIT_LIBRARY: undefined,
      LD_LIBRARY_PATH: path.dirname(loadedFile),
    });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.report, { path: LIBRARY_NAME, number: 200 });
  },
);
