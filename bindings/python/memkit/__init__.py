"""memkit for Python: agent memory in Markdown, through libmemkit's C ABI (capi/memkit.h).

The idiomatic layer over memkit._capi. Every command of the command table (commands()) runs
through one path, mk_workspace_run, and a Workspace has one method per command of its layout's
group and of each group that runs on every layout (search), made from the table (ws.compact,
ws.sync_push: the verb with "_" for spaces and dashes; ws.search: a command without a verb is
its group's name):

    with memkit.Workspace.open("/path/to/project") as ws, ws.compact(now) as plan:
        print(plan.exit_code, plan.plan_id, plan.json)   # `memkit custodian compact`

The library, not this module, judges argument names and types, so a new argument or command
in the table needs no change here. A non-OK mk_status raises memkit.Error; a command that ran
returns a Result even when its findings stop it. Every handle has an idempotent close() and is
a context manager; the garbage collector only destroys what was not closed.
"""

from __future__ import annotations

import ctypes
import datetime as _datetime
import enum
import functools
import inspect
import json as _json
import keyword
import os
import threading
import weakref
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Optional, Union

from . import _capi
from ._capi import LoadError

__all__ = [
    "BINDING_VERSION", "BINDING_VERSION_NUMBER", "LoadError", "Error", "ArgumentError", "Status",
    "Clock", "SYSTEM_CLOCK", "parse_clock", "version", "version_number", "commands",
    "status_name", "error_message", "Workspace", "Layout", "Result", "InboxCounts", "BudgetRow",
    "BudgetState", "Gate", "Judge", "Document", "Unit", "UnitKind", "library_path",
]

#: The library version this binding was written for (memkit.h's MK_VERSION_*).
BINDING_VERSION = _capi.MK_VERSION_STRING
BINDING_VERSION_NUMBER = _capi.MK_VERSION_NUMBER
#: Where the loaded libmemkit came from.
library_path = _capi.library_path

PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
Text = Union[str, bytes]


# Section - Version and status

def version() -> str:
    """mk_version_string(): the loaded library's "MAJOR.MINOR.PATCH"."""
    return _capi.mk_version_string().decode("ascii")


def version_number() -> int:
    """mk_version_number(): MAJOR * 10000 + MINOR * 100 + PATCH (200 for 0.2.0)."""
    return _capi.mk_version_number()


def commands() -> dict:
    """mk_commands_json(): the command table, parsed; a fresh copy on every call.

    {"global_options", "groups", "table_version"}: each group {name, workspace, summary, notes,
    commands} (workspace: the layout whose workspace runs it, "any", "none", or "server" or
    "cli": the CLI's alone), each command {name, verb, summary, effect, arguments}, each argument {name
    ("--confirm-plan" or a positional's "MESSAGE"), type, positional, required, default,
    choices, doc, ...}."""
    buf = _capi.mk_buf()
    _check(_capi.mk_commands_json(ctypes.byref(buf)))
    return _json.loads(_take_buf(buf).decode("utf-8"))


@functools.lru_cache(maxsize=None)
def _library_table() -> dict:
    # Read once per process: the table is constant data of the loaded library. Shared, so
    # only ever read, never handed out (commands() gives callers their own copy).
    return commands()


class Status(enum.IntEnum):
    """The values of mk_status."""
    OK = _capi.MK_OK
    E_ARG = _capi.MK_E_ARG
    E_NOMEM = _capi.MK_E_NOMEM
    E_INTERNAL = _capi.MK_E_INTERNAL
    E_IO = _capi.MK_E_IO
    E_NOT_FOUND = _capi.MK_E_NOT_FOUND
    E_PARSE = _capi.MK_E_PARSE
    E_UTF8 = _capi.MK_E_UTF8
    E_LAYOUT = _capi.MK_E_LAYOUT
    E_UNSAFE_PATH = _capi.MK_E_UNSAFE_PATH
    E_LOCK = _capi.MK_E_LOCK
    E_CALLBACK = _capi.MK_E_CALLBACK


def status_name(code: int) -> str:
    """mk_status_name(): "MK_E_ARG" for -1; "MK_E_UNKNOWN" for codes the library does not know."""
    return _capi.mk_status_name(code).decode("ascii")


def error_message() -> str:
    """mk_error_message(): why the last mk_ call on this thread failed ("" if none did).

    Error already carries the message of its failure; this is the raw accessor."""
    return _capi.mk_error_message().decode("utf-8", "replace")


class Error(Exception):
    """A memkit call failed: .code is the mk_status (negative), .name its mk_status_name, and
    .message the mk_error_message() read right after the failing call."""

    def __init__(self, code: int, name: str, message: str) -> None:
        super().__init__(code, name, message)
        self.code = code
        self.name = name
        self.message = message

    @property
    def status(self) -> Optional[Status]:
        """The code as a Status, or None for a code this binding does not know."""
        try:
            return Status(self.code)
        except ValueError:
            return None

    def __str__(self) -> str:
        return f"{self.name} ({self.code}): {self.message}"


