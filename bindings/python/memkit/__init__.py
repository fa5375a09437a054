"""memkit for Python: agent memory in Markdown, through libmemkit's C ABI (capi/memkit.h).

The idiomatic layer over memkit._capi. Names keep the C word order: mk_workspace_plan_compaction
is Workspace.plan_compaction, mk_result_plan_id is Result.plan_id, mk_document_unit is
Document.unit. Every handle (Workspace, Result, Document) has an idempotent close() and is a
context manager; the garbage collector only destroys what was not closed.

Workspace.open(root, layout=...) takes a Layout (or "custodian", the default, "memorybox",
"tiers" or "curated"): a project's docs/memory, a MemoryBox agent root (brain/, memory/), a
three-tier session memory workspace (memory/ with sessions/, themes, global.md and data/; the
tiers_* methods), or a curated memory store (rows/, log/, floors/; Workspace.curated).

A non-OK mk_status raises memkit.Error (.code, .name, .message). A command that ran returns a
Result even when its findings stop it: read Result.exit_code (0, 1 or 2) and the JSON.

    import memkit
    with memkit.Workspace.open("/path/to/project") as ws:
        with ws.plan_compaction("2026-03-07T10:00:00+01:00") as plan:
            print(plan.exit_code, plan.plan_id, plan.json)
        # then ws.apply_compaction(now, confirm=plan_id) with the same clock
"""

from __future__ import annotations

import ctypes
import datetime as _datetime
import enum
import json as _json
import os
import threading
import weakref
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Optional, Union

from . import _capi
from ._capi import LoadError

