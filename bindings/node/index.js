'use strict';
// The idiomatic layer over lib/capi.js: classes that own the C handles, throw MemkitError on a
// non-OK mk_status, and keep the C words in camelCase (mk_workspace_plan_compaction ->
// ws.planCompaction()). A command whose findings stop it still returns a Result (read exitCode
// and json); only a non-OK mk_status throws.

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

// Reads mk_last_error_message() at once: it is only valid until the next mk_ call.
function throwStatus(status, fnName, options) {
  const message =
    capi.mk_last_error_message() || `${fnName} returned ${capi.mk_status_name(status)}`;
  throw new MemkitError(status, message, options);
}

function check(status, fnName) {
  if (status !== C.MK_OK) throwStatus(status, fnName);
}

/* Arguments */

function argError(message) {
  // The same code the library gives a malformed argument, so callers handle one kind of error.
  return new MemkitError(C.MK_E_ARG, message);
}

// A NUL-terminated argument (a path, a Plan ID, an option string). An embedded NUL would silently
// cut the string short in C, so it is refused instead.
function cString(value, what) {
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string`);
  if (value.includes('\0')) throw argError(`${what}: contains a NUL byte`);
  return value;
}

function optionalCString(value, what) {
  return value === undefined || value === null ? null : cString(value, what);
}

// A UTF-8 (data, size) argument. koffi passes an empty Buffer as NULL, and the library refuses a
// NULL message or topic even when its size is 0, so empty text points at a spare byte instead.
function utf8Bytes(value, what) {
  let bytes;
  if (typeof value === 'string') bytes = Buffer.from(value, 'utf8');
  else if (Buffer.isBuffer(value)) bytes = value;
  else if (value instanceof Uint8Array)
    bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  else throw new TypeError(`${what} must be a string, a Buffer or a Uint8Array`);
  const size = bytes.byteLength;
  return { data: size === 0 ? Buffer.alloc(1) : bytes, size };
}

// Options objects are checked for unknown keys: a misspelt flag (archive_oldest) would otherwise
// run a different command without a word.
function options(value, allowed, what) {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object') throw new TypeError(`${what} must be an object`);
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      throw new TypeError(`${what}: unknown option "${key}" (expected ${allowed.join(', ')})`);
    }
  }
  return value;
}

// Copies the bytes of an mk_buf the library filled, then releases them with mk_buf_dispose.
function takeBuf(buf) {
  try {
    return buf.size === 0 || buf.ptr === null
      ? Buffer.alloc(0)
      : Buffer.from(new Uint8Array(koffi.view(buf.ptr, buf.size)));
  } finally {
    capi.mk_buf_dispose(buf);
  }
}

/* Version */

/** The loaded library's version string, e.g. "0.1.0" (mk_version_string). */
function version() {
  return capi.mk_version_string();
}

/** The loaded library's MAJOR * 10000 + MINOR * 100 + PATCH, e.g. 100 (mk_version_number). */
function versionNumber() {
  return capi.mk_version_number();
}

/**
 * The command table (mk_commands_json): every command with its arguments, as
 * `memkit commands --format json` prints it.
 */
function commands() {
  const buf = {};
  check(capi.mk_commands_json(buf), 'mk_commands_json');
  return JSON.parse(takeBuf(buf).toString('utf8'));
}

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

  /** The system clock and the local zone's offset, read when each command runs (MK_CLOCK_SYSTEM). */
  static system() {
    return new Clock(clockToken, {
      version: C.MK_CLOCK_VERSION,
      flags: C.MK_CLOCK_SYSTEM,
      unix_ms: 0,
      utc_offset_minutes: 0,
    });
  }

  get isSystem() {
    return (this.flags & C.MK_CLOCK_SYSTEM) !== 0;
  }

  toC() {
    return {
      version: this.version,
      flags: this.flags,
      unix_ms: this.unixMs,
      utc_offset_minutes: this.utcOffsetMinutes,
    };
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

  constructor(token, ptr) {
    if (token !== resultToken) throw new TypeError('a Result comes from a Workspace command');
    this.#ptr = ptr;
    results.register(this, ptr, this);
  }

  #handle() {
    if (this.#ptr === null) throw argError('Result: used after close()');
    // memkit.h: the write callback must not call back into the library with the object being written.
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

  /** Streams the envelope to fn(Buffer) in pieces (mk_result_write_json). */
  writeJson(fn) {
    if (typeof fn !== 'function') throw new TypeError('writeJson needs a function(Buffer)');
    const ptr = this.#handle();
    let failure = null;
    const write = koffi.register((data, size) => {
      try {
        fn(
          size === 0
            ? Buffer.alloc(0)
            : Buffer.from(new Uint8Array(koffi.view(data, Number(size)))),
        );
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
    if (status !== C.MK_OK) {
      throwStatus(status, 'mk_result_write_json', failure ? { cause: failure.err } : undefined);
    }
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

  /** The file rows of a status result ([] for other commands): {path, tokens, limit, state}. */
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

/* Workspace */

const workspaceToken = Symbol('memkit.Workspace');
const workspaces = new FinalizationRegistry((ptr) => capi.mk_workspace_destroy(ptr)); // fallback only

const FORGET_MODES = { soft: C.MK_FORGET_SOFT, hard: C.MK_FORGET_HARD, purge: C.MK_FORGET_PURGE };
const LAYOUTS = {
  custodian: C.MK_LAYOUT_CUSTODIAN,
  memorybox: C.MK_LAYOUT_MEMORYBOX,
  tiers: C.MK_LAYOUT_TIERS,
  curated: C.MK_LAYOUT_CURATED,
};
const INIT_PROFILES = { default: C.MK_INIT_PROFILE_DEFAULT, maven: C.MK_INIT_PROFILE_MAVEN };
const LIFECYCLES = {
  active: C.MK_LIFECYCLE_ACTIVE,
  maintenance: C.MK_LIFECYCLE_MAINTENANCE,
  archived: C.MK_LIFECYCLE_ARCHIVED,
};
const UPDATE_EVENTS = {
  verify: C.MK_UPDATE_VERIFY,
  confirm: C.MK_UPDATE_CONFIRM,
  contradict: C.MK_UPDATE_CONTRADICT,
  resolve_keep: C.MK_UPDATE_RESOLVE_KEEP,
};

// 'custodian', 'memorybox', 'tiers', 'curated' or an MK_LAYOUT_* number -> the mk_layout value.
function layoutArg(layout) {
  if (typeof layout === 'string' && Object.hasOwn(LAYOUTS, layout)) return LAYOUTS[layout];
  if (Number.isInteger(layout)) return layout; // the library judges numbers it does not know
  throw new TypeError(
    'layout must be "custodian", "memorybox", "tiers", "curated" or an MK_LAYOUT_* number',
  );
}

// 'active', 'maintenance', 'archived' or an MK_LIFECYCLE_* number -> the mk_lifecycle value.
function lifecycleArg(to) {
  if (typeof to === 'string' && Object.hasOwn(LIFECYCLES, to)) return LIFECYCLES[to];
  if (Number.isInteger(to) && to >= -(2 ** 31) && to < 2 ** 31) return to; // the library judges it
  throw new TypeError(
    'lifecycle must be "active", "maintenance", "archived" or an MK_LIFECYCLE_* number ' +
      `(got ${JSON.stringify(to)})`,
  );
}

function compactOptions(opts) {
  const o = options(opts, ['target', 'archiveOldest'], 'compaction options');
  const c = {};
  capi.mk_compact_options_init(c);
  c.target = optionalCString(o.target, 'target');
  if (o.archiveOldest) c.flags |= C.MK_COMPACT_ARCHIVE_OLDEST;
  return c;
}

// {event, note, confidence} -> an mk_update_options. event is required: the CLI needs one of
// --verify|--confirm|--contradict|--resolve keep, and a forgotten one must not silently verify.
function updateOptions(opts) {
  const o = options(opts, ['event', 'note', 'confidence'], 'update options');
  const c = {};
  capi.mk_update_options_init(c);
  if (typeof o.event === 'string' && Object.hasOwn(UPDATE_EVENTS, o.event))
    c.event = UPDATE_EVENTS[o.event];
  else if (Number.isInteger(o.event) && o.event >= -(2 ** 31) && o.event < 2 ** 31)
    c.event = o.event; // the library judges numbers it does not know (MK_E_ARG)
  else
    throw new TypeError(
      'update event must be "verify", "confirm", "contradict", "resolve_keep" or an ' +
        `MK_UPDATE_* number (got ${JSON.stringify(o.event)})`,
    );
  c.note = optionalCString(o.note, 'note');
  if (o.confidence !== undefined && o.confidence !== null) {
    // Hundredths: 70 is Confidence 0.70. A fraction such as 0.7 is refused, not rounded.
    if (!Number.isInteger(o.confidence) || o.confidence < -(2 ** 31) || o.confidence >= 2 ** 31)
      throw new TypeError('confidence must be an integer number of hundredths (0-100)');
    c.confidence = o.confidence; // the library judges the range (-1..100, else MK_E_ARG)
  }
  return c;
}

function forgetOptions(opts) {
  const o = options(opts, ['mode', 'allowBroadMatch'], 'forget options');
  const c = {};
  capi.mk_forget_options_init(c);
  if (o.mode !== undefined) {
    if (typeof o.mode === 'string' && Object.hasOwn(FORGET_MODES, o.mode))
      c.mode = FORGET_MODES[o.mode];
    else if (Number.isInteger(o.mode))
      c.mode = o.mode; // the library judges numbers it does not know
    else
      throw new TypeError(`forget mode must be "soft", "hard", "purge" or an MK_FORGET_* number`);
  }
  if (o.allowBroadMatch) c.flags |= C.MK_FORGET_ALLOW_BROAD_MATCH;
  return c;
}

// `memkit tiers <name>` -> its mk_tiers_command.
const TIERS_COMMANDS = {
  init: C.MK_TIERS_INIT,
  'session-init': C.MK_TIERS_SESSION_INIT,
  'log-turn': C.MK_TIERS_LOG_TURN,
  'read-logs': C.MK_TIERS_READ_LOGS,
  'persist-turn': C.MK_TIERS_PERSIST_TURN,
  'write-theme': C.MK_TIERS_WRITE_THEME,
  'read-theme': C.MK_TIERS_READ_THEME,
  'read-global': C.MK_TIERS_READ_GLOBAL,
  'write-global': C.MK_TIERS_WRITE_GLOBAL,
  'list-themes': C.MK_TIERS_LIST_THEMES,
  'write-data': C.MK_TIERS_WRITE_DATA,
  'read-data': C.MK_TIERS_READ_DATA,
  'list-data': C.MK_TIERS_LIST_DATA,
  'archive-themes': C.MK_TIERS_ARCHIVE_THEMES,
  template: C.MK_TIERS_TEMPLATE,
};

// The options of ws.tiers(): the CLI's option names in camelCase (--template is template, --tools
// is tools, --confirm-plan is confirmPlan) -> [mk_tiers_options field, kind]. One table serves
// every command: which options a command takes is the library's to judge (a field it does not
// take is the CLI's fatal MK-ARG-001), so that a request reaches C as it was given and the result
// is the CLI's. Only a name that no command has is refused here, as a misspelling.
const TIERS_OPTIONS = {
  content: ['content', 'text'],
  rawContent: ['raw_content', 'text'],
  extractedContent: ['extracted_content', 'text'],
  theme: ['theme', 'text'],
  template: ['template_name', 'text'],
  title: ['title', 'text'],
  entryType: ['entry_type', 'text'],
  sessionId: ['session_id', 'text'],
  tools: ['tools_json', 'json'],
  name: ['name', 'text'],
  csvContent: ['csv_content', 'text'],
  sourceFile: ['source_file', 'text'],
  description: ['description', 'text'],
  sourceLabel: ['source_label', 'text'],
  columnsJson: ['columns_json', 'json'],
  confirmPlan: ['confirm_plan_id', 'text'],
  recentDays: ['recent_days', 'integer'],
  themeLimit: ['theme_limit', 'integer'],
  maxTokens: ['max_tokens', 'integer'],
  daysBack: ['days_back', 'integer'],
  limit: ['limit', 'integer'],
  hoursBack: ['hours_back', 'integer'],
  head: ['head', 'integer'],
  days: ['days', 'integer'],
  noLog: ['no_log', 'flag'],
  promoteGlobal: ['promote_global', 'flag'],
  append: ['append', 'flag'],
  replace: ['replace', 'flag'],
};

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

// 'persist-turn' (the CLI's name) or an MK_TIERS_* number -> the mk_tiers_command value.
function tiersCommandArg(command) {
  if (typeof command === 'string' && Object.hasOwn(TIERS_COMMANDS, command))
    return TIERS_COMMANDS[command];
  if (Number.isInteger(command) && command >= -(2 ** 31) && command < 2 ** 31) return command;
  throw new TypeError(
    `tiers command must be one of ${Object.keys(TIERS_COMMANDS).join(', ')} or an MK_TIERS_* ` +
      `number (got ${JSON.stringify(command)})`,
  );
}

// An int64 option: a safe integer Number or a BigInt. Any value is passed on, a negative one too:
// C gives the CLI its decimal text, so the library refuses it exactly as the CLI does.
// MK_TIERS_UNSET (a BigInt) means not given, like null.
function int64Arg(value, what) {
  if (typeof value === 'bigint' && value >= INT64_MIN && value <= INT64_MAX) return value;
  if (Number.isSafeInteger(value)) return value;
  throw new TypeError(`${what} must be an integer (a Number up to 2^53 or a BigInt int64)`);
}

// A JSON option (tools, columnsJson): a string is the JSON text itself, given to C as it is (as
// the CLI's --tools '["a"]'); an array is written as JSON first. Its elements are the library's
// to judge.
function jsonArg(value, what) {
  if (typeof value === 'string') return cString(value, what);
  if (Array.isArray(value)) return cString(JSON.stringify(value), what);
  throw new TypeError(`${what} must be a JSON string or an array`);
}

// {rawContent, theme, ...} -> an mk_tiers_options; absent or null leaves a field unset.
function tiersOptions(opts) {
  const o = options(opts, Object.keys(TIERS_OPTIONS), 'tiers options');
  const c = {};
  capi.mk_tiers_options_init(c);
  for (const [key, value] of Object.entries(o)) {
    if (value === undefined || value === null) continue;
    const [field, kind] = TIERS_OPTIONS[key];
    if (kind === 'text') c[field] = cString(value, key);
    else if (kind === 'json') c[field] = jsonArg(value, key);
    else if (kind === 'integer') c[field] = int64Arg(value, key);
    else c[field] = value ? 1 : 0;
  }
  return c;
}

// `memkit curated <words>` -> its mk_curated_command.
const CURATED_COMMANDS = {
  add: C.MK_CURATED_ADD,
  append: C.MK_CURATED_APPEND,
  edit: C.MK_CURATED_EDIT,
  reclassify: C.MK_CURATED_RECLASSIFY,
  link: C.MK_CURATED_LINK,
  unlink: C.MK_CURATED_UNLINK,
  delete: C.MK_CURATED_DELETE,
  restore: C.MK_CURATED_RESTORE,
  checkpoint: C.MK_CURATED_CHECKPOINT,
  batch: C.MK_CURATED_BATCH,
  'get-relevant': C.MK_CURATED_GET_RELEVANT,
  kernel: C.MK_CURATED_KERNEL,
  show: C.MK_CURATED_SHOW,
  list: C.MK_CURATED_LIST,
  search: C.MK_CURATED_SEARCH,
  stats: C.MK_CURATED_STATS,
  conflicts: C.MK_CURATED_CONFLICTS,
  lineage: C.MK_CURATED_LINEAGE,
  story: C.MK_CURATED_STORY,
  'event add': C.MK_CURATED_EVENT_ADD,
  'episode add': C.MK_CURATED_EPISODE_ADD,
  'episode show': C.MK_CURATED_EPISODE_SHOW,
  'floors prune': C.MK_CURATED_FLOORS_PRUNE,
  'telemetry compact': C.MK_CURATED_TELEMETRY_COMPACT,
  recover: C.MK_CURATED_RECOVER,
};

// The options of ws.curated(): the CLI's option names in camelCase (--class is class, --delete
// is delete, --confirm-plan is confirmPlan) and the positionals name, dst, query and id ->
// [mk_curated_options field, kind]. As for tiers, which options a command takes is the library's
// to judge; only a name no command has is refused here.
const CURATED_OPTIONS = {
  workspace: ['workspace', 'text'],
  actor: ['actor', 'text'],
  name: ['name', 'text'],
  dst: ['dst', 'text'],
  query: ['query', 'text'],
  id: ['id', 'text'],
  type: ['type', 'text'],
  body: ['body', 'text'],
  bodyFile: ['body_file', 'text'],
  description: ['description', 'text'],
  class: ['row_class', 'text'],
  status: ['status', 'text'],
  initiative: ['initiative', 'text'],
  projectRef: ['project_ref', 'text'],
  audience: ['audience', 'text'],
  originSession: ['origin_session', 'text'],
  field: ['field', 'text'],
  content: ['content', 'text'],
  kind: ['kind', 'text'],
  file: ['file', 'text'],
  sort: ['sort', 'text'],
  order: ['order', 'text'],
  scope: ['scope', 'text'],
  threshold: ['threshold', 'decimal'],
  before: ['before', 'text'],
  source: ['source', 'text'],
  agent: ['agent', 'text'],
  result: ['result', 'text'],
  severity: ['severity', 'text'],
  payload: ['payload', 'json-value'],
  confirmPlan: ['confirm_plan_id', 'text'],
  maxChars: ['max_chars', 'integer'],
  limit: ['limit', 'integer'],
  maxDepth: ['max_depth', 'integer'],
  dryRun: ['dry_run', 'flag'],
  links: ['links', 'flag'],
  history: ['history', 'flag'],
  includeDeleted: ['include_deleted', 'flag'],
  yes: ['yes', 'flag'],
  hard: ['hard', 'flag'],
  delete: ['delete_link', 'flag'],
  apply: ['apply', 'flag'],
  rollback: ['rollback', 'flag'],
};

// 'get-relevant', 'event add' (the CLI's words) or an MK_CURATED_* number -> the command value.
function curatedCommandArg(command) {
  if (typeof command === 'string' && Object.hasOwn(CURATED_COMMANDS, command))
    return CURATED_COMMANDS[command];
  if (Number.isInteger(command) && command >= -(2 ** 31) && command < 2 ** 31) return command;
  throw new TypeError(
    `curated command must be one of ${Object.keys(CURATED_COMMANDS).join(', ')} or an ` +
      `MK_CURATED_* number (got ${JSON.stringify(command)})`,
  );
}

// {workspace, name, class, ...} -> an mk_curated_options; absent or null leaves a field unset.
// threshold may be a Number (sent as its decimal text); payload a string (the JSON text itself)
// or any other value (sent as JSON).
function curatedOptions(opts) {
  const o = options(opts, Object.keys(CURATED_OPTIONS), 'curated options');
  const c = {};
  capi.mk_curated_options_init(c);
  for (const [key, value] of Object.entries(o)) {
    if (value === undefined || value === null) continue;
    const [field, kind] = CURATED_OPTIONS[key];
    if (kind === 'text') c[field] = cString(value, key);
    else if (kind === 'decimal')
      c[field] = cString(typeof value === 'number' ? String(value) : value, key);
    else if (kind === 'json-value')
      c[field] = cString(typeof value === 'string' ? value : JSON.stringify(value), key);
    else if (kind === 'integer') c[field] = int64Arg(value, key);
    else c[field] = value ? 1 : 0;
  }
  return c;
}

// `memkit memorybox sync <verb>` -> its mk_sync_command.
const SYNC_COMMANDS = {
  pull: C.MK_SYNC_PULL,
  push: C.MK_SYNC_PUSH,
  status: C.MK_SYNC_STATUS,
  resolve: C.MK_SYNC_RESOLVE,
};

// The options of ws.sync(): the CLI's option names in camelCase (--workspace-id is workspaceId,
// --confirm-plan is confirmPlan) and conninfo, the PostgreSQL connection string in place of the
// CLI's MEMKIT_SYNC_CONNINFO -> [mk_sync_options field, kind]. Which options a verb takes is the
// library's to judge; only a name no verb has is refused here.
const SYNC_OPTIONS = {
  remote: ['remote', 'text'],
  conninfo: ['conninfo', 'text'],
  workspaceId: ['workspace_id', 'text'],
  id: ['id', 'text'],
  take: ['take', 'text'],
  confirmPlan: ['confirm_plan', 'text'],
  apply: ['apply', 'flag'],
};

// 'pull' (the CLI's verb) or an MK_SYNC_* number -> the mk_sync_command value.
function syncCommandArg(command) {
  if (typeof command === 'string' && Object.hasOwn(SYNC_COMMANDS, command))
    return SYNC_COMMANDS[command];
  if (Number.isInteger(command) && command >= -(2 ** 31) && command < 2 ** 31) return command;
  throw new TypeError(
    `sync command must be one of ${Object.keys(SYNC_COMMANDS).join(', ')} or an MK_SYNC_* ` +
      `number (got ${JSON.stringify(command)})`,
  );
}

// {remote, workspaceId, ...} -> an mk_sync_options; absent or null leaves a field unset.
function syncOptions(opts) {
  const o = options(opts, Object.keys(SYNC_OPTIONS), 'sync options');
  const c = {};
  capi.mk_sync_options_init(c);
  for (const [key, value] of Object.entries(o)) {
    if (value === undefined || value === null) continue;
    const [field, kind] = SYNC_OPTIONS[key];
    if (kind === 'text') c[field] = cString(value, key);
    else c[field] = value ? 1 : 0;
  }
  return c;
}

const GATE_NAMES = ['VALUE', 'ALIGNMENT', 'REDUNDANCY', 'FRESHNESS', 'PLACEMENT']; // by mk_gate

// text, confidence and {title, source, client} -> an mk_gate_candidate. Its strings and the text
// Buffer are referenced from the returned object, so they live as long as the call that uses it.
function gateCandidate(text, confidence, o) {
  const { data, size } = utf8Bytes(text, 'text');
  if (typeof confidence !== 'string')
    throw new TypeError('confidence must be a string in the Confidence form, e.g. "0.85"');
  const c = {};
  capi.mk_gate_candidate_init(c);
  c.text = data;
  c.text_size = size;
  c.confidence = cString(confidence, 'confidence');
  c.title = optionalCString(o.title, 'title');
  c.source = optionalCString(o.source, 'source');
  c.client = optionalCString(o.client, 'client');
  return c;
}

// What a judge returned -> the answer's bytes, or null to abstain. Anything else is the host's
// mistake, reported to the library as a failed judgement (MK-BOX-005), never guessed at.
function judgeAnswer(value) {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || value instanceof Uint8Array) return utf8Bytes(value, 'answer');
  throw new TypeError(
    'a judge returns a string answer, or null/undefined to abstain ' +
      `(got ${value instanceof Promise ? 'a Promise: judges are synchronous' : typeof value})`,
  );
}

// Registers host(gateName, question) as an mk_judge_fn, for one mk_workspace_gate call only (the
// caller unregisters it). Whatever the host does, the library gets a status back: an exception
// left to unwind through koffi would reach it as 0, which is MK_JUDGE_ANSWER.
function registerJudge(host) {
  return koffi.register((gate, question, questionSize, answer, answerPayload) => {
    try {
      const size = Number(questionSize);
      const json = Buffer.from(new Uint8Array(koffi.view(question, size))).toString('utf8');
      const said = judgeAnswer(host(GATE_NAMES[gate] ?? gate, JSON.parse(json)));
      if (said === null) return C.MK_JUDGE_ABSTAIN;
      const status = koffi.call(answer, types.mk_write_fn, said.data, said.size, answerPayload);
      return status === C.MK_OK ? C.MK_JUDGE_ANSWER : status;
    } catch {
      return C.MK_E_CALLBACK; // neither ANSWER nor ABSTAIN: the library reports MK-BOX-005
    }
  }, koffi.pointer(types.mk_judge_fn));
}

/**
 * A project's memory folder (mk_workspace). Not thread-safe; close() it when done. Its layout
 * decides the commands: a custodian workspace runs `custodian ...` (and the MemoryBox-only
 * commands return a Result with a fatal MK-ARG-001 finding, exitCode 2); a MemoryBox one runs
 * `memorybox init|status|decay|hygiene|load|update|gate|canon|compact|promote|client set|sync`
 * (decay() to applyClientSet(), sync()), and every other command returns such a Result; a tiers
 * one runs
 * `tiers <command>` (tiers() and the tiers*() methods) and `tiers recover` (recover()) only; a
 * curated one (the root is the store folder) runs `curated <command>` (curated()) only, `curated
 * recover` included.
 */
class Workspace {
  #ptr;
  #judging = false;

  constructor(token, ptr) {
    if (token !== workspaceToken) throw new TypeError('use Workspace.open(root, options)');
    this.#ptr = ptr;
    workspaces.register(this, ptr, this);
  }

  /**
   * Opens the memory folder of a project (mk_workspace_open). `layout` is 'custodian' (the
   * default: docs/memory under a project root), 'memorybox' (an agent root holding brain/ and
   * memory/), 'tiers' (the three-tier session memory: memory/ under the workspace, spec
   * tiers3.md) or 'curated' (a curated memory store, spec curated.md; it need not exist yet), or
   * a Layout number. memoryDir is for the custodian layout only: the library refuses it with
   * another one (MK_E_ARG).
   * @param {string} root the project root (the agent root for 'memorybox', the workspace for
   *        'tiers': the CLI's --workspace, the store for 'curated': the CLI's --store)
   * @param {{layout?: 'custodian'|'memorybox'|'tiers'|'curated'|number, memoryDir?: string,
   *          lockTimeoutSeconds?: number}} [opts]
   */
  static open(root, opts) {
    const o = options(opts, ['layout', 'memoryDir', 'lockTimeoutSeconds'], 'workspace options');
    const c = {};
    capi.mk_workspace_options_init(c);
    if (o.layout !== undefined) c.layout = layoutArg(o.layout);
    c.memory_dir = optionalCString(o.memoryDir, 'memoryDir');
    if (o.lockTimeoutSeconds !== undefined) {
      if (typeof o.lockTimeoutSeconds !== 'number')
        throw new TypeError('lockTimeoutSeconds must be a number');
      c.lock_timeout_seconds = o.lockTimeoutSeconds;
    }
    const out = [null];
    check(capi.mk_workspace_open(out, cString(root, 'root'), c), 'mk_workspace_open');
    return new Workspace(workspaceToken, out[0]);
  }

  #handle() {
    if (this.#ptr === null) throw argError('Workspace: used after close()');
    // memkit.h: a judge must not call back into the library with the workspace being gated.
    if (this.#judging) throw argError('Workspace: used inside its own gate() judge');
    return this.#ptr;
  }

  // Runs one command; the C function's first argument is the mk_result** out-parameter.
  #command(fn, name, now, ...args) {
    const ptr = this.#handle();
    const clock = clockArg(now);
    const out = [null];
    check(fn(out, ptr, clock, ...args), name);
    return new Result(resultToken, out[0]);
  }

  /** Closes the workspace (mk_workspace_destroy); calling it again does nothing. */
  close() {
    if (this.#judging) throw argError('Workspace: close() inside its own gate() judge');
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

  /**
   * `custodian init [--extended]`; `memorybox init [--profile default|maven]` for a MemoryBox
   * workspace. `extended` is custodian only. `profile` ('default' or 'maven'; absent or null, none)
   * is MemoryBox only: it records the profile in the root's .memkit/profile first, and 'maven' adds
   * brain/MARKETING_CANON.md, brain/ATTRIBUTION_MODEL.md, ... to the files created. Another value
   * is a TypeError. (The C flags MK_INIT_PROFILE_DEFAULT | MK_INIT_PROFILE_MAVEN together are
   * MK_E_ARG; one option cannot name both.)
   * @param {{extended?: boolean, profile?: 'default'|'maven'|null}} [opts]
   */
  init(now, opts) {
    const o = options(opts, ['extended', 'profile'], 'init options');
    let flags = o.extended ? C.MK_INIT_EXTENDED : 0;
    if (o.profile !== undefined && o.profile !== null) {
      if (typeof o.profile !== 'string' || !Object.hasOwn(INIT_PROFILES, o.profile))
        throw new TypeError(
          `profile must be "default", "maven" or null (got ${JSON.stringify(o.profile)})`,
        );
      flags |= INIT_PROFILES[o.profile];
    }
    return this.#command(capi.mk_workspace_init, 'mk_workspace_init', now, flags);
  }

  /** `custodian status`, whose rows are also in result.budgetRows; `memorybox status` for a
   *  MemoryBox workspace (its tiers and line budgets are only in the JSON: budgetRows is []). */
  status(now) {
    return this.#command(capi.mk_workspace_status, 'mk_workspace_status', now);
  }

  /**
   * Any command of the command table (commands()) by its group and verb ('memorybox',
   * 'sync push'), with its positionals in order and its arguments by name (mk_workspace_run):
   * `ws.run(now, 'custodian', 'add', ['Use PostgreSQL'], { type: 'decision' })`. Names are the
   * table's without dashes (`confirm_plan` or 'confirm-plan'); true/false set a flag, an integer
   * an integer or number argument, a string any other. An unknown name or a wrong type throws
   * MK_E_ARG naming it and the closest known one; the workspace gives the root, `now` the clock.
   * @param {string[]} [positionals]
   * @param {Object<string, string|number|boolean>} [args]
   */
  run(now, group, verb, positionals = [], args = {}) {
    const ptr = this.#handle();
    const clock = clockArg(now);
    if (!Array.isArray(positionals)) throw new TypeError('positionals must be an array');
    const command = commands()
      .groups.filter((g) => g.name === group)
      .flatMap((g) => g.commands)
      .find((c) => c.verb === verb);
    const names = command
      ? command.arguments.filter((a) => a.positional).map((a) => a.name.toLowerCase())
      : [];
    const req = [null];
    check(
      capi.mk_request_create(req, cString(group, 'group'), cString(verb, 'verb')),
      'mk_request_create',
    );
    try {
      if (positionals.length > names.length)
        throw argError(`${group} ${verb} takes ${names.length} positional argument(s), got ` +
          `${positionals.length}`);
      const given = names.slice(0, positionals.length).map((n, i) => [n, positionals[i]]);
      for (const [name, value] of given.concat(Object.entries(args))) {
        const key = cString(name, 'name');
        if (typeof value === 'boolean') {
          check(capi.mk_request_set_bool(req[0], key, value ? 1 : 0), 'mk_request_set_bool');
        } else if (typeof value === 'number' && Number.isInteger(value)) {
          check(capi.mk_request_set_int(req[0], key, value), 'mk_request_set_int');
        } else {
          check(capi.mk_request_set_string(req[0], key, cString(String(value), name)),
            'mk_request_set_string');
        }
      }
      const out = [null];
      check(capi.mk_workspace_run(out, ptr, clock, req[0]), 'mk_workspace_run');
      return new Result(resultToken, out[0]);
    } finally {
      capi.mk_request_destroy(req[0]);
    }
  }

  /** `custodian check`. */
  check(now) {
    return this.#command(capi.mk_workspace_check, 'mk_workspace_check', now);
  }

  /** `custodian compact [--target T] [--archive-oldest]`, a dry run. */
  planCompaction(now, opts) {
    return this.#command(
      capi.mk_workspace_plan_compaction,
      'mk_workspace_plan_compaction',
      now,
      compactOptions(opts),
    );
  }

  /** `custodian compact ... --apply --confirm-plan ID`. */
  applyCompaction(now, confirm, opts) {
    return this.#command(
      capi.mk_workspace_apply_compaction,
      'mk_workspace_apply_compaction',
      now,
      compactOptions(opts),
      cString(confirm, 'confirm'),
    );
  }

  /** `custodian recover [--apply [--rollback]]`; `tiers recover ...` on a tiers workspace; on a
   *  curated one a Result with a fatal MK-ARG-001 (use curated(now, 'recover', {workspace})). */
  recover(now, opts) {
    const o = options(opts, ['apply', 'rollback'], 'recover options');
    const flags = (o.apply ? C.MK_RECOVER_APPLY : 0) | (o.rollback ? C.MK_RECOVER_ROLLBACK : 0);
    return this.#command(capi.mk_workspace_recover, 'mk_workspace_recover', now, flags);
  }

  /** `custodian undo PLAN_ID`, a dry run. */
  planUndo(now, planId) {
    return this.#command(
      capi.mk_workspace_plan_undo,
      'mk_workspace_plan_undo',
      now,
      cString(planId, 'planId'),
    );
  }

  /** `custodian undo PLAN_ID --apply --confirm-plan ID`. */
  applyUndo(now, planId, confirm) {
    return this.#command(
      capi.mk_workspace_apply_undo,
      'mk_workspace_apply_undo',
      now,
      cString(planId, 'planId'),
      cString(confirm, 'confirm'),
    );
  }

  /** `custodian add MESSAGE --type T [--reason R] [--name N] [--area A] [--allow-long]`. */
  add(now, message, opts) {
    const o = options(opts, ['type', 'reason', 'name', 'area', 'allowLong'], 'add options');
    const { data, size } = utf8Bytes(message, 'message');
    const c = {};
    capi.mk_add_options_init(c);
    c.type = optionalCString(o.type, 'type');
    c.reason = optionalCString(o.reason, 'reason');
    c.name = optionalCString(o.name, 'name');
    c.area = optionalCString(o.area, 'area');
    if (o.allowLong) c.flags |= C.MK_ADD_ALLOW_LONG;
    return this.#command(capi.mk_workspace_add, 'mk_workspace_add', now, data, size, c);
  }

  /** `custodian forget TOPIC [--mode M] [--allow-broad-match]`, a dry run. */
  planForget(now, topic, opts) {
    const { data, size } = utf8Bytes(topic, 'topic');
    return this.#command(
      capi.mk_workspace_plan_forget,
      'mk_workspace_plan_forget',
      now,
      data,
      size,
      forgetOptions(opts),
    );
  }

  /** `custodian forget TOPIC ... --apply --confirm-plan ID`. */
  applyForget(now, topic, confirm, opts) {
    const { data, size } = utf8Bytes(topic, 'topic');
    return this.#command(
      capi.mk_workspace_apply_forget,
      'mk_workspace_apply_forget',
      now,
      data,
      size,
      forgetOptions(opts),
      cString(confirm, 'confirm'),
    );
  }

  /** `memorybox decay [--file F]` (MemoryBox workspaces): every scored entry's effective
   *  confidence, band and review state on `now`'s date, and the unscored entries; writes nothing.
   *  `file` is one tier 1-4 file relative to the root; absent or null, every one. */
  decay(now, opts) {
    const o = options(opts, ['file'], 'decay options');
    return this.#command(
      capi.mk_workspace_decay,
      'mk_workspace_decay',
      now,
      optionalCString(o.file, 'file'),
    );
  }

  /** `memorybox hygiene` (MemoryBox workspaces): the ten items of the monthly checklist and the
   *  orphaned links, in the JSON (`data`: {items: [{n, check, result, value, limit, details}],
   *  orphans: [...]}); writes nothing. A failed item makes exitCode 1. */
  hygiene(now) {
    return this.#command(capi.mk_workspace_hygiene, 'mk_workspace_hygiene', now);
  }

  /** `memorybox load --tier N | --file F [--include-archive]` (MemoryBox workspaces): the existing
   *  files of a tier (1-5) or one file, with their contents, in the JSON (`data.files`:
   *  [{content, lines, path, tier}]); writes nothing. Give `tier` or `file`, not both and not
   *  neither (MK_E_ARG). Tier 5 needs includeArchive unless `file` lies under memory/ARCHIVES/;
   *  without it the Result has a fatal finding (exitCode 2). */
  load(now, opts) {
    const o = options(opts, ['tier', 'file', 'includeArchive'], 'load options');
    let tier = 0; // the C API's "no tier"
    if (o.tier !== undefined && o.tier !== null) {
      if (!Number.isInteger(o.tier) || o.tier < -(2 ** 31) || o.tier >= 2 ** 31)
        throw new TypeError('tier must be an integer'); // the library judges the value
      tier = o.tier;
    }
    return this.#command(
      capi.mk_workspace_load,
      'mk_workspace_load',
      now,
      tier,
      optionalCString(o.file, 'file'),
      o.includeArchive ? C.MK_LOAD_INCLUDE_ARCHIVE : 0,
    );
  }

  /**
   * `memorybox update --entry ID --verify|--confirm|--contradict --note N|--resolve keep
   * [--confidence C]` (MemoryBox workspaces): records one event on an entry's field lines and
   * writes the file directly (result.applied is true when it wrote; there is never a Plan ID).
   * The JSON's data is {after, before, entry_id, written}.
   * - entryId: "<path>#<12 hex digits>", an entry_id of decay()'s JSON.
   * - event (required): 'verify' (Verified := today), 'confirm' (Confidence + 0.05, capped at
   *   1.00, and Verified := today), 'contradict' (Review := contradicted <today>: note; needs
   *   `note`), 'resolve_keep' (clears Review; `confidence` sets a new Confidence), or an
   *   UpdateEvent number. Another string is a TypeError; an unknown number is MK_E_ARG.
   * - note: the contradiction's note (contradict only).
   * - confidence: resolve_keep only, the new Confidence in hundredths, an integer 0-100 (70 is
   *   0.70); absent, null or -1 keeps it. Out of range is MK_E_ARG; a non-integer a TypeError.
   * A missing note, a note or confidence with the wrong event, or an unknown entry gives a Result
   * with a fatal finding (exitCode 2) that wrote nothing.
   * @param {{event: 'verify'|'confirm'|'contradict'|'resolve_keep'|number, note?: string,
   *          confidence?: number}} opts
   */
  update(now, entryId, opts) {
    if (opts === undefined || opts === null)
      throw new TypeError('update needs options with an event');
    const c = updateOptions(opts);
    return this.#command(
      capi.mk_workspace_update,
      'mk_workspace_update',
      now,
      cString(entryId, 'entryId'),
      c,
    );
  }

  /**
   * `memorybox gate --text T --confidence C [--title] [--source] [--client] [--apply]` (MemoryBox
   * workspaces): runs the five gates (VALUE, ALIGNMENT, REDUNDANCY, FRESHNESS, PLACEMENT) for a
   * candidate, asking `judge` for each judgement, and with `apply: true` writes the entry when the
   * outcome is WRITE (result.applied; there is never a Plan ID). The JSON's data is {applied,
   * budget, category, entry_id, entry_text, file, gates, near_duplicates, outcome, stopped_at,
   * tier, written}; the outcome DO_NOT_STORE, DISCARD, UPDATE_EXISTING, NEEDS_JUDGEMENT or WRITE
   * exits 0, REJECTED exits 1.
   * - text: a string (sent as UTF-8), a Buffer or a Uint8Array.
   * - confidence: a string in the Confidence form ('0.85', '1', '0.5'); a malformed one gives a
   *   fatal finding (exitCode 2).
   * - title (needed for section files and memory/SESSION_LOG.md), source (`Source:`), client
   *   (`Client:`): strings, or absent/null.
   * - judge(gateName, question): called synchronously for each judgement, with the gate's name
   *   ('VALUE', ...) and the question parsed from its JSON ({candidate, categories, category,
   *   category_entries, gate, near_duplicates}). It returns the answer string ('yes'|'no';
   *   'existing <category>'|'new <name>'|'none'; '<entry ID>'|'none'; 'stable'|'time_sensitive
   *   YYYY-MM-DD'; '<tier> <file>'), or null/undefined to abstain (the run stops there with
   *   NEEDS_JUDGEMENT). A judge that throws or returns anything else makes the Result carry the
   *   fatal finding MK-BOX-005 (exitCode 2): the error never reaches C. Without a judge the run
   *   stops at VALUE with NEEDS_JUDGEMENT. The judge may not use this workspace.
   * @param {{title?: string, source?: string, client?: string,
   *          judge?: (gate: string, question: object) => string|null|undefined,
   *          apply?: boolean}} [opts]
   */
  gate(now, text, confidence, opts) {
    const o = options(opts, ['title', 'source', 'client', 'judge', 'apply'], 'gate options');
    const host = o.judge ?? null;
    if (host !== null && typeof host !== 'function')
      throw new TypeError('judge must be a function(gateName, question)');
    const candidate = gateCandidate(text, confidence, o);
    const flags = o.apply ? C.MK_GATE_APPLY : 0;
    const ptr = this.#handle();
    const clock = clockArg(now);
    const judge = host === null ? null : registerJudge(host);
    const out = [null];
    let status;
    this.#judging = true;
    try {
      status = capi.mk_workspace_gate(out, ptr, clock, candidate, judge, null, flags);
    } finally {
      this.#judging = false;
      if (judge !== null) koffi.unregister(judge);
    }
    check(status, 'mk_workspace_gate');
    return new Result(resultToken, out[0]);
  }

  /**
   * `memorybox canon add --file F --text T` (MemoryBox workspaces of the Maven profile): appends
   * `- T` to brain/MARKETING_CANON.md (append-only), or creates the write-once
   * brain/canon/<name>.md holding T, then records the file's length and SHA-256 in
   * .memkit/canon-ledger.jsonl, under the lock. The JSON's data is {ledger, unrecorded,
   * violations, written}. A canon file that already breaks the ledger gives the ERROR MK-BOX-030
   * (exitCode 1) and nothing is written; another file, or a brain/canon/ file that exists, gives a
   * fatal MK-ARG-001 (exitCode 2).
   * - file: relative to the root.
   * - text: a string (sent as UTF-8), a Buffer or a Uint8Array.
   */
  canonAdd(now, file, text) {
    const { data, size } = utf8Bytes(text, 'text');
    return this.#command(
      capi.mk_workspace_canon_add,
      'mk_workspace_canon_add',
      now,
      cString(file, 'file'),
      data,
      size,
    );
  }

  /** `memorybox canon verify` (MemoryBox workspaces of the Maven profile): checks that each canon
   *  file still begins with the bytes its latest ledger record covers (and that a write-once file
   *  holds nothing more); each violation is the ERROR MK-BOX-030 (exitCode 1). Writes nothing. */
  canonVerify(now) {
    return this.#command(capi.mk_workspace_canon_verify, 'mk_workspace_canon_verify', now);
  }

  /** `memorybox compact [--file F] [--force]` (MemoryBox workspaces), a dry run: the five bloat
   *  rules, their actions and the plan with its ID (result.planId, null when nothing is
   *  breached); writes nothing. `file` (memory/SESSION_LOG.md, memory/ACTIVE_TASKS.md,
   *  memory/MISTAKES.md, memory/PATTERNS.md or memory/daily/) runs that one rule; `force` makes
   *  every rule act, breached or not. */
  planMemoryboxCompact(now, opts) {
    const o = options(opts, ['file', 'force'], 'memorybox compact options');
    return this.#command(
      capi.mk_workspace_plan_memorybox_compact,
      'mk_workspace_plan_memorybox_compact',
      now,
      optionalCString(o.file, 'file'),
      o.force ? C.MK_MEMORYBOX_COMPACT_FORCE : 0,
    );
  }

  /** `memorybox compact [--file F] [--force] --apply --confirm-plan ID`: plans again under the
   *  lock and writes only when the new Plan ID is `confirm` (else a MK-PLAN-001 finding, exit 2,
   *  and nothing written). Give the same options as the dry run. */
  applyMemoryboxCompact(now, confirm, opts) {
    const o = options(opts, ['file', 'force'], 'memorybox compact options');
    return this.#command(
      capi.mk_workspace_apply_memorybox_compact,
      'mk_workspace_apply_memorybox_compact',
      now,
      optionalCString(o.file, 'file'),
      o.force ? C.MK_MEMORYBOX_COMPACT_FORCE : 0,
      cString(confirm, 'confirm'),
    );
  }

  /** `memorybox promote --entry ID` (MemoryBox workspaces), a dry run: the plan that moves a
   *  pattern of memory/PATTERNS.md ('memory/PATTERNS.md#<12 hex digits>') verbatim to the end of
   *  memory/SOP_LIBRARY.md. Another entry gives a fatal MK-ARG-001 finding. */
  planPromote(now, entryId) {
    return this.#command(
      capi.mk_workspace_plan_promote,
      'mk_workspace_plan_promote',
      now,
      cString(entryId, 'entryId'),
    );
  }

  /** `memorybox promote --entry ID --apply --confirm-plan ID`. */
  applyPromote(now, entryId, confirm) {
    return this.#command(
      capi.mk_workspace_apply_promote,
      'mk_workspace_apply_promote',
      now,
      cString(entryId, 'entryId'),
      cString(confirm, 'confirm'),
    );
  }

  /** `memorybox update --entry ID --resolve archive` (MemoryBox workspaces), a dry run: the plan
   *  that moves a tier 1-4 entry verbatim to memory/ARCHIVES/<stem>-<YYYY-MM of now>.md (a daily
   *  file is archived whole, then deleted). */
  planArchiveEntry(now, entryId) {
    return this.#command(
      capi.mk_workspace_plan_archive_entry,
      'mk_workspace_plan_archive_entry',
      now,
      cString(entryId, 'entryId'),
    );
  }

  /** `memorybox update --entry ID --resolve archive --apply --confirm-plan ID`. */
  applyArchiveEntry(now, entryId, confirm) {
    return this.#command(
      capi.mk_workspace_apply_archive_entry,
      'mk_workspace_apply_archive_entry',
      now,
      cString(entryId, 'entryId'),
      cString(confirm, 'confirm'),
    );
  }

  /**
   * `memorybox client set --client C --to S` (MemoryBox workspaces of the Maven profile), as the
   * CLI runs it without --apply. active -> maintenance and maintenance -> active write the
   * profile's `Lifecycle:` line directly (result.applied; no Plan ID). A move to or from archived
   * is a dry run: the plan (result.planId) that moves brain/clients/C.md and memory/clients/C/ to
   * memory/ARCHIVES/clients/C/ (or back); apply it with applyClientSet(). A state to itself writes
   * nothing. The JSON's data is {applied, client, from, plan, to, written}. active -> archived and
   * archived -> maintenance are the ERROR MK-BOX-031 (exitCode 1); another profile, an unknown
   * client or a key that is not file-name safe is a fatal MK-ARG-001 (exitCode 2).
   * - client: the key of brain/clients/<client>.md (A-Z, a-z, 0-9, '.', '_', '-'; no leading '.').
   * - to: 'active', 'maintenance', 'archived' or a Lifecycle number; another string is a
   *   TypeError, an unknown number MK_E_ARG.
   * @param {string} client
   * @param {'active'|'maintenance'|'archived'|number} to
   */
  clientSet(now, client, to) {
    return this.#command(
      capi.mk_workspace_client_set,
      'mk_workspace_client_set',
      now,
      cString(client, 'client'),
      lifecycleArg(to),
    );
  }

  /** `memorybox client set --client C --to S --apply --confirm-plan ID`: plans the move to or from
   *  archived again under the lock and applies it only when the new Plan ID is `confirm` (else a
   *  MK-PLAN-001 finding, exitCode 2, and nothing written). For active <-> maintenance, which has
   *  no plan, the Result has a fatal MK-ARG-001 and nothing is written: use clientSet(). */
  applyClientSet(now, client, to, confirm) {
    return this.#command(
      capi.mk_workspace_apply_client_set,
      'mk_workspace_apply_client_set',
      now,
      cString(client, 'client'),
      lifecycleArg(to),
      cString(confirm, 'confirm'),
    );
  }

  /**
   * `memkit memorybox sync <command> --root ROOT [options]` on a workspace opened with layout
   * 'memorybox' (mk_memorybox_sync), exactly as the CLI runs it (spec memorybox.md §9), under the
   * root's lock. A pull reads the remote first and writes nothing when that fails (the fatal
   * MK-BOX-023, 024 or 025); new entries are written at once, while a pull that replaces or
   * removes local text is a dry run until confirmPlan names its Plan ID (result.applied is true
   * when a pull's plan was written). A push writes the Id and Updated lines it needs, then
   * sends; a refused record is the ERROR MK-BOX-020. On another layout the Result has a fatal
   * MK-ARG-001.
   * - command: the CLI's verb ('pull', 'push', 'status', 'resolve') or a SyncCommand number (an
   *   unknown number is MK_E_ARG); another string is a TypeError.
   * - opts: remote ('dir:PATH', a folder that exists, relative to the current directory, or
   *   'postgres'; pull and push need it, status reads the remote only with it), conninfo (the
   *   PostgreSQL connection string for remote 'postgres'; absent: libpq's defaults; the library
   *   reads no MEMKIT_SYNC_CONNINFO and no result holds it), workspaceId (needed only by a
   *   root's first sync, else a random one is made), id and take ('local' or 'remote') of
   *   resolve, confirmPlan (`--apply --confirm-plan ID` of pull) as strings; apply (pull's
   *   --apply) as a boolean. Absent or null is not given. An option the verb does not take gives
   *   the CLI's fatal MK-ARG-001 in the Result, never a throw; only a name no verb has is a
   *   TypeError.
   * @param {string|number} command
   * @param {object} [opts]
   */
  sync(now, command, opts) {
    const cmd = syncCommandArg(command);
    return this.#command(capi.mk_memorybox_sync, 'mk_memorybox_sync', now, cmd, syncOptions(opts));
  }

  /**
   * `memkit tiers <command> [options]` on a workspace opened with layout 'tiers' (mk_tiers_run),
   * exactly as the CLI runs it (spec tiers3.md §8): reads never write; a write checks every
   * argument first, then writes all its files or none (L1, then L2, then L3) under the lock, and
   * result.applied is true when it wrote. On another layout the Result has a fatal MK-ARG-001.
   * - command: the CLI's name ('persist-turn', ...) or a TiersCommand number (an unknown number
   *   is MK_E_ARG); another string is a TypeError.
   * - opts: the CLI's options in camelCase: content, rawContent, extractedContent, theme,
   *   template (also the NAME of `tiers template`), title, entryType, sessionId, tools, name,
   *   csvContent, sourceFile, description, sourceLabel, columnsJson, confirmPlan (`--apply
   *   --confirm-plan ID` of archive-themes) as strings; recentDays, themeLimit, maxTokens,
   *   daysBack, limit, hoursBack, head, days as integers (a Number or a BigInt); noLog,
   *   promoteGlobal, append, replace as booleans. tools and columnsJson take the JSON text or an
   *   array. Absent or null is not given. An option the command does not take, a bad value or a
   *   missing one gives the CLI's finding in the Result (e.g. exitCode 2, MK-ARG-001 or
   *   MK-TIERS-004), never a throw; only a name no command has is a TypeError.
   * @param {string|number} command
   * @param {object} [opts]
   */
  tiers(now, command, opts) {
    const cmd = tiersCommandArg(command);
    return this.#command(capi.mk_tiers_run, 'mk_tiers_run', now, cmd, tiersOptions(opts));
  }

  /** `tiers init`: memory/, memory/sessions/, memory/data/ with manifest.json `{}`, and the
   *  global.md skeleton; never overwrites. data: {created}. */
  tiersInit(now, opts) {
    return this.tiers(now, 'init', opts);
  }

  /** `tiers session-init` ({sessionId, recentDays, themeLimit, noLog, maxTokens}): global.md's
   *  excerpt, the recent logs and themes (and with maxTokens the context within that budget),
   *  then a SESSION_INIT log entry unless noLog. */
  tiersSessionInit(now, opts) {
    return this.tiers(now, 'session-init', opts);
  }

  /** `tiers log-turn` ({content, entryType, tools, sessionId}): one L1 entry. data: {path}. */
  tiersLogTurn(now, opts) {
    return this.tiers(now, 'log-turn', opts);
  }

  /** `tiers read-logs` ({daysBack, limit}): data.logs [{date, path, size, content}]. */
  tiersReadLogs(now, opts) {
    return this.tiers(now, 'read-logs', opts);
  }

  /** `tiers persist-turn` ({rawContent, entryType, extractedContent, theme, template, title,
   *  tools, sessionId, promoteGlobal}): L1 always, L2 with extractedContent (theme required),
   *  L3 with promoteGlobal and extractedContent. */
  tiersPersistTurn(now, opts) {
    return this.tiers(now, 'persist-turn', opts);
  }

  /** `tiers write-theme` ({theme, content, template, title, promoteGlobal, rawContent,
   *  entryType, tools, sessionId}): L1, then the L2 note, then with promoteGlobal L3. */
  tiersWriteTheme(now, opts) {
    return this.tiers(now, 'write-theme', opts);
  }

  /** `tiers read-theme` ({theme, hoursBack, limit}): data.memories [{timestamp, path, content}]. */
  tiersReadTheme(now, opts) {
    return this.tiers(now, 'read-theme', opts);
  }

  /** `tiers read-global`: data {path, exists, content, read_order}. */
  tiersReadGlobal(now, opts) {
    return this.tiers(now, 'read-global', opts);
  }

  /** `tiers write-global` ({content, append, replace, rawContent, entryType, tools, sessionId}):
   *  L1, then global.md appended to (the default) or replaced (with a backup copy). */
  tiersWriteGlobal(now, opts) {
    return this.tiers(now, 'write-global', opts);
  }

  /** `tiers list-themes`: data.themes. */
  tiersListThemes(now, opts) {
    return this.tiers(now, 'list-themes', opts);
  }

  /** `tiers write-data` ({name, csvContent | sourceFile, replace, description, sourceLabel,
   *  columnsJson, rawContent, entryType, tools, sessionId}): L1, memory/data/<name>.csv, then
   *  its manifest entry. sourceFile is relative to the process's working directory. */
  tiersWriteData(now, opts) {
    return this.tiers(now, 'write-data', opts);
  }

  /** `tiers read-data` ({name, head}): data.data {name, path, size, metadata, content,
   *  truncated}; head N keeps the bytes through the Nth record (the header is record 1). */
  tiersReadData(now, opts) {
    return this.tiers(now, 'read-data', opts);
  }

  /** `tiers list-data`: data.data_files [{name, path, size, metadata?}]. */
  tiersListData(now, opts) {
    return this.tiers(now, 'list-data', opts);
  }

  /** `tiers archive-themes` ({days, confirmPlan}): without confirmPlan a dry run, the plan that
   *  moves the L2 notes older than `days` (90) to memory/archive/<theme>/ (result.planId); with
   *  confirmPlan (`--apply --confirm-plan ID`) it plans again under the lock and applies only
   *  when the new Plan ID is that one (else MK-PLAN-001, exitCode 2, nothing written). */
  tiersArchiveThemes(now, opts) {
    return this.tiers(now, 'archive-themes', opts);
  }

  /** `tiers template NAME`: the body skeleton of the template 'decision', 'error' or 'task'
   *  (data.text). Another name gives a fatal MK-ARG-001 finding. */
  tiersTemplate(now, name) {
    return this.tiers(now, 'template', { template: name });
  }

  /**
   * `memkit curated <command> --store ROOT [options]` on a workspace opened with layout
   * 'curated', its root being the store folder (mk_curated_run), exactly as the CLI runs it (spec
   * curated.md): reads never write a row (counted reads append access records); a write checks
   * every argument and the writer boundary first, then writes its rows and history as one
   * transaction or nothing, and result.applied is true when it wrote. On another layout the
   * Result has a fatal MK-ARG-001.
   * - command: the CLI's words ('add', 'get-relevant', 'event add', 'recover', ...) or a
   *   CuratedCommand number (an unknown number is MK_E_ARG); another string is a TypeError.
   * - opts: workspace (every command needs it: the library reads no MEMKIT_WORKSPACE, so
   *   without it the Result holds MK-CUR-001), actor, the positionals name (--name of add and
   *   edit; NAME or SRC elsewhere), dst, query and id, and the CLI's options in camelCase: type,
   *   body, bodyFile, description, class, status, initiative, projectRef, audience,
   *   originSession, field, content, kind, file, sort, order, scope, threshold (a string or a
   *   Number), before, source, agent, result, severity, payload (the JSON text, or a value sent
   *   as JSON), confirmPlan (`--apply --confirm-plan ID` of floors prune and telemetry compact)
   *   as strings; maxChars, limit, maxDepth as integers; dryRun, links, history,
   *   includeDeleted, yes, hard, delete (link's --delete), apply, rollback as booleans. Absent
   *   or null is not given. bodyFile and file are read relative to the current directory ('-',
   *   standard input, is refused with MK-ARG-001). An option the command does not take gives
   *   the CLI's finding in the Result, never a throw; only a name no command has is a
   *   TypeError.
   * @param {string|number} command
   * @param {object} [opts]
   */
  curated(now, command, opts) {
    const cmd = curatedCommandArg(command);
    return this.#command(capi.mk_curated_run, 'mk_curated_run', now, cmd, curatedOptions(opts));
  }
}

/* Document */

const documentToken = Symbol('memkit.Document');
const documents = new FinalizationRegistry((ptr) => capi.mk_document_destroy(ptr)); // fallback only

/** A parsed Markdown file (mk_document): its lines partitioned into units. Immutable. */
class Document {
  #ptr;

  constructor(token, ptr) {
    if (token !== documentToken) throw new TypeError('use Document.parse(bytes)');
    this.#ptr = ptr;
    documents.register(this, ptr, this);
  }

  /** Parses UTF-8 bytes (a Buffer, a Uint8Array or a string) as Markdown; never fails on content. */
  static parse(bytes) {
    const { data, size } = utf8Bytes(bytes, 'document');
    const out = [null];
    check(capi.mk_document_parse(out, data, size), 'mk_document_parse');
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
      const out = {};
      check(capi.mk_document_unit(out, ptr, i), 'mk_document_unit');
      units.push({
        kind: out.kind,
        headingLevel: out.heading_level,
        firstLine: out.first_line,
        lastLine: out.last_line,
        begin: out.begin,
        end: out.end,
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

const Status = Object.freeze({
  OK: C.MK_OK,
  E_ARG: C.MK_E_ARG,
  E_NOMEM: C.MK_E_NOMEM,
  E_INTERNAL: C.MK_E_INTERNAL,
  E_IO: C.MK_E_IO,
  E_NOT_FOUND: C.MK_E_NOT_FOUND,
  E_PARSE: C.MK_E_PARSE,
  E_UTF8: C.MK_E_UTF8,
  E_LAYOUT: C.MK_E_LAYOUT,
  E_UNSAFE_PATH: C.MK_E_UNSAFE_PATH,
  E_LOCK: C.MK_E_LOCK,
  E_CALLBACK: C.MK_E_CALLBACK,
});

const BudgetState = Object.freeze({
  OK: C.MK_BUDGET_OK,
  NEAR_LIMIT: C.MK_BUDGET_NEAR_LIMIT,
  OVER_BUDGET: C.MK_BUDGET_OVER_BUDGET,
  MISSING: C.MK_BUDGET_MISSING,
  NOT_ENABLED: C.MK_BUDGET_NOT_ENABLED,
});

const UnitKind = Object.freeze({
  FRONT_MATTER: C.MK_UNIT_FRONT_MATTER,
  BULLET: C.MK_UNIT_BULLET,
  FENCE: C.MK_UNIT_FENCE,
  COMMENT: C.MK_UNIT_COMMENT,
  HEADING: C.MK_UNIT_HEADING,
  BLANK: C.MK_UNIT_BLANK,
  TEXT: C.MK_UNIT_TEXT,
});

const Layout = Object.freeze({
  CUSTODIAN: C.MK_LAYOUT_CUSTODIAN,
  MEMORYBOX: C.MK_LAYOUT_MEMORYBOX,
  TIERS: C.MK_LAYOUT_TIERS,
  CURATED: C.MK_LAYOUT_CURATED,
});

const CuratedCommand = Object.freeze({
  ADD: C.MK_CURATED_ADD,
  APPEND: C.MK_CURATED_APPEND,
  EDIT: C.MK_CURATED_EDIT,
  RECLASSIFY: C.MK_CURATED_RECLASSIFY,
  LINK: C.MK_CURATED_LINK,
  UNLINK: C.MK_CURATED_UNLINK,
  DELETE: C.MK_CURATED_DELETE,
  RESTORE: C.MK_CURATED_RESTORE,
  CHECKPOINT: C.MK_CURATED_CHECKPOINT,
  BATCH: C.MK_CURATED_BATCH,
  GET_RELEVANT: C.MK_CURATED_GET_RELEVANT,
  KERNEL: C.MK_CURATED_KERNEL,
  SHOW: C.MK_CURATED_SHOW,
  LIST: C.MK_CURATED_LIST,
  SEARCH: C.MK_CURATED_SEARCH,
  STATS: C.MK_CURATED_STATS,
  CONFLICTS: C.MK_CURATED_CONFLICTS,
  LINEAGE: C.MK_CURATED_LINEAGE,
  STORY: C.MK_CURATED_STORY,
  EVENT_ADD: C.MK_CURATED_EVENT_ADD,
  EPISODE_ADD: C.MK_CURATED_EPISODE_ADD,
  EPISODE_SHOW: C.MK_CURATED_EPISODE_SHOW,
  FLOORS_PRUNE: C.MK_CURATED_FLOORS_PRUNE,
  TELEMETRY_COMPACT: C.MK_CURATED_TELEMETRY_COMPACT,
  RECOVER: C.MK_CURATED_RECOVER,
});

const SyncCommand = Object.freeze({
  PULL: C.MK_SYNC_PULL,
  PUSH: C.MK_SYNC_PUSH,
  STATUS: C.MK_SYNC_STATUS,
  RESOLVE: C.MK_SYNC_RESOLVE,
});

const TiersCommand = Object.freeze({
  INIT: C.MK_TIERS_INIT,
  SESSION_INIT: C.MK_TIERS_SESSION_INIT,
  LOG_TURN: C.MK_TIERS_LOG_TURN,
  READ_LOGS: C.MK_TIERS_READ_LOGS,
  PERSIST_TURN: C.MK_TIERS_PERSIST_TURN,
  WRITE_THEME: C.MK_TIERS_WRITE_THEME,
  READ_THEME: C.MK_TIERS_READ_THEME,
  READ_GLOBAL: C.MK_TIERS_READ_GLOBAL,
  WRITE_GLOBAL: C.MK_TIERS_WRITE_GLOBAL,
  LIST_THEMES: C.MK_TIERS_LIST_THEMES,
  WRITE_DATA: C.MK_TIERS_WRITE_DATA,
  READ_DATA: C.MK_TIERS_READ_DATA,
  LIST_DATA: C.MK_TIERS_LIST_DATA,
  ARCHIVE_THEMES: C.MK_TIERS_ARCHIVE_THEMES,
  TEMPLATE: C.MK_TIERS_TEMPLATE,
});

const ForgetMode = Object.freeze({
  SOFT: C.MK_FORGET_SOFT,
  HARD: C.MK_FORGET_HARD,
  PURGE: C.MK_FORGET_PURGE,
});

const UpdateEvent = Object.freeze({
  VERIFY: C.MK_UPDATE_VERIFY,
  CONFIRM: C.MK_UPDATE_CONFIRM,
  CONTRADICT: C.MK_UPDATE_CONTRADICT,
  RESOLVE_KEEP: C.MK_UPDATE_RESOLVE_KEEP,
});

const Gate = Object.freeze({
  VALUE: C.MK_GATE_VALUE,
  ALIGNMENT: C.MK_GATE_ALIGNMENT,
  REDUNDANCY: C.MK_GATE_REDUNDANCY,
  FRESHNESS: C.MK_GATE_FRESHNESS,
  PLACEMENT: C.MK_GATE_PLACEMENT,
});

const Lifecycle = Object.freeze({
  ACTIVE: C.MK_LIFECYCLE_ACTIVE,
  MAINTENANCE: C.MK_LIFECYCLE_MAINTENANCE,
  ARCHIVED: C.MK_LIFECYCLE_ARCHIVED,
});

module.exports = {
  MemkitError,
  version,
  versionNumber,
  commands,
  Clock,
  parseClock,
  Workspace,
  Result,
  Document,
  Status,
  BudgetState,
  UnitKind,
  Layout,
  ForgetMode,
  UpdateEvent,
  Gate,
  Lifecycle,
  SyncCommand,
  TiersCommand,
  CuratedCommand,
  constants: C,
  libraryPath: capi.libraryPath,
};
