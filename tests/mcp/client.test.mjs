// `memkit mcp` driven by a client no one here wrote: the official MCP TypeScript SDK
// (@modelcontextprotocol/sdk, pinned by package-lock.json, installed by scripts/bootstrap), over
// its stdio transport. Then the raw protocol's mistakes, on a child process of its own.
//
// usage: MEMKIT=path/to/memkit node --test tests/mcp/
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import Ajv from 'ajv';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const MEMKIT = process.env.MEMKIT;
if (!MEMKIT) throw new Error('set MEMKIT to the memkit binary');
const NOW = '2026-11-30T10:00:00Z';

function cli(...args) {
  return execFileSync(MEMKIT, [...args, '--now', NOW], { encoding: 'utf8' });
}

// A root with the custodian's memory (an inbox with a duplicate, a note) and MemoryBox's.
function plantRoot() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'memkit-mcp-'));
  cli('custodian', 'init', '--project-root', root);
  fs.writeFileSync(path.join(root, 'docs/memory/inbox.md'),
    '# Inbox\n\n- Use tabs\n- use tabs  \n- Keep CRLF\n');
  cli('custodian', 'add', 'Cache eviction uses LRU with a 10 minute TTL', '--type', 'constraint',
    '--project-root', root);
  cli('memorybox', 'init', '--root', root);
  return root;
}

// The stdio transport, recording what comes back and, when asked, rewriting the protocol version
// the SDK's initialize asks for (it always asks for its newest).
class Recording {
  constructor(root, askVersion) {
    this.inner = new StdioClientTransport({ command: MEMKIT, args: ['mcp', '--root', root, '--now', NOW] });
    this.askVersion = askVersion;
    this.received = [];
  }
  async start() {
    this.inner.onmessage = (m) => { this.received.push(m); this.onmessage?.(m); };
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (e) => this.onerror?.(e);
    await this.inner.start();
  }
  async send(message, options) {
    if (this.askVersion && message.method === 'initialize') {
      message = { ...message, params: { ...message.params, protocolVersion: this.askVersion } };
    }
    return this.inner.send(message, options);
  }
  async close() { await this.inner.close(); }
  setProtocolVersion(v) { this.inner.setProtocolVersion?.(v); }
}

async function connect(root, { askVersion, sampling } = {}) {
  const client = new Client({ name: 'memkit-tests', version: '1.0.0' },
    { capabilities: sampling ? { sampling: {} } : {} });
  if (sampling) client.setRequestHandler(CreateMessageRequestSchema, sampling);
  const transport = new Recording(root, askVersion);
  await client.connect(transport);
  return { client, transport };
}

for (const version of ['2025-11-25', '2025-06-18']) {
  test(`initialize: protocol ${version} is served as asked`, async () => {
    const root = plantRoot();
    const { client, transport } = await connect(root, { askVersion: version });
    const answer = transport.received.find((m) => m.id !== undefined && m.result?.protocolVersion);
    assert.equal(answer.result.protocolVersion, version);
    assert.equal(client.getServerVersion().name, 'memkit');
    assert.ok(client.getServerCapabilities().tools);
    await client.ping();
    await client.close();
  });
}

test('tools/list: one tool per command of the table, every schema valid', async (t) => {
  const root = plantRoot();
  const { client } = await connect(root);
  t.after(() => client.close());
  const { tools } = await client.listTools();
  const table = JSON.parse(execFileSync(MEMKIT, ['commands', '--format', 'json'], { encoding: 'utf8' }));
  // A server (`mcp`) and the CLI's own commands (`bench`) are not tools.
  const commands = table.groups.filter((g) => g.workspace !== 'server' && g.workspace !== 'cli')
    .flatMap((g) => g.commands);
  assert.deepEqual(tools.map((t) => t.name), commands.map((c) => c.name.replaceAll(' ', '_')));
  const ajv = new Ajv({ strict: false });
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, 'object', tool.name);
    ajv.compile(tool.inputSchema);
    ajv.compile(tool.outputSchema);
    const command = commands.find((c) => c.name.replaceAll(' ', '_') === tool.name);
    assert.equal(tool.annotations.readOnlyHint, command.effect === 'reads', tool.name);
    assert.equal(tool.annotations.destructiveHint, command.effect === 'plans', tool.name);
    for (const a of command.arguments.filter((x) => x.root)) {
      assert.ok(!(a.name.replace(/^--/, '').replaceAll('-', '_') in tool.inputSchema.properties),
        `${tool.name} takes its root ${a.name} from the server`);
    }
  }
});

test('tools/call search: the envelope the CLI prints, and the human view', async () => {
  const root = plantRoot();
  const { client } = await connect(root);
  const result = await client.callTool({ name: 'search', arguments: { query: 'cache' } });
  assert.equal(result.isError, false);
  const printed = JSON.parse(cli('search', 'cache', '--root', root, '--format', 'json'));
  assert.deepEqual(result.structuredContent, printed);
  assert.equal(result.structuredContent.data.hits.length, 1);
  assert.match(result.content[0].text, /\[Cache\] eviction uses LRU/);
  await client.close();
});

