'use strict';
// npm pack's prepack and postpack (node only, no dependencies): `node scripts/pack.js bundle`
// copies libmemkit into prebuilds/<platform>-<arch>/<soname>, where lib/capi.js looks right after
// MEMKIT_LIBRARY, so that the tarball is self-contained; `node scripts/pack.js clean` removes what
// bundle added. Which library, from npm's config (`--memkit-library=PATH` on the command line, or
// the variable npm_config_memkit_library=PATH, which newer npm keeps taking):
//
//   memkit_library=PATH   that file (a symbolic link is followed: the real file is copied)
//   memkit_prefix=DIR     an install prefix: DIR/lib[/<multiarch>|64]/<soname>
//   memkit_bundle=auto    (the default) else `pkg-config --variable=libdir memkit`
//                         (PKG_CONFIG_PATH counts), else the checkout's build/capi/
//   memkit_bundle=yes     as auto, but no library found is an error
//   memkit_bundle=no      bundle nothing
//
// Without a library the package loads the soname through the system loader (the Debian package
// memkit) or MEMKIT_LIBRARY. The library's own dependencies are not bundled: each must resolve,
// through ldd, to the system's library folders (libc, libstdc++, libgcc_s, libm, and Debian's
// libfmt.so.9 today); one found anywhere else is an error rather than a package
// that loads only on this machine. Relative paths are taken from where npm was run (INIT_CWD).

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const PACKAGE = path.resolve(__dirname, '..');
const REPOSITORY = path.resolve(PACKAGE, '..', '..');
const PREBUILDS = path.join(PACKAGE, 'prebuilds');
const ADDED = path.join(PACKAGE, '.pack-added.json'); // what bundle added, for clean
// Dependencies every Linux C++ program has; any other is named when bundling.
const TOOLCHAIN = new RegExp(
  '^(linux-vdso|linux-gate|ld-linux[-\\w.]*|libc|libm|libstdc\\+\\+|libgcc_s|' +
    'libpthread|libdl|librt)\\.so',
);
const SYSTEM_DIRS = ['/lib/', '/lib64/', '/usr/lib/', '/usr/lib64/'];

class PackError extends Error {}

function say(message) {
  process.stderr.write(`memkit prepack: ${message}\n`);
}

function config(name) {
  const value = process.env[`npm_config_memkit_${name}`];
  return value === undefined || value === '' ? null : value;
}

function fromUser(file) {
  return path.resolve(process.env.INIT_CWD || process.cwd(), file);
}

// The soname and version number lib/capi.js loads (generated from memkit.h), checked against
// package.json's version.
function binding() {
  const capi = fs.readFileSync(path.join(PACKAGE, 'lib', 'capi.js'), 'utf8');
  const soname = /^const SONAME = '([^']+)';$/m.exec(capi)[1];
  const number = Number(/^const MK_VERSION_NUMBER = (\d+);$/m.exec(capi)[1]);
  const { version } = JSON.parse(fs.readFileSync(path.join(PACKAGE, 'package.json'), 'utf8'));
  const dotted = `${Math.floor(number / 10000)}.${Math.floor(number / 100) % 100}.${number % 100}`;
  if (version !== dotted)
    throw new PackError(`package.json says ${version}, but lib/capi.js is memkit.h ${dotted}`);
  return { soname, number };
}

function inPrefix(prefix, soname) {
  const multiarch = { x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu' }[process.arch];
  const dirs = [path.join(prefix, 'lib')];
  if (multiarch) dirs.push(path.join(prefix, 'lib', multiarch));
  dirs.push(path.join(prefix, 'lib64'));
  return dirs.map((dir) => path.join(dir, soname));
}

function pkgConfigLibdir() {
  const run = spawnSync(process.env.PKG_CONFIG || 'pkg-config', ['--variable=libdir', 'memkit'], {
    encoding: 'utf8',
  });
  const libdir = run.status === 0 ? run.stdout.trim() : '';
  return libdir === '' ? null : libdir;
}

// The library to bundle and how it was found, or {file: null, how: what was tried}.
function findLibrary(soname) {
  const bundle = config('bundle') ?? 'auto';
  if (!['auto', 'yes', 'no'].includes(bundle))
    throw new PackError(`memkit_bundle=${bundle}: expected auto, yes or no`);
  if (bundle === 'no') return { file: null, how: 'memkit_bundle=no' };
  const library = config('library');
  if (library !== null) {
    const file = fromUser(library);
    if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile())
      throw new PackError(`memkit_library=${library}: no such file`);
    return { file, how: `memkit_library=${library}` };
  }
  const prefix = config('prefix');
  if (prefix !== null) {
    const candidates = inPrefix(fromUser(prefix), soname);
    const file = candidates.find((c) => fs.existsSync(c));
    if (!file)
      throw new PackError(
        `memkit_prefix=${prefix}: no ${soname} in ${candidates.map(path.dirname).join(', ')}`);
    return { file, how: `memkit_prefix=${prefix}` };
  }
  const tried = [];
  const libdir = pkgConfigLibdir();
  if (libdir !== null) {
    const file = path.join(libdir, soname);
    if (fs.existsSync(file)) return { file, how: `pkg-config memkit (libdir ${libdir})` };
    tried.push(`pkg-config's libdir ${libdir} has no ${soname}`);
  } else {
    tried.push('pkg-config does not know memkit (PKG_CONFIG_PATH)');
  }
  if (fs.existsSync(path.join(REPOSITORY, 'capi', 'memkit.h'))) {
    const file = path.join(REPOSITORY, 'build', 'capi', soname);
    if (fs.existsSync(file)) return { file, how: `the checkout's build (${path.dirname(file)})` };
    tried.push(`the checkout has no ${file}`);
  }
  tried.push('neither --memkit-library=PATH nor --memkit-prefix=DIR was given');
  if (bundle === 'yes')
    throw new PackError(`memkit_bundle=yes, but no ${soname} was found: ${tried.join('; ')}`);
  return { file: null, how: tried.join('; ') };
}