__all__ = [
    "BINDING_VERSION", "BINDING_VERSION_NUMBER", "LoadError", "Error", "ArgumentError", "Status",
    "Clock",
    "SYSTEM_CLOCK", "parse_clock", "version", "version_number", "commands", "status_name",
    "last_error_message", "Workspace", "Result", "InboxCounts", "BudgetRow", "BudgetState",
    "ForgetMode", "UpdateEvent", "Gate", "Judge", "Layout", "Profile", "Lifecycle",
    "SyncCommand", "TiersCommand", "CuratedCommand", "Document", "Unit", "UnitKind", "library_path",
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
    """mk_version_number(): MAJOR * 10000 + MINOR * 100 + PATCH (100 for 0.1.0)."""
    return _capi.mk_version_number()


def commands() -> dict:
    """mk_commands_json(): the command table, every command with its arguments, as
    `memkit commands --format json` prints it."""
    buf = _capi.mk_buf()
    _check(_capi.mk_commands_json(ctypes.byref(buf)))
    return _json.loads(_take_buf(buf).decode("utf-8"))


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


def last_error_message() -> str:
    """mk_last_error_message(): why the last mk_ call on this thread failed ("" if none did).

    Error already carries the message of its failure; this is the raw accessor."""
    return _capi.mk_last_error_message().decode("utf-8", "replace")


class Error(Exception):
    """A memkit call failed: .code is the mk_status (negative), .name its mk_status_name, and
    .message the mk_last_error_message() read right after the failing call."""

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
    NUL-terminated string, a value that does not fit its C type). Always MK_E_ARG."""

    def __init__(self, message: str) -> None:
        super().__init__(_capi.MK_E_ARG, "MK_E_ARG", message)


def _failure(status: int) -> Error:
    # The message first: it is valid only until the next mk_ call on this thread, and
    # mk_status_name is one.
    message = _capi.mk_last_error_message().decode("utf-8", "replace")
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

def _cstring(value: Any, what: str) -> bytes:
    """A NUL-terminated UTF-8 argument (Plan IDs, types, ...)."""
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
    """A (data, size) UTF-8 argument: passed with the byte length, so NUL bytes are kept."""
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"{what}: expected str or bytes, got {type(value).__name__}")


def _optional(value: Any, what: str) -> Optional[bytes]:
    return None if value is None else _cstring(value, what)


# Section - Clock

_INT64 = (-(1 << 63), (1 << 63) - 1)
_INT32 = (-(1 << 31), (1 << 31) - 1)


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


def _enum(kind: type, value: int):
    try:
        return kind(value)
    except ValueError:
        return value


class Result(_Handle):
    """The outcome of one command (mk_result). Immutable; safe to share across threads.

    Made by the Workspace commands, never directly."""

    _destroy = staticmethod(_capi.mk_result_destroy)

    #: Set by Workspace.gate when its judge raised (the Exception; the result then carries the
    #: fatal finding MK-BOX-005); None otherwise.
    judge_error: Optional[BaseException] = None

    def __repr__(self) -> str:
        if self.closed:
            return "<memkit.Result closed>"
        return f"<memkit.Result exit_code={self.exit_code} plan_id={self.plan_id!r}>"

    @property
    def exit_code(self) -> int:
        """mk_result_exit_code: 0 success (possibly with review), 1 a domain failure, 2 a blocker."""
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


# Section - Workspace

class ForgetMode(enum.IntEnum):
    """The values of mk_forget_mode (spec compaction.md §14)."""
    SOFT = _capi.MK_FORGET_SOFT
    HARD = _capi.MK_FORGET_HARD
    PURGE = _capi.MK_FORGET_PURGE


def _forget_options(mode: Union[str, int], allow_broad_match: bool) -> _capi.mk_forget_options:
    if isinstance(mode, str):
        try:
            mode = ForgetMode[mode.upper()]
        except KeyError:
            raise ArgumentError(f"mode: expected 'soft', 'hard' or 'purge', got {mode!r}") from None
    opts = _capi.mk_forget_options()
    _capi.mk_forget_options_init(ctypes.byref(opts))
    opts.mode = _fits_int32(mode, "mode")
    if allow_broad_match:
        opts.flags |= _capi.MK_FORGET_ALLOW_BROAD_MATCH
    return opts


def _fits_int32(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{what}: expected int, got {type(value).__name__}")
    if not _INT32[0] <= value <= _INT32[1]:
        raise ArgumentError(f"{what}: {value} does not fit an int32_t")
    return value


def _compact_options(target: Optional[PathLike], archive_oldest: bool) -> _capi.mk_compact_options:
    opts = _capi.mk_compact_options()
    _capi.mk_compact_options_init(ctypes.byref(opts))
    if target is not None:
        opts.target = _cpath(target, "target")
    if archive_oldest:
        opts.flags |= _capi.MK_COMPACT_ARCHIVE_OLDEST
    return opts


class UpdateEvent(enum.IntEnum):
    """The values of mk_update_event (spec memorybox.md §6): what Workspace.update records."""
    #: --verify: Verified := today.
    VERIFY = _capi.MK_UPDATE_VERIFY
    #: --confirm: Confidence + 0.05 (capped at 1.00), Verified := today.
    CONFIRM = _capi.MK_UPDATE_CONFIRM
    #: --contradict --note N: Review := contradicted <today>: N.
    CONTRADICT = _capi.MK_UPDATE_CONTRADICT
    #: --resolve keep [--confidence C]: clears Review.
    RESOLVE_KEEP = _capi.MK_UPDATE_RESOLVE_KEEP


def _update_options(event: Union[str, int], note: Optional[Text],
                    confidence: Optional[int]) -> _capi.mk_update_options:
    """An UpdateEvent, its name in any case ("confirm", "resolve_keep"), or an int for the
    library to judge (an unknown one is its MK_E_ARG, as for ForgetMode)."""
    if isinstance(event, str):
        try:
            event = UpdateEvent[event.upper()]
        except KeyError:
            raise ArgumentError("event: expected 'verify', 'confirm', 'contradict' or "
                                f"'resolve_keep', got {event!r}") from None
    opts = _capi.mk_update_options()
    _capi.mk_update_options_init(ctypes.byref(opts))
    opts.event = _fits_int32(event, "event")
    opts.note = _optional(note, "note")
    if confidence is not None:
        if isinstance(confidence, float):
            raise TypeError(f"confidence: expected hundredths as an int (85 for 0.85), got "
                            f"{confidence!r}")
        opts.confidence = _fits_int32(confidence, "confidence")  # the library checks -1..100
    return opts


class Gate(enum.IntEnum):
    """The values of mk_gate: the five gates of Workspace.gate, in the order they run (spec
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


#: A judge for Workspace.gate: called with the gate's name ("VALUE", "ALIGNMENT", ...) and the
#: question (memkit.h mk_judge_fn's JSON, parsed: candidate, categories, category,
#: category_entries, gate, near_duplicates); returns the answer (str or bytes) or None to abstain.
Judge = Callable[[str, Any], Optional[Text]]


def _candidate(text: Text, confidence: Text, title: Optional[Text], source: Optional[Text],
               client: Optional[Text]) -> _capi.mk_gate_candidate:
    data = _text(text, "text")
    if not isinstance(confidence, (str, bytes)):
        raise TypeError("confidence: expected the Confidence form as a str (\"0.85\", \"1\"), "
                        f"got {type(confidence).__name__}")
    candidate = _capi.mk_gate_candidate()
    _capi.mk_gate_candidate_init(ctypes.byref(candidate))
    candidate.text = data  # the struct keeps the bytes alive; text_size keeps any NUL
    candidate.text_size = len(data)
    candidate.confidence = _cstring(confidence, "confidence")
    candidate.title = _optional(title, "title")
    candidate.source = _optional(source, "source")
    candidate.client = _optional(client, "client")
    return candidate


class Profile(enum.IntFlag):
    """The profile flags of mk_workspace_init (`memorybox init --profile default|maven`): what
    Workspace.init records in the agent root's .memkit/profile."""
    #: --profile default (MK_INIT_PROFILE_DEFAULT): the tier files of spec memorybox.md §2.
    DEFAULT = _capi.MK_INIT_PROFILE_DEFAULT
    #: --profile maven (MK_INIT_PROFILE_MAVEN, spec memorybox.md §10): adds the Maven brain/
    #: files (MARKETING_CANON.md, ATTRIBUTION_MODEL.md, BENCHMARK.md, OKRs.md, RISK_REGISTER.md),
    #: canon (Workspace.canon_add) and client lifecycles (Workspace.client_set).
    MAVEN = _capi.MK_INIT_PROFILE_MAVEN


_PROFILE_BITS = _capi.MK_INIT_PROFILE_DEFAULT | _capi.MK_INIT_PROFILE_MAVEN


def _profile_flags(profile: Union[None, str, int]) -> int:
    """None (no --profile), a Profile, its name in any case ("default", "maven"), or an int of
    Profile bits. Both bits at once (Profile.DEFAULT | Profile.MAVEN) go to C, which refuses
    them (MK_E_ARG)."""
    if profile is None:
        return 0
    if isinstance(profile, str):
        try:
            return Profile[profile.upper()]
        except KeyError:
            raise ArgumentError(
                f"profile: expected 'default', 'maven' or None, got {profile!r}") from None
    if not isinstance(profile, int) or isinstance(profile, bool):
        raise TypeError(f"profile: expected a Profile, its name or None, got "
                        f"{type(profile).__name__}")
    if profile & ~_PROFILE_BITS:
        raise ArgumentError(f"profile: {profile} is not a combination of Profile flags")
    return int(profile)


class Lifecycle(enum.IntEnum):
    """The values of mk_lifecycle: a client's lifecycle on a Maven root (spec memorybox.md §10),
    the `to` of Workspace.client_set. Allowed: active -> maintenance -> archived, maintenance ->
    active, archived -> active; active -> archived is MK-BOX-031."""
    #: brain/clients/C.md, in tier 1 and its budget.
    ACTIVE = _capi.MK_LIFECYCLE_ACTIVE
    #: brain/clients/C.md, loaded on demand (tier 2).
    MAINTENANCE = _capi.MK_LIFECYCLE_MAINTENANCE
    #: moved to memory/ARCHIVES/clients/C/, out of every load set (plan-confirmed).
    ARCHIVED = _capi.MK_LIFECYCLE_ARCHIVED


def _lifecycle(to: Union[str, int]) -> int:
    """A Lifecycle, its name in any case ("active", "maintenance", "archived"), or an int for
    the library to judge (an unknown one is its MK_E_ARG, as for ForgetMode)."""
    if isinstance(to, str):
        try:
            return Lifecycle[to.upper()]
        except KeyError:
            raise ArgumentError("to: expected 'active', 'maintenance' or 'archived', got "
                                f"{to!r}") from None
    return _fits_int32(to, "to")


class Layout(enum.IntEnum):
    """The values of mk_layout: what a workspace's root holds."""
    #: memory-custodian: the project root's docs/memory (spec compaction.md); every command.
    CUSTODIAN = _capi.MK_LAYOUT_CUSTODIAN
    #: MemoryBox: an agent root with brain/ and memory/ (spec memorybox.md); init, status,
    #: decay, hygiene, load, update, gate, the moves (compact, promote, archive_entry) and, on
    #: a Maven root, canon and client lifecycles.
    MEMORYBOX = _capi.MK_LAYOUT_MEMORYBOX
    #: Three-tier session memory: memory/ under the workspace (spec tiers3.md); the tiers_*
    #: methods (mk_tiers_run) and recover (`tiers recover`) only.
    TIERS = _capi.MK_LAYOUT_TIERS
    #: Curated memory: the root is the store folder, the CLI's --store (spec curated.md); it
    #: need not exist yet. Workspace.curated (mk_curated_run) only, `curated recover` included.
    CURATED = _capi.MK_LAYOUT_CURATED


def _layout(layout: Union[str, int]) -> int:
    """A Layout, its name in any case ("custodian", "memorybox", "tiers", "curated"), or an int
    for the library to judge (an unknown one is its MK_E_ARG, as for ForgetMode)."""
    if isinstance(layout, str):
        try:
            return Layout[layout.upper()]
        except KeyError:
            raise ArgumentError(f"layout: expected 'custodian', 'memorybox', 'tiers' or "
                                f"'curated', got {layout!r}") from None
    return _fits_int32(layout, "layout")


class SyncCommand(enum.IntEnum):
    """The values of mk_sync_command: `memkit memorybox sync <verb>`, the verb being the
    member's name in lower case."""
    #: Merge the remote's records into the files; a plan that replaces or removes local text
    #: waits for confirm_plan.
    PULL = _capi.MK_SYNC_PULL
    #: Send every record changed since the last push.
    PUSH = _capi.MK_SYNC_PUSH
    STATUS = _capi.MK_SYNC_STATUS
    #: Settle one open conflict: id and take.
    RESOLVE = _capi.MK_SYNC_RESOLVE

    @property
    def cli_name(self) -> str:
        """The CLI's verb: "pull" for PULL."""
        return self.name.lower()


def _sync_command(command: Union[str, int]) -> int:
    """A SyncCommand, its CLI verb ("pull") or member name in any case, or an int for the
    library to judge (an unknown one is its MK_E_ARG, as for ForgetMode)."""
    if isinstance(command, str):
        try:
            return SyncCommand[command.upper()]
        except KeyError:
            names = ", ".join(c.cli_name for c in SyncCommand)
            raise ArgumentError(f"command: expected a sync command ({names}), got "
                                f"{command!r}") from None
    return _fits_int32(command, "command")


class TiersCommand(enum.IntEnum):
    """The values of mk_tiers_command: `memkit tiers <name>`, the name being the member's in
    lower case with '-' for '_' (TiersCommand.PERSIST_TURN is `persist-turn`)."""
    INIT = _capi.MK_TIERS_INIT
    SESSION_INIT = _capi.MK_TIERS_SESSION_INIT
    LOG_TURN = _capi.MK_TIERS_LOG_TURN
    READ_LOGS = _capi.MK_TIERS_READ_LOGS
    PERSIST_TURN = _capi.MK_TIERS_PERSIST_TURN
    WRITE_THEME = _capi.MK_TIERS_WRITE_THEME
    READ_THEME = _capi.MK_TIERS_READ_THEME
    READ_GLOBAL = _capi.MK_TIERS_READ_GLOBAL
    WRITE_GLOBAL = _capi.MK_TIERS_WRITE_GLOBAL
    LIST_THEMES = _capi.MK_TIERS_LIST_THEMES
    WRITE_DATA = _capi.MK_TIERS_WRITE_DATA
    READ_DATA = _capi.MK_TIERS_READ_DATA
    LIST_DATA = _capi.MK_TIERS_LIST_DATA
    #: A dry run; with confirm_plan_id `--apply --confirm-plan ID`.
    ARCHIVE_THEMES = _capi.MK_TIERS_ARCHIVE_THEMES
    #: `template NAME`, the NAME in template_name.
    TEMPLATE = _capi.MK_TIERS_TEMPLATE

    @property
    def cli_name(self) -> str:
        """The CLI's name of the command: "persist-turn" for PERSIST_TURN."""
        return self.name.lower().replace("_", "-")


def _tiers_command(command: Union[str, int]) -> int:
    """A TiersCommand, its CLI name ("persist-turn") or member name in any case
    ("PERSIST_TURN", "persist_turn"), or an int for the library to judge (an unknown one is its
    MK_E_ARG, as for ForgetMode)."""
    if isinstance(command, str):
        try:
            return TiersCommand[command.upper().replace("-", "_")]
        except KeyError:
            names = ", ".join(c.cli_name for c in TiersCommand)
            raise ArgumentError(f"command: expected a tiers command ({names}), got "
                                f"{command!r}") from None
    return _fits_int32(command, "command")


# The fields of mk_tiers_options by kind, as memkit.h declares them (version aside).
_TIERS_TEXTS = ("content", "raw_content", "extracted_content", "theme", "template_name", "title",
                "entry_type", "session_id", "tools_json", "name", "csv_content", "description",
                "source_label", "columns_json", "confirm_plan_id")
_TIERS_PATHS = ("source_file",)
_TIERS_NUMBERS = ("recent_days", "theme_limit", "max_tokens", "days_back", "limit", "hours_back",
                  "head", "days")
_TIERS_FLAGS = ("no_log", "promote_global", "append", "replace")


def _tiers_options(fields: dict[str, Any]) -> _capi.mk_tiers_options:
    """An mk_tiers_options from field names to values; None (and False for a flag) is "not
    given". Values go to C as they are: the library, not the binding, judges them, so a
    request gives the CLI's result for the same arguments."""
    opts = _capi.mk_tiers_options()
    _capi.mk_tiers_options_init(ctypes.byref(opts))
    for field, value in fields.items():
        if value is None:
            continue
        if field in _TIERS_TEXTS:
            setattr(opts, field, _cstring(value, field))
        elif field in _TIERS_PATHS:
            setattr(opts, field, _cpath(value, field))
        elif field in _TIERS_NUMBERS:
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"{field}: expected int or None, got {type(value).__name__}")
            if not _INT64[0] <= value <= _INT64[1]:
                raise ArgumentError(f"{field}: {value} does not fit an int64_t")
            if value == _capi.MK_TIERS_UNSET:  # C would read it as "not given"
                raise ArgumentError(f"{field}: {value} is MK_TIERS_UNSET; pass None to leave "
                                    "it out")
            setattr(opts, field, value)
        elif field in _TIERS_FLAGS:
            if not isinstance(value, bool):
                raise TypeError(f"{field}: expected bool, got {type(value).__name__}")
            setattr(opts, field, int(value))
        else:
            raise TypeError(f"unknown mk_tiers_options field {field!r}")
    return opts


