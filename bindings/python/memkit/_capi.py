"""The raw layer: memkit.h as ctypes declarations, and nothing more.

Each C function is declared once, in the order of capi/memkit.h, under its C prototype. Names,
structs and constants are the header's own; the idiomatic layer (memkit/__init__.py) is the
only user. Standard library only (STYLE B2).

_load() finds the library: the MEMKIT_LIBRARY environment variable, then this package's folder,
then ctypes.util.find_library("memkit"); it refuses a library whose mk_version_number() is not
the MK_VERSION_NUMBER this file was written for.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char, c_char_p, c_double, c_int32, c_size_t,
                    c_uint32, c_uint64, c_int64, c_void_p)
from pathlib import Path
from typing import Callable, Mapping, Optional

# Section - Version

#: The memkit.h this layer was written from: 0.1.0.
MK_VERSION_MAJOR = 0
MK_VERSION_MINOR = 1
MK_VERSION_PATCH = 0
MK_VERSION_NUMBER = MK_VERSION_MAJOR * 10000 + MK_VERSION_MINOR * 100 + MK_VERSION_PATCH
MK_VERSION_STRING = f"{MK_VERSION_MAJOR}.{MK_VERSION_MINOR}.{MK_VERSION_PATCH}"

# Section - Status

mk_status = c_int32
MK_OK = 0
MK_E_ARG = -1
MK_E_NOMEM = -2
MK_E_INTERNAL = -3
MK_E_IO = -10
MK_E_NOT_FOUND = -11
MK_E_PARSE = -20
MK_E_UTF8 = -21
MK_E_LAYOUT = -30
MK_E_UNSAFE_PATH = -31
MK_E_LOCK = -40
MK_E_CALLBACK = -50


# Section - Buffers

class mk_buf(Structure):
    _fields_ = [("ptr", POINTER(c_char)),  # NULL when empty
                ("size", c_size_t)]


# typedef mk_status (*mk_write_fn)(const char* data, size_t size, void* payload);
# `data` is declared c_void_p so that ctypes hands the callback the address, not a copy cut at NUL.
mk_write_fn = CFUNCTYPE(mk_status, c_void_p, c_size_t, c_void_p)

# Section - Clock

MK_CLOCK_SYSTEM = 1
MK_CLOCK_VERSION = 1


class mk_clock(Structure):
    _fields_ = [("version", c_uint32),
                ("flags", c_uint32),
                ("unix_ms", c_int64),
                ("utc_offset_minutes", c_int32)]


# Section - Workspace

mk_layout = c_int32
MK_LAYOUT_CUSTODIAN = 0
MK_LAYOUT_MEMORYBOX = 1
MK_LAYOUT_TIERS = 2  # only mk_tiers_run and mk_workspace_recover
MK_LAYOUT_CURATED = 3  # the store folder (--store); only mk_curated_run
MK_WORKSPACE_OPTIONS_VERSION = 1


class mk_workspace_options(Structure):
    _fields_ = [("version", c_uint32),
                ("layout", mk_layout),
                ("memory_dir", c_char_p),
                ("lock_timeout_seconds", c_double)]


class mk_workspace(Structure):
    """Opaque (STYLE C2): only ever handled as POINTER(mk_workspace)."""


# Section - Results

class mk_result(Structure):
    """Opaque: only ever handled as POINTER(mk_result)."""


class mk_inbox_counts(Structure):
    _fields_ = [("inbox_items", c_uint64),
                ("empty_items", c_uint64),
                ("duplicates", c_uint64),
                ("tombstone_matches", c_uint64),
                ("candidates", c_uint64)]


mk_budget_state = c_int32
MK_BUDGET_OK = 0
MK_BUDGET_NEAR_LIMIT = 1
MK_BUDGET_OVER_BUDGET = 2
MK_BUDGET_MISSING = 3
MK_BUDGET_NOT_ENABLED = 4


class mk_budget_row(Structure):
    _fields_ = [("path", c_char_p),  # borrowed from the result; ctypes copies it on read
                ("tokens", c_uint64),
                ("limit", c_uint64),
                ("state", mk_budget_state)]


# Section - Commands

MK_INIT_EXTENDED = 1
MK_INIT_PROFILE_DEFAULT = 2
MK_INIT_PROFILE_MAVEN = 4
MK_COMPACT_ARCHIVE_OLDEST = 1
MK_COMPACT_OPTIONS_VERSION = 1


class mk_compact_options(Structure):
    _fields_ = [("version", c_uint32),
                ("flags", c_uint32),
                ("target", c_char_p)]


MK_RECOVER_APPLY = 1
MK_RECOVER_ROLLBACK = 2

MK_ADD_ALLOW_LONG = 1
MK_ADD_OPTIONS_VERSION = 1


class mk_add_options(Structure):
    _fields_ = [("version", c_uint32),
                ("flags", c_uint32),
                ("type", c_char_p),
                ("reason", c_char_p),
                ("name", c_char_p),
                ("area", c_char_p)]


mk_forget_mode = c_int32
MK_FORGET_SOFT = 0
MK_FORGET_HARD = 1
MK_FORGET_PURGE = 2
MK_FORGET_ALLOW_BROAD_MATCH = 1
MK_FORGET_OPTIONS_VERSION = 1


class mk_forget_options(Structure):
    _fields_ = [("version", c_uint32),
                ("flags", c_uint32),
                ("mode", mk_forget_mode)]


MK_LOAD_INCLUDE_ARCHIVE = 1

mk_update_event = c_int32
MK_UPDATE_VERIFY = 0
MK_UPDATE_CONFIRM = 1
MK_UPDATE_CONTRADICT = 2
MK_UPDATE_RESOLVE_KEEP = 3
MK_UPDATE_OPTIONS_VERSION = 1


class mk_update_options(Structure):
    _fields_ = [("version", c_uint32),
                ("event", mk_update_event),
                ("note", c_char_p),  # NUL-terminated UTF-8; required with MK_UPDATE_CONTRADICT
                ("confidence", c_int32)]  # hundredths 0-100 (MK_UPDATE_RESOLVE_KEEP), else -1


mk_gate = c_int32
MK_GATE_VALUE = 0
MK_GATE_ALIGNMENT = 1
MK_GATE_REDUNDANCY = 2
MK_GATE_FRESHNESS = 3
MK_GATE_PLACEMENT = 4

MK_JUDGE_ANSWER = 0
MK_JUDGE_ABSTAIN = 1

# typedef int32_t (*mk_judge_fn)(mk_gate gate, const char* question_json, size_t question_size,
#                                mk_write_fn answer, void* answer_payload, void* payload);
# `question_json` is c_void_p for the reason given at mk_write_fn; `answer` arrives as a
# c_void_p too (ctypes cannot hand a callback a callable function pointer): cast it to
# mk_write_fn to call it.
mk_judge_fn = CFUNCTYPE(c_int32, mk_gate, c_void_p, c_size_t, c_void_p, c_void_p, c_void_p)

MK_GATE_CANDIDATE_VERSION = 1


class mk_gate_candidate(Structure):
    _fields_ = [("version", c_uint32),
                ("text", c_char_p),  # UTF-8, text_size bytes (NULs kept: the size counts)
                ("text_size", c_size_t),
                ("confidence", c_char_p),  # "0.85", "1", "0.5"; required
                ("title", c_char_p),
                ("source", c_char_p),
                ("client", c_char_p)]


MK_GATE_APPLY = 1

MK_MEMORYBOX_COMPACT_FORCE = 1

mk_lifecycle = c_int32
MK_LIFECYCLE_ACTIVE = 0
MK_LIFECYCLE_MAINTENANCE = 1
MK_LIFECYCLE_ARCHIVED = 2


# Section - MemoryBox sync

mk_sync_command = c_int32
MK_SYNC_PULL = 0
MK_SYNC_PUSH = 1
MK_SYNC_STATUS = 2
MK_SYNC_RESOLVE = 3

MK_SYNC_OPTIONS_VERSION = 1


class mk_sync_options(Structure):
    # Strings are NUL-terminated UTF-8 or NULL (not given); apply 0 or 1. Each field is the CLI
    # option of its name (memkit.h), but conninfo, the PostgreSQL connection string, which takes
    # the place of the CLI's MEMKIT_SYNC_CONNINFO, and confirm_plan, which is --apply
    # --confirm-plan ID.
    _fields_ = [("version", c_uint32),
                ("remote", c_char_p),  # "dir:PATH" or "postgres"
                ("conninfo", c_char_p),
                ("workspace_id", c_char_p),
                ("id", c_char_p),
                ("take", c_char_p),  # "local" or "remote"
                ("confirm_plan", c_char_p),
                ("apply", c_int32)]


# Section - Three-tier session memory

mk_tiers_command = c_int32
MK_TIERS_INIT = 0
MK_TIERS_SESSION_INIT = 1
MK_TIERS_LOG_TURN = 2
MK_TIERS_READ_LOGS = 3
MK_TIERS_PERSIST_TURN = 4
MK_TIERS_WRITE_THEME = 5
MK_TIERS_READ_THEME = 6
MK_TIERS_READ_GLOBAL = 7
MK_TIERS_WRITE_GLOBAL = 8
MK_TIERS_LIST_THEMES = 9
MK_TIERS_WRITE_DATA = 10
MK_TIERS_READ_DATA = 11
MK_TIERS_LIST_DATA = 12
MK_TIERS_ARCHIVE_THEMES = 13
MK_TIERS_TEMPLATE = 14

MK_TIERS_UNSET = -(1 << 63)  # INT64_MIN: an integer field not given
MK_TIERS_OPTIONS_VERSION = 1


class mk_tiers_options(Structure):
    # Strings are NUL-terminated UTF-8 or NULL (not given); integers MK_TIERS_UNSET when not
    # given; flags 0 or 1. Each field is the CLI option of the same name (memkit.h).
    _fields_ = [("version", c_uint32),
                ("content", c_char_p),
                ("raw_content", c_char_p),
                ("extracted_content", c_char_p),
                ("theme", c_char_p),
                ("template_name", c_char_p),  # --template; the NAME of MK_TIERS_TEMPLATE
                ("title", c_char_p),
                ("entry_type", c_char_p),
                ("session_id", c_char_p),
                ("tools_json", c_char_p),  # --tools: a JSON array of strings
                ("name", c_char_p),
                ("csv_content", c_char_p),  # "" is empty CSV, NULL is not given
                ("source_file", c_char_p),
                ("description", c_char_p),
                ("source_label", c_char_p),
                ("columns_json", c_char_p),
                ("confirm_plan_id", c_char_p),  # archive-themes: --apply --confirm-plan ID
                ("recent_days", c_int64),
                ("theme_limit", c_int64),
                ("max_tokens", c_int64),
                ("days_back", c_int64),
                ("limit", c_int64),
                ("hours_back", c_int64),
                ("head", c_int64),
                ("days", c_int64),
                ("no_log", c_int32),
                ("promote_global", c_int32),
                ("append", c_int32),
                ("replace", c_int32)]


# Section - Curated memory

mk_curated_command = c_int32
MK_CURATED_ADD = 0
MK_CURATED_APPEND = 1
MK_CURATED_EDIT = 2
MK_CURATED_RECLASSIFY = 3
MK_CURATED_LINK = 4
MK_CURATED_UNLINK = 5
MK_CURATED_DELETE = 6
MK_CURATED_RESTORE = 7
MK_CURATED_CHECKPOINT = 8
MK_CURATED_BATCH = 9
MK_CURATED_GET_RELEVANT = 10
MK_CURATED_KERNEL = 11
MK_CURATED_SHOW = 12
MK_CURATED_LIST = 13
MK_CURATED_SEARCH = 14
MK_CURATED_STATS = 15
MK_CURATED_CONFLICTS = 16
MK_CURATED_LINEAGE = 17
MK_CURATED_STORY = 18
MK_CURATED_EVENT_ADD = 19
MK_CURATED_EPISODE_ADD = 20
MK_CURATED_EPISODE_SHOW = 21
MK_CURATED_FLOORS_PRUNE = 22
MK_CURATED_TELEMETRY_COMPACT = 23
MK_CURATED_RECOVER = 24

MK_CURATED_UNSET = -(1 << 63)  # INT64_MIN: an integer field not given
MK_CURATED_OPTIONS_VERSION = 1


class mk_curated_options(Structure):
    # Strings are NUL-terminated UTF-8 or NULL (not given); integers MK_CURATED_UNSET when not
    # given; flags 0 or 1. Each field is the CLI option or positional argument of its name
    # (memkit.h): row_class is --class, delete_link --delete, confirm_plan_id --apply
    # --confirm-plan; name, dst, query and id are positionals (name is --name for add and edit).
    _fields_ = [("version", c_uint32),
                ("workspace", c_char_p),
                ("actor", c_char_p),
                ("name", c_char_p),
                ("dst", c_char_p),
                ("query", c_char_p),
                ("id", c_char_p),
                ("type", c_char_p),
                ("body", c_char_p),
                ("body_file", c_char_p),
                ("description", c_char_p),
                ("row_class", c_char_p),
                ("status", c_char_p),
                ("initiative", c_char_p),
                ("project_ref", c_char_p),
                ("audience", c_char_p),
                ("origin_session", c_char_p),
                ("field", c_char_p),
                ("content", c_char_p),
                ("kind", c_char_p),
                ("file", c_char_p),
                ("sort", c_char_p),
                ("order", c_char_p),
                ("scope", c_char_p),
                ("threshold", c_char_p),
                ("before", c_char_p),
                ("source", c_char_p),
                ("agent", c_char_p),
                ("result", c_char_p),
                ("severity", c_char_p),
                ("payload", c_char_p),
                ("confirm_plan_id", c_char_p),
                ("max_chars", c_int64),
                ("limit", c_int64),
                ("max_depth", c_int64),
                ("dry_run", c_int32),
                ("links", c_int32),
                ("history", c_int32),
                ("include_deleted", c_int32),
                ("yes", c_int32),
                ("hard", c_int32),
                ("delete_link", c_int32),
                ("apply", c_int32),
                ("rollback", c_int32)]


# Section - Document

class mk_document(Structure):
    """Opaque: only ever handled as POINTER(mk_document)."""


mk_unit_kind = c_int32
MK_UNIT_FRONT_MATTER = 0
MK_UNIT_BULLET = 1
MK_UNIT_FENCE = 2
MK_UNIT_COMMENT = 3
MK_UNIT_HEADING = 4
MK_UNIT_BLANK = 5
MK_UNIT_TEXT = 6


class mk_unit(Structure):
    _fields_ = [("kind", mk_unit_kind),
                ("heading_level", c_int32),
                ("first_line", c_uint32),
                ("last_line", c_uint32),
                ("begin", c_uint64),
                ("end", c_uint64)]


# Section - Loading

class LoadError(ImportError):
    """libmemkit cannot be found or loaded, or it is not the version this binding was written for."""


def _library_names() -> list[str]:
    if sys.platform == "win32":
        return ["memkit.dll", "libmemkit.dll"]
    if sys.platform == "darwin":
        return ["libmemkit.dylib"]
    return ["libmemkit.so"]


def _check_version(lib: ctypes.CDLL, where: str, expected: int) -> None:
    number = lib.mk_version_number
    number.restype = c_int32
    number.argtypes = []
    found = number()
    if found != expected:
        def dotted(n: int) -> str:
            return f"{n // 10000}.{n // 100 % 100}.{n % 100}"
        raise LoadError(
            f"memkit: {where} is libmemkit {dotted(found)} (mk_version_number() == {found}), but "
            f"this binding was written for {dotted(expected)} ({expected}); load a matching "
            f"library (MEMKIT_LIBRARY) or update the binding")


def _load(env: Optional[Mapping[str, str]] = None, package_dir: Optional[Path] = None,
          find_library: Callable[[str], Optional[str]] = ctypes.util.find_library,
          expected: Optional[int] = None) -> tuple[ctypes.CDLL, str]:
    """Loads libmemkit and checks its version; returns the library and where it came from.

    Tries, in order: the path in MEMKIT_LIBRARY (when set, it must load: no silent fallback),
    the package folder, then find_library("memkit"). The parameters exist for tests.
    """
    env = os.environ if env is None else env
    package_dir = Path(__file__).resolve().parent if package_dir is None else package_dir
    expected = MK_VERSION_NUMBER if expected is None else expected

    def open_(path: str, why: str) -> tuple[ctypes.CDLL, str]:
        try:
            lib = ctypes.CDLL(path)
        except OSError as error:
            raise LoadError(f"memkit: cannot load {path} ({why}): {error}") from error
        _check_version(lib, path, expected)
        return lib, path

    explicit = env.get("MEMKIT_LIBRARY")
    if explicit:
        return open_(explicit, "from MEMKIT_LIBRARY")
    for name in _library_names():
        candidate = package_dir / name
        if candidate.exists():
            return open_(str(candidate), "from the package folder")
    found = find_library("memkit")
    if found:
        return open_(found, 'from ctypes.util.find_library("memkit")')
    raise LoadError(
        "memkit: libmemkit not found: set MEMKIT_LIBRARY to its path, put "
        f"{_library_names()[0]} in {package_dir}, or install it where the system linker looks")


_lib, library_path = _load()


def _fn(name: str, restype, *argtypes):
    function = getattr(_lib, name)
    function.restype = restype
    function.argtypes = list(argtypes)
    return function


# The 59 functions of memkit.h, in header order.

# Section - Version

# int32_t mk_version_number(void);
mk_version_number = _fn("mk_version_number", c_int32)
# const char* mk_version_string(void);
mk_version_string = _fn("mk_version_string", c_char_p)

# Section - Status

# const char* mk_status_name(mk_status status);
mk_status_name = _fn("mk_status_name", c_char_p, mk_status)
# const char* mk_last_error_message(void);
mk_last_error_message = _fn("mk_last_error_message", c_char_p)

# Section - Buffers

# void mk_buf_dispose(mk_buf* buf);
mk_buf_dispose = _fn("mk_buf_dispose", None, POINTER(mk_buf))
# mk_status mk_commands_json(mk_buf* out);
mk_commands_json = _fn("mk_commands_json", mk_status, POINTER(mk_buf))

# Section - Clock

# mk_status mk_clock_parse(mk_clock* out, const char* rfc3339);
mk_clock_parse = _fn("mk_clock_parse", mk_status, POINTER(mk_clock), c_char_p)

# Section - Workspace

# void mk_workspace_options_init(mk_workspace_options* opts);
mk_workspace_options_init = _fn("mk_workspace_options_init", None, POINTER(mk_workspace_options))
# mk_status mk_workspace_open(mk_workspace** out, const char* project_root,
#                             const mk_workspace_options* opts);
mk_workspace_open = _fn("mk_workspace_open", mk_status, POINTER(POINTER(mk_workspace)), c_char_p,
                        POINTER(mk_workspace_options))
# void mk_workspace_destroy(mk_workspace* ws);
mk_workspace_destroy = _fn("mk_workspace_destroy", None, POINTER(mk_workspace))

# Section - Results

# void mk_result_destroy(mk_result* result);
mk_result_destroy = _fn("mk_result_destroy", None, POINTER(mk_result))
# int32_t mk_result_exit_code(const mk_result* result);
mk_result_exit_code = _fn("mk_result_exit_code", c_int32, POINTER(mk_result))
# mk_status mk_result_json(mk_buf* out, const mk_result* result);
mk_result_json = _fn("mk_result_json", mk_status, POINTER(mk_buf), POINTER(mk_result))
# mk_status mk_result_write_json(const mk_result* result, mk_write_fn write, void* payload);
mk_result_write_json = _fn("mk_result_write_json", mk_status, POINTER(mk_result), mk_write_fn,
                           c_void_p)
# const char* mk_result_plan_id(const mk_result* result);
mk_result_plan_id = _fn("mk_result_plan_id", c_char_p, POINTER(mk_result))
# int32_t mk_result_applied(const mk_result* result);
mk_result_applied = _fn("mk_result_applied", c_int32, POINTER(mk_result))
# uint64_t mk_result_plan_operation_count(const mk_result* result);
mk_result_plan_operation_count = _fn("mk_result_plan_operation_count", c_uint64,
                                     POINTER(mk_result))
# mk_status mk_result_inbox_counts(mk_inbox_counts* out, const mk_result* result);
mk_result_inbox_counts = _fn("mk_result_inbox_counts", mk_status, POINTER(mk_inbox_counts),
                             POINTER(mk_result))
# uint64_t mk_result_budget_row_count(const mk_result* result);
mk_result_budget_row_count = _fn("mk_result_budget_row_count", c_uint64, POINTER(mk_result))
# mk_status mk_result_budget_row(mk_budget_row* out, const mk_result* result, uint64_t index);
mk_result_budget_row = _fn("mk_result_budget_row", mk_status, POINTER(mk_budget_row),
                           POINTER(mk_result), c_uint64)

# Section - Commands

# mk_status mk_workspace_init(mk_result** out, mk_workspace* ws, const mk_clock* now,
#                             uint32_t flags);
mk_workspace_init = _fn("mk_workspace_init", mk_status, POINTER(POINTER(mk_result)),
                        POINTER(mk_workspace), POINTER(mk_clock), c_uint32)
# mk_status mk_workspace_status(mk_result** out, mk_workspace* ws, const mk_clock* now);
mk_workspace_status = _fn("mk_workspace_status", mk_status, POINTER(POINTER(mk_result)),
                          POINTER(mk_workspace), POINTER(mk_clock))
# mk_status mk_workspace_check(mk_result** out, mk_workspace* ws, const mk_clock* now);
mk_workspace_check = _fn("mk_workspace_check", mk_status, POINTER(POINTER(mk_result)),
                         POINTER(mk_workspace), POINTER(mk_clock))
# void mk_compact_options_init(mk_compact_options* opts);
mk_compact_options_init = _fn("mk_compact_options_init", None, POINTER(mk_compact_options))
# mk_status mk_workspace_plan_compaction(mk_result** out, mk_workspace* ws,
#                                        const mk_clock* now, const mk_compact_options* opts);
mk_workspace_plan_compaction = _fn("mk_workspace_plan_compaction", mk_status,
                                   POINTER(POINTER(mk_result)), POINTER(mk_workspace),
                                   POINTER(mk_clock), POINTER(mk_compact_options))
# mk_status mk_workspace_apply_compaction(mk_result** out, mk_workspace* ws,
#                                         const mk_clock* now,
#                                         const mk_compact_options* opts,
#                                         const char* confirm_plan_id);
mk_workspace_apply_compaction = _fn("mk_workspace_apply_compaction", mk_status,
                                    POINTER(POINTER(mk_result)), POINTER(mk_workspace),
                                    POINTER(mk_clock), POINTER(mk_compact_options), c_char_p)
# mk_status mk_workspace_recover(mk_result** out, mk_workspace* ws, const mk_clock* now,
#                                uint32_t flags);
mk_workspace_recover = _fn("mk_workspace_recover", mk_status, POINTER(POINTER(mk_result)),
                           POINTER(mk_workspace), POINTER(mk_clock), c_uint32)
# mk_status mk_workspace_plan_undo(mk_result** out, mk_workspace* ws, const mk_clock* now,
#                                  const char* plan_id);
mk_workspace_plan_undo = _fn("mk_workspace_plan_undo", mk_status, POINTER(POINTER(mk_result)),
                             POINTER(mk_workspace), POINTER(mk_clock), c_char_p)
# mk_status mk_workspace_apply_undo(mk_result** out, mk_workspace* ws, const mk_clock* now,
#                                   const char* plan_id, const char* confirm_plan_id);
mk_workspace_apply_undo = _fn("mk_workspace_apply_undo", mk_status, POINTER(POINTER(mk_result)),
                              POINTER(mk_workspace), POINTER(mk_clock), c_char_p, c_char_p)
# void mk_add_options_init(mk_add_options* opts);
mk_add_options_init = _fn("mk_add_options_init", None, POINTER(mk_add_options))
# mk_status mk_workspace_add(mk_result** out, mk_workspace* ws, const mk_clock* now,
#                            const char* message, size_t message_size,
#                            const mk_add_options* opts);
mk_workspace_add = _fn("mk_workspace_add", mk_status, POINTER(POINTER(mk_result)),
                       POINTER(mk_workspace), POINTER(mk_clock), c_char_p, c_size_t,
                       POINTER(mk_add_options))
# void mk_forget_options_init(mk_forget_options* opts);
mk_forget_options_init = _fn("mk_forget_options_init", None, POINTER(mk_forget_options))
# mk_status mk_workspace_plan_forget(mk_result** out, mk_workspace* ws, const mk_clock* now,
#                                    const char* topic, size_t topic_size,
#                                    const mk_forget_options* opts);
mk_workspace_plan_forget = _fn("mk_workspace_plan_forget", mk_status,
                               POINTER(POINTER(mk_result)), POINTER(mk_workspace),
                               POINTER(mk_clock), c_char_p, c_size_t, POINTER(mk_forget_options))
# mk_status mk_workspace_apply_forget(mk_result** out, mk_workspace* ws, const mk_clock* now,
#                                     const char* topic, size_t topic_size,
#                                     const mk_forget_options* opts,
#                                     const char* confirm_plan_id);
mk_workspace_apply_forget = _fn("mk_workspace_apply_forget", mk_status,
                                POINTER(POINTER(mk_result)), POINTER(mk_workspace),
                                POINTER(mk_clock), c_char_p, c_size_t,
                                POINTER(mk_forget_options), c_char_p)
# mk_status mk_workspace_decay(mk_result** out, mk_workspace* ws, const mk_clock* now,
#                              const char* file);
mk_workspace_decay = _fn("mk_workspace_decay", mk_status, POINTER(POINTER(mk_result)),
                         POINTER(mk_workspace), POINTER(mk_clock), c_char_p)
# mk_status mk_workspace_hygiene(mk_result** out, mk_workspace* ws, const mk_clock* now);
mk_workspace_hygiene = _fn("mk_workspace_hygiene", mk_status, POINTER(POINTER(mk_result)),
                           POINTER(mk_workspace), POINTER(mk_clock))
# mk_status mk_workspace_load(mk_result** out, mk_workspace* ws, const mk_clock* now,
#                             int32_t tier, const char* file, uint32_t flags);
mk_workspace_load = _fn("mk_workspace_load", mk_status, POINTER(POINTER(mk_result)),
                        POINTER(mk_workspace), POINTER(mk_clock), c_int32, c_char_p, c_uint32)
# void mk_update_options_init(mk_update_options* opts);
mk_update_options_init = _fn("mk_update_options_init", None, POINTER(mk_update_options))
# mk_status mk_workspace_update(mk_result** out, mk_workspace* ws, const mk_clock* now,
#                               const char* entry_id, const mk_update_options* opts);
mk_workspace_update = _fn("mk_workspace_update", mk_status, POINTER(POINTER(mk_result)),
                          POINTER(mk_workspace), POINTER(mk_clock), c_char_p,
                          POINTER(mk_update_options))
# void mk_gate_candidate_init(mk_gate_candidate* candidate);
mk_gate_candidate_init = _fn("mk_gate_candidate_init", None, POINTER(mk_gate_candidate))
# mk_status mk_workspace_gate(mk_result** out, mk_workspace* ws, const mk_clock* now,
#                             const mk_gate_candidate* candidate, mk_judge_fn judge,
#                             void* payload, uint32_t flags);
mk_workspace_gate = _fn("mk_workspace_gate", mk_status, POINTER(POINTER(mk_result)),
                        POINTER(mk_workspace), POINTER(mk_clock), POINTER(mk_gate_candidate),
                        mk_judge_fn, c_void_p, c_uint32)
# mk_status mk_workspace_canon_add(mk_result** out, mk_workspace* ws, const mk_clock* now,
#                                  const char* file, const char* text, size_t text_size);
mk_workspace_canon_add = _fn("mk_workspace_canon_add", mk_status, POINTER(POINTER(mk_result)),
                             POINTER(mk_workspace), POINTER(mk_clock), c_char_p, c_char_p,
                             c_size_t)
# mk_status mk_workspace_canon_verify(mk_result** out, mk_workspace* ws, const mk_clock* now);
mk_workspace_canon_verify = _fn("mk_workspace_canon_verify", mk_status,
                                POINTER(POINTER(mk_result)), POINTER(mk_workspace),
                                POINTER(mk_clock))
# mk_status mk_workspace_plan_memorybox_compact(mk_result** out, mk_workspace* ws,
#                                               const mk_clock* now, const char* file,
#                                               uint32_t flags);
mk_workspace_plan_memorybox_compact = _fn("mk_workspace_plan_memorybox_compact", mk_status,
                                          POINTER(POINTER(mk_result)), POINTER(mk_workspace),
                                          POINTER(mk_clock), c_char_p, c_uint32)
# mk_status mk_workspace_apply_memorybox_compact(mk_result** out, mk_workspace* ws,
#                                                const mk_clock* now, const char* file,
#                                                uint32_t flags,
#                                                const char* confirm_plan_id);
mk_workspace_apply_memorybox_compact = _fn("mk_workspace_apply_memorybox_compact", mk_status,
                                           POINTER(POINTER(mk_result)), POINTER(mk_workspace),
                                           POINTER(mk_clock), c_char_p, c_uint32, c_char_p)
# mk_status mk_workspace_plan_promote(mk_result** out, mk_workspace* ws, const mk_clock* now,
#                                     const char* entry_id);
mk_workspace_plan_promote = _fn("mk_workspace_plan_promote", mk_status,
                                POINTER(POINTER(mk_result)), POINTER(mk_workspace),
                                POINTER(mk_clock), c_char_p)
# mk_status mk_workspace_apply_promote(mk_result** out, mk_workspace* ws, const mk_clock* now,
#                                      const char* entry_id, const char* confirm_plan_id);
mk_workspace_apply_promote = _fn("mk_workspace_apply_promote", mk_status,
                                 POINTER(POINTER(mk_result)), POINTER(mk_workspace),
                                 POINTER(mk_clock), c_char_p, c_char_p)
# mk_status mk_workspace_plan_archive_entry(mk_result** out, mk_workspace* ws,
#                                           const mk_clock* now, const char* entry_id);
mk_workspace_plan_archive_entry = _fn("mk_workspace_plan_archive_entry", mk_status,
                                      POINTER(POINTER(mk_result)), POINTER(mk_workspace),
                                      POINTER(mk_clock), c_char_p)
# mk_status mk_workspace_apply_archive_entry(mk_result** out, mk_workspace* ws,
#                                            const mk_clock* now, const char* entry_id,
#                                            const char* confirm_plan_id);
mk_workspace_apply_archive_entry = _fn("mk_workspace_apply_archive_entry", mk_status,
                                       POINTER(POINTER(mk_result)), POINTER(mk_workspace),
                                       POINTER(mk_clock), c_char_p, c_char_p)
# mk_status mk_workspace_client_set(mk_result** out, mk_workspace* ws, const mk_clock* now,
#                                   const char* client, mk_lifecycle to);
mk_workspace_client_set = _fn("mk_workspace_client_set", mk_status, POINTER(POINTER(mk_result)),
                              POINTER(mk_workspace), POINTER(mk_clock), c_char_p, mk_lifecycle)
# mk_status mk_workspace_apply_client_set(mk_result** out, mk_workspace* ws,
#                                         const mk_clock* now, const char* client,
#                                         mk_lifecycle to, const char* confirm_plan_id);
mk_workspace_apply_client_set = _fn("mk_workspace_apply_client_set", mk_status,
                                    POINTER(POINTER(mk_result)), POINTER(mk_workspace),
                                    POINTER(mk_clock), c_char_p, mk_lifecycle, c_char_p)

# Section - MemoryBox sync

# void mk_sync_options_init(mk_sync_options* opts);
mk_sync_options_init = _fn("mk_sync_options_init", None, POINTER(mk_sync_options))
# mk_status mk_memorybox_sync(mk_result** out, mk_workspace* ws, const mk_clock* now,
#                             mk_sync_command command, const mk_sync_options* options);
mk_memorybox_sync = _fn("mk_memorybox_sync", mk_status, POINTER(POINTER(mk_result)),
                        POINTER(mk_workspace), POINTER(mk_clock), mk_sync_command,
                        POINTER(mk_sync_options))

# Section - Three-tier session memory

# void mk_tiers_options_init(mk_tiers_options* opts);
mk_tiers_options_init = _fn("mk_tiers_options_init", None, POINTER(mk_tiers_options))
# mk_status mk_tiers_run(mk_result** out, mk_workspace* ws, const mk_clock* now,
#                        mk_tiers_command command, const mk_tiers_options* opts);
mk_tiers_run = _fn("mk_tiers_run", mk_status, POINTER(POINTER(mk_result)), POINTER(mk_workspace),
                   POINTER(mk_clock), mk_tiers_command, POINTER(mk_tiers_options))

# Section - Curated memory

# void mk_curated_options_init(mk_curated_options* opts);
mk_curated_options_init = _fn("mk_curated_options_init", None, POINTER(mk_curated_options))
# mk_status mk_curated_run(mk_result** out, mk_workspace* ws, const mk_clock* now,
#                          mk_curated_command command, const mk_curated_options* opts);
mk_curated_run = _fn("mk_curated_run", mk_status, POINTER(POINTER(mk_result)),
                     POINTER(mk_workspace), POINTER(mk_clock), mk_curated_command,
                     POINTER(mk_curated_options))


# Section - Requests

class mk_request(Structure):
    """Opaque: only ever handled as POINTER(mk_request)."""


# mk_status mk_request_create(mk_request** out, const char* group, const char* verb);
mk_request_create = _fn("mk_request_create", mk_status, POINTER(POINTER(mk_request)), c_char_p,
                        c_char_p)
# void mk_request_destroy(mk_request* req);
mk_request_destroy = _fn("mk_request_destroy", None, POINTER(mk_request))
# mk_status mk_request_set_string(mk_request* req, const char* name, const char* value);
mk_request_set_string = _fn("mk_request_set_string", mk_status, POINTER(mk_request), c_char_p,
                            c_char_p)
# mk_status mk_request_set_int(mk_request* req, const char* name, int64_t value);
mk_request_set_int = _fn("mk_request_set_int", mk_status, POINTER(mk_request), c_char_p, c_int64)
# mk_status mk_request_set_bool(mk_request* req, const char* name, int32_t value);
mk_request_set_bool = _fn("mk_request_set_bool", mk_status, POINTER(mk_request), c_char_p,
                          c_int32)
# mk_status mk_workspace_run(mk_result** out, mk_workspace* ws, const mk_clock* now,
#                            const mk_request* req);
mk_workspace_run = _fn("mk_workspace_run", mk_status, POINTER(POINTER(mk_result)),
                       POINTER(mk_workspace), POINTER(mk_clock), POINTER(mk_request))

# mk_status mk_document_parse(mk_document** out, const char* data, size_t size);
mk_document_parse = _fn("mk_document_parse", mk_status, POINTER(POINTER(mk_document)), c_char_p,
                        c_size_t)
# void mk_document_destroy(mk_document* doc);
mk_document_destroy = _fn("mk_document_destroy", None, POINTER(mk_document))
# uint64_t mk_document_unit_count(const mk_document* doc);
mk_document_unit_count = _fn("mk_document_unit_count", c_uint64, POINTER(mk_document))
# mk_status mk_document_unit(mk_unit* out, const mk_document* doc, uint64_t index);
mk_document_unit = _fn("mk_document_unit", mk_status, POINTER(mk_unit), POINTER(mk_document),
                       c_uint64)
# mk_status mk_document_json(mk_buf* out, const mk_document* doc);
mk_document_json = _fn("mk_document_json", mk_status, POINTER(mk_buf), POINTER(mk_document))