class ArgumentError(Error, ValueError):
    """An argument the binding refuses before calling C (a closed handle, a NUL inside a
    NUL-terminated string, an int outside int64). Always MK_E_ARG."""

    def __init__(self, message: str) -> None:
        super().__init__(_capi.MK_E_ARG, "MK_E_ARG", message)


def _failure(status: int) -> Error:
    # The message first: it is valid only until the next mk_ call on this thread, and
    # mk_status_name is one.
    message = _capi.mk_error_message().decode("utf-8", "replace")
    return Error(status, status_name(status), message)


def _check(status: int) -> None:
    if status != _capi.MK_OK:
        raise _failure(status)


def _take_buf(buf: _capi.mk_buf) -> bytes:
    """Copies an mk_buf's bytes and releases them with mk_buf_dispose (never free())."""
    try:
        return ctypes.string_at(buf.ptr, buf.size) if buf.ptr and buf.size else b""
    finally:
        _capi.mk_buf_dispose(ctypes.byref(buf))


# Section - Argument conversion

_INT64 = (-(1 << 63), (1 << 63) - 1)
_INT32 = (-(1 << 31), (1 << 31) - 1)


def _cstring(value: Any, what: str) -> bytes:
    """A NUL-terminated argument: str as UTF-8, bytes as they are (the library checks UTF-8)."""
    if isinstance(value, str):
        value = value.encode("utf-8")
    elif not isinstance(value, (bytes, bytearray)):
        raise TypeError(f"{what}: expected str or bytes, got {type(value).__name__}")
    value = bytes(value)
    if b"\0" in value:
        raise ArgumentError(f"{what}: contains a NUL byte, which a C string cannot hold")
    return value


def _cpath(value: Any, what: str) -> bytes:
    """A NUL-terminated path, encoded as the file system encodes it."""
    if not isinstance(value, (str, bytes, os.PathLike)):
        raise TypeError(f"{what}: expected a path, got {type(value).__name__}")
    return _cstring(os.fsencode(value), what)


def _text(value: Any, what: str) -> bytes:
    """A (data, size) argument: passed with its byte length, so NUL bytes are kept."""
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"{what}: expected str or bytes, got {type(value).__name__}")


# Section - Clock