test('tools/call context: the block the CLI compiles, under the budget', async () => {
  const root = plantRoot();
  const { client } = await connect(root);
  const result = await client.callTool({
    name: 'context', arguments: { budget: 1500, query: 'cache' } });
  assert.equal(result.isError, false);
  const printed = JSON.parse(cli('context', '--budget', '1500', '--query', 'cache', '--root', root,
    '--format', 'json'));
  assert.deepEqual(result.structuredContent, printed);
  assert.ok(result.structuredContent.data.tokens <= 1500);
  assert.match(result.structuredContent.data.block, /Cache eviction uses LRU/);
  await client.close();
});

test('tools/call: a custodian add writes; a compaction is a plan until confirmed', async () => {
  const root = plantRoot();
  const { client } = await connect(root);
  const added = await client.callTool({
    name: 'custodian_add', arguments: { message: 'Prefer small commits', type: 'preference' } });
  assert.equal(added.isError, false, JSON.stringify(added.structuredContent));
  assert.match(fs.readFileSync(path.join(root, 'docs/memory/preferences.md'), 'utf8'),
    /Prefer small commits/);

  const inbox = path.join(root, 'docs/memory/inbox.md');
  const before = fs.readFileSync(inbox, 'utf8');
  const plan = await client.callTool({ name: 'custodian_compact', arguments: {} });
  const id = plan.structuredContent.data.plan.plan_id;
  assert.match(id, /^[0-9a-f]{16}$/);
  assert.equal(fs.readFileSync(inbox, 'utf8'), before, 'a plan writes nothing');
  const refused = await client.callTool({ name: 'custodian_compact', arguments: { apply: true } });
  assert.equal(refused.isError, true);
  assert.equal(fs.readFileSync(inbox, 'utf8'), before, 'no apply without the Plan ID');
  const applied = await client.callTool({
    name: 'custodian_compact', arguments: { apply: true, confirm_plan: id } });
  assert.equal(applied.isError, false, JSON.stringify(applied.structuredContent));
  assert.equal(applied.structuredContent.data.applied, true);
  assert.notEqual(fs.readFileSync(inbox, 'utf8'), before);
  await client.close();
});

test('tools/call: a path outside the root is refused and nothing is written', async () => {
  const root = plantRoot();
  const { client } = await connect(root);
  const result = await client.callTool({ name: 'markdown_units', arguments: { file: '/etc/passwd' } });
  assert.equal(result.isError, true);
  assert.match(result.structuredContent.findings[0].message, /outside the root/);
  const traversal = await client.callTool({
    name: 'markdown_units', arguments: { file: '../../etc/passwd' } });
  assert.equal(traversal.isError, true);
  const unknown = await client.callTool({ name: 'search', arguments: { query: 'x', root: '/' } });
  assert.equal(unknown.isError, true, 'the root is the server\'s');
  await client.close();
});

test('tools/call memorybox_gate: the judgements come from the client\'s model', async () => {
  const root = plantRoot();
  const asked = [];
  const answers = { VALUE: 'yes', ALIGNMENT: 'new testing', REDUNDANCY: 'none',
    FRESHNESS: 'stable', PLACEMENT: '2 memory/LONG_TERM.md' };
  const sampling = async (request) => {
    const text = request.params.messages[0].content.text;
    const gate = Object.keys(answers).find((g) => text.includes(`the ${g} question`));
    asked.push(gate);
    return { role: 'assistant', model: 'test', content: { type: 'text', text: answers[gate] } };
  };
  const { client } = await connect(root, { sampling });
  const result = await client.callTool({ name: 'memorybox_gate', arguments: {
    text: 'Always run the tests before pushing', confidence: 0.9, apply: true } });
  assert.equal(result.isError, false, JSON.stringify(result.structuredContent));
  assert.deepEqual(asked, ['VALUE', 'ALIGNMENT', 'REDUNDANCY', 'FRESHNESS', 'PLACEMENT']);
  assert.equal(result.structuredContent.data.outcome, 'WRITE');
  assert.match(fs.readFileSync(path.join(root, 'memory/LONG_TERM.md'), 'utf8'),
    /Always run the tests before pushing/);
  await client.close();

  // Without sampling: NEEDS_JUDGEMENT with the question, nothing written.
  const plain = await connect(root);
  const judged = await plain.client.callTool({ name: 'memorybox_gate', arguments: {
    text: 'Deploys happen on Tuesdays', confidence: 0.8 } });
  assert.equal(judged.structuredContent.data.outcome, 'NEEDS_JUDGEMENT');
  assert.equal(judged.structuredContent.data.stopped_at, 'VALUE');
  await plain.client.close();
});