class CuratedCommand(enum.IntEnum):
    """The values of mk_curated_command: `memkit curated <words>`, the words being cli_name
    ("get-relevant" for GET_RELEVANT, "event add" for EVENT_ADD)."""
    ADD = _capi.MK_CURATED_ADD
    APPEND = _capi.MK_CURATED_APPEND
    EDIT = _capi.MK_CURATED_EDIT
    RECLASSIFY = _capi.MK_CURATED_RECLASSIFY
    LINK = _capi.MK_CURATED_LINK
    UNLINK = _capi.MK_CURATED_UNLINK
    #: A dry run without yes=True.
    DELETE = _capi.MK_CURATED_DELETE
    RESTORE = _capi.MK_CURATED_RESTORE
    CHECKPOINT = _capi.MK_CURATED_CHECKPOINT
    BATCH = _capi.MK_CURATED_BATCH
    GET_RELEVANT = _capi.MK_CURATED_GET_RELEVANT
    KERNEL = _capi.MK_CURATED_KERNEL
    SHOW = _capi.MK_CURATED_SHOW
    LIST = _capi.MK_CURATED_LIST
    SEARCH = _capi.MK_CURATED_SEARCH
    STATS = _capi.MK_CURATED_STATS
    CONFLICTS = _capi.MK_CURATED_CONFLICTS
    LINEAGE = _capi.MK_CURATED_LINEAGE
    STORY = _capi.MK_CURATED_STORY
    EVENT_ADD = _capi.MK_CURATED_EVENT_ADD
    EPISODE_ADD = _capi.MK_CURATED_EPISODE_ADD
    EPISODE_SHOW = _capi.MK_CURATED_EPISODE_SHOW
    #: A dry run; with confirm_plan_id `--apply --confirm-plan ID`.
    FLOORS_PRUNE = _capi.MK_CURATED_FLOORS_PRUNE
    #: A dry run; with confirm_plan_id `--apply --confirm-plan ID`.
    TELEMETRY_COMPACT = _capi.MK_CURATED_TELEMETRY_COMPACT
    #: `curated recover [--apply [--rollback]]` (apply=True, rollback=True).
    RECOVER = _capi.MK_CURATED_RECOVER

    @property
    def cli_name(self) -> str:
        """The CLI's words of the command: "get-relevant", "event add", "floors prune"."""
        words = self.name.lower().split("_")
        if self.name in _CURATED_TWO_WORDS:
            return " ".join(words)
        return "-".join(words)


# The commands of two words: `curated event add`, the second word being the sub-command.
_CURATED_TWO_WORDS = ("EVENT_ADD", "EPISODE_ADD", "EPISODE_SHOW", "FLOORS_PRUNE",
                      "TELEMETRY_COMPACT")


def _curated_command(command: Union[str, int]) -> int:
    """A CuratedCommand, its CLI words ("get-relevant", "event add") or member name in any case
    ("GET_RELEVANT", "event_add"), or an int for the library to judge (an unknown one is its
    MK_E_ARG, as for ForgetMode)."""
    if isinstance(command, str):
        try:
            return CuratedCommand[command.upper().replace("-", "_").replace(" ", "_")]
        except KeyError:
            names = ", ".join(c.cli_name for c in CuratedCommand)
            raise ArgumentError(f"command: expected a curated command ({names}), got "
                                f"{command!r}") from None
    return _fits_int32(command, "command")


# The fields of mk_curated_options by kind, as memkit.h declares them (version aside).
_CURATED_TEXTS = ("workspace", "actor", "name", "dst", "query", "id", "type", "body",
                  "description", "row_class", "status", "initiative", "project_ref", "audience",
                  "origin_session", "field", "content", "kind", "sort", "order", "scope",
                  "threshold", "before", "source", "agent", "result", "severity", "payload",
                  "confirm_plan_id")
_CURATED_PATHS = ("body_file", "file")
_CURATED_NUMBERS = ("max_chars", "limit", "max_depth")
_CURATED_FLAGS = ("dry_run", "links", "history", "include_deleted", "yes", "hard", "delete_link",
                  "apply", "rollback")


def _curated_options(fields: dict[str, Any]) -> _capi.mk_curated_options:
    """An mk_curated_options from field names to values; None (and False for a flag) is "not
    given". Values go to C as they are: the library, not the binding, judges them, so a
    request gives the CLI's result for the same arguments. threshold may be a str ("0.3") or an
    int/float, sent as its decimal text; payload may be a str (the JSON text) or any other
    value, sent as compact JSON."""
    opts = _capi.mk_curated_options()
    _capi.mk_curated_options_init(ctypes.byref(opts))
    for field, value in fields.items():
        if value is None:
            continue
        if field == "threshold" and isinstance(value, (int, float)) and not isinstance(value,
                                                                                       bool):
            value = repr(value)
        elif field == "payload" and not isinstance(value, (str, bytes)):
            value = _json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        if field in _CURATED_TEXTS:
            setattr(opts, field, _cstring(value, field))
        elif field in _CURATED_PATHS:
            setattr(opts, field, _cpath(value, field))
        elif field in _CURATED_NUMBERS:
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"{field}: expected int or None, got {type(value).__name__}")
            if not _INT64[0] <= value <= _INT64[1]:
                raise ArgumentError(f"{field}: {value} does not fit an int64_t")
            if value == _capi.MK_CURATED_UNSET:  # C would read it as "not given"
                raise ArgumentError(f"{field}: {value} is MK_CURATED_UNSET; pass None to leave "
                                    "it out")
            setattr(opts, field, value)
        elif field in _CURATED_FLAGS:
            if not isinstance(value, bool):
                raise TypeError(f"{field}: expected bool, got {type(value).__name__}")
            setattr(opts, field, int(value))
        else:
            raise TypeError(f"unknown mk_curated_options field {field!r}")
    return opts


