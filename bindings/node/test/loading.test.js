'use strict';
// Where the library comes from (MEMKIT_LIBRARY, the copy bundled in prebuilds/, the versioned
// soname through the system loader, never the unversioned libmemkit.so) and the version check on
// load. Each case loads the binding in a child process with its own environment.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const memkit = require('..');

const PACKAGE = path.resolve(__dirname, '..');
const { SONAME } = require('../lib/capi.js');
const BUNDLED = path.join(PACKAGE, 'prebuilds', `${process.platform}-${process.arch}`, SONAME);

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
  const missing = path.join(tempDir(t), 'nowhere', SONAME);
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
    /is version 99 \(0\.0\.99\), but this binding needs MK_VERSION_NUMBER 200 \(0\.2\.0\)/,
  );
});

// A copy of the package (its code, koffi through a link), with `library` (a file to copy, or
// bytes) bundled where npm pack puts it; returns the copy's folder and the bundled path.
function packageWith(t, library) {
  const pkg = tempDir(t);
  fs.copyFileSync(path.join(PACKAGE, 'index.js'), path.join(pkg, 'index.js'));
  fs.copyFileSync(path.join(PACKAGE, 'package.json'), path.join(pkg, 'package.json'));
  fs.cpSync(path.join(PACKAGE, 'lib'), path.join(pkg, 'lib'), { recursive: true });
  fs.symlinkSync(path.join(PACKAGE, 'node_modules'), path.join(pkg, 'node_modules'));
  const bundled = path.join(pkg, 'prebuilds', `${process.platform}-${process.arch}`, SONAME);
  fs.mkdirSync(path.dirname(bundled), { recursive: true });
  if (Buffer.isBuffer(library)) fs.writeFileSync(bundled, library);
  else fs.copyFileSync(library, bundled);
  return { pkg, bundled };
}

// A folder holding only `name`, a link to the library this run loaded (for LD_LIBRARY_PATH).
function folderWith(t, name) {
  const dir = tempDir(t);
  fs.symlinkSync(loadedFile, path.join(dir, name));
  return dir;
}

test('loading: the soname is the versioned one', () => {
  assert.equal(SONAME, 'libmemkit.so.0.2');
});

test(
  'loading: without MEMKIT_LIBRARY, the copy bundled in the package is used',
  { skip: !loadedFile && 'no library file to copy' },
  (t) => {
    const { pkg, bundled } = packageWith(t, loadedFile);
    const run = loadIn(pkg, {
      MEMKIT_LIBRARY: undefined,
      LD_LIBRARY_PATH: folderWith(t, SONAME), // the system's would come after it
    });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.report, { path: bundled, number: 200 });
  },
);

test(
  'loading: a bundled copy that does not load is an error, not a fallback',
  { skip: !loadedFile && 'no library file to point at' },
  (t) => {
    const { pkg, bundled } = packageWith(t, Buffer.from('not an ELF file'));
    const run = loadIn(pkg, {
      MEMKIT_LIBRARY: undefined,
      LD_LIBRARY_PATH: folderWith(t, SONAME),
    });
    assert.notEqual(run.status, 0);
    assert.ok(run.stderr.includes(`cannot load ${bundled} (bundled with the package)`), run.stderr);
  },
);

test(
  'loading: else the versioned soname, through the system loader',
  { skip: !loadedFile && 'no library folder to search' },
  (t) => {
    if (fs.existsSync(BUNDLED)) {
      t.skip(`${BUNDLED} would be loaded first`);
      return;
    }
    const run = loadIn(PACKAGE, {
      MEMKIT_LIBRARY: undefined,
      LD_LIBRARY_PATH: folderWith(t, SONAME),
    });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.report, { path: SONAME, number: 200 });
  },
);

test(
  'loading: never the unversioned development name; nowhere says what to install',
  { skip: !loadedFile && 'no library to link to' },
  (t) => {
    if (fs.existsSync(BUNDLED)) {
      t.skip(`${BUNDLED} would be loaded first`);
      return;
    }
    const run = loadIn(PACKAGE, {
      MEMKIT_LIBRARY: undefined,
      LD_LIBRARY_PATH: folderWith(t, 'libmemkit.so'),
    });
    if (run.status === 0) {
      t.skip(`the system itself has ${SONAME}`);
      return;
    }
    assert.ok(run.stderr.includes('memkit: libmemkit not found: MEMKIT_LIBRARY is not set, '),
      run.stderr);
    assert.ok(run.stderr.includes(`${BUNDLED} does not exist`), run.stderr);
    assert.ok(run.stderr.includes(`the system loader cannot load ${SONAME}`), run.stderr);
    const hint = new RegExp(
      '; install the Debian package memkit \\(apt-get install \\./memkit_0\\.2\\.0_\\w+\\.deb\\), ' +
        'or build memkit from source \\(cmake --install\\), or set MEMKIT_LIBRARY',
    );
    assert.match(run.stderr, hint);
  },
);