@dataclass(frozen=True)
class Clock:
    """An mk_clock: an instant (unix_ms) and the UTC offset every local date uses, or the
    system clock and zone (system=True) read when each command runs.

    Plan IDs depend on both the instant and the offset: pass what the CLI's --now got."""
    unix_ms: int = 0
    utc_offset_minutes: int = 0
    system: bool = False

    def __post_init__(self) -> None:
        for name, (low, high) in (("unix_ms", _INT64), ("utc_offset_minutes", _INT32)):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"Clock.{name}: expected int, got {type(value).__name__}")
            if not low <= value <= high:
                raise ArgumentError(f"Clock.{name}: {value} does not fit its C type")

    @classmethod
    def parse(cls, rfc3339: str) -> "Clock":
        """mk_clock_parse: an RFC 3339 time with an offset ("2026-11-30T10:00:00+01:00", "...Z")."""
        out = _capi.mk_clock()
        _check(_capi.mk_clock_parse(ctypes.byref(out), _cstring(rfc3339, "rfc3339")))
        return cls(out.unix_ms, out.utc_offset_minutes, bool(out.flags & _capi.MK_CLOCK_SYSTEM))

    @classmethod
    def from_datetime(cls, moment: _datetime.datetime) -> "Clock":
        """An aware datetime: its instant and its UTC offset (whole minutes)."""
        offset = moment.utcoffset()
        if offset is None:
            raise ArgumentError("now: a datetime needs a tzinfo (memkit dates use its offset)")
        if offset % _datetime.timedelta(minutes=1):
            raise ArgumentError(f"now: the UTC offset {offset} is not a whole number of minutes")
        epoch = _datetime.datetime(1970, 1, 1, tzinfo=_datetime.timezone.utc)
        return cls((moment - epoch) // _datetime.timedelta(milliseconds=1),
                   offset // _datetime.timedelta(minutes=1))

    def _to_c(self) -> _capi.mk_clock:
        return _capi.mk_clock(_capi.MK_CLOCK_VERSION,
                              _capi.MK_CLOCK_SYSTEM if self.system else 0,
                              self.unix_ms, self.utc_offset_minutes)


#: Read the system clock and the local zone's offset when each command runs (MK_CLOCK_SYSTEM).
SYSTEM_CLOCK = Clock(system=True)

ClockLike = Union[str, Clock, _datetime.datetime]


def parse_clock(rfc3339: str) -> Clock:
    """mk_clock_parse; raises Error (MK_E_ARG) for a time without an offset or out of range."""
    return Clock.parse(rfc3339)


def _clock(now: ClockLike) -> _capi.mk_clock:
    if isinstance(now, Clock):
        return now._to_c()
    if isinstance(now, str):
        return Clock.parse(now)._to_c()
    if isinstance(now, _datetime.datetime):
        return Clock.from_datetime(now)._to_c()
    raise TypeError("now: expected an RFC 3339 str with an offset, a memkit.Clock (e.g. "
                    f"memkit.SYSTEM_CLOCK) or an aware datetime, got {type(now).__name__}")


# Section - Handles

class _Handle:
    """An owned C handle: close() destroys it once; a weakref finalizer is the GC fallback.

    Calls take the handle's lock, so a close() from another thread waits for a running call
    instead of freeing the handle under it."""

    _destroy: Callable[[Any], None]

    def __init__(self, pointer: Any) -> None:
        self._pointer = pointer
        self._lock = threading.RLock()
        self._callback: Optional[str] = None  # inside a callback C makes with this handle
        self._finalizer = weakref.finalize(self, type(self)._destroy, pointer)

    @property
    def closed(self) -> bool:
        return self._pointer is None

    def close(self) -> None:
        """Destroys the C handle. Idempotent; a closed handle refuses every other use."""
        with self._lock:
            if self._callback is not None:
                raise ArgumentError(f"{type(self).__name__}: cannot close it inside its own "
                                    f"{self._callback} callback")
            self._pointer = None
            self._finalizer()  # runs the destroyer at most once

    def __enter__(self):
        self._use_unlocked()
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def _use_unlocked(self) -> Any:
        if self._pointer is None:
            raise ArgumentError(f"this memkit.{type(self).__name__} is closed")
        if self._callback is not None:
            raise ArgumentError(
                f"memkit.{type(self).__name__}: a {self._callback} callback must not use the "
                "object it was called for (memkit.h, mk_write_fn and mk_judge_fn)")
        return self._pointer


def _enum(kind: type, value: int):
    try:
        return kind(value)
    except ValueError:
        return value


# Section - Results

class BudgetState(enum.IntEnum):
    """The values of mk_budget_state (spec compaction.md §5)."""
    OK = _capi.MK_BUDGET_OK
    NEAR_LIMIT = _capi.MK_BUDGET_NEAR_LIMIT
    OVER_BUDGET = _capi.MK_BUDGET_OVER_BUDGET
    MISSING = _capi.MK_BUDGET_MISSING
    NOT_ENABLED = _capi.MK_BUDGET_NOT_ENABLED


@dataclass(frozen=True)
class InboxCounts:
    """mk_inbox_counts: inbox_items = empty_items + duplicates + tombstone_matches + candidates."""
    inbox_items: int
    empty_items: int
    duplicates: int
    tombstone_matches: int
    candidates: int


@dataclass(frozen=True)
class BudgetRow:
    """One file's row of a status result (mk_budget_row); path is relative to the memory dir.
    state is a BudgetState, or the plain int for a state this binding does not know."""
    path: str
    tokens: int
    limit: int
    state: Union[BudgetState, int]


class Result(_Handle):
    """The outcome of one command (mk_result): the result `memkit <group> <verb> ... --format
    json` prints for the same arguments and clock. Immutable; safe to share across threads.

    Made by Workspace.run and the command methods, never directly."""

    _destroy = staticmethod(_capi.mk_result_destroy)

    #: What the judge of a `memorybox gate` run raised (the result then carries the fatal
    #: finding MK-BOX-005); None otherwise.
    judge_error: Optional[BaseException] = None

    def __repr__(self) -> str:
        if self.closed:
            return "<memkit.Result closed>"
        return f"<memkit.Result exit_code={self.exit_code} plan_id={self.plan_id!r}>"

    @property
    def exit_code(self) -> int:
        """mk_result_exit_code: 0 success (maybe with review), 1 a domain failure, 2 a blocker."""
        with self._lock:
            return _capi.mk_result_exit_code(self._use_unlocked())

    @property
    def json_bytes(self) -> bytes:
        """mk_result_json: the envelope `memkit ... --format json` prints, without its newline."""
        buf = _capi.mk_buf()
        with self._lock:
            _check(_capi.mk_result_json(ctypes.byref(buf), self._use_unlocked()))
        return _take_buf(buf)

    @property
    def json(self) -> str:
        """The envelope (json_bytes) as str."""
        return self.json_bytes.decode("utf-8")

    def write_json(self, write: Callable[[bytes], Any]) -> None:
        """mk_result_write_json: calls write(piece) with consecutive pieces (about 64 KiB) of the
        envelope, e.g. write_json(sys.stdout.buffer.write). What write returns is ignored.

        An exception raised by write stops the stream and raises Error (MK_E_CALLBACK) from it;
        KeyboardInterrupt and SystemExit are raised again as themselves."""
        if not callable(write):
            raise TypeError("write: expected a callable taking bytes")
        raised: list[BaseException] = []

        def trampoline(data: Optional[int], size: int, payload: Optional[int]) -> int:
            try:
                write(ctypes.string_at(data, size) if size else b"")
                return _capi.MK_OK
            except BaseException as exc:  # nothing may unwind through C
                raised.append(exc)
                return _capi.MK_E_CALLBACK

        callback = _capi.mk_write_fn(trampoline)  # kept alive by this frame during the call
        with self._lock:
            pointer = self._use_unlocked()
            self._callback = "write_json"
            try:
                status = _capi.mk_result_write_json(pointer, callback, None)
                failure = _failure(status) if status != _capi.MK_OK else None
            finally:
                self._callback = None
        cause = raised[0] if raised else None
        if cause is not None and not isinstance(cause, Exception):
            raise cause
        if failure is not None:
            raise failure from cause

    @property
    def plan_id(self) -> Optional[str]:
        """mk_result_plan_id: 16 lowercase hex digits, or None when the command made no plan."""
        with self._lock:
            value = _capi.mk_result_plan_id(self._use_unlocked())
        return None if value is None else value.decode("ascii")

    @property
    def applied(self) -> bool:
        """mk_result_applied: the plan (or additive write) reached the disk."""
        with self._lock:
            return _capi.mk_result_applied(self._use_unlocked()) != 0

    @property
    def plan_operation_count(self) -> int:
        """mk_result_plan_operation_count: files the plan writes or deletes (0 without a plan)."""
        with self._lock:
            return _capi.mk_result_plan_operation_count(self._use_unlocked())

    @property
    def inbox_counts(self) -> Optional[InboxCounts]:
        """mk_result_inbox_counts, or None (MK_E_NOT_FOUND) when the result is no inbox
        compaction; other failures raise Error."""
        out = _capi.mk_inbox_counts()
        with self._lock:
            status = _capi.mk_result_inbox_counts(ctypes.byref(out), self._use_unlocked())
            if status == _capi.MK_E_NOT_FOUND:
                return None
            _check(status)
        return InboxCounts(out.inbox_items, out.empty_items, out.duplicates,
                           out.tombstone_matches, out.candidates)

    @property
    def budget_row_count(self) -> int:
        """mk_result_budget_row_count: the file rows of a custodian status result, else 0 (a
        MemoryBox status has line budgets: read them from the JSON)."""
        with self._lock:
            return _capi.mk_result_budget_row_count(self._use_unlocked())

    def budget_row(self, index: int) -> BudgetRow:
        """mk_result_budget_row: row `index` (0-based, below budget_row_count), in report order."""
        if not isinstance(index, int) or index < 0:
            raise ArgumentError(f"index: expected an int of 0 or more, got {index!r}")
        out = _capi.mk_budget_row()
        with self._lock:
            _check(_capi.mk_result_budget_row(ctypes.byref(out), self._use_unlocked(), index))
            path = out.path  # copied while the result (which owns the bytes) is alive
        return BudgetRow(path.decode("utf-8"), out.tokens, out.limit,
                         _enum(BudgetState, out.state))

    @property
    def budget_rows(self) -> list[BudgetRow]:
        """Every row of a custodian status result ([] for other commands and MemoryBox)."""
        with self._lock:
            return [self.budget_row(i) for i in range(self.budget_row_count)]


# Section - Requests

class Gate(enum.IntEnum):
    """The values of mk_gate: the five gates of `memorybox gate`, in the order they run (spec
    memorybox.md §4). A judge gets the name ("VALUE", ...) and answers in the gate's form."""
    #: Does this change how the agent acts? "yes" | "no".
    VALUE = _capi.MK_GATE_VALUE
    #: "existing <category>" | "new <name>" | "none".
    ALIGNMENT = _capi.MK_GATE_ALIGNMENT
    #: "<entry ID>" (already captured there) | "none".
    REDUNDANCY = _capi.MK_GATE_REDUNDANCY
    #: "stable" | "time_sensitive <YYYY-MM-DD>" (later than today).
    FRESHNESS = _capi.MK_GATE_FRESHNESS
    #: "<tier> <file>", e.g. "2 memory/LONG_TERM.md".
    PLACEMENT = _capi.MK_GATE_PLACEMENT


#: The judge of `memorybox gate`: called with the gate's name ("VALUE", "ALIGNMENT", ...) and
#: the question (mk_judge_fn's JSON, parsed: candidate, categories, category,
#: category_entries, gate, near_duplicates); returns the answer (str or bytes) or None to abstain.
Judge = Callable[[str, Any], Optional[Text]]


def _judge_callback(judge: Judge, raised: list) -> Any:
    """judge as an mk_judge_fn. Whatever the judge does, C gets a status back; the first
    exception is kept in `raised` (nothing may unwind through C)."""

    def trampoline(gate: int, question: Optional[int], size: int, answer: Optional[int],
                   answer_payload: Optional[int], payload: Optional[int]) -> int:
        try:
            name = _enum(Gate, gate)
            asked = _json.loads(ctypes.string_at(question, size).decode("utf-8"))
            reply = judge(name.name if isinstance(name, Gate) else str(gate), asked)
            if reply is None:
                return _capi.MK_JUDGE_ABSTAIN
            if not isinstance(reply, (str, bytes, bytearray)):
                raise TypeError("judge: expected it to return str, bytes or None, got "
                                f"{type(reply).__name__}")
            data = _text(reply, "answer")
            piece = ctypes.create_string_buffer(data, len(data))
            status = ctypes.cast(answer, _capi.mk_write_fn)(piece, len(data), answer_payload)
            if status != _capi.MK_OK:  # the answer's writer refused: not an answer
                return status if status < 0 else _capi.MK_E_CALLBACK
            return _capi.MK_JUDGE_ANSWER
        except BaseException as exc:  # KeyboardInterrupt too: raised again after the run
            if not raised:
                raised.append(exc)
            return _capi.MK_E_CALLBACK

    return _capi.mk_judge_fn(trampoline)


def _argument_name(key: str) -> str:
    # class_ for --class: Python's convention for a keyword; the library reads "_" as "-", so
    # the trailing one must go.
    stem = key[:-1]
    return stem if key.endswith("_") and keyword.iskeyword(stem) else key


def _set_argument(request: Any, key: str, value: Any) -> None:
    """Sets one argument by the Python type of its value. Which names a command takes, and of
    which type, is the library's to judge (MK_E_ARG naming the argument and the closest one)."""
    name = _cstring(_argument_name(key), "argument name")
    if isinstance(value, bool):
        status = _capi.mk_request_set_bool(request, name, 1 if value else 0)
    elif isinstance(value, int):
        if not _INT64[0] <= value <= _INT64[1]:
            raise ArgumentError(f"{key}: {value} does not fit an int64_t")
        status = _capi.mk_request_set_int(request, name, value)
    elif isinstance(value, float):  # a fraction goes as its shortest decimal text, the CLI's form
        status = _capi.mk_request_set_string(request, name, repr(value).encode("ascii"))
    elif isinstance(value, (list, tuple)):
        items = [_cstring(item, f"{key}[{i}]") for i, item in enumerate(value)]
        array = (ctypes.c_char_p * len(items))(*items)  # items keeps the bytes alive
        status = _capi.mk_request_set_list(
            request, name, ctypes.cast(array, ctypes.POINTER(ctypes.POINTER(ctypes.c_char))),
            len(items))
    elif isinstance(value, os.PathLike):
        status = _capi.mk_request_set_string(request, name, _cpath(value, key))
    elif isinstance(value, (str, bytes, bytearray)):
        status = _capi.mk_request_set_string(request, name, _cstring(value, key))
    else:
        raise TypeError(f"{key}: expected str, bytes, a path, bool, int, float or a list of str, "
                        f"got {type(value).__name__}")
    _check(status)


def _python_name(argument: dict) -> str:
    """An argument's keyword: "--confirm-plan" is confirm_plan, "MESSAGE" message, "--class"
    class_."""
    name = argument["name"].lstrip("-").lower().replace("-", "_")
    return name + "_" if keyword.iskeyword(name) else name


def _method_name(group: str, verb: str) -> str:
    """A command's method: its verb ("sync push" is sync_push), or its group's name when it has
    no verb (the search group's one command is search)."""
    return (verb or group).replace(" ", "_").replace("-", "_")


def _command_name(group: str, verb: str) -> str:
    """The table's name of a command: "memorybox sync push", or "search" for an empty verb."""
    return f"{group} {verb}" if verb else group


def _workspace_commands(table: dict, layout: Optional[str]) -> dict[str, tuple[str, dict]]:
    """The methods of a workspace of `layout`, from the table's `workspace` key of each group:
    method name -> (group, command entry). The layout's own group comes first, then the groups
    that run on every layout ("any"), so a name both have (curated's search) keeps the meaning
    it had before; the other command stays reachable through run()."""
    commands: dict[str, tuple[str, dict]] = {}
    for runs_on in ("any",) if layout is None else (layout, "any"):  # None: a newer layout
        for group in table.get("groups", []):
            if group.get("workspace") == runs_on:
                for command in group["commands"]:
                    name = _method_name(group["name"], command["verb"])
                    commands.setdefault(name, (group["name"], command))
    return commands


# Section - Workspace

class Layout(enum.IntEnum):
    """The values of mk_layout: what a workspace's root holds, and which group of the command
    table it runs."""
    #: memory-custodian: the project root's docs/memory (spec compaction.md).
    CUSTODIAN = _capi.MK_LAYOUT_CUSTODIAN
    #: MemoryBox: an agent root with brain/ and memory/ (spec memorybox.md).
    MEMORYBOX = _capi.MK_LAYOUT_MEMORYBOX
    #: Three-tier session memory: memory/ under the workspace (spec tiers3.md).
    TIERS = _capi.MK_LAYOUT_TIERS
    #: Curated memory: the root is the store folder (spec curated.md); it need not exist yet.
    CURATED = _capi.MK_LAYOUT_CURATED


def _layout(layout: Union[str, int]) -> int:
    """A Layout, its name in any case ("custodian", "memorybox", "tiers", "curated"), or an int
    for the library to judge (an unknown one is its MK_E_ARG)."""
    if isinstance(layout, str):
        try:
            return Layout[layout.upper()]
        except KeyError:
            raise ArgumentError(f"layout: expected 'custodian', 'memorybox', 'tiers' or "
                                f"'curated', got {layout!r}") from None
    if not isinstance(layout, int) or isinstance(layout, bool):
        raise TypeError(f"layout: expected a Layout or its name, got {type(layout).__name__}")
    if not _INT32[0] <= layout <= _INT32[1]:
        raise ArgumentError(f"layout: {layout} does not fit an int32_t")
    return layout


def _describe(group: str, command: dict) -> str:
    """A command method's docstring, from its table entry: the summary, then every argument a
    request may set under the keyword the method takes."""
    lines = [f"`memkit {command['name']}`: {command['summary']} ({command['effect']}).",
             "", "now: an RFC 3339 str with an offset, a memkit.Clock or an aware datetime."]
    positionals = [_python_name(a) for a in command["arguments"] if a["positional"]]
    if positionals:
        lines.append(f"Positionals, in order (or by keyword): {', '.join(positionals)}.")
    lines.append("None leaves an argument out (the default applies).")
    lines.append("")
    for argument in command["arguments"]:
        if argument.get("root"):  # the workspace gives it; a request refuses it
            continue
        facts = [argument["type"]]
        if argument["positional"]:
            facts.append("positional")
        if argument["required"]:
            facts.append("required")
        if argument.get("default") is not None:
            facts.append(f"default {argument['default']}")
        if argument.get("choices"):
            facts.append("one of " + "|".join(argument["choices"]))
        lines.append(f"{_python_name(argument)} ({', '.join(facts)}): {argument['doc']}")
    if command.get("judged"):
        lines.append("judge (callable): (gate_name, question) -> answer str|bytes, or None to "
                     "abstain")
    return "\n".join(lines)


def _signature(group: str, command: dict) -> inspect.Signature:
    """What help() shows: now, the positionals, then every other argument as a keyword."""
    kind = inspect.Parameter
    params = [kind("now", kind.POSITIONAL_ONLY)]  # so that any argument may be a keyword
    optional = False
    for argument in command["arguments"]:
        name = _python_name(argument)
        if argument.get("root") or not name.isidentifier():
            continue
        if argument["positional"]:
            optional = optional or not argument["required"]
            params.append(kind(name, kind.POSITIONAL_OR_KEYWORD,
                               default=None if optional else kind.empty))
        else:
            params.append(kind(name, kind.KEYWORD_ONLY, default=None))
    if command.get("judged"):
        params.append(kind("judge", kind.KEYWORD_ONLY, default=None))
    return inspect.Signature(params, return_annotation=Result)


class Workspace(_Handle):
    """A project's memory folder (mk_workspace), opened with a layout (custodian, memorybox,
    tiers or curated): it runs the groups of the command table whose `workspace` is that layout,
    and those whose `workspace` is "any" (search). Not thread-safe in C: this class serialises
    calls on one Workspace with a lock; for parallel work open one per thread.

    Besides run(), a workspace has one method per command of those groups, made from the table
    when it opens and listed by dir(ws): the verb with "_" for spaces and dashes (ws.status,
    ws.sync_push, ws.session_init, ws.episode_add), or the group's name for a command without a
    verb (ws.search), called as ws.<name>(now, *positionals, **arguments) with the table's
    documentation as its __doc__. A name that is also an attribute of this class (close, run),
    or that the layout's own group already uses (curated's search hides the search group's), is
    reachable through run() only."""

    _destroy = staticmethod(_capi.mk_workspace_destroy)

    def __init__(self, root: PathLike, memory_dir: Optional[PathLike] = None,
                 lock_timeout: float = 10.0, layout: Union[str, Layout] = Layout.CUSTODIAN,
                 *, table: Optional[dict] = None) -> None:
        """mk_workspace_open. layout is a Layout or its name. root is the project (custodian;
        memory_dir, relative to it, defaults to docs/memory and must lie inside docs/), the agent
        root (memorybox), the workspace holding memory/ (tiers) or the store folder (curated);
        memory_dir is custodian only (else the library's MK_E_ARG). lock_timeout is how long
        applies wait for the root's lock, in seconds. table is the command table the methods
        (and run()'s positionals) are made from; None: the library's."""
        root_bytes = _cpath(root, "root")
        opts = _capi.mk_workspace_options()
        _check(_capi.mk_workspace_options_init(ctypes.byref(opts),
                                               _capi.MK_WORKSPACE_OPTIONS_VERSION))
        opts.layout = _layout(layout)
        # memory_dir belongs to the custodian layout; one given with another layout still goes
        # to C, which refuses it (MK_E_ARG), rather than being dropped here without a word.
        if memory_dir is not None:
            opts.memory_dir = _cpath(memory_dir, "memory_dir")
        opts.lock_timeout_seconds = float(lock_timeout)
        if table is not None and not isinstance(table, dict):
            raise TypeError("table: expected a command table, as commands() returns it")
        out = ctypes.POINTER(_capi.mk_workspace)()
        _check(_capi.mk_workspace_open(ctypes.byref(out), root_bytes, ctypes.byref(opts)))
        super().__init__(out)
        self.root = os.fsdecode(root_bytes)
        self.layout = _enum(Layout, opts.layout)  # a Layout (a plain int if the library knows more)
        self.memory_dir = None if memory_dir is None else os.fsdecode(opts.memory_dir)
        self.lock_timeout = opts.lock_timeout_seconds
        self._table = _library_table() if table is None else table
        layout_name = self.layout.name.lower() if isinstance(self.layout, Layout) else None
        self._commands = _workspace_commands(self._table, layout_name)

    @classmethod
    def open(cls, root: PathLike, memory_dir: Optional[PathLike] = None,
             lock_timeout: float = 10.0, layout: Union[str, Layout] = Layout.CUSTODIAN,
             *, table: Optional[dict] = None) -> "Workspace":
        """mk_workspace_open; the same as Workspace(root, memory_dir, lock_timeout, layout)."""
        return cls(root, memory_dir, lock_timeout, layout, table=table)

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        layout = self.layout.name.lower() if isinstance(self.layout, Layout) else self.layout
        return f"<memkit.Workspace {layout} root={self.root!r} {state}>"

    def __getattr__(self, name: str) -> Callable[..., Result]:
        # Only reached for names the class does not have: the command methods.
        found = None if name.startswith("_") else self.__dict__.get("_commands", {}).get(name)
        if found is None:
            raise AttributeError(f"'memkit.Workspace' object has no attribute {name!r} (its "
                                 "commands: dir(ws); any command: ws.run)")
        group, command = found
        verb = command["verb"]
        run = self.run

        def method(now: ClockLike, /, *positionals: Any, judge: Optional[Judge] = None,
                   **arguments: Any) -> Result:
            return run(now, group, verb, *positionals, judge=judge, **arguments)

        method.__name__ = method.__qualname__ = name
        method.__doc__ = _describe(group, command)
        method.__signature__ = _signature(group, command)
        return method

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(self.__dict__.get("_commands", {})))

    def _positional_names(self, group: str, verb: str) -> list[str]:
        for g in self._table.get("groups", []):
            for c in g["commands"] if g["name"] == group else ():
                if c["verb"] == verb:
                    return [_python_name(a) for a in c["arguments"] if a["positional"]]
        return []

    def run(self, now: ClockLike, group: str, verb: str, /, *positionals: Any,
            judge: Optional[Judge] = None, **arguments: Any) -> Result:
        """mk_workspace_run: `memkit <group> <verb>` ("memorybox", "sync push"; "search", "" for
        `memkit search`) with `now` as the clock and this workspace's root.

        Arguments go by the table's name without dashes, "_" for "-" (confirm_plan, class_ for
        --class, a positional by its lower-case name), positionals also in the table's order.
        bool sets a flag, int an integer, float its decimal text, a list or tuple of str a JSON
        list, os.PathLike its file-system bytes, str or bytes text; None leaves it out.

        judge answers the gates of `memorybox gate` (mk_request_set_judge; another command
        refuses it). An exception in it gives the fatal finding MK-BOX-005 and is kept as
        Result.judge_error (KeyboardInterrupt and SystemExit are raised again).

        An unknown command or argument, a value of the wrong type or a command of another
        layout raises the library's Error (MK_E_ARG) naming it and the closest name; what the
        command checks itself comes back as findings in the Result, as from the CLI."""
        clock = _clock(now)
        if judge is not None and not callable(judge):
            raise TypeError("judge: expected a callable (gate_name, question) -> str | None")
        request = ctypes.POINTER(_capi.mk_request)()
        _check(_capi.mk_request_create(ctypes.byref(request), _cstring(group, "group"),
                                       _cstring(verb, "verb")))
        raised: list[BaseException] = []
        try:
            names = self._positional_names(group, verb)
            command_name = _command_name(group, verb)
            if len(positionals) > len(names):
                raise TypeError(f"{command_name} takes {len(names)} positional argument(s) "
                                f"after now ({', '.join(names) or 'none'}), got {len(positionals)}")
            for name, value in zip(names, positionals):
                if name in arguments:
                    raise TypeError(f"{command_name}: got {name} both by position and by name")
                arguments[name] = value
            for key, value in arguments.items():
                if value is not None:
                    _set_argument(request, key, value)
            callback = None
            if judge is not None:
                callback = _judge_callback(judge, raised)  # alive until the run returns
                _check(_capi.mk_request_set_judge(request, callback, None))
            out = ctypes.POINTER(_capi.mk_result)()
            with self._lock:
                pointer = self._use_unlocked()
                self._callback = "judge" if callback is not None else None
                try:
                    status = _capi.mk_workspace_run(ctypes.byref(out), pointer,
                                                    ctypes.byref(clock), request)
                    failure = _failure(status) if status != _capi.MK_OK else None
                finally:
                    self._callback = None
        finally:
            _capi.mk_request_destroy(request)
        cause = raised[0] if raised else None
        if failure is not None:
            if cause is not None and not isinstance(cause, Exception):
                raise cause
            raise failure from cause
        result = Result(out)
        if cause is not None:
            if not isinstance(cause, Exception):
                result.close()
                raise cause
            result.judge_error = cause
        return result