def _json_list(items: Any, text: Optional[Text], what: str) -> Optional[Text]:
    """The JSON text of an option that is a JSON array (--tools, --columns-json): `text` as
    given, or the list `items` as compact JSON (its items unchecked: C refuses what the CLI
    refuses). Both at once is ambiguous and refused."""
    if items is None:
        return text
    if text is not None:
        raise ArgumentError(f"{what}: give {what} or {what}_json, not both")
    if isinstance(items, (str, bytes, bytearray)) or not isinstance(items, (list, tuple)):
        raise TypeError(f"{what}: expected a list of str (or pass the JSON text as "
                        f"{what}_json), got {type(items).__name__}")
    return _json.dumps(list(items), ensure_ascii=False, separators=(",", ":"))


class Workspace(_Handle):
    """A project's memory folder (mk_workspace). Not thread-safe in C: this class serialises
    calls on one Workspace with a lock; for parallel work open one Workspace per thread.

    Every command takes `now`: an RFC 3339 str with an offset, a Clock (SYSTEM_CLOCK for the
    system clock and zone) or an aware datetime, and returns a Result (close it, or use `with`).

    The layout (Layout.CUSTODIAN by default) chooses the commands: `memkit custodian ...` on
    the project root's memory directory, or, for Layout.MEMORYBOX, `memkit memorybox init`,
    `status`, `decay`, `hygiene`, `load`, `update`, `gate` (with a Python judge), `compact`,
    `promote`, `update --resolve archive`, `sync` (sync()), and on a Maven root (init with
    profile="maven")
    `canon add|verify` and `client set` (--root ROOT) on an agent root. Layout.TIERS runs
    `memkit tiers ... --workspace ROOT`: the tiers_* methods and recover. Layout.CURATED runs
    `memkit curated ... --store ROOT` through curated() alone. A command of another layout
    returns a Result with a fatal MK-ARG-001 finding (exit code 2): a MemoryBox command on a
    custodian workspace, the custodian commands on a MemoryBox one, a tiers_* method on either,
    every other command on a tiers workspace, and every method but curated() on a curated
    one."""

    _destroy = staticmethod(_capi.mk_workspace_destroy)

    def __init__(self, root: PathLike, memory_dir: Optional[PathLike] = None,
                 lock_timeout: float = 10.0,
                 layout: Union[str, Layout] = Layout.CUSTODIAN) -> None:
        """mk_workspace_open. layout is a Layout or its name ("custodian", "memorybox",
        "tiers").

        Custodian: checks the project root and that memory_dir (relative to it; None:
        docs/memory) lies strictly inside docs/ without symbolic links. MemoryBox: root is the
        agent root (brain/, memory/). Tiers: root is the workspace (the CLI's --workspace)
        holding memory/. Curated: root is the store folder (the CLI's --store), which need not
        exist yet. For these three, memory_dir must stay None (else Error, MK_E_ARG).
        lock_timeout is how long applies wait for the folder's lock, in seconds."""
        root_bytes = _cpath(root, "root")
        opts = _capi.mk_workspace_options()
        _capi.mk_workspace_options_init(ctypes.byref(opts))
        opts.layout = _layout(layout)
        # memory_dir belongs to the custodian layout; one given with MEMORYBOX still goes to C,
        # which refuses it (MK_E_ARG), rather than being dropped here without a word.
        if memory_dir is not None:
            opts.memory_dir = _cpath(memory_dir, "memory_dir")
        opts.lock_timeout_seconds = float(lock_timeout)
        out = ctypes.POINTER(_capi.mk_workspace)()
        _check(_capi.mk_workspace_open(ctypes.byref(out), root_bytes, ctypes.byref(opts)))
        super().__init__(out)
        self.root = os.fsdecode(root_bytes)
        self.layout = _enum(Layout, opts.layout)  # a Layout (a plain int if the library knows more)
        self.memory_dir = None if memory_dir is None else os.fsdecode(opts.memory_dir)
        self.lock_timeout = opts.lock_timeout_seconds

    @classmethod
    def open(cls, root: PathLike, memory_dir: Optional[PathLike] = None,
             lock_timeout: float = 10.0,
             layout: Union[str, Layout] = Layout.CUSTODIAN) -> "Workspace":
        """mk_workspace_open; the same as Workspace(root, memory_dir, lock_timeout, layout)."""
        return cls(root, memory_dir, lock_timeout, layout)

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        layout = self.layout.name.lower() if isinstance(self.layout, Layout) else self.layout
        return f"<memkit.Workspace {layout} root={self.root!r} {state}>"

    def _run(self, function: Callable[..., int], now: ClockLike, *args: Any) -> Result:
        clock = _clock(now)
        out = ctypes.POINTER(_capi.mk_result)()
        with self._lock:
            _check(function(ctypes.byref(out), self._use_unlocked(), ctypes.byref(clock), *args))
        return Result(out)

    def run(self, now: ClockLike, group: str, verb: str, *positionals: Text,
            **arguments: Any) -> Result:
        """mk_workspace_run: any command of the command table (commands()) by its group and verb
        ("memorybox", "sync push"), its arguments by name as keyword arguments (project_ref=...,
        apply=True); positionals in order. True/False set a flag, an int an integer or number,
        anything else text. An unknown name or a wrong type raises the library's Error (MK_E_ARG)
        naming it and the closest known one; the workspace gives the root and `now` the clock."""
        table = [c for g in commands()["groups"] if g["name"] == group for c in g["commands"]
                 if c["verb"] == verb]
        names = [a["name"].lower() for a in (table[0]["arguments"] if table else [])
                 if a["positional"]]
        request = ctypes.POINTER(_capi.mk_request)()
        _check(_capi.mk_request_create(ctypes.byref(request), _cstring(group, "group"),
                                       _cstring(verb, "verb")))
        try:
            if len(positionals) > len(names):
                raise ArgumentError("%s %s takes %d positional argument(s), got %d" % (
                    group, verb, len(names), len(positionals)))
            given = list(zip(names, positionals)) + list(arguments.items())
            for name, value in given:
                key = _cstring(name, "name")
                if isinstance(value, bool):
                    _check(_capi.mk_request_set_bool(request, key, 1 if value else 0))
                elif isinstance(value, int):
                    _check(_capi.mk_request_set_int(request, key, value))
                elif isinstance(value, os.PathLike):
                    _check(_capi.mk_request_set_string(request, key, _cpath(value, name)))
                else:
                    _check(_capi.mk_request_set_string(request, key, _cstring(value, name)))
            clock = _clock(now)
            out = ctypes.POINTER(_capi.mk_result)()
            with self._lock:
                _check(_capi.mk_workspace_run(ctypes.byref(out), self._use_unlocked(),
                                              ctypes.byref(clock), request))
            return Result(out)
        finally:
            _capi.mk_request_destroy(request)

    def init(self, now: ClockLike, extended: bool = False,
             profile: Union[None, str, Profile] = None) -> Result:
        """mk_workspace_init (`custodian init [--extended]`, or `memorybox init [--profile
        default|maven]`): creates the memory directory (MemoryBox: brain/ and memory/) and every
        missing file; never overwrites. extended is custodian only (`memorybox init` has no
        --extended). profile is MemoryBox only: None, a Profile or its name in any case
        ("default", "maven"); it is recorded in the root's .memkit/profile first ("maven"
        adds brain/MARKETING_CANON.md and the other Maven files). An unknown name raises
        ArgumentError; Profile.DEFAULT | Profile.MAVEN raises the library's Error (MK_E_ARG)."""
        flags = (_capi.MK_INIT_EXTENDED if extended else 0) | _profile_flags(profile)
        return self._run(_capi.mk_workspace_init, now, flags)

    def status(self, now: ClockLike) -> Result:
        """mk_workspace_status (`custodian status`): token budgets per file (Result.budget_rows).
        On a MemoryBox workspace `memorybox status`: line budgets per tier, in the JSON only
        (budget_rows is [])."""
        return self._run(_capi.mk_workspace_status, now)

    def check(self, now: ClockLike) -> Result:
        """mk_workspace_check (`custodian check`): layout consistency; writes nothing."""
        return self._run(_capi.mk_workspace_check, now)

    def plan_compaction(self, now: ClockLike, target: Optional[PathLike] = None,
                        archive_oldest: bool = False) -> Result:
        """mk_workspace_plan_compaction (`custodian compact [--target FILE]`), a dry run."""
        opts = _compact_options(target, archive_oldest)
        return self._run(_capi.mk_workspace_plan_compaction, now, ctypes.byref(opts))

    def apply_compaction(self, now: ClockLike, confirm: str, target: Optional[PathLike] = None,
                         archive_oldest: bool = False) -> Result:
        """mk_workspace_apply_compaction (`... --apply --confirm-plan ID`): writes only when the
        plan made again from disk has the ID `confirm` (else MK-PLAN-001, nothing written)."""
        opts = _compact_options(target, archive_oldest)
        return self._run(_capi.mk_workspace_apply_compaction, now, ctypes.byref(opts),
                         _cstring(confirm, "confirm"))

    def recover(self, now: ClockLike, apply: bool = False, rollback: bool = False) -> Result:
        """mk_workspace_recover (`custodian recover [--apply [--rollback]]`; `tiers recover
        ...` on a Layout.TIERS workspace): lists the transactions a crash left unfinished; with
        apply finishes them (with rollback, rolls them back)."""
        flags = ((_capi.MK_RECOVER_APPLY if apply else 0)
                 | (_capi.MK_RECOVER_ROLLBACK if rollback else 0))
        return self._run(_capi.mk_workspace_recover, now, flags)

    def plan_undo(self, now: ClockLike, plan_id: str) -> Result:
        """mk_workspace_plan_undo (`custodian undo PLAN_ID`), a dry run."""
        return self._run(_capi.mk_workspace_plan_undo, now, _cstring(plan_id, "plan_id"))

    def apply_undo(self, now: ClockLike, plan_id: str, confirm: str) -> Result:
        """mk_workspace_apply_undo (`custodian undo PLAN_ID --apply --confirm-plan ID`)."""
        return self._run(_capi.mk_workspace_apply_undo, now, _cstring(plan_id, "plan_id"),
                         _cstring(confirm, "confirm"))

    def add(self, now: ClockLike, message: Text, type: str, reason: Optional[str] = None,
            name: Optional[str] = None, area: Optional[str] = None,
            allow_long: bool = False) -> Result:
        """mk_workspace_add (`custodian add MESSAGE --type T ...`): an additive write, applied
        directly under the lock. type: decision, constraint, preference, tombstone, inbox, ..."""
        data = _text(message, "message")
        opts = _capi.mk_add_options()
        _capi.mk_add_options_init(ctypes.byref(opts))
        opts.type = _cstring(type, "type")
        opts.reason = _optional(reason, "reason")
        opts.name = _optional(name, "name")
        opts.area = _optional(area, "area")
        if allow_long:
            opts.flags |= _capi.MK_ADD_ALLOW_LONG
        return self._run(_capi.mk_workspace_add, now, data, len(data), ctypes.byref(opts))

    def plan_forget(self, now: ClockLike, topic: Text, mode: Union[str, ForgetMode] = "soft",
                    allow_broad_match: bool = False) -> Result:
        """mk_workspace_plan_forget (`custodian forget TOPIC --mode M`), a dry run. In hard and
        purge modes nothing in the result names the topic."""
        data = _text(topic, "topic")
        opts = _forget_options(mode, allow_broad_match)
        return self._run(_capi.mk_workspace_plan_forget, now, data, len(data),
                         ctypes.byref(opts))

    def apply_forget(self, now: ClockLike, topic: Text, confirm: str,
                     mode: Union[str, ForgetMode] = "soft",
                     allow_broad_match: bool = False) -> Result:
        """mk_workspace_apply_forget (`... --apply --confirm-plan ID`)."""
        data = _text(topic, "topic")
        opts = _forget_options(mode, allow_broad_match)
        return self._run(_capi.mk_workspace_apply_forget, now, data, len(data),
                         ctypes.byref(opts), _cstring(confirm, "confirm"))

    def decay(self, now: ClockLike, file: Optional[PathLike] = None) -> Result:
        """mk_workspace_decay (`memorybox decay [--file F]`, Layout.MEMORYBOX): every scored
        entry's effective confidence, band and review state on `now`'s date, and the unscored
        entries, in the JSON (data.entries, data.unscored); writes nothing. file is one tier 1-4
        file relative to the root (e.g. "memory/LONG_TERM.md"), or None for all of them; another
        file is a fatal MK-ARG-001 finding (exit code 2), as is decay on a custodian workspace."""
        return self._run(_capi.mk_workspace_decay, now,
                         None if file is None else _cpath(file, "file"))

    def hygiene(self, now: ClockLike) -> Result:
        """mk_workspace_hygiene (`memorybox hygiene`, Layout.MEMORYBOX): the ten items of the
        monthly checklist and the orphaned links, in the JSON (data.items: n, check, result,
        value, limit, details; data.orphans); writes nothing. A failed item makes the exit
        code 1. On a custodian workspace the Result has a fatal MK-ARG-001 finding (exit
        code 2)."""
        return self._run(_capi.mk_workspace_hygiene, now)

    def load(self, now: ClockLike, tier: Optional[int] = None, file: Optional[PathLike] = None,
             include_archive: bool = False) -> Result:
        """mk_workspace_load (`memorybox load --tier N | --file F [--include-archive]`,
        Layout.MEMORYBOX): the existing files of tier 1-5 (or the one file, relative to the
        root) with their contents, in the JSON (data.files: content, lines, path, tier); writes
        nothing. Give exactly one of tier and file: both or neither raise Error (MK_E_ARG, the
        library's refusal). Tier 5 (memory/ARCHIVES/) needs include_archive, unless file lies
        under memory/ARCHIVES/; without it the Result has a fatal finding (exit code 2)."""
        return self._run(_capi.mk_workspace_load, now,
                         0 if tier is None else _fits_int32(tier, "tier"),
                         None if file is None else _cpath(file, "file"),
                         _capi.MK_LOAD_INCLUDE_ARCHIVE if include_archive else 0)

    def update(self, now: ClockLike, entry_id: str, event: Union[str, UpdateEvent],
               note: Optional[Text] = None, confidence: Optional[int] = None) -> Result:
        """mk_workspace_update (`memorybox update --entry ID --verify|--confirm|--contradict
        --note N|--resolve keep [--confidence C]`, Layout.MEMORYBOX): records one event on an
        entry's field lines and writes its file directly (Result.applied is True when it wrote;
        the JSON's data is {after, before, entry_id, written}, written listing the files
        written). No plan, no Plan ID.

        entry_id is "<path>#<12 hex digits>", an entry_id of decay's JSON. event is an
        UpdateEvent or its name in any case ("verify", "confirm", "contradict",
        "resolve_keep"); an unknown name raises ArgumentError, an unknown int the library's
        Error (MK_E_ARG). note goes with "contradict" (required there). confidence goes with
        "resolve_keep": the new Confidence in hundredths, an int 0-100 (85 for 0.85; a float
        raises TypeError), None to keep it; outside -1..100 is Error (MK_E_ARG). A note or
        confidence with another event, a contradict without a note, a malformed or unknown
        entry_id, or update on a custodian workspace return a Result with a fatal finding
        (exit code 2) and write nothing."""
        opts = _update_options(event, note, confidence)
        return self._run(_capi.mk_workspace_update, now, _cstring(entry_id, "entry_id"),
                         ctypes.byref(opts))

    def gate(self, now: ClockLike, text: Text, confidence: Text, *, title: Optional[Text] = None,
             source: Optional[Text] = None, client: Optional[Text] = None,
             judge: Optional[Judge] = None, apply: bool = False) -> Result:
        """mk_workspace_gate (`memorybox gate`, Layout.MEMORYBOX): runs the five gates (Gate)
        for a candidate, asking `judge` for each judgement, and with apply=True
        (MK_GATE_APPLY) writes the entry when the outcome is WRITE (additive: no plan). The
        JSON's data is {applied, budget, category, entry_id, entry_text, file, gates,
        near_duplicates, outcome, stopped_at, tier, written}; DO_NOT_STORE, DISCARD,
        UPDATE_EXISTING and NEEDS_JUDGEMENT exit 0, REJECTED exits 1.

        text is the candidate (str or bytes); confidence its Confidence form as a str ("0.85",
        "1"; a float raises TypeError); title (required for section files and
        memory/SESSION_LOG.md), source and client become the entry's fields.

        judge(gate_name, question) gets the gate's name ("VALUE", ...) and the question JSON
        parsed (see Judge) and returns the answer in the gate's form (see Gate), or None to
        abstain: the run then stops there with NEEDS_JUDGEMENT. Without a judge every
        judgement is missing and the run stops at VALUE. An exception in judge (or an answer
        that is neither str, bytes nor None) fails the gate with the fatal finding MK-BOX-005
        (exit code 2, nothing written); the Result keeps the exception as judge_error.
        KeyboardInterrupt and SystemExit are raised again after the call. judge runs on this
        thread during the call and must not use this Workspace (that raises inside it)."""
        candidate = _candidate(text, confidence, title, source, client)
        if judge is not None and not callable(judge):
            raise TypeError("judge: expected a callable (gate_name, question) -> str | None")
        flags = _capi.MK_GATE_APPLY if apply else 0
        raised: list[BaseException] = []

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
            except BaseException as exc:  # nothing may unwind through C
                raised.append(exc)
                return _capi.MK_E_CALLBACK

        # A NULL mk_judge_fn without a judge; else the CFUNCTYPE object, alive until C returns.
        callback = _capi.mk_judge_fn() if judge is None else _capi.mk_judge_fn(trampoline)
        clock = _clock(now)
        out = ctypes.POINTER(_capi.mk_result)()
        with self._lock:
            pointer = self._use_unlocked()
            self._callback = "judge"
            try:
                status = _capi.mk_workspace_gate(ctypes.byref(out), pointer, ctypes.byref(clock),
                                                 ctypes.byref(candidate), callback, None, flags)
                failure = _failure(status) if status != _capi.MK_OK else None
            finally:
                self._callback = None
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

    def canon_add(self, now: ClockLike, file: PathLike, text: Text) -> Result:
        """mk_workspace_canon_add (`memorybox canon add --file F --text T`, a Maven root; spec
        memorybox.md §10): appends `- T` to brain/MARKETING_CANON.md (append-only), or creates
        the write-once brain/canon/<name>.md holding T, then records the file's length and
        SHA-256 in .memkit/canon-ledger.jsonl, under the root's lock (additive: no plan;
        Result.applied). The JSON's data is {ledger, unrecorded, violations, written}.

        file is relative to the root; text is str or bytes (passed with its length). A canon
        file that already breaks the ledger gives the ERROR MK-BOX-030 (exit code 1) and
        nothing is written; an existing brain/canon/ file, another file, a root of another
        profile or a custodian workspace give a fatal MK-ARG-001 (exit code 2)."""
        data = _text(text, "text")
        return self._run(_capi.mk_workspace_canon_add, now, _cpath(file, "file"), data,
                         len(data))

    def canon_verify(self, now: ClockLike) -> Result:
        """mk_workspace_canon_verify (`memorybox canon verify`, a Maven root): checks that each
        canon file still begins with the bytes its latest ledger record covers (and that a
        write-once file holds nothing more). Every violation (data.violations: path, reason) is
        the ERROR MK-BOX-030 (exit code 1). Writes nothing."""
        return self._run(_capi.mk_workspace_canon_verify, now)

    def client_set(self, now: ClockLike, client: str, to: Union[str, Lifecycle]) -> Result:
        """mk_workspace_client_set (`memorybox client set --client C --to S`, a root initialised
        with profile="maven"; spec memorybox.md §10), as the CLI runs it without --apply.

        active <-> maintenance is a field update: the profile's `Lifecycle:` line is written
        directly (Result.applied; data.written names brain/clients/C.md; no Plan ID). A move to
        or from archived is a dry run: the plan (Result.plan_id) that moves brain/clients/C.md
        and every file of memory/clients/C/ verbatim to memory/ARCHIVES/clients/C/ (or back);
        apply it with apply_client_set. A state to itself writes nothing. The JSON's data is
        {applied, client, from, plan, to, written}.

        client is the key of brain/clients/<client>.md (A-Z, a-z, 0-9, '.', '_', '-', not
        starting with '.'). to is a Lifecycle or its name in any case ("active", "maintenance",
        "archived"); an unknown name raises ArgumentError, an unknown int the library's Error
        (MK_E_ARG). A transition the spec does not allow (active -> archived, archived ->
        maintenance) is the ERROR MK-BOX-031 (exit code 1); another profile, an unknown client
        or an unsafe key is a fatal MK-ARG-001 (exit code 2)."""
        return self._run(_capi.mk_workspace_client_set, now, _cstring(client, "client"),
                         _lifecycle(to))

    def apply_client_set(self, now: ClockLike, client: str, to: Union[str, Lifecycle],
                         confirm: str) -> Result:
        """mk_workspace_apply_client_set (`memorybox client set --client C --to S --apply
        --confirm-plan ID`): a move to or from archived, with the lock and checks of
        apply_memorybox_compact (a stale `confirm` is MK-PLAN-001, nothing written); the moved
        files are created and their sources deleted in one journalled apply. active <->
        maintenance has no plan: a fatal MK-ARG-001, nothing written (use client_set)."""
        return self._run(_capi.mk_workspace_apply_client_set, now, _cstring(client, "client"),
                         _lifecycle(to), _cstring(confirm, "confirm"))

    def plan_memorybox_compact(self, now: ClockLike, file: Optional[PathLike] = None,
                               force: bool = False) -> Result:
        """mk_workspace_plan_memorybox_compact (`memorybox compact [--file F] [--force]`,
        Layout.MEMORYBOX), a dry run: the five bloat rules of spec memorybox.md §7 (thresholds,
        the entries that would move verbatim into memory/ARCHIVES/, review candidates) and the
        plan with its ID, in the JSON ({actions, applied, plan, rules, written}); writes
        nothing. file (memory/SESSION_LOG.md, memory/ACTIVE_TASKS.md, memory/MISTAKES.md,
        memory/PATTERNS.md or memory/daily/) runs that one rule; None runs all five. force
        (MK_MEMORYBOX_COMPACT_FORCE) makes every rule act, breached or not. On a custodian
        workspace the Result has a fatal MK-ARG-001 finding (exit code 2)."""
        return self._run(_capi.mk_workspace_plan_memorybox_compact, now,
                         None if file is None else _cpath(file, "file"),
                         _capi.MK_MEMORYBOX_COMPACT_FORCE if force else 0)

    def apply_memorybox_compact(self, now: ClockLike, confirm: str,
                                file: Optional[PathLike] = None, force: bool = False) -> Result:
        """mk_workspace_apply_memorybox_compact (`memorybox compact ... --apply --confirm-plan
        ID`): takes the root's lock, finishes what a crash left of an earlier memorybox apply,
        plans again from disk and writes only when the new plan's ID is `confirm` (else
        MK-PLAN-001, nothing written). No undo record: memorybox has no undo."""
        return self._run(_capi.mk_workspace_apply_memorybox_compact, now,
                         None if file is None else _cpath(file, "file"),
                         _capi.MK_MEMORYBOX_COMPACT_FORCE if force else 0,
                         _cstring(confirm, "confirm"))

    def plan_promote(self, now: ClockLike, entry_id: str) -> Result:
        """mk_workspace_plan_promote (`memorybox promote --entry ID`, Layout.MEMORYBOX), a dry
        run: the plan that moves a pattern of memory/PATTERNS.md verbatim to the end of
        memory/SOP_LIBRARY.md (JSON data {applied, plan, written}). entry_id is
        "memory/PATTERNS.md#<12 hex digits>"; another entry gives a fatal MK-ARG-001 finding."""
        return self._run(_capi.mk_workspace_plan_promote, now, _cstring(entry_id, "entry_id"))

    def apply_promote(self, now: ClockLike, entry_id: str, confirm: str) -> Result:
        """mk_workspace_apply_promote (`memorybox promote --entry ID --apply --confirm-plan ID`),
        with the lock and checks of apply_memorybox_compact."""
        return self._run(_capi.mk_workspace_apply_promote, now, _cstring(entry_id, "entry_id"),
                         _cstring(confirm, "confirm"))

    def plan_archive_entry(self, now: ClockLike, entry_id: str) -> Result:
        """mk_workspace_plan_archive_entry (`memorybox update --entry ID --resolve archive`,
        Layout.MEMORYBOX), a dry run: the plan that moves a tier 1-4 entry verbatim to
        memory/ARCHIVES/<stem>-<YYYY-MM of now>.md (a daily file: archived whole, then
        deleted); JSON data {after, applied, before, entry_id, plan, written}."""
        return self._run(_capi.mk_workspace_plan_archive_entry, now,
                         _cstring(entry_id, "entry_id"))

    def apply_archive_entry(self, now: ClockLike, entry_id: str, confirm: str) -> Result:
        """mk_workspace_apply_archive_entry (`memorybox update --entry ID --resolve archive
        --apply --confirm-plan ID`), with the lock and checks of apply_memorybox_compact."""
        return self._run(_capi.mk_workspace_apply_archive_entry, now,
                         _cstring(entry_id, "entry_id"), _cstring(confirm, "confirm"))

    # MemoryBox sync (Layout.MEMORYBOX; spec memorybox.md §9). Every call is mk_memorybox_sync.

    def sync(self, now: ClockLike, command: Union[str, SyncCommand], *,
             remote: Optional[Text] = None, conninfo: Optional[Text] = None,
             workspace_id: Optional[Text] = None, id: Optional[Text] = None,
             take: Optional[Text] = None, confirm_plan: Optional[Text] = None,
             apply: bool = False) -> Result:
        """mk_memorybox_sync (`memkit memorybox sync <command> --root ROOT ...`), so a call gives
        the CLI's JSON byte for byte. command is a SyncCommand, its CLI verb ("pull", "push",
        "status", "resolve") or an int for the library to judge. None leaves an argument out;
        an argument the verb does not take is the CLI's fatal MK-ARG-001.

        remote is "dir:PATH" (a folder that exists; relative to the working directory) or
        "postgres"; pull and push need it, status reads the remote (pending_pull) only with it.
        conninfo is the PostgreSQL connection string for remote "postgres" (None: libpq's
        defaults); the library reads no MEMKIT_SYNC_CONNINFO, and no result holds the string.
        workspace_id (pull, push) is needed only by a root's first sync, which otherwise makes
        a random one. resolve takes id and take ("local" or "remote"). A pull that only adds
        entries writes them at once; one that replaces or removes local text is a dry run until
        confirm_plan names its Plan ID (--apply --confirm-plan ID; apply=True alone is --apply).

            with memkit.Workspace.open("agent", layout="memorybox") as root:
                root.sync(now, "push", remote="dir:/srv/memory-remote",
                          workspace_id="0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b").close()
                with root.sync(now, "status") as status:
                    print(status.json)
        """
        number = _sync_command(command)
        if not isinstance(apply, bool):
            raise TypeError(f"apply: expected bool, got {type(apply).__name__}")
        opts = _capi.mk_sync_options()
        _capi.mk_sync_options_init(ctypes.byref(opts))
        opts.remote = _optional(remote, "remote")
        opts.conninfo = _optional(conninfo, "conninfo")
        opts.workspace_id = _optional(workspace_id, "workspace_id")
        opts.id = _optional(id, "id")
        opts.take = _optional(take, "take")
        opts.confirm_plan = _optional(confirm_plan, "confirm_plan")
        opts.apply = int(apply)
        return self._run(_capi.mk_memorybox_sync, now, number, ctypes.byref(opts))

    # Three-tier session memory (Layout.TIERS; spec tiers3.md). Every method is mk_tiers_run:
    # the keyword arguments are mk_tiers_options fields (the CLI's options), passed on as they
    # are, so a call gives the CLI's JSON byte for byte. Writes check every argument first and
    # then write all their files or none (a refusal is a Result with findings, not an
    # exception), in the commit order L1, L2, L3 under the workspace's .memkit/lock.

    def tiers(self, now: ClockLike, command: Union[str, TiersCommand], **options: Any) -> Result:
        """mk_tiers_run (`memkit tiers <command> ...`) with the options given by their
        mk_tiers_options field names: str (or bytes) for the text fields (template_name,
        tools_json, columns_json, confirm_plan_id included), a path for source_file, int for the
        integer fields, bool for the flags; None leaves a field out. command is a TiersCommand,
        its CLI name ("persist-turn") or an int for the library to judge.

        The tiers_* methods are this with Python names; this form also sends what they cannot,
        e.g. an option the command does not take (the CLI's fatal MK-ARG-001 "unknown option").
        An unknown field name raises TypeError."""
        number = _tiers_command(command)
        opts = _tiers_options(options)
        return self._run(_capi.mk_tiers_run, now, number, ctypes.byref(opts))

    def tiers_init(self, now: ClockLike) -> Result:
        """`tiers init`: creates memory/, memory/sessions/, memory/data/ with manifest.json
        (`{}`) and the global.md skeleton; never overwrites (data.created)."""
        return self.tiers(now, TiersCommand.INIT)

    def tiers_session_init(self, now: ClockLike, *, session_id: Optional[Text] = None,
                           recent_days: Optional[int] = None, theme_limit: Optional[int] = None,
                           no_log: bool = False, max_tokens: Optional[int] = None) -> Result:
        """`tiers session-init`: global.md's excerpt, the recent logs and themes (recent_days,
        default 7; theme_limit, default 8), l2_archive_due; with max_tokens the context in the
        read order within that budget (data.context, tokens_used, dropped). Logs a
        SESSION_INIT entry unless no_log (then Result.applied is False)."""
        return self.tiers(now, TiersCommand.SESSION_INIT, session_id=session_id,
                          recent_days=recent_days, theme_limit=theme_limit, no_log=no_log,
                          max_tokens=max_tokens)

    def tiers_log_turn(self, now: ClockLike, content: Optional[Text], *,
                       entry_type: Optional[Text] = None, tools: Optional[list] = None,
                       tools_json: Optional[Text] = None,
                       session_id: Optional[Text] = None) -> Result:
        """`tiers log-turn --content C`: appends one L1 entry to memory/sessions/<date>.md
        (data.path). entry_type defaults to "turn" (written upper-cased). tools is a list of
        str (sent as JSON) or tools_json the JSON array text as the CLI's --tools takes it."""
        return self.tiers(now, TiersCommand.LOG_TURN, content=content, entry_type=entry_type,
                          tools_json=_json_list(tools, tools_json, "tools"),
                          session_id=session_id)

    def tiers_read_logs(self, now: ClockLike, *, days_back: Optional[int] = None,
                        limit: Optional[int] = None) -> Result:
        """`tiers read-logs`: the L1 files of the last days_back days (default 7), newest
        first, at most limit (default 20), with their bytes (data.logs). Writes nothing."""
        return self.tiers(now, TiersCommand.READ_LOGS, days_back=days_back, limit=limit)

    def tiers_persist_turn(self, now: ClockLike, raw_content: Optional[Text], *,
                           extracted_content: Optional[Text] = None,
                           theme: Optional[Text] = None, template: Optional[Text] = None,
                           title: Optional[Text] = None, entry_type: Optional[Text] = None,
                           tools: Optional[list] = None, tools_json: Optional[Text] = None,
                           session_id: Optional[Text] = None,
                           promote_global: bool = False) -> Result:
        """`tiers persist-turn --raw-content R`: the L1 entry; with extracted_content (which
        needs theme: MK-TIERS-004 otherwise, nothing written) the L2 note
        memory/<theme>/<date>_<hour>.md, headed by title and template ("decision", "error",
        "task"); with promote_global too, a block appended to memory/global.md. The theme is
        always the caller's: memkit never guesses one."""
        return self.tiers(now, TiersCommand.PERSIST_TURN, raw_content=raw_content,
                          extracted_content=extracted_content, theme=theme,
                          template_name=template, title=title, entry_type=entry_type,
                          tools_json=_json_list(tools, tools_json, "tools"),
                          session_id=session_id, promote_global=promote_global)

    def tiers_write_theme(self, now: ClockLike, theme: Optional[Text], content: Optional[Text],
                          *, template: Optional[Text] = None, title: Optional[Text] = None,
                          promote_global: bool = False, raw_content: Optional[Text] = None,
                          entry_type: Optional[Text] = None, tools: Optional[list] = None,
                          tools_json: Optional[Text] = None,
                          session_id: Optional[Text] = None) -> Result:
        """`tiers write-theme --theme T --content C`: an L1 entry (raw_content, else content),
        then the L2 note (data.path), then with promote_global a block in global.md."""
        return self.tiers(now, TiersCommand.WRITE_THEME, theme=theme, content=content,
                          template_name=template, title=title, promote_global=promote_global,
                          raw_content=raw_content, entry_type=entry_type,
                          tools_json=_json_list(tools, tools_json, "tools"),
                          session_id=session_id)

    def tiers_read_theme(self, now: ClockLike, theme: Optional[Text], *,
                         hours_back: Optional[int] = None,
                         limit: Optional[int] = None) -> Result:
        """`tiers read-theme --theme T`: the theme's notes of the last hours_back hours
        (default 24), newest first, at most limit (default 20) (data.memories)."""
        return self.tiers(now, TiersCommand.READ_THEME, theme=theme, hours_back=hours_back,
                          limit=limit)

    def tiers_read_global(self, now: ClockLike) -> Result:
        """`tiers read-global`: global.md (data.content, exists) and its read order
        (data.read_order: Active Mission, Key Constraints, Research Index, User Preferences)."""
        return self.tiers(now, TiersCommand.READ_GLOBAL)

    def tiers_write_global(self, now: ClockLike, content: Optional[Text], *,
                           append: bool = False, replace: bool = False,
                           raw_content: Optional[Text] = None,
                           entry_type: Optional[Text] = None, tools: Optional[list] = None,
                           tools_json: Optional[Text] = None,
                           session_id: Optional[Text] = None) -> Result:
        """`tiers write-global --content C [--append | --replace]`: an L1 entry, then global.md
        appended to (the default) or replaced (the old bytes kept in memory/archive/global/,
        data.backup_path). append and replace together are MK-ARG-001."""
        return self.tiers(now, TiersCommand.WRITE_GLOBAL, content=content, append=append,
                          replace=replace, raw_content=raw_content, entry_type=entry_type,
                          tools_json=_json_list(tools, tools_json, "tools"),
                          session_id=session_id)

    def tiers_list_themes(self, now: ClockLike) -> Result:
        """`tiers list-themes`: the theme folders of memory/, sorted (data.themes)."""
        return self.tiers(now, TiersCommand.LIST_THEMES)

    def tiers_write_data(self, now: ClockLike, name: Optional[Text], *,
                         csv_content: Optional[Text] = None,
                         source_file: Optional[PathLike] = None, replace: bool = False,
                         description: Optional[Text] = None,
                         source_label: Optional[Text] = None, columns: Optional[list] = None,
                         columns_json: Optional[Text] = None,
                         raw_content: Optional[Text] = None, entry_type: Optional[Text] = None,
                         tools: Optional[list] = None, tools_json: Optional[Text] = None,
                         session_id: Optional[Text] = None) -> Result:
        """`tiers write-data --name N (--csv-content C | --source-file F)`: an L1 entry, the CSV
        memory/data/<name>.csv stored byte for byte, and its manifest.json entry
        (data.manifest_entry). Exactly one of csv_content ("" is an empty CSV) and source_file
        (relative to the current directory), else MK-TIERS-010; an existing file needs
        replace (MK-TIERS-011). columns is a list of str (sent as JSON) or columns_json the
        text of --columns-json."""
        return self.tiers(now, TiersCommand.WRITE_DATA, name=name, csv_content=csv_content,
                          source_file=source_file, replace=replace, description=description,
                          source_label=source_label,
                          columns_json=_json_list(columns, columns_json, "columns"),
                          raw_content=raw_content, entry_type=entry_type,
                          tools_json=_json_list(tools, tools_json, "tools"),
                          session_id=session_id)

    def tiers_read_data(self, now: ClockLike, name: Optional[Text], *,
                        head: Optional[int] = None) -> Result:
        """`tiers read-data --name N [--head N]`: the CSV's bytes (with head, through its
        head-th record, the header being the first; data.data.truncated) and its manifest
        entry (data.data.metadata). A missing file is MK-ARG-001."""
        return self.tiers(now, TiersCommand.READ_DATA, name=name, head=head)

    def tiers_list_data(self, now: ClockLike) -> Result:
        """`tiers list-data`: the CSV files of memory/data/ with their manifest entries."""
        return self.tiers(now, TiersCommand.LIST_DATA)

    def tiers_archive_themes(self, now: ClockLike, *, days: Optional[int] = None) -> Result:
        """`tiers archive-themes [--days N]`, a dry run: the L2 notes older than days (default
        90) and the plan (Result.plan_id) that moves them to memory/archive/<theme>/; apply it
        with tiers_apply_archive_themes. Writes nothing."""
        return self.tiers(now, TiersCommand.ARCHIVE_THEMES, days=days)

    def tiers_apply_archive_themes(self, now: ClockLike, confirm: str, *,
                                   days: Optional[int] = None) -> Result:
        """`tiers archive-themes [--days N] --apply --confirm-plan ID`: plans again from disk
        under the lock and moves the notes only when the new plan's ID is `confirm` (else
        MK-PLAN-001, nothing written)."""
        return self.tiers(now, TiersCommand.ARCHIVE_THEMES, days=days,
                          confirm_plan_id=_cstring(confirm, "confirm"))

    def tiers_template(self, now: ClockLike, name: Optional[Text]) -> Result:
        """`tiers template NAME`: the body skeleton of the template "decision", "error" or
        "task" (data.text); another name is MK-ARG-001. Writes nothing."""
        return self.tiers(now, TiersCommand.TEMPLATE, template_name=name)


    # Curated memory (Layout.CURATED; spec curated.md). Every call is mk_curated_run.

    def curated(self, now: ClockLike, command: Union[str, CuratedCommand],
                **options: Any) -> Result:
        """mk_curated_run (`memkit curated <command> --store ROOT ...`) with the options given by
        their mk_curated_options field names, passed on as they are, so a call gives the CLI's
        JSON byte for byte: str (or bytes) for the text fields, a path for body_file and file,
        int for max_chars, limit and max_depth, bool for the flags; None leaves a field out.
        command is a CuratedCommand, its CLI words ("add", "get-relevant", "event add") or an
        int for the library to judge.

        workspace is needed by every command (None is the CLI's MK-CUR-001); the library reads
        no MEMKIT_* environment variable. row_class is --class, delete_link is link's --delete,
        confirm_plan_id is --apply --confirm-plan ID (floors prune, telemetry compact); name is
        --name for add and edit and the row's positional NAME (link's SRC) elsewhere; dst,
        query and id are link's DST, search's QUERY and episode show's ID. A write checks every
        argument and the writer boundary first, then writes its rows and history as one
        transaction or nothing (a refusal is a Result with findings, not an exception).
        An option the command does not take is the CLI's fatal MK-ARG-001 "unknown option"; an
        unknown field name raises TypeError.

            with memkit.Workspace.open("curated", layout="curated") as store:
                store.curated(now, "add", workspace="ws1", name="project_a", type="project",
                              body="Fix the flaky build", row_class="thread", status="open")
                with store.curated(now, "show", workspace="ws1", name="project_a") as shown:
                    print(shown.json)
        """
        number = _curated_command(command)
        opts = _curated_options(options)
        return self._run(_capi.mk_curated_run, now, number, ctypes.byref(opts))


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
    to share across threads."""

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