// Checks the library is the binding's version (when koffi is installed to ask it) and needs only
// system libraries; returns the sonames of the non-toolchain ones.
function inspectLibrary(file, number) {
  let koffi = null;
  try {
    koffi = require('koffi');
  } catch {
    say('koffi is not installed (npm ci): the library\'s version is not checked');
  }
  if (koffi !== null) {
    let found;
    try {
      const lib = koffi.load(file);
      found = lib.func('int32_t mk_version_number(void)')();
      lib.unload();
    } catch (err) {
      throw new PackError(`${file} does not load as libmemkit: ${err.message}`);
    }
    if (found !== number)
      throw new PackError(`${file} is libmemkit ${found} (mk_version_number()), but this ` +
        `binding is ${number}: bundle a matching library`);
  }
  const ldd = spawnSync('ldd', [file], { encoding: 'utf8' });
  if (ldd.error) {
    say('ldd is not on PATH: the library\'s dependencies are not checked');
    return [];
  }
  if (ldd.status !== 0) throw new PackError(`ldd ${file} failed: ${ldd.stderr || ldd.stdout}`);
  const external = [];
  const foreign = [];
  for (const line of ldd.stdout.split('\n')) {
    const match = /^\s*(\S+)\s+=>\s+(not found|\S+)/.exec(line);
    if (!match) continue;
    const [, name, where] = match;
    if (where === 'not found' || !SYSTEM_DIRS.some((dir) => where.startsWith(dir)))
      foreign.push(`${name} (${where})`);
    else if (!TOOLCHAIN.test(name)) external.push(name);
  }
  if (foreign.length > 0)
    throw new PackError(`${file} needs ${foreign.join(', ')}, which is not a system library: ` +
      'the package would load only where that exists. Install it system-wide, or pack without ' +
      'bundling (--memkit-bundle=no)');
  return external;
}

function bundle() {
  clean();
  const { soname, number } = binding();
  const added = [];
  const { file, how } = findLibrary(soname);
  if (file === null) {
    say(`no library bundled (${how}): the package loads ${soname} through the system loader ` +
      '(the Debian package memkit) or MEMKIT_LIBRARY');
  } else {
    const real = fs.realpathSync(file);
    const external = inspectLibrary(real, number);
    const target = path.join(PREBUILDS, `${process.platform}-${process.arch}`, soname);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(real, target);
    fs.chmodSync(target, 0o755);
    added.push(path.relative(PACKAGE, PREBUILDS));
    say(`bundling ${real} (found through ${how}) as ${path.relative(PACKAGE, target)}; it needs ` +
      `these system libraries: ${external.join(', ') || 'none'}`);
  }
  const licence = path.join(REPOSITORY, 'LICENSE');
  if (!fs.existsSync(path.join(PACKAGE, 'LICENSE')) && fs.existsSync(licence)) {
    fs.copyFileSync(licence, path.join(PACKAGE, 'LICENSE'));
    added.push('LICENSE');
  }
  fs.writeFileSync(ADDED, `${JSON.stringify(added)}\n`);
}

// Removes what bundle added (and prebuilds/, which only bundle makes).
function clean() {
  let added = [];
  if (fs.existsSync(ADDED)) added = JSON.parse(fs.readFileSync(ADDED, 'utf8'));
  for (const entry of new Set([...added, 'prebuilds']))
    fs.rmSync(path.join(PACKAGE, entry), { recursive: true, force: true });
  fs.rmSync(ADDED, { force: true });
}

const step = process.argv[2];
try {
  if (step === 'bundle') bundle();
  else if (step === 'clean') clean();
  else throw new PackError('usage: node scripts/pack.js bundle|clean');
} catch (err) {
  if (!(err instanceof PackError)) throw err;
  say(`error: ${err.message}`);
  process.exitCode = 1;
}