# Section - Document

class UnitKind(enum.IntEnum):
    """The values of mk_unit_kind."""
    FRONT_MATTER = _capi.MK_UNIT_FRONT_MATTER
    BULLET = _capi.MK_UNIT_BULLET
    FENCE = _capi.MK_UNIT_FENCE
    COMMENT = _capi.MK_UNIT_COMMENT
    HEADING = _capi.MK_UNIT_HEADING
    BLANK = _capi.MK_UNIT_BLANK
    TEXT = _capi.MK_UNIT_TEXT


@dataclass(frozen=True)
class Unit:
    """mk_unit: whole lines first_line..last_line (1-based, inclusive), bytes begin..end (end
    just past the last line's terminator). kind is a UnitKind (a plain int if unknown)."""
    kind: Union[UnitKind, int]
    heading_level: int
    first_line: int
    last_line: int
    begin: int
    end: int


class Document(_Handle):
    """A parsed Markdown file (mk_document): its lines partitioned into units. Immutable; safe
    to share across threads. `memkit markdown units` needs no workspace: it is this."""

    _destroy = staticmethod(_capi.mk_document_destroy)

    def __init__(self, data: Text) -> None:
        """mk_document_parse: never fails on content; an unclosed fence or comment leaves the
        document without units (see the JSON)."""
        raw = _text(data, "data")
        out = ctypes.POINTER(_capi.mk_document)()
        _check(_capi.mk_document_parse(ctypes.byref(out), raw, len(raw)))
        super().__init__(out)

    @classmethod
    def parse(cls, data: Text) -> "Document":
        """mk_document_parse; str is encoded as UTF-8, bytes are passed as they are."""
        return cls(data)

    def __repr__(self) -> str:
        if self.closed:
            return "<memkit.Document closed>"
        return f"<memkit.Document units={self.unit_count}>"

    @property
    def unit_count(self) -> int:
        """mk_document_unit_count (0 when the document cannot be parsed)."""
        with self._lock:
            return _capi.mk_document_unit_count(self._use_unlocked())

    def unit(self, index: int) -> Unit:
        """mk_document_unit: unit `index` (0-based, below unit_count), in file order."""
        if not isinstance(index, int) or index < 0:
            raise ArgumentError(f"index: expected an int of 0 or more, got {index!r}")
        out = _capi.mk_unit()
        with self._lock:
            _check(_capi.mk_document_unit(ctypes.byref(out), self._use_unlocked(), index))
        return Unit(_enum(UnitKind, out.kind), out.heading_level, out.first_line, out.last_line,
                    out.begin, out.end)

    @property
    def units(self) -> list[Unit]:
        """Every unit, in file order."""
        with self._lock:
            return [self.unit(i) for i in range(self.unit_count)]

    def __iter__(self) -> Iterator[Unit]:
        return iter(self.units)

    @property
    def json_bytes(self) -> bytes:
        """mk_document_json: {"sections":[...],"units":[...]}, as `memkit markdown units --format
        json` shows its data (both null when unparseable)."""
        buf = _capi.mk_buf()
        with self._lock:
            _check(_capi.mk_document_json(ctypes.byref(buf), self._use_unlocked()))
        return _take_buf(buf)

    @property
    def json(self) -> str:
        return self.json_bytes.decode("utf-8")
