'use strict';
// What the binding's tests share (no tests of its own: node --test runs it and finds none).

const fs = require('node:fs');
const path = require('node:path');

const { Workspace } = require('..');

// Every file and folder under root, relative and sorted (folders end in '/').
function tree(root) {
  const out = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const rel = path.relative(root, full).split(path.sep).join('/');
      if (entry.isDirectory()) {
        out.push(`${rel}/`);
        walk(full);
      } else {
        out.push(rel);
      }
    }
  };
  walk(root);
  return out.sort();
}

// A workspace of `layout` on root, closed after the test.
function openWorkspace(t, root, layout) {
  const ws = Workspace.open(root, { layout });
  t.after(() => ws.close());
  return ws;
}

// Runs a command and returns {result, envelope}; the result is closed after the test.
function run(t, fn) {
  const result = fn();
  t.after(() => result.close());
  return { result, envelope: JSON.parse(result.json) };
}

module.exports = { tree, openWorkspace, run };
