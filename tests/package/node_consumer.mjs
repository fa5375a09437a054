#!/usr/bin/env node
// The Node binding packed and installed as a user installs it, then used with nothing of the
// repository.
//
//   node tests/package/node_consumer.mjs --prefix PREFIX [--source REPO] [--keep]
//
// PREFIX is a `cmake --install` of memkit (PREFIX/lib/libmemkit.so.0.<minor>); REPO the source tree
// (default: the one holding this file), whose bindings/node has had `npm ci` (koffi, in
// node_modules and in npm's cache). In a temporary folder: a copy of bindings/node, `npm pack` of
// it with npm_config_memkit_prefix=PREFIX (its prepack bundles the library), a consumer folder that
// runs `npm install --offline` of the tarball with an empty npm cache (koffi is bundled in it), and, in an environment
// without MEMKIT_LIBRARY or LD_LIBRARY_PATH, a consumer that requires memkit, which must load the
// copy bundled in the package, and runs the README's compaction dry run on a copy of
// REPO/examples/project. It also checks the tarball's files, and type-checks a TypeScript consumer
// against the installed index.d.ts when tests/package/node_types has had `npm ci` (else it says so
// and goes on).
//
// Exit 0 when all holds, 1 with a message naming what did not, 77 (ctest's skip) without npm or
// tar. Needs node (20+), npm and tar on PATH; about 10 s.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const NOW = '2026-11-30T10:00:00+00:00';
const PLAN_ID = '5a05e9af4948c186'; // README.md's quick start: the compaction dry run at NOW
const SKIP = 77;

class Failure extends Error {}

const CONSUMER = `'use strict';
const memkit = require('memkit');
const [project, now] = process.argv.slice(2);
const ws = memkit.Workspace.open(project);
const plan = ws.compact(now);
const counts = plan.inboxCounts;
console.log(JSON.stringify({
  file: require.resolve('memkit'), library: memkit.libraryPath, version: memkit.version(),
  planId: plan.planId, exitCode: plan.exitCode, applied: plan.applied,
  items: counts.inboxItems, duplicates: counts.duplicates,
}));
plan.close();
ws.close();
`;

const TYPED_CONSUMER = `import { Workspace, type InboxCounts } from 'memkit';
const ws = Workspace.open(process.argv[2]);
const plan = ws.compact(process.argv[3]);
const counts: InboxCounts | null = plan.inboxCounts;
const id: string | null = plan.planId;
// @ts-expect-error: the declarations know the command's arguments
ws.compact(process.argv[3], { aply: true });
console.log(id, counts?.duplicates);
`;

// The environment of a user who never heard of this repository's variables.
function cleanEnv(extra = {}) {
  const env = {};
  for (const key of ['PATH', 'HOME', 'LANG', 'TMPDIR'])
    if (key in process.env) env[key] = process.env[key];
  return { ...env, ...extra };
}

function run(command, args, what, options = {}) {
  const done = spawnSync(command, args, {
    encoding: 'utf8',
    timeout: 300_000,
    env: cleanEnv(options.env),
    cwd: options.cwd,
  });
  if (done.error || done.status !== 0) {
    const why = done.error ? done.error.message : `exit ${done.status}`;
    throw new Failure(`${what} failed (${why}): ${command} ${args.join(' ')}\n` +
      `${done.stdout ?? ''}${done.stderr ?? ''}`);
  }
  return done;
}

function onPath(command) {
  return spawnSync(command, ['--version'], { encoding: 'utf8' }).status === 0;
}

function headerVersion(source) {
  const header = fs.readFileSync(path.join(source, 'capi', 'memkit.h'), 'utf8');
  const [major, minor, patch] = ['MAJOR', 'MINOR', 'PATCH'].map(
    (part) => new RegExp(`#define MK_VERSION_${part} (\\d+)`).exec(header)[1]);
  const soname = major === '0' ? `libmemkit.so.0.${minor}` : `libmemkit.so.${major}`;
  return { version: `${major}.${minor}.${patch}`, soname };
}

function filesUnder(root) {
  const out = new Map();
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    out.set(path.relative(root, file), fs.readFileSync(file));
  }
  return out;
}

function sameFiles(a, b) {
  return a.size === b.size && [...a].every(([name, bytes]) => b.get(name)?.equals(bytes));
}