test('resources: every memory file, read as it is; nothing else', async () => {
  const root = plantRoot();
  fs.writeFileSync(path.join(root, 'secret.txt'), 'not memory\n');
  const { client } = await connect(root);
  const { resources } = await client.listResources();
  const uris = resources.map((r) => r.uri);
  assert.ok(uris.includes('memkit:///docs/memory/inbox.md'), uris.join(' '));
  assert.ok(uris.includes('memkit:///memory/LONG_TERM.md'), uris.join(' '));
  const inbox = resources.find((r) => r.uri === 'memkit:///docs/memory/inbox.md');
  assert.equal(inbox.mimeType, 'text/markdown');
  assert.equal(inbox.size, fs.statSync(path.join(root, 'docs/memory/inbox.md')).size);
  const read = await client.readResource({ uri: 'memkit:///docs/memory/inbox.md' });
  assert.equal(read.contents[0].text, fs.readFileSync(path.join(root, 'docs/memory/inbox.md'), 'utf8'));
  for (const uri of ['memkit:///secret.txt', 'memkit:///../../etc/passwd', 'file:///etc/passwd']) {
    await assert.rejects(client.readResource({ uri }), /-32002|not found/, uri);
  }
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.ok(resourceTemplates.length >= 4);
  await client.close();
});

test('prompts: session-start is the root\'s memkit context', async () => {
  const root = plantRoot();
  const { client } = await connect(root);
  const { prompts } = await client.listPrompts();
  assert.deepEqual(prompts.map((p) => p.name), ['session-start']);
  const got = await client.getPrompt({ name: 'session-start', arguments: { budget: '3000' } });
  const printed = JSON.parse(cli('context', '--budget', '3000', '--root', root, '--format', 'json'));
  assert.equal(got.messages[0].content.text, printed.data.block);
  await assert.rejects(client.getPrompt({ name: 'session-start', arguments: { budget: 'lots' } }));
  await client.close();
});

// ---- the raw protocol: mistakes and floods, on a server of its own -------------------------

// A server whose replies are read line by line; `ask` writes lines and waits for `count` replies.
function rawServer(root) {
  const child = spawn(MEMKIT, ['mcp', '--root', root], { stdio: ['pipe', 'pipe', 'inherit'] });
  let buffer = '';
  const replies = [];
  const waiting = [];
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
      replies.push(JSON.parse(buffer.slice(0, at)));
      buffer = buffer.slice(at + 1);
      while (waiting.length && replies.length >= waiting[0].count) waiting.shift().resolve();
    }
  });
  return {
    child,
    replies,
    async ask(text, count) {
      const done = new Promise((resolve) => waiting.push({ count: replies.length + count, resolve }));
      child.stdin.write(text);
      await done;
      return replies.slice(-count);
    },
  };
}

test('raw: each malformed message gets its JSON-RPC error, and the server keeps serving', async () => {
  const server = rawServer(plantRoot());
  const [parse] = await server.ask('{"jsonrpc":"2.0","id":1,\n', 1);
  assert.equal(parse.error.code, -32700);
  assert.equal(parse.id, null);
  const [notRpc] = await server.ask('{"id":2,"method":"ping"}\n', 1);
  assert.equal(notRpc.error.code, -32600);
  const [badId] = await server.ask('{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}\n', 1);
  assert.equal(badId.error.code, -32600);
  const [array] = await server.ask('[{"jsonrpc":"2.0","id":3,"method":"ping"}]\n', 1);
  assert.equal(array.error.code, -32600);
  const [unknown] = await server.ask('{"jsonrpc":"2.0","id":4,"method":"tools/destroy"}\n', 1);
  assert.deepEqual([unknown.id, unknown.error.code], [4, -32601]);
  const [params] = await server.ask('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":[]}\n', 1);
  assert.deepEqual([params.id, params.error.code], [5, -32602]);
  const [tool] = await server.ask(
    '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"rm_rf"}}\n', 1);
  assert.equal(tool.error.code, -32602);
  const [deep] = await server.ask('['.repeat(100000) + ']'.repeat(100000) + '\n', 1);
  assert.equal(deep.error.code, -32700);
  const [pong] = await server.ask('{"jsonrpc":"2.0","id":"p","method":"ping"}\n', 1);
  assert.deepEqual(pong, { jsonrpc: '2.0', id: 'p', result: {} });
  server.child.stdin.end();
});

test('raw: a 10 MB request and a flood of 10,000 leave it responsive and bounded', async () => {
  const server = rawServer(plantRoot());
  const big = JSON.stringify({ jsonrpc: '2.0', id: 'big', method: 'tools/call',
    params: { name: 'search', arguments: { query: 'x'.repeat(10 * 1024 * 1024) } } });
  const [answer] = await server.ask(big + '\n', 1);
  assert.equal(answer.id, 'big');
  let flood = '';
  for (let i = 0; i < 10000; ++i) flood += `{"jsonrpc":"2.0","id":${i},"method":"ping"}\n`;
  const replies = await server.ask(flood, 10000);
  assert.equal(replies.length, 10000);
  assert.equal(replies[9999].id, 9999);
  const status = fs.readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  const peak = Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]);
  assert.ok(peak < 512 * 1024, `peak resident memory ${peak} kB`);
  const [pong] = await server.ask('{"jsonrpc":"2.0","id":"after","method":"ping"}\n', 1);
  assert.equal(pong.id, 'after');
  server.child.stdin.end();
});
