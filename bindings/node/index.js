'use strict';
// The idiomatic layer over lib/capi.js: classes that own the C handles and throw MemkitError on a
// non-OK mk_status. Every command runs through one request path (mk_request_* then
// mk_workspace_run), and a Workspace's command methods are made from the command table when it
// opens, so a command or argument added to the table needs no edit here. A command whose findings
// stop it still returns a Result (read exitCode and json); only a non-OK mk_status throws.

const capi = require('./lib/capi.js');

const { koffi, constants: C, types } = capi;

/* Errors */

/** A non-OK mk_status: code is the number, status its mk_status_name, message the library's. */
class MemkitError extends Error {
  constructor(code, message, options) {
    super(message, options);
    this.name = 'MemkitError';
    this.code = code;
    this.status = capi.mk_status_name(code);
  }
}

// Reads mk_error_message() at once: it is only valid until the next mk_ call on this thread.
function throwStatus(status, fnName, options) {
  const message = capi.mk_error_message() || `${fnName} returned ${capi.mk_status_name(status)}`;
  throw new MemkitError(status, message, options);
}

function check(status, fnName) {
  if (status !== C.MK_OK) throwStatus(status, fnName);
}

// The library's own code for a malformed argument, so callers handle one kind of error.
function argError(message) {
  return new MemkitError(C.MK_E_ARG, message);
}

/* Text */

