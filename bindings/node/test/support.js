'use strict';
// What the binding's tests share (no tests of its own: node --test runs it and finds none).

const fs = require('node:fs');
const path = require('node:path');

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

module.exports = { tree };
