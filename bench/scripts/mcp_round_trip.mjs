// `memkit mcp` timed by the official MCP TypeScript SDK client (issue 29): from spawning the server
// to its initialize answered, and the round trip of tools/call in one session: ping (the
// protocol's own cost: read, parse, dispatch, write), a search and a small write (a custodian add)
// on a small custodian root. Medians; the SDK comes from tests/mcp (scripts/bootstrap).
//
// usage: node bench/scripts/mcp_round_trip.mjs build-bench/src/cli/memkit [--runs 200]
//          [--json FILE]
// --json FILE also writes the medians (seconds) to FILE, for bench/scripts/benchmarks_md.py.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { Client } from '../../tests/mcp/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js';
import { StdioClientTransport } from '../../tests/mcp/node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.js';

const memkit = path.resolve(process.argv[2] ?? '');
const runsAt = process.argv.indexOf('--runs');
const runs = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 200;
const jsonAt = process.argv.indexOf('--json');
const jsonOut = jsonAt > 0 ? process.argv[jsonAt + 1] : null;
if (!fs.existsSync(memkit)) {
  console.error('usage: mcp_round_trip.mjs MEMKIT [--runs N] [--json FILE]');
  process.exit(2);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(2)} ms`;

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'memkit-mcp-bench-'));
execFileSync(memkit, ['custodian', 'init', '--project-root', root]);
for (let i = 0; i < 200; ++i) {
  execFileSync(memkit, ['custodian', 'add', `note ${i} about cache ${i % 7} and deploy ${i % 13}`,
    '--type', 'constraint', '--project-root', root]);
}

async function connect() {
  const client = new Client({ name: 'memkit-bench', version: '1.0.0' });
  const began = performance.now();
  await client.connect(new StdioClientTransport({ command: memkit, args: ['mcp', '--root', root] }));
  return { client, started: performance.now() - began };
}

const starts = [];
for (let i = 0; i < 20; ++i) {
  const { client, started } = await connect();
  starts.push(started);
  await client.close();
}

const { client } = await connect();
async function time(call) {
  await call();  // warm-up (a search's first call builds the index)
  const took = [];
  for (let i = 0; i < runs; ++i) {
    const began = performance.now();
    await call();
    took.push(performance.now() - began);
  }
  return median(took);
}
const ping = await time(() => client.ping());
const search = await time(() => client.callTool({ name: 'search', arguments: { query: 'cache' } }));
let n = 0;
const add = await time(() => client.callTool({
  name: 'custodian_add', arguments: { message: `benchmark note ${n++}`, type: 'inbox' } }));
await client.close();
fs.rmSync(root, { recursive: true, force: true });

console.log(`memkit: ${memkit}; node ${process.version}; ${os.cpus().length} CPUs; median of ${runs}`);
console.log('| spawn to initialize answered | ping | tools/call search | tools/call custodian_add |');
console.log('|---|---|---|---|');
console.log(`| ${ms(median(starts))} | ${ms(ping)} | ${ms(search)} | ${ms(add)} |`);
if (jsonOut) {
  const seconds = (x) => x / 1000;
  fs.writeFileSync(jsonOut, JSON.stringify({
    node: process.version, runs, notes: 200, spawn_runs: starts.length,
    spawn_to_initialize_s: seconds(median(starts)), ping_s: seconds(ping),
    search_s: seconds(search), custodian_add_s: seconds(add),
  }, null, 1) + '\n');
}