function main() {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const { values } = parseArgs({
    options: {
      prefix: { type: 'string' },
      source: { type: 'string', default: path.resolve(here, '..', '..') },
      keep: { type: 'boolean', default: false },
    },
  });
  if (!values.prefix) throw new Failure('usage: node_consumer.mjs --prefix PREFIX [--source REPO]');
  const prefix = path.resolve(values.prefix);
  const source = path.resolve(values.source);
  if (!onPath('npm') || !onPath('tar')) {
    console.log('node_consumer: SKIP: npm and tar are needed on PATH');
    return SKIP;
  }
  const { version, soname } = headerVersion(source);
  const installed = ['lib', 'lib64']
    .map((dir) => path.join(prefix, dir, soname))
    .find((file) => fs.existsSync(file));
  if (!installed) throw new Failure(`no ${soname} under ${prefix}/lib`);
  const binding = path.join(source, 'bindings', 'node');
  if (!fs.existsSync(path.join(binding, 'node_modules', 'koffi')))
    throw new Failure(`${binding} has no node_modules/koffi: run npm ci there first`);

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'memkit-node-consumer-'));
  try {
    // The package, copied so that packing writes nothing into the source tree; koffi through a
    // link, so that prepack can ask the library its version.
    const pkg = path.join(work, 'package');
    fs.cpSync(binding, pkg, {
      recursive: true,
      filter: (from) => !/[/\\](node_modules|prebuilds)$/.test(from),
    });
    fs.symlinkSync(path.join(binding, 'node_modules'), path.join(pkg, 'node_modules'));
    const dist = path.join(work, 'dist');
    fs.mkdirSync(dist);
    const packed = run('npm', ['pack', '--pack-destination', dist], 'npm pack', {
      cwd: pkg,
      env: { npm_config_memkit_prefix: prefix, npm_config_memkit_bundle: 'yes' },
    });
    const tarball = path.join(dist, `memkit-${version}.tgz`);
    if (!fs.existsSync(tarball))
      throw new Failure(`npm pack made no ${tarball}:\n${packed.stderr}`);
    const listed = run('tar', ['tzf', tarball], 'tar').stdout.split('\n').filter(Boolean).sort();
    const bundledEntry = `package/prebuilds/${process.platform}-${process.arch}/${soname}`;
    for (const wanted of ['package/package.json', 'package/index.js', 'package/index.d.ts',
      'package/lib/capi.js', 'package/README.md', 'package/node_modules/koffi/package.json',
      bundledEntry]) {
      if (!listed.includes(wanted)) throw new Failure(`${tarball} has no ${wanted}: ${listed}`);
    }
    if (listed.some((entry) => /^package\/(test|scripts)\//.test(entry) ||
        /^package\/node_modules\/(?!koffi\/|@koromix\/koffi-)/.test(entry)))
      throw new Failure(`${tarball} holds files a user does not need: ${listed}`);

    const consumer = path.join(work, 'consumer');
    fs.mkdirSync(consumer);
    fs.writeFileSync(path.join(consumer, 'package.json'),
      `${JSON.stringify({ name: 'memkit-consumer', version: '1.0.0', private: true })}\n`);
    // koffi travels in the tarball (bundleDependencies), so the install needs no registry and no
    // cache: npm gets an empty cache of its own and --offline.
    const install = ['--offline', 'install', '--no-audit', '--no-fund', tarball];
    run('npm', install, 'npm install --offline', {
      cwd: consumer, env: { ...cleanEnv(), npm_config_cache: path.join(work, 'empty-npm-cache') },
    });
    if (!fs.existsSync(path.join(consumer, 'node_modules', 'memkit', 'node_modules', 'koffi',
      'package.json')))
      throw new Failure('the installed package brought no koffi');

    const project = path.join(work, 'project');
    fs.cpSync(path.join(source, 'examples', 'project'), project, { recursive: true });
    const before = filesUnder(project);
    fs.writeFileSync(path.join(consumer, 'consumer.js'), CONSUMER);
    const elsewhere = path.join(work, 'cwd'); // the consumer's folder is not the working directory
    fs.mkdirSync(elsewhere);
    const ran = run(process.execPath, [path.join(consumer, 'consumer.js'), project, NOW],
      'the consumer', { cwd: elsewhere });
    const report = JSON.parse(ran.stdout);
    const installedPackage = path.join(consumer, 'node_modules', 'memkit');
    const bundled = path.join(installedPackage, 'prebuilds', `${process.platform}-${process.arch}`,
      soname);
    const expected = {
      file: path.join(installedPackage, 'index.js'), library: bundled, version, planId: PLAN_ID,
      exitCode: 0, applied: false, items: 4, duplicates: 1,
    };
    if (JSON.stringify(report) !== JSON.stringify(expected))
      throw new Failure(`the consumer reported ${JSON.stringify(report)}, expected ` +
        JSON.stringify(expected));
    if (!fs.readFileSync(bundled).equals(fs.readFileSync(fs.realpathSync(installed))))
      throw new Failure(`${bundled} is not a copy of ${fs.realpathSync(installed)}`);
    if (!sameFiles(before, filesUnder(project)))
      throw new Failure('the dry run changed the project\'s files');

    const types = path.join(source, 'tests', 'package', 'node_types', 'node_modules');
    const tsc = path.join(types, 'typescript', 'bin', 'tsc');
    let typed = 'not type-checked (no npm ci in tests/package/node_types)';
    if (fs.existsSync(tsc)) {
      fs.writeFileSync(path.join(consumer, 'consumer.ts'), TYPED_CONSUMER);
      fs.writeFileSync(path.join(consumer, 'tsconfig.json'), JSON.stringify({
        compilerOptions: {
          strict: true, noEmit: true, target: 'es2022', lib: ['es2022'], module: 'node16',
          moduleResolution: 'node16', types: ['node'], typeRoots: [path.join(types, '@types')],
        },
        files: ['consumer.ts'],
      }));
      run(process.execPath, [tsc, '-p', consumer], 'tsc on the installed index.d.ts');
      typed = 'its index.d.ts type-checks';
    }
    console.log(`node_consumer: OK: ${bundled} loaded with nothing of the repository; plan ` +
      `${PLAN_ID}; the tarball holds what it needs; ${typed}`);
    return 0;
  } finally {
    if (values.keep) console.log(`node_consumer: kept ${work}`);
    else fs.rmSync(work, { recursive: true, force: true });
  }
}

try {
  process.exitCode = main();
} catch (err) {
  if (!(err instanceof Failure)) throw err;
  console.error(`node_consumer: FAIL: ${err.message}`);
  process.exitCode = 1;
}