// A NUL-terminated string argument. An embedded NUL would silently cut it short in C.
function cString(value, what) {
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string`);
  if (value.includes('\0')) throw argError(`${what}: contains a NUL byte`);
  return value;
}

// A Buffer or Uint8Array as a Buffer over the same bytes (a view may start past its buffer's
// first byte), or null for any other value.
function bytesOf(value) {
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.length);
  return null;
}

// Text for a `const char*`: a string as it is, or bytes copied with a terminating NUL. Bytes are
// passed unchecked so that text that is not UTF-8 reaches the library, which reports it.
function cText(value, what) {
  const bytes = bytesOf(value);
  if (bytes === null) return cString(value, what);
  if (bytes.includes(0)) throw argError(`${what}: contains a NUL byte`);
  return Buffer.concat([bytes, Buffer.alloc(1)]);
}

function viewBytes(ptr, size) {
  return size === 0 ? Buffer.alloc(0) : Buffer.from(new Uint8Array(koffi.view(ptr, size)));
}

// Copies the bytes of an mk_buf the library filled, then releases them with mk_buf_dispose.
function takeBuf(buf) {
  try {
    return buf.ptr === null ? Buffer.alloc(0) : viewBytes(buf.ptr, Number(buf.size));
  } finally {
    capi.mk_buf_dispose(buf);
  }
}

// Options objects are checked for unknown keys: a misspelt option would otherwise be ignored.
function options(value, allowed, what) {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object') throw new TypeError(`${what} must be an object`);
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key))
      throw new TypeError(`${what}: unknown option "${key}" (expected ${allowed.join(', ')})`);
  }
  return value;
}

/* Version, status and the command table */

/** The loaded library's version string, e.g. "0.2.0" (mk_version_string). */
function version() {
  return capi.mk_version_string();
}

/** The loaded library's MAJOR * 10000 + MINOR * 100 + PATCH, e.g. 200 (mk_version_number). */
function versionNumber() {
  return capi.mk_version_number();
}

/** The name of a status code, e.g. "MK_E_ARG" for -1 (mk_status_name). */
function statusName(code) {
  return capi.mk_status_name(code);
}

/** The message of the last failure on this thread, or "" (mk_error_message). */
function errorMessage() {
  return capi.mk_error_message();
}

function tableText() {
  const buf = {};
  check(capi.mk_commands_json(buf), 'mk_commands_json');
  return takeBuf(buf).toString('utf8');
}

/**
 * The command table (mk_commands_json) parsed: {global_options, groups, table_version}, each
 * group {name, workspace, summary, notes, commands} (workspace: the layout whose workspace runs
 * it, 'any' or 'none'), each command {name, verb, summary, effect, arguments},
 * each argument {name, type, positional, required, default, choices, doc, placeholder}: what
 * `memkit commands --format json` prints. A fresh copy on every call.
 */
function commands() {
  return JSON.parse(tableText());
}

let libraryTable = null; // parsed once: the table is constant for the loaded library

/* Clock */

const clockToken = Symbol('memkit.Clock');

/** A clock reading (mk_clock): an instant and the UTC offset that every local date uses. */
class Clock {
  constructor(token, fields) {
    if (token !== clockToken) throw new TypeError('use parseClock(text) or Clock.system()');
    this.version = fields.version;
    this.flags = fields.flags;
    this.unixMs = fields.unix_ms;
    this.utcOffsetMinutes = fields.utc_offset_minutes;
    Object.freeze(this);
  }

  /** Parses RFC 3339 with an offset, as the CLI's --now takes it (mk_clock_parse). */
  static parse(text) {
    const out = {};
    check(capi.mk_clock_parse(out, cString(text, 'clock')), 'mk_clock_parse');
    return new Clock(clockToken, out);
  }

  /** The system clock and the local zone's offset, read when a command runs (MK_CLOCK_SYSTEM). */
  static system() {
    const fields = { version: C.MK_CLOCK_VERSION, flags: C.MK_CLOCK_SYSTEM };
    return new Clock(clockToken, { ...fields, unix_ms: 0, utc_offset_minutes: 0 });
  }

  get isSystem() {
    return (this.flags & C.MK_CLOCK_SYSTEM) !== 0;
  }

  toC() {
    const { version: v, flags, unixMs, utcOffsetMinutes } = this;
    return { version: v, flags, unix_ms: unixMs, utc_offset_minutes: utcOffsetMinutes };
  }
}

/** Same as Clock.parse(text). */
function parseClock(text) {
  return Clock.parse(text);
}

// Every command takes `now` as a Clock or an RFC 3339 string with an offset.
function clockArg(now) {
  if (now instanceof Clock) return now.toC();
  if (typeof now === 'string') return Clock.parse(now).toC();
  throw new TypeError('now must be a Clock (parseClock(), Clock.system()) or an RFC 3339 string');
}

/* Result */

const resultToken = Symbol('memkit.Result');
const results = new FinalizationRegistry((ptr) => capi.mk_result_destroy(ptr)); // fallback only

/** The outcome of one command (mk_result). Immutable; close() it when done. */
class Result {
  #ptr;
  #writing = false;
  #judgeError;

  constructor(token, ptr, judgeError = null) {
    if (token !== resultToken) throw new TypeError('a Result comes from a Workspace command');
    this.#ptr = ptr;
    this.#judgeError = judgeError;
    results.register(this, ptr, this);
  }

  #handle() {
    if (this.#ptr === null) throw argError('Result: used after close()');
    // memkit.h: the write callback must not call back into the library with the object written.
    if (this.#writing) throw argError('Result: used inside its own writeJson() callback');
    return this.#ptr;
  }

  /** Destroys the result (mk_result_destroy); calling it again does nothing. */
  close() {
    if (this.#writing) throw argError('Result: close() inside its own writeJson() callback');
    if (this.#ptr !== null) {
      results.unregister(this);
      capi.mk_result_destroy(this.#ptr);
      this.#ptr = null;
    }
  }

  [Symbol.dispose]() {
    this.close();
  }

  get closed() {
    return this.#ptr === null;
  }

  /** What the gate's judge threw (or the TypeError for an answer of the wrong kind), which made
   *  the run fail with the fatal finding MK-BOX-005; null otherwise. */
  get judgeError() {
    return this.#judgeError;
  }

  /** The CLI's exit code: 0 success, 1 a domain failure, 2 a blocker or a fatal error. */
  get exitCode() {
    return capi.mk_result_exit_code(this.#handle());
  }

  /** The envelope's exact bytes, as `memkit ... --format json` prints them without the newline. */
  get jsonBytes() {
    const buf = {};
    check(capi.mk_result_json(buf, this.#handle()), 'mk_result_json');
    return takeBuf(buf);
  }

  /** The envelope as a string (mk_result_json). */
  get json() {
    return this.jsonBytes.toString('utf8');
  }

  /** Streams the envelope to fn(Buffer) in pieces of about 64 KiB (mk_result_write_json). If fn
   *  throws, the writer stops and this throws MK_E_CALLBACK with what fn threw as its cause. */
  writeJson(fn) {
    if (typeof fn !== 'function') throw new TypeError('writeJson needs a function(Buffer)');
    const ptr = this.#handle();
    let failure = null;
    const write = koffi.register((data, size) => {
      try {
        fn(viewBytes(data, Number(size)));
        return C.MK_OK;
      } catch (err) {
        failure = { err };
        return C.MK_E_CALLBACK;
      }
    }, koffi.pointer(types.mk_write_fn));
    let status;
    this.#writing = true;
    try {
      status = capi.mk_result_write_json(ptr, write, null);
    } finally {
      this.#writing = false;
      koffi.unregister(write);
    }
    if (status !== C.MK_OK)
      throwStatus(status, 'mk_result_write_json', failure ? { cause: failure.err } : undefined);
  }

  /** The Plan ID shown or applied (16 hex digits), or null when the command made no plan. */
  get planId() {
    return capi.mk_result_plan_id(this.#handle());
  }

  /** True when the plan (or additive write) reached the disk. */
  get applied() {
    return capi.mk_result_applied(this.#handle()) !== 0;
  }

  /** How many files the plan writes or deletes (uint64: a Number, or a BigInt past 2^53). */
  get planOperationCount() {
    return capi.mk_result_plan_operation_count(this.#handle());
  }

  /** The counts of an inbox compaction, or null when the result is no inbox compaction. */
  get inboxCounts() {
    const out = {};
    const status = capi.mk_result_inbox_counts(out, this.#handle());
    if (status === C.MK_E_NOT_FOUND) return null;
    check(status, 'mk_result_inbox_counts');
    return {
      inboxItems: out.inbox_items,
      emptyItems: out.empty_items,
      duplicates: out.duplicates,
      tombstoneMatches: out.tombstone_matches,
      candidates: out.candidates,
    };
  }

  /** The file rows of a custodian status ([] for other commands): {path, tokens, limit, state},
   *  state a BudgetState number. */
  get budgetRows() {
    const ptr = this.#handle();
    const count = Number(capi.mk_result_budget_row_count(ptr));
    const rows = [];
    for (let i = 0; i < count; i++) {
      const out = {};
      check(capi.mk_result_budget_row(out, ptr, i), 'mk_result_budget_row');
      rows.push({ path: out.path, tokens: out.tokens, limit: out.limit, state: out.state });
    }
    return rows;
  }
}

/* Requests */

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const GATE_NAMES = ['VALUE', 'ALIGNMENT', 'REDUNDANCY', 'FRESHNESS', 'PLACEMENT']; // by mk_gate

// A JS key -> the request's argument name: confirmPlan -> confirm_plan (the library reads "_"
// as "-"), planId -> plan_id (the positional PLAN_ID). Other keys pass unchanged.
function argName(key) {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

// 'sync push' -> syncPush, 'confirm-plan' -> confirmPlan, 'plan_id' -> planId.
function camel(words) {
  return words.replace(/[-_ ](\w)/g, (_, c) => c.toUpperCase());
}

// A table argument's name -> its JS key: --confirm-plan -> confirmPlan, PLAN_ID -> planId.
function keyOf(argument) {
  const bare = argument.name.replace(/^-+/, '');
  return camel(argument.positional ? bare.toLowerCase() : bare);
}

// Sets one argument by the JS type of its value; which names and types a command takes is the
// library's to judge (MK_E_ARG naming the argument and the closest one).
function setArg(req, key, value) {
  const name = argName(key);
  let status;
  if (typeof value === 'boolean') {
    status = capi.mk_request_set_bool(req, name, value ? 1 : 0);
  } else if (typeof value === 'bigint' || Number.isInteger(value)) {
    const fits =
      typeof value === 'bigint'
        ? value >= INT64_MIN && value <= INT64_MAX
        : Number.isSafeInteger(value);
    if (!fits)
      throw new TypeError(`${key}: an integer must be a safe Number or an int64 BigInt`);
    status = capi.mk_request_set_int(req, name, value);
  } else if (typeof value === 'number') {
    // A fraction goes as its shortest decimal text, the CLI's form (0.85 -> "0.85").
    if (!Number.isFinite(value)) throw new TypeError(`${key}: ${value} is not a number`);
    status = capi.mk_request_set_string(req, name, String(value));
  } else if (Array.isArray(value)) {
    const items = value.map((item, i) => cString(item, `${key}[${i}]`));
    status = capi.mk_request_set_list(req, name, items, items.length);
  } else if (typeof value === 'string' || bytesOf(value) !== null) {
    status = capi.mk_request_set_string(req, name, cText(value, key));
  } else {
    throw new TypeError(
      `${key}: a value is a string, Buffer, boolean, integer, number or an array of strings`,
    );
  }
  check(status, `mk_request_set (${key})`);
}

// What a judge returned -> the answer's bytes, or null to abstain. Anything else is the host's
// mistake, reported to the library as a failed judgement (MK-BOX-005), never guessed at.
function judgeAnswer(value) {
  if (value === undefined || value === null) return null;
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : bytesOf(value);
  if (bytes === null) {
    const what = value instanceof Promise ? 'a Promise: judges are synchronous' : typeof value;
    throw new TypeError(`a judge returns a string, a Buffer, or null to abstain (got ${what})`);
  }
  // koffi passes an empty Buffer as NULL; a spare byte keeps the pointer valid.
  return { data: bytes.length === 0 ? Buffer.alloc(1) : bytes, size: bytes.length };
}

// Registers host(gateName, question) as an mk_judge_fn for one run (the caller unregisters it).
// Whatever the host does, the library gets a status back: an exception left to unwind through
// koffi would reach it as 0, which is MK_JUDGE_ANSWER. The first failure is kept in `failed`.
function registerJudge(host, failed) {
  return koffi.register((gate, question, questionSize, answer, answerPayload) => {
    try {
      const json = viewBytes(question, Number(questionSize)).toString('utf8');
      const said = judgeAnswer(host(GATE_NAMES[gate] ?? gate, JSON.parse(json)));
      if (said === null) return C.MK_JUDGE_ABSTAIN;
      const status = koffi.call(answer, types.mk_write_fn, said.data, said.size, answerPayload);
      return status === C.MK_OK ? C.MK_JUDGE_ANSWER : status;
    } catch (err) {
      if (failed.length === 0) failed.push(err);
      return C.MK_E_CALLBACK; // neither ANSWER nor ABSTAIN: the library reports MK-BOX-005
    }
  }, koffi.pointer(types.mk_judge_fn));
}

/* Workspace */

// Each layout's mk_layout value, by the name of the table's group it runs.
const LAYOUTS = {
  custodian: { value: C.MK_LAYOUT_CUSTODIAN },
  memorybox: { value: C.MK_LAYOUT_MEMORYBOX },
  tiers: { value: C.MK_LAYOUT_TIERS },
  curated: { value: C.MK_LAYOUT_CURATED },
};

// 'custodian', ... or an MK_LAYOUT_* number -> the layout's group name (undefined for a number
// the binding does not know: the library judges it when opening).
function layoutGroup(layout) {
  if (typeof layout === 'string' && Object.hasOwn(LAYOUTS, layout)) return layout;
  if (Number.isInteger(layout))
    return Object.keys(LAYOUTS).find((name) => LAYOUTS[name].value === layout);
  throw new TypeError(
    'layout must be "custodian", "memorybox", "tiers", "curated" or an MK_LAYOUT_* number',
  );
}

// A command's documentation from its table entry: the summary, then each argument a request may
// set, under the key a method takes.
function describe(command) {
  const lines = [`${command.name}: ${command.summary} (${command.effect})`];
  for (const a of command.arguments) {
    if (a.root) continue; // the workspace gives it; a request refuses it
    const facts = [a.positional ? `${a.name}, positional` : a.name, a.type];
    if (a.required) facts.push('required');
    if (a.default !== null && a.default !== undefined) facts.push(`default ${a.default}`);
    if (a.choices && a.choices.length > 0) facts.push(`one of ${a.choices.join('|')}`);
    lines.push(`  ${keyOf(a)} (${facts.join(', ')}): ${a.doc}`);
  }
  if (command.judged)
    lines.push('  judge (function): (gateName, question) => answer string, or null to abstain');
  return lines.join('\n');
}

const methodCache = new WeakMap(); // table -> Map(layout -> [[name, method]])

// The command methods of a workspace of one layout, from the table's `workspace` key of each
// group: the layout's own groups first, then those that run on every layout ('any'), so that when
// both name a method (curated's search) the layout's own keeps it. ws.syncPush(now, args) runs
// `memorybox sync push`; a command without a verb is its group's name (ws.search runs `search`).
// Each carries the table's documentation (doc) and entry (command).
function commandMethods(table, layout) {
  let byLayout = methodCache.get(table);
  if (byLayout === undefined) methodCache.set(table, (byLayout = new Map()));
  if (!byLayout.has(layout)) {
    const groups = table.groups || [];
    const runsOn = layout === undefined ? ['any'] : [layout, 'any']; // a layout newer than this
    const methods = runsOn.flatMap((workspace) =>
      groups
        .filter((g) => g.workspace === workspace)
        .flatMap((g) =>
          g.commands.map((command) => {
            const name = camel(command.verb || g.name);
            const method = function (now, args) {
              return this.run(now, g.name, command.verb, args);
            };
            Object.defineProperty(method, 'name', { value: name });
            method.doc = describe(command);
            method.command = command;
            return [name, Object.freeze(method)];
          }),
        ),
    );
    byLayout.set(layout, methods);
  }
  return byLayout.get(layout);
}

const workspaceToken = Symbol('memkit.Workspace');
const workspaces = new FinalizationRegistry((ptr) => capi.mk_workspace_destroy(ptr)); // fallback

/**
 * A project's memory folder (mk_workspace), opened with a layout: 'custodian' (the default),
 * 'memorybox', 'tiers' or 'curated'. It runs the groups of the command table whose `workspace` is
 * that layout, and those whose `workspace` is 'any' (search). Besides run(), it has a method per
 * command of those groups, made from the table when it opens: verbs in camelCase (ws.status(now),
 * ws.compact(now, {apply: true, confirmPlan: id}), ws.syncPush(now, {remote})), or the group's
 * name for a command without a verb (ws.search(now, {query: 'cache'})), each with the table's
 * documentation as .doc. Not thread-safe; close() it when done.
 */
class Workspace {
  #ptr;
  #group;
  #judging = false;

  constructor(token, ptr, group, table) {
    if (token !== workspaceToken) throw new TypeError('use Workspace.open(root, options)');
    this.#ptr = ptr;
    this.#group = group;
    workspaces.register(this, ptr, this);
    // A name that would hide a member of the class (close, run), or that the layout's own group
    // already took (curated's search), stays reachable through run() only.
    for (const [name, method] of commandMethods(table, group)) {
      if (!(name in this)) Object.defineProperty(this, name, { value: method, enumerable: true });
    }
  }

  /**
   * Opens the memory folder of a project (mk_workspace_open).
   * @param {string} root the project root (custodian: the CLI's --project-root), the agent root
   *        (memorybox: --root), the workspace (tiers: --workspace) or the store (curated: --store)
   * @param {{layout?: 'custodian'|'memorybox'|'tiers'|'curated'|number, memoryDir?: string,
   *          lockTimeout?: number, table?: object}} [opts] memoryDir is custodian only (else
   *        MK_E_ARG); lockTimeout is how long applies wait for the lock, in seconds; table is the
   *        command table the methods are made from (default: the library's, commands()).
   */
  static open(root, opts) {
    const o = options(opts, ['layout', 'memoryDir', 'lockTimeout', 'table'], 'workspace options');
    const group = layoutGroup(o.layout ?? 'custodian');
    // The library fills the defaults (memkit.h: bindings call init rather than copy them).
    const c = {};
    check(capi.mk_workspace_options_init(c, C.MK_WORKSPACE_OPTIONS_VERSION),
      'mk_workspace_options_init');
    c.layout = group === undefined ? o.layout : LAYOUTS[group].value;
    if (o.memoryDir !== undefined && o.memoryDir !== null)
      c.memory_dir = cString(o.memoryDir, 'memoryDir');
    if (o.lockTimeout !== undefined) {
      if (typeof o.lockTimeout !== 'number') throw new TypeError('lockTimeout must be a number');
      c.lock_timeout_seconds = o.lockTimeout;
    }
    if (o.table !== undefined && (typeof o.table !== 'object' || o.table === null))
      throw new TypeError('table must be a command table, as commands() returns it');
    const out = [null];
    check(capi.mk_workspace_open(out, cString(root, 'root'), c), 'mk_workspace_open');
    const table = o.table ?? (libraryTable ??= JSON.parse(tableText()));
    return new Workspace(workspaceToken, out[0], group, table);
  }

  #handle() {
    if (this.#ptr === null) throw argError('Workspace: used after close()');
    // memkit.h: a judge must not call back into the library with the workspace it judges for.
    if (this.#judging) throw argError('Workspace: used inside its own judge');
    return this.#ptr;
  }

  /** Closes the workspace (mk_workspace_destroy); calling it again does nothing. */
  close() {
    if (this.#judging) throw argError('Workspace: close() inside its own judge');
    if (this.#ptr !== null) {
      workspaces.unregister(this);
      capi.mk_workspace_destroy(this.#ptr);
      this.#ptr = null;
    }
  }

  [Symbol.dispose]() {
    this.close();
  }

  get closed() {
    return this.#ptr === null;
  }

  /** The layout's name, which is also its own group of the table: 'custodian', 'memorybox',
   *  'tiers' or 'curated' (the groups of workspace 'any', such as search, run on every layout). */
  get group() {
    return this.#group;
  }

  /**
   * Runs `memkit <group> <verb>` with its arguments by name (mk_request_create, the setters,
   * mk_workspace_run): ws.run(now, 'custodian', 'add', {message: 'Use PostgreSQL', type:
   * 'decision'}); a command without a verb takes '' (ws.run(now, 'search', '', {query})). Keys are the table's names in camelCase (confirmPlan is --confirm-plan,
   * message the positional MESSAGE); true/false set a flag, an integer (Number or BigInt) an
   * integer argument, a fraction its decimal text, an array of strings a list, a string (or the
   * bytes of a Buffer) anything else; null and undefined leave an argument unset. `judge`
   * (memorybox gate only) is a function (gateName, question) => answer string|Buffer, or null to
   * abstain.
   * An unknown name or a wrong type throws MK_E_ARG naming it; what the command checks itself
   * comes back as findings in the Result, as from the CLI.
   */
  run(now, group, verb, args) {
    args ??= {};
    if (typeof args !== 'object' || Array.isArray(args))
      throw new TypeError('args must be an object of arguments by name');
    const ptr = this.#handle();
    const clock = clockArg(now);
    const req = [null];
    check(
      capi.mk_request_create(req, cString(group, 'group'), cString(verb, 'verb')),
      'mk_request_create',
    );
    let judge = null;
    const failed = [];
    try {
      for (const [key, value] of Object.entries(args)) {
        if (value === undefined || value === null) continue;
        if (key !== 'judge') {
          setArg(req[0], key, value);
          continue;
        }
        if (typeof value !== 'function')
          throw new TypeError('judge must be a function(gateName, question)');
        judge = registerJudge(value, failed);
        check(capi.mk_request_set_judge(req[0], judge, null), 'mk_request_set_judge');
      }
      const out = [null];
      let status;
      this.#judging = judge !== null;
      try {
        status = capi.mk_workspace_run(out, ptr, clock, req[0]);
      } finally {
        this.#judging = false;
      }
      check(status, 'mk_workspace_run');
      return new Result(resultToken, out[0], failed.length > 0 ? failed[0] : null);
    } finally {
      if (judge !== null) koffi.unregister(judge);
      capi.mk_request_destroy(req[0]);
    }
  }
}

/* Document */

const documentToken = Symbol('memkit.Document');
const documents = new FinalizationRegistry((ptr) => capi.mk_document_destroy(ptr)); // fallback

/** A parsed Markdown file (mk_document): its lines partitioned into units. Immutable. */
class Document {
  #ptr;

  constructor(token, ptr) {
    if (token !== documentToken) throw new TypeError('use Document.parse(bytes)');
    this.#ptr = ptr;
    documents.register(this, ptr, this);
  }

  /** Parses UTF-8 bytes (a Buffer, a Uint8Array or a string) as Markdown; never fails on text. */
  static parse(text) {
    const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : bytesOf(text);
    if (bytes === null) throw new TypeError('document must be a string, a Buffer or a Uint8Array');
    const out = [null];
    // koffi passes an empty Buffer as NULL, which the library takes only with size 0: it is.
    check(capi.mk_document_parse(out, bytes, bytes.length), 'mk_document_parse');
    return new Document(documentToken, out[0]);
  }

  #handle() {
    if (this.#ptr === null) throw argError('Document: used after close()');
    return this.#ptr;
  }

  /** Destroys the document (mk_document_destroy); calling it again does nothing. */
  close() {
    if (this.#ptr !== null) {
      documents.unregister(this);
      capi.mk_document_destroy(this.#ptr);
      this.#ptr = null;
    }
  }

  [Symbol.dispose]() {
    this.close();
  }

  get closed() {
    return this.#ptr === null;
  }

  /** The number of units (0 when the document cannot be parsed). */
  get unitCount() {
    return Number(capi.mk_document_unit_count(this.#handle()));
  }

  /** The units in file order: {kind, headingLevel, firstLine, lastLine, begin, end}. */
  get units() {
    const ptr = this.#handle();
    const count = Number(capi.mk_document_unit_count(ptr));
    const units = [];
    for (let i = 0; i < count; i++) {
      const u = {};
      check(capi.mk_document_unit(u, ptr, i), 'mk_document_unit');
      units.push({
        kind: u.kind,
        headingLevel: u.heading_level,
        firstLine: u.first_line,
        lastLine: u.last_line,
        begin: u.begin,
        end: u.end,
      });
    }
    return units;
  }

  /** `memkit markdown units --format json`'s data, as exact bytes (mk_document_json). */
  get jsonBytes() {
    const buf = {};
    check(capi.mk_document_json(buf, this.#handle()), 'mk_document_json');
    return takeBuf(buf);
  }

  /** The same as a string. */
  get json() {
    return this.jsonBytes.toString('utf8');
  }
}

/* Enumerations, by their C suffix */

// The constants whose names match `pattern`, as {NAME: value}, NAME being its first group.
function enumOf(pattern) {
  const named = Object.entries(C).map(([key, value]) => [pattern.exec(key), value]);
  return Object.freeze(Object.fromEntries(named.filter(([m]) => m).map(([m, v]) => [m[1], v])));
}

module.exports = {
  MemkitError,
  version,
  versionNumber,
  statusName,
  errorMessage,
  commands,
  Clock,
  parseClock,
  Workspace,
  Result,
  Document,
  Status: enumOf(/^MK_(OK|E_\w+)$/),
  BudgetState: enumOf(/^MK_BUDGET_(\w+)$/),
  UnitKind: enumOf(/^MK_UNIT_(\w+)$/),
  Layout: enumOf(/^MK_LAYOUT_(\w+)$/),
  Gate: enumOf(/^MK_GATE_(\w+)$/),
  constants: C,
  libraryPath: capi.libraryPath,
};
