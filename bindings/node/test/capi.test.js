'use strict';
// The raw layer against capi/memkit.h (STYLE B1): every MK_API function is declared once in
// lib/capi.js, in header order, under the header's own declaration as a comment, from a prototype
// string of the same name, and exported; every numeric MK_* constant has the header's value.
// tests/abi/check_bindings.py only checks that each exported name appears somewhere.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const capi = require('../lib/capi.js');

const HEADER = path.resolve(__dirname, '..', '..', '..', 'capi', 'memkit.h');
const RAW = path.resolve(__dirname, '..', 'lib', 'capi.js');
const skip = fs.existsSync(HEADER) ? false : `no ${HEADER} (not a source tree)`;

const squeeze = (text) => text.replace(/\s+/g, ' ').replace(/\( /g, '(').trim();

function headerDeclarations() {
  const header = fs.readFileSync(HEADER, 'utf8');
  return [...header.matchAll(/^MK_API\s[^;]*?\b(mk_\w+)\s*\([^;]*;/gm)].map((m) => ({
    name: m[1],
    declaration: squeeze(m[0]),
  }));
}

test('capi: every memkit.h function is bound once, in header order', { skip }, () => {
  const declared = headerDeclarations().map((d) => d.name);
  assert.ok(declared.length >= 33, `${declared.length} MK_API declarations found`);
  const raw = fs.readFileSync(RAW, 'utf8');
  const bound = [...raw.matchAll(/^const (mk_\w+) = lib\.func\(/gm)].map((m) => m[1]);
  assert.deepEqual(bound, declared);
  // module.exports lists them in the same order, and each is a function.
  const exported = Object.keys(capi).filter((key) => key.startsWith('mk_'));
  assert.deepEqual(exported, declared);
  for (const name of declared) assert.equal(typeof capi[name], 'function', name);
});

test('capi: each function stands under its header declaration and prototype', { skip }, () => {
  const lines = fs.readFileSync(RAW, 'utf8').split('\n');
  for (const { name, declaration } of headerDeclarations()) {
    const at = lines.findIndex((line) => line.startsWith(`const ${name} = lib.func(`));
    assert.ok(at > 0, `${name} is declared`);
    const comment = [];
    for (let i = at - 1; i >= 0 && lines[i].startsWith('//'); i--)
      comment.unshift(lines[i].slice(2));
    assert.equal(squeeze(comment.join(' ')), declaration, `${name}: the comment above it`);
    // The prototype string (possibly split over lines) names the same function.
    const call = lines.slice(at, at + 6).join(' ');
    assert.match(call, new RegExp(`lib\\.func\\(\\s*'[^']*\\b${name}\\(`), `${name}: prototype`);
  }
});

test('capi: every numeric MK_* constant has the header value', { skip }, () => {
  const header = fs
    .readFileSync(HEADER, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\/\/.*$/gm, '');
  const expected = {};
  for (const m of header.matchAll(/^#define (MK_[A-Z0-9_]+) (-?\d+)u?\s*$/gm))
    expected[m[1]] = Number(m[2]);
  for (const m of header.matchAll(/\b(MK_[A-Z0-9_]+)\s*=\s*(-?\d+)/g))
    expected[m[1]] = Number(m[2]);
  // The version is read from the library (mk_version_number), not a constant of this binding.
  for (const key of ['MK_VERSION_MAJOR', 'MK_VERSION_MINOR', 'MK_VERSION_PATCH'])
    delete expected[key];
  assert.ok(Object.keys(expected).length > 30, 'the header has constants');
  assert.deepEqual({ ...capi.constants }, expected);
});

// The header's struct body as [type, name] pairs, as koffi names the types (`char *`, int32_t).
function headerStruct(name) {
  const header = fs.readFileSync(HEADER, 'utf8');
  const m = new RegExp(`typedef struct ${name} \\{([\\s\\S]*?)\\} ${name};`).exec(header);
  assert.ok(m, `memkit.h defines struct ${name}`);
  // koffi names a field of an alias (mk_layout) by the type it stands for (int32_t).
  const aliases = Object.fromEntries(
    [...header.matchAll(/^typedef (u?int\d+_t) (\w+);/gm)].map((t) => [t[2], t[1]]),
  );
  return m[1]
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split(';')
    .map((field) => field.trim())
    .filter((field) => field !== '')
    .map((field) => {
      const at = /^(.*?)\s*\b(\w+)$/.exec(field);
      const type = at[1].replace(/^const /, '').replace(/\s*\*$/, ' *');
      return [aliases[type] ?? type, at[2]];
    });
}

for (const name of ['mk_workspace_options', 'mk_clock', 'mk_budget_row', 'mk_unit']) {
  test(`capi: ${name} has the header fields, in order, with their types`, { skip }, () => {
    const fields = headerStruct(name);
    const members = Object.values(capi.koffi.type(capi.types[name]).members);
    assert.deepEqual(members.map((member) => [member.type.name, member.name]), fields);
  });
}
