//! Section - Workspace and Section - Commands of memkit.h: a project's memory folder and the
//! commands of its layout run on it (`memkit custodian ...`, `memkit memorybox
//! init|status|decay|hygiene|load|update|gate|canon|compact|promote|client|sync` for
//! [`Layout::MemoryBox`](crate::Layout::MemoryBox), sync with [`SyncOptions`], `memkit tiers ...`
//! for [`Layout::Tiers`](crate::Layout::Tiers), with [`TiersOptions`], or `memkit curated ...` for
//! [`Layout::Curated`](crate::Layout::Curated), with [`CuratedOptions`]).

use crate::c_text::{path_cstring, ptr_or_null, text_cstring};
use crate::clock::Clock;
use crate::command_result::CommandResult;
use crate::curated::{CuratedCommand, CuratedOptions};
use crate::error::{check, Error, Result};
use crate::gate::{judge_trampoline, GateCandidate, Judge, JudgeCall};
use crate::options::{
    AddOptions, CompactOptions, ForgetOptions, InitOptions, Lifecycle, UpdateEvent,
    WorkspaceOptions,
};
use crate::sync::{SyncCommand, SyncOptions};
use crate::sys;
use crate::tiers::{TiersCommand, TiersOptions};
use crate::version::check_version;
use std::fmt;
use std::os::raw::{c_char, c_void};
use std::path::Path;
use std::ptr::{self, NonNull};

/// A project's memory folder, opened once and used by every command (`mk_workspace`).
///
/// Commands take `&mut self`: the C functions take a non-const `mk_workspace*`, and the header
/// allows one user at a time. A workspace can move to another thread but not be shared:
///
/// ```compile_fail,E0277
/// fn shared_across_threads<T: Sync>() {}
/// shared_across_threads::<memkit::Workspace>(); // memkit.h: "Not thread-safe"
/// ```
pub struct Workspace {
    ptr: NonNull<sys::mk_workspace>,
}

// memkit.h: "Not thread-safe: use one workspace per thread (several may share a folder; applies
// take its lock)." A workspace may move to another thread and be used there (Send), but never
// from two threads at once, so it is not Sync. The library keeps no per-thread state in it (the
// thread-local error message lives outside the handle).
unsafe impl Send for Workspace {}

impl Workspace {
    /// Opens the memory folder of a project with the default options: checks the project root
    /// and that `docs/memory` lies inside `docs/` without symbolic links. The memory directory
    /// need not exist yet ([`Workspace::init`] creates it). Reads no memory file.
    ///
    /// Fails with `MK_E_ARG`, `MK_E_LAYOUT`, `MK_E_UNSAFE_PATH` or `MK_E_IO`, or with
    /// `MK_E_INTERNAL` when the loaded library is another version ([`check_version`]).
    #[doc(alias = "mk_workspace_open")]
    pub fn open(project_root: impl AsRef<Path>) -> Result<Workspace> {
        Workspace::open_raw(project_root.as_ref(), None)
    }

    /// Opens the memory folder of a project with `options` (see [`Workspace::open`]). With
    /// [`Layout::MemoryBox`](crate::Layout::MemoryBox) the root is an agent root (`brain/`,
    /// `memory/`, which need not exist yet) and a [`memory_dir`](WorkspaceOptions::memory_dir)
    /// is `MK_E_ARG`.
    #[doc(alias = "mk_workspace_open")]
    pub fn open_with(
        project_root: impl AsRef<Path>,
        options: &WorkspaceOptions,
    ) -> Result<Workspace> {
        Workspace::open_raw(project_root.as_ref(), Some(options))
    }

    fn open_raw(project_root: &Path, options: Option<&WorkspaceOptions>) -> Result<Workspace> {
        check_version()?;
        let root = path_cstring("project_root", project_root)?;
        let raw_options = match options {
            Some(options) => Some(options.to_raw()?),
            None => None,
        };
        let opts_ptr = match &raw_options {
            Some((raw, _strings)) => raw as *const sys::mk_workspace_options,
            None => ptr::null(),
        };
        let mut out = ptr::null_mut();
        // SAFETY: every pointer is valid for the call; the options' strings live in raw_options.
        check(unsafe { sys::mk_workspace_open(&mut out, root.as_ptr(), opts_ptr) })?;
        match NonNull::new(out) {
            Some(ptr) => Ok(Workspace { ptr }),
            None => Err(Error::new(
                sys::MK_E_INTERNAL,
                "mk_workspace_open returned MK_OK without a workspace",
            )),
        }
    }

    /// Closes the workspace now; dropping it does the same.
    #[doc(alias = "mk_workspace_destroy")]
    pub fn close(self) {}

    /// The `mk_workspace*` for calls into [`sys`]; it stays owned by `self`.
    pub fn as_raw(&self) -> *mut sys::mk_workspace {
        self.ptr.as_ptr()
    }

    fn run<F>(&mut self, command: F) -> Result<CommandResult>
    where
        F: FnOnce(*mut *mut sys::mk_result, *mut sys::mk_workspace) -> sys::mk_status,
    {
        let mut out = ptr::null_mut();
        check(command(&mut out, self.ptr.as_ptr()))?;
        match NonNull::new(out) {
            Some(ptr) => Ok(CommandResult { ptr }),
            None => Err(Error::new(
                sys::MK_E_INTERNAL,
                "a command returned MK_OK without a result",
            )),
        }
    }

    /// `custodian init [--extended]`: creates the memory directory and every missing file;
    /// never overwrites. In the MemoryBox layout, `memorybox init`: the missing tier files and
    /// `memory/daily/`, `memory/ARCHIVES/` (`extended` is a custodian option: with MemoryBox the
    /// result has a fatal MK-ARG-001 finding, exit code 2). For a profile, see
    /// [`init_with`](Workspace::init_with).
    #[doc(alias = "mk_workspace_init")]
    pub fn init(&mut self, now: &Clock, extended: bool) -> Result<CommandResult> {
        self.init_with(now, &InitOptions::new().extended(extended))
    }

    /// `custodian init [--extended]` or `memorybox init [--profile default|maven]` with
    /// `options`: as [`init`](Workspace::init), and a [`profile`](InitOptions::profile) is first
    /// recorded in the agent root's `.memkit/profile` (`MK_INIT_PROFILE_DEFAULT` or
    /// `MK_INIT_PROFILE_MAVEN`). [`Profile::Maven`](crate::Profile::Maven) also creates its five
    /// brain files (`brain/MARKETING_CANON.md`, ...). An option of the other layout (a profile on
    /// a custodian workspace, `extended` on a MemoryBox one) gives a result with a fatal
    /// MK-ARG-001 finding (exit code 2).
    ///
    /// ```
    /// # let tmp = std::env::temp_dir().join(format!("memkit-init-doc-{}", std::process::id()));
    /// # std::fs::create_dir_all(&tmp).unwrap();
    /// use memkit::{Clock, InitOptions, Layout, Profile, Workspace, WorkspaceOptions};
    ///
    /// let now = Clock::parse("2026-11-30T10:00:00+01:00")?;
    /// let options = WorkspaceOptions::new().layout(Layout::MemoryBox);
    /// let mut ws = Workspace::open_with(&tmp, &options)?;
    /// let init = ws.init_with(&now, &InitOptions::new().profile(Profile::Maven))?;
    /// assert!(init.json()?.contains("brain/MARKETING_CANON.md"));
    /// # assert_eq!(std::fs::read_to_string(tmp.join(".memkit/profile")).unwrap().trim(), "maven");
    /// # drop(ws);
    /// # std::fs::remove_dir_all(&tmp).unwrap();
    /// # Ok::<(), memkit::Error>(())
    /// ```
    #[doc(alias = "mk_workspace_init")]
    pub fn init_with(&mut self, now: &Clock, options: &InitOptions) -> Result<CommandResult> {
        let flags = options.flags();
        // SAFETY (every command below): the pointers are valid for the call, and the strings
        // they reach live until it returns.
        self.run(|out, ws| unsafe { sys::mk_workspace_init(out, ws, &now.raw, flags) })
    }

    /// `custodian status`: token budgets and states per file; writes nothing. The rows are also
    /// read with [`CommandResult::budget_rows`]. In the MemoryBox layout, `memorybox status`:
    /// line budgets per tier, only in the JSON (`data.tiers`); `budget_rows` is empty.
    #[doc(alias = "mk_workspace_status")]
    pub fn status(&mut self, now: &Clock) -> Result<CommandResult> {
        self.run(|out, ws| unsafe { sys::mk_workspace_status(out, ws, &now.raw) })
    }

    /// Any command of the command table ([`commands_json`](crate::commands_json)) by its group
    /// and verb (`"memorybox"`, `"sync push"`), its positionals and named arguments given as
    /// [`Arg`]s: `ws.run(&now, "custodian", "add", &[("message", Arg::Text("Use PostgreSQL"))],
    /// ...)`. Names are the table's without dashes (`"confirm-plan"` or `"confirm_plan"`),
    /// positionals by their lower-case names (`"message"`, `"src"`). An unknown name or a wrong
    /// type is an `MK_E_ARG` error naming it and the closest known one; the workspace gives the
    /// root and `now` the clock.
    #[doc(alias = "mk_workspace_run")]
    pub fn run_command(
        &mut self,
        now: &Clock,
        group: &str,
        verb: &str,
        args: &[(&str, Arg<'_>)],
    ) -> Result<CommandResult> {
        let group = text_cstring("group", group)?;
        let verb = text_cstring("verb", verb)?;
        let mut raw = ptr::null_mut();
        // SAFETY: out-parameter and two NUL-terminated strings.
        check(unsafe { sys::mk_request_create(&mut raw, group.as_ptr(), verb.as_ptr()) })?;
        let request = Request(raw);
        for (name, value) in args {
            let key = text_cstring("name", name)?;
            // SAFETY (each setter): a live request and NUL-terminated strings.
            check(match value {
                Arg::Text(text) => {
                    let text = text_cstring(name, text)?;
                    unsafe { sys::mk_request_set_string(request.0, key.as_ptr(), text.as_ptr()) }
                }
                Arg::Int(number) => unsafe {
                    sys::mk_request_set_int(request.0, key.as_ptr(), *number)
                },
                Arg::Flag(on) => unsafe {
                    sys::mk_request_set_bool(request.0, key.as_ptr(), i32::from(*on))
                },
            })?;
        }
        self.run(|out, ws| unsafe { sys::mk_workspace_run(out, ws, &now.raw, request.0) })
    }

    /// `custodian check`: layout consistency; writes nothing.
    #[doc(alias = "mk_workspace_check")]
    pub fn check(&mut self, now: &Clock) -> Result<CommandResult> {
        self.run(|out, ws| unsafe { sys::mk_workspace_check(out, ws, &now.raw) })
    }

    /// `custodian compact [--target FILE]`, a dry run: the plan and its ID; writes nothing.
    #[doc(alias = "mk_workspace_plan_compaction")]
    pub fn plan_compaction(
        &mut self,
        now: &Clock,
        options: &CompactOptions,
    ) -> Result<CommandResult> {
        let (opts, _strings) = options.to_raw()?;
        self.run(|out, ws| unsafe { sys::mk_workspace_plan_compaction(out, ws, &now.raw, &opts) })
    }

    /// `custodian compact ... --apply --confirm-plan ID`: takes the lock, plans again from disk,
    /// and writes only when the new plan's ID is `confirm_plan_id` (else the result carries
    /// MK-PLAN-001 and nothing is written).
    #[doc(alias = "mk_workspace_apply_compaction")]
    pub fn apply_compaction(
        &mut self,
        now: &Clock,
        options: &CompactOptions,
        confirm_plan_id: &str,
    ) -> Result<CommandResult> {
        let (opts, _strings) = options.to_raw()?;
        let confirm = text_cstring("confirm_plan_id", confirm_plan_id)?;
        self.run(|out, ws| unsafe {
            sys::mk_workspace_apply_compaction(out, ws, &now.raw, &opts, confirm.as_ptr())
        })
    }

    /// `custodian recover [--apply [--rollback]]`: lists transactions a crash left unfinished;
    /// with `apply` finishes them (or rolls them back with `rollback`). On a
    /// [`Layout::Tiers`](crate::Layout::Tiers) workspace it is `tiers recover`: the same for the
    /// transactions of the tiers writes (spec tiers3.md §9). A
    /// [`Layout::Curated`](crate::Layout::Curated) store gives a result with a fatal MK-ARG-001
    /// finding: `curated recover` needs the workspace name, so it is
    /// [`curated_run`](Workspace::curated_run) with [`CuratedCommand::Recover`].
    #[doc(alias = "mk_workspace_recover")]
    pub fn recover(&mut self, now: &Clock, apply: bool, rollback: bool) -> Result<CommandResult> {
        let mut flags = 0;
        if apply {
            flags |= sys::MK_RECOVER_APPLY;
        }
        if rollback {
            flags |= sys::MK_RECOVER_ROLLBACK;
        }
        self.run(|out, ws| unsafe { sys::mk_workspace_recover(out, ws, &now.raw, flags) })
    }

    /// `custodian undo PLAN_ID`, a dry run: the plan that restores the bytes an applied plan
    /// replaced.
    #[doc(alias = "mk_workspace_plan_undo")]
    pub fn plan_undo(&mut self, now: &Clock, plan_id: &str) -> Result<CommandResult> {
        let plan_id = text_cstring("plan_id", plan_id)?;
        self.run(|out, ws| unsafe {
            sys::mk_workspace_plan_undo(out, ws, &now.raw, plan_id.as_ptr())
        })
    }

    /// `custodian undo PLAN_ID --apply --confirm-plan ID`.
    #[doc(alias = "mk_workspace_apply_undo")]
    pub fn apply_undo(
        &mut self,
        now: &Clock,
        plan_id: &str,
        confirm_plan_id: &str,
    ) -> Result<CommandResult> {
        let plan_id = text_cstring("plan_id", plan_id)?;
        let confirm = text_cstring("confirm_plan_id", confirm_plan_id)?;
        self.run(|out, ws| unsafe {
            sys::mk_workspace_apply_undo(out, ws, &now.raw, plan_id.as_ptr(), confirm.as_ptr())
        })
    }

    /// `custodian add MESSAGE --type T ...`: writes one entry where its type belongs; an additive
    /// write, applied directly under the lock.
    #[doc(alias = "mk_workspace_add")]
    pub fn add(
        &mut self,
        now: &Clock,
        message: &str,
        options: &AddOptions,
    ) -> Result<CommandResult> {
        let (opts, _strings) = options.to_raw()?;
        self.run(|out, ws| unsafe {
            sys::mk_workspace_add(
                out,
                ws,
                &now.raw,
                message.as_ptr() as *const c_char,
                message.len(),
                &opts,
            )
        })
    }

    /// `custodian forget TOPIC`, a dry run. In hard and purge modes nothing in the result names
    /// the topic.
    #[doc(alias = "mk_workspace_plan_forget")]
    pub fn plan_forget(
        &mut self,
        now: &Clock,
        topic: &str,
        options: &ForgetOptions,
    ) -> Result<CommandResult> {
        let opts = options.to_raw();
        self.run(|out, ws| unsafe {
            sys::mk_workspace_plan_forget(
                out,
                ws,
                &now.raw,
                topic.as_ptr() as *const c_char,
                topic.len(),
                &opts,
            )
        })
    }

    /// `custodian forget TOPIC --apply --confirm-plan ID`.
    #[doc(alias = "mk_workspace_apply_forget")]
    pub fn apply_forget(
        &mut self,
        now: &Clock,
        topic: &str,
        options: &ForgetOptions,
        confirm_plan_id: &str,
    ) -> Result<CommandResult> {
        let opts = options.to_raw();
        let confirm = text_cstring("confirm_plan_id", confirm_plan_id)?;
        self.run(|out, ws| unsafe {
            sys::mk_workspace_apply_forget(
                out,
                ws,
                &now.raw,
                topic.as_ptr() as *const c_char,
                topic.len(),
                &opts,
                confirm.as_ptr(),
            )
        })
    }

    /// `memorybox decay [--file FILE]` ([`Layout::MemoryBox`](crate::Layout::MemoryBox)): every
    /// scored entry's effective confidence, band and review state on `now`'s date, and the
    /// unscored entries; writes nothing. `file` is one tier 1-4 file relative to the root, `None`
    /// for all of them. On a custodian workspace the result has a fatal MK-ARG-001 finding (exit
    /// code 2).
    #[doc(alias = "mk_workspace_decay")]
    pub fn decay(&mut self, now: &Clock, file: Option<&str>) -> Result<CommandResult> {
        let file = match file {
            Some(file) => Some(text_cstring("file", file)?),
            None => None,
        };
        self.run(|out, ws| unsafe {
            sys::mk_workspace_decay(out, ws, &now.raw, ptr_or_null(&file))
        })
    }

    /// `memorybox hygiene` ([`Layout::MemoryBox`](crate::Layout::MemoryBox)): the ten items of
    /// the monthly checklist and the orphaned links, in the result's JSON (`data`: `{"items":
    /// [{n, check, result, value, limit, details}], "orphans": [...]}`); writes nothing. A failed
    /// item makes the exit code 1. On a custodian workspace the result has a fatal MK-ARG-001
    /// finding (exit code 2).
    #[doc(alias = "mk_workspace_hygiene")]
    pub fn hygiene(&mut self, now: &Clock) -> Result<CommandResult> {
        self.run(|out, ws| unsafe { sys::mk_workspace_hygiene(out, ws, &now.raw) })
    }

    /// `memorybox load --tier N [--include-archive]`
    /// ([`Layout::MemoryBox`](crate::Layout::MemoryBox)): the existing files of tier `tier` (1 to
    /// 5) with their contents, in the result's JSON (`data.files`: `[{content, lines, path,
    /// tier}]`); writes nothing. Tier 5, the archive, is loaded only with `include_archive`:
    /// without it the result has a fatal MK-ARG-001 finding (exit code 2), as has a tier outside 1
    /// to 5. Tier 0 means "no tier" in C, so it is `MK_E_ARG`. On a custodian workspace the result
    /// has a fatal MK-ARG-001 finding (exit code 2).
    #[doc(alias = "mk_workspace_load")]
    pub fn load_tier(
        &mut self,
        now: &Clock,
        tier: i32,
        include_archive: bool,
    ) -> Result<CommandResult> {
        let flags = if include_archive {
            sys::MK_LOAD_INCLUDE_ARCHIVE
        } else {
            0
        };
        self.run(|out, ws| unsafe {
            sys::mk_workspace_load(out, ws, &now.raw, tier, ptr::null(), flags)
        })
    }

    /// `memorybox load --file FILE` ([`Layout::MemoryBox`](crate::Layout::MemoryBox)): one file of
    /// tiers 1 to 5, `file` relative to the root, with its content and tier in the result's JSON
    /// (`data.files`); writes nothing. A file under `memory/ARCHIVES/` needs no
    /// `--include-archive`; a file of no tier gives a fatal MK-ARG-001 finding (exit code 2).
    #[doc(alias = "mk_workspace_load")]
    pub fn load_file(&mut self, now: &Clock, file: &str) -> Result<CommandResult> {
        let file = text_cstring("file", file)?;
        self.run(|out, ws| unsafe {
            sys::mk_workspace_load(out, ws, &now.raw, 0, file.as_ptr(), 0)
        })
    }

    /// `memorybox update --entry ENTRY_ID --verify | --confirm | --contradict --note N |
    /// --resolve keep [--confidence C]` ([`Layout::MemoryBox`](crate::Layout::MemoryBox)): records
    /// `event` on one entry's field lines (`Verified:`, `Confidence:`, `Review:`) and writes the
    /// file directly, with no plan: [`applied`](CommandResult::applied) says whether it wrote.
    /// `entry_id` is `"<path>#<12 hex digits>"`, an `entry_id` of [`decay`](Workspace::decay)'s
    /// JSON. The JSON's data is `{"after", "before", "entry_id", "written"}`. An unknown entry or
    /// an empty contradiction note gives a result with a fatal finding (exit code 2), as does a
    /// custodian workspace; a NUL in `entry_id` or the note, or a confidence over 100, is
    /// `MK_E_ARG`.
    #[doc(alias = "mk_workspace_update")]
    pub fn update(
        &mut self,
        now: &Clock,
        entry_id: &str,
        event: &UpdateEvent,
    ) -> Result<CommandResult> {
        let entry_id = text_cstring("entry_id", entry_id)?;
        let (raw, _note) = event.to_raw()?;
        self.run(|out, ws| unsafe {
            sys::mk_workspace_update(out, ws, &now.raw, entry_id.as_ptr(), &raw)
        })
    }

    /// `memorybox gate --text T --confidence C [--title] [--source] [--client] [--apply]`
    /// ([`Layout::MemoryBox`](crate::Layout::MemoryBox)): runs the five gates (spec memorybox.md
    /// §4) for `candidate`, asking `judge` for each judgement, and with `apply` writes the entry
    /// when the outcome is WRITE (an additive write: no plan, [`applied`](CommandResult::applied)
    /// says whether it wrote).
    ///
    /// `judge` is called on this thread, before `gate` returns, with the [`Gate`](crate::Gate)
    /// and its question as JSON (`{"candidate": {client, confidence, source, text, title},
    /// "categories": [...], "category": null | "...", "category_entries": [entry IDs], "gate":
    /// "VALUE" | ..., "near_duplicates": [{entry_id, file, similarity}]}`). It returns the
    /// answer's text in the form of its gate (`"yes"`, `"existing Tooling"`, `"none"`,
    /// `"stable"`, `"2 memory/LONG_TERM.md"`, ...), or `None` to abstain: the run then stops at
    /// that gate with NEEDS_JUDGEMENT and writes nothing. With no judge every judgement is
    /// missing and the run stops at VALUE. A judge that panics (the panic is caught, never
    /// unwinding into C) or an answer that does not parse fails the gate with the fatal finding
    /// MK-BOX-005 (exit code 2) and nothing is written. The judge must not use this workspace
    /// (the borrow checker already prevents it).
    ///
    /// The JSON's data is `{"applied", "budget", "category", "entry_id", "entry_text", "file",
    /// "gates", "near_duplicates", "outcome", "stopped_at", "tier", "written"}`; the outcome
    /// DO_NOT_STORE, DISCARD, UPDATE_EXISTING or NEEDS_JUDGEMENT exits 0 and REJECTED exits 1. A
    /// NUL in the confidence, title, source or client is `MK_E_ARG`. On a custodian workspace
    /// the result has a fatal MK-ARG-001 finding (exit code 2).
    ///
    /// ```
    /// # let tmp = std::env::temp_dir().join(format!("memkit-gate-doc-{}", std::process::id()));
    /// # std::fs::create_dir_all(&tmp).unwrap();
    /// use memkit::{Clock, Gate, GateCandidate, Layout, Workspace, WorkspaceOptions};
    ///
    /// let now = Clock::parse("2026-11-30T10:00:00+01:00")?;
    /// let options = WorkspaceOptions::new().layout(Layout::MemoryBox);
    /// let mut ws = Workspace::open_with(&tmp, &options)?;
    /// ws.init(&now, false)?;
    /// # std::fs::write(tmp.join("memory/LONG_TERM.md"), "# LONG_TERM\n\n## Tooling\n").unwrap();
    /// let candidate = GateCandidate::new("Deploys go through staging", "0.85").title("Staging");
    /// let mut judge = |gate: Gate, _question: &str| match gate {
    ///     Gate::Value => Some("yes".to_string()),
    ///     Gate::Alignment => Some("existing Tooling".to_string()),
    ///     Gate::Redundancy => Some("none".to_string()),
    ///     Gate::Freshness => Some("stable".to_string()),
    ///     Gate::Placement => Some("2 memory/LONG_TERM.md".to_string()),
    ///     Gate::Other(_) => None, // abstain
    /// };
    /// let dry = ws.gate(&now, &candidate, Some(&mut judge), false)?; // WRITE, writes nothing
    /// assert!(dry.json()?.contains("\"outcome\":\"WRITE\""));
    /// let done = ws.gate(&now, &candidate, Some(&mut judge), true)?; // under ## Tooling
    /// assert!(done.applied());
    /// let stopped = ws.gate(&now, &candidate, None, true)?; // no judge: stops at VALUE
    /// assert!(stopped.json()?.contains("\"stopped_at\":\"VALUE\""));
    /// # drop(ws);
    /// # std::fs::remove_dir_all(&tmp).unwrap();
    /// # Ok::<(), memkit::Error>(())
    /// ```
    #[doc(alias = "mk_workspace_gate")]
    pub fn gate(
        &mut self,
        now: &Clock,
        candidate: &GateCandidate,
        judge: Option<&mut Judge<'_>>,
        apply: bool,
    ) -> Result<CommandResult> {
        let (raw, _strings) = candidate.to_raw()?;
        let flags = if apply { sys::MK_GATE_APPLY } else { 0 };
        match judge {
            None => self.run(|out, ws| unsafe {
                sys::mk_workspace_gate(out, ws, &now.raw, &raw, None, ptr::null_mut(), flags)
            }),
            Some(judge) => {
                // Lives on this frame for the whole call: C holds its address only until
                // mk_workspace_gate returns.
                let mut call = JudgeCall { judge };
                let payload = &mut call as *mut JudgeCall<'_, '_> as *mut c_void;
                self.run(|out, ws| unsafe {
                    sys::mk_workspace_gate(
                        out,
                        ws,
                        &now.raw,
                        &raw,
                        Some(judge_trampoline),
                        payload,
                        flags,
                    )
                })
            }
        }
    }

    /// `memorybox canon add --file FILE --text TEXT`
    /// ([`Layout::MemoryBox`](crate::Layout::MemoryBox), a root initialised with
    /// [`Profile::Maven`](crate::Profile::Maven); spec memorybox.md §10): appends `- TEXT` to
    /// `brain/MARKETING_CANON.md` (append-only) or creates the write-once `brain/canon/<name>.md`
    /// holding `text`, then records the file's length and SHA-256 in
    /// `.memkit/canon-ledger.jsonl`, under the root's lock. `file` is relative to the root. The
    /// JSON's data is `{"ledger", "unrecorded", "violations", "written"}`. A canon file that
    /// already violates the ledger (edited by hand) gets the ERROR MK-BOX-030 (exit code 1) and
    /// nothing is written; a second add to the same `brain/canon/<name>.md`, another file, or a
    /// root of another profile or layout gives a fatal MK-ARG-001 finding (exit code 2). A NUL
    /// in `file` is `MK_E_ARG`; a NUL in `text` is a fatal MK-ARG-001.
    #[doc(alias = "mk_workspace_canon_add")]
    pub fn canon_add(&mut self, now: &Clock, file: &str, text: &str) -> Result<CommandResult> {
        let file = text_cstring("file", file)?;
        self.run(|out, ws| unsafe {
            sys::mk_workspace_canon_add(
                out,
                ws,
                &now.raw,
                file.as_ptr(),
                text.as_ptr() as *const c_char,
                text.len(),
            )
        })
    }

    /// `memorybox canon verify` ([`Layout::MemoryBox`](crate::Layout::MemoryBox), a Maven root):
    /// checks that each canon file still begins with the bytes its latest ledger record covers
    /// (and that a write-once file holds nothing more); every violation is the ERROR MK-BOX-030
    /// (exit code 1), listed in the JSON's `data.violations` (`[{path, reason}]`). Writes
    /// nothing.
    #[doc(alias = "mk_workspace_canon_verify")]
    pub fn canon_verify(&mut self, now: &Clock) -> Result<CommandResult> {
        self.run(|out, ws| unsafe { sys::mk_workspace_canon_verify(out, ws, &now.raw) })
    }

    /// `memorybox compact [--file FILE] [--force]`
    /// ([`Layout::MemoryBox`](crate::Layout::MemoryBox)), a dry run: the five bloat rules of spec
    /// memorybox.md §7 (their thresholds, the entries that would move verbatim into
    /// `memory/ARCHIVES/`, the review candidates) and the plan with its ID, in the result's JSON
    /// (`data`: `{"actions", "applied", "plan", "rules", "written"}`); writes nothing. `file` is
    /// `memory/SESSION_LOG.md`, `memory/ACTIVE_TASKS.md`, `memory/MISTAKES.md`,
    /// `memory/PATTERNS.md` or `memory/daily/` to run that one rule, `None` for all five; `force`
    /// makes every rule act, breached or not. On a custodian workspace the result has a fatal
    /// MK-ARG-001 finding (exit code 2).
    #[doc(alias = "mk_workspace_plan_memorybox_compact")]
    pub fn plan_memorybox_compact(
        &mut self,
        now: &Clock,
        file: Option<&str>,
        force: bool,
    ) -> Result<CommandResult> {
        let file = match file {
            Some(file) => Some(text_cstring("file", file)?),
            None => None,
        };
        let flags = if force {
            sys::MK_MEMORYBOX_COMPACT_FORCE
        } else {
            0
        };
        self.run(|out, ws| unsafe {
            sys::mk_workspace_plan_memorybox_compact(out, ws, &now.raw, ptr_or_null(&file), flags)
        })
    }

    /// `memorybox compact [--file FILE] [--force] --apply --confirm-plan ID`: takes the root's
    /// lock, finishes what a crash left of an earlier memorybox apply, plans again from disk, and
    /// writes only when the new plan's ID is `confirm_plan_id` (else the result carries
    /// MK-PLAN-001, exit code 2, and nothing is written). `file` and `force` as for
    /// [`plan_memorybox_compact`](Workspace::plan_memorybox_compact). MemoryBox keeps no applied
    /// record: there is no undo.
    #[doc(alias = "mk_workspace_apply_memorybox_compact")]
    pub fn apply_memorybox_compact(
        &mut self,
        now: &Clock,
        file: Option<&str>,
        force: bool,
        confirm_plan_id: &str,
    ) -> Result<CommandResult> {
        let file = match file {
            Some(file) => Some(text_cstring("file", file)?),
            None => None,
        };
        let flags = if force {
            sys::MK_MEMORYBOX_COMPACT_FORCE
        } else {
            0
        };
        let confirm = text_cstring("confirm_plan_id", confirm_plan_id)?;
        self.run(|out, ws| unsafe {
            sys::mk_workspace_apply_memorybox_compact(
                out,
                ws,
                &now.raw,
                ptr_or_null(&file),
                flags,
                confirm.as_ptr(),
            )
        })
    }

    /// `memorybox promote --entry ENTRY_ID` ([`Layout::MemoryBox`](crate::Layout::MemoryBox)), a
    /// dry run: the plan that moves a pattern of `memory/PATTERNS.md` verbatim to the end of
    /// `memory/SOP_LIBRARY.md` (`data`: `{"applied", "plan", "written"}`); writes nothing.
    /// `entry_id` is `"memory/PATTERNS.md#<12 hex digits>"`; another entry gives a result with a
    /// fatal MK-ARG-001 finding (exit code 2).
    #[doc(alias = "mk_workspace_plan_promote")]
    pub fn plan_promote(&mut self, now: &Clock, entry_id: &str) -> Result<CommandResult> {
        let entry_id = text_cstring("entry_id", entry_id)?;
        self.run(|out, ws| unsafe {
            sys::mk_workspace_plan_promote(out, ws, &now.raw, entry_id.as_ptr())
        })
    }

    /// `memorybox promote --entry ENTRY_ID --apply --confirm-plan ID`, with the lock and checks
    /// of [`apply_memorybox_compact`](Workspace::apply_memorybox_compact).
    #[doc(alias = "mk_workspace_apply_promote")]
    pub fn apply_promote(
        &mut self,
        now: &Clock,
        entry_id: &str,
        confirm_plan_id: &str,
    ) -> Result<CommandResult> {
        let entry_id = text_cstring("entry_id", entry_id)?;
        let confirm = text_cstring("confirm_plan_id", confirm_plan_id)?;
        self.run(|out, ws| unsafe {
            sys::mk_workspace_apply_promote(out, ws, &now.raw, entry_id.as_ptr(), confirm.as_ptr())
        })
    }

    /// `memorybox update --entry ENTRY_ID --resolve archive`
    /// ([`Layout::MemoryBox`](crate::Layout::MemoryBox)), a dry run: the plan that moves a tier
    /// 1-4 entry verbatim to `memory/ARCHIVES/<stem>-<YYYY-MM of now>.md` (a daily file is
    /// archived whole, then deleted); `data` is `{"after", "applied", "before", "entry_id",
    /// "plan", "written"}`. Writes nothing.
    #[doc(alias = "mk_workspace_plan_archive_entry")]
    pub fn plan_archive_entry(&mut self, now: &Clock, entry_id: &str) -> Result<CommandResult> {
        let entry_id = text_cstring("entry_id", entry_id)?;
        self.run(|out, ws| unsafe {
            sys::mk_workspace_plan_archive_entry(out, ws, &now.raw, entry_id.as_ptr())
        })
    }

    /// `memorybox update --entry ENTRY_ID --resolve archive --apply --confirm-plan ID`, with the
    /// lock and checks of [`apply_memorybox_compact`](Workspace::apply_memorybox_compact).
    #[doc(alias = "mk_workspace_apply_archive_entry")]
    pub fn apply_archive_entry(
        &mut self,
        now: &Clock,
        entry_id: &str,
        confirm_plan_id: &str,
    ) -> Result<CommandResult> {
        let entry_id = text_cstring("entry_id", entry_id)?;
        let confirm = text_cstring("confirm_plan_id", confirm_plan_id)?;
        self.run(|out, ws| unsafe {
            sys::mk_workspace_apply_archive_entry(
                out,
                ws,
                &now.raw,
                entry_id.as_ptr(),
                confirm.as_ptr(),
            )
        })
    }

    /// `memorybox client set --client CLIENT --to STATE`
    /// ([`Layout::MemoryBox`](crate::Layout::MemoryBox), a root initialised with
    /// [`Profile::Maven`](crate::Profile::Maven); spec memorybox.md §10), as the CLI runs it
    /// without `--apply`. [`Active`](Lifecycle::Active) <-> [`Maintenance`](Lifecycle::Maintenance)
    /// is a field update: the profile's `Lifecycle:` line is written directly (no plan;
    /// [`applied`](CommandResult::applied) is true and the JSON's `written` names
    /// `brain/clients/CLIENT.md`). A move to or from [`Archived`](Lifecycle::Archived) is a dry
    /// run: the plan that moves `brain/clients/CLIENT.md` and every file of
    /// `memory/clients/CLIENT/` verbatim to `memory/ARCHIVES/clients/CLIENT/` (or back), writing
    /// nothing; apply it with [`apply_client_set`](Workspace::apply_client_set). A state to
    /// itself writes nothing. The JSON's data is `{"applied", "client", "from", "plan", "to",
    /// "written"}`.
    ///
    /// A transition the spec does not allow (active -> archived, archived -> maintenance) is the
    /// ERROR MK-BOX-031 (exit code 1); a root of another profile or layout, an unknown client or
    /// a key that is not file-name safe (`A-Z a-z 0-9 . _ -`, not starting with `.`) is a fatal
    /// MK-ARG-001 (exit code 2). A NUL in `client` is `MK_E_ARG`.
    ///
    /// ```
    /// # let tmp = std::env::temp_dir().join(format!("memkit-maven-doc-{}", std::process::id()));
    /// # std::fs::create_dir_all(tmp.join("agent")).unwrap();
    /// # std::env::set_current_dir(&tmp).unwrap(); // each doctest is its own process
    /// use memkit::{Clock, InitOptions, Layout, Lifecycle, Profile, Workspace, WorkspaceOptions};
    ///
    /// let now = Clock::parse("2026-11-30T10:00:00+01:00")?;
    /// let options = WorkspaceOptions::new().layout(Layout::MemoryBox);
    /// let mut ws = Workspace::open_with("agent", &options)?; // an agent root
    /// ws.init_with(&now, &InitOptions::new().profile(Profile::Maven))?;
    /// ws.canon_add(&now, "brain/MARKETING_CANON.md", "Never promise ROI figures")?;
    /// assert_eq!(ws.canon_verify(&now)?.exit_code(), 0); // 1 with MK-BOX-030 after a hand edit
    /// # std::fs::create_dir_all("agent/brain/clients").unwrap();
    /// # std::fs::write("agent/brain/clients/acme.md", "# acme\n\nLifecycle: active\n").unwrap();
    /// ws.client_set(&now, "acme", Lifecycle::Maintenance)?; // writes `Lifecycle: maintenance`
    /// let plan = ws.client_set(&now, "acme", Lifecycle::Archived)?; // a dry run
    /// let id = plan.plan_id().expect("a move");
    /// ws.apply_client_set(&now, "acme", Lifecycle::Archived, id)?; // to memory/ARCHIVES/
    /// # assert!(std::path::Path::new("agent/memory/ARCHIVES/clients/acme/acme.md").is_file());
    /// # drop(ws);
    /// # std::env::set_current_dir(std::env::temp_dir()).unwrap();
    /// # std::fs::remove_dir_all(&tmp).unwrap();
    /// # Ok::<(), memkit::Error>(())
    /// ```
    #[doc(alias = "mk_workspace_client_set")]
    pub fn client_set(
        &mut self,
        now: &Clock,
        client: &str,
        to: Lifecycle,
    ) -> Result<CommandResult> {
        let client = text_cstring("client", client)?;
        let to = to.as_raw();
        self.run(|out, ws| unsafe {
            sys::mk_workspace_client_set(out, ws, &now.raw, client.as_ptr(), to)
        })
    }

    /// `memorybox client set --client CLIENT --to STATE --apply --confirm-plan ID`: a move to or
    /// from [`Archived`](Lifecycle::Archived), with the lock and checks of
    /// [`apply_memorybox_compact`](Workspace::apply_memorybox_compact) (a stale ID is MK-PLAN-001,
    /// exit code 2, nothing written); the moved files are created and their sources deleted in
    /// one journalled apply. For active <-> maintenance, which has no plan, the result carries a
    /// fatal MK-ARG-001 and nothing is written: use [`client_set`](Workspace::client_set).
    #[doc(alias = "mk_workspace_apply_client_set")]
    pub fn apply_client_set(
        &mut self,
        now: &Clock,
        client: &str,
        to: Lifecycle,
        confirm_plan_id: &str,
    ) -> Result<CommandResult> {
        let client = text_cstring("client", client)?;
        let to = to.as_raw();
        let confirm = text_cstring("confirm_plan_id", confirm_plan_id)?;
        self.run(|out, ws| unsafe {
            sys::mk_workspace_apply_client_set(
                out,
                ws,
                &now.raw,
                client.as_ptr(),
                to,
                confirm.as_ptr(),
            )
        })
    }

    /// `memkit memorybox sync <command> --root ROOT`
    /// ([`Layout::MemoryBox`](crate::Layout::MemoryBox), spec memorybox.md §9) with the arguments
    /// set in `options`, exactly as the CLI runs it, under the root's `.memkit/lock`. A pull reads
    /// the remote first and writes nothing when that fails (the fatal MK-BOX-023, 024 or 025);
    /// new entries are written at once, while a pull that replaces or removes local text is a dry
    /// run until [`confirm_plan`](SyncOptions::confirm_plan) names its Plan ID. A push writes the
    /// Id and Updated lines it needs, then sends; a refused record is the ERROR MK-BOX-020. The
    /// JSON is the CLI's envelope, the keys of memorybox.md §9 in `data`;
    /// [`applied`](CommandResult::applied) is true when a pull's plan reached the disk.
    ///
    /// A refused argument is a finding in the result, not an `Err`: an argument the verb does not
    /// take, a pull or push without [`remote`](SyncOptions::remote), a resolve of an id with no
    /// open conflict, and any sync on a workspace of another layout are the fatal MK-ARG-001
    /// (exit code 2). Only a NUL inside a string is `MK_E_ARG`, before the library is called.
    ///
    /// ```
    /// # let tmp = std::env::temp_dir().join(format!("memkit-sync-doc-{}", std::process::id()));
    /// # std::fs::create_dir_all(tmp.join("remote")).unwrap();
    /// # std::env::set_current_dir(&tmp).unwrap(); // each doctest is its own process
    /// use memkit::{Clock, Layout, SyncCommand, SyncOptions, Workspace, WorkspaceOptions};
    ///
    /// let now = Clock::parse("2026-11-30T09:00:00Z")?; // or Clock::system()
    /// let options = WorkspaceOptions::new().layout(Layout::MemoryBox);
    /// let mut root = Workspace::open_with(".", &options)?; // the agent root: brain/, memory/
    /// root.init(&now, false)?;
    /// let push = SyncOptions::new()
    ///     .remote("dir:remote") // a folder of JSON Lines files; or "postgres" with conninfo
    ///     .workspace_id("0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b"); // only for the first sync
    /// let pushed = root.memorybox_sync(&now, SyncCommand::Push, &push)?;
    /// let status = root.memorybox_sync(&now, SyncCommand::Status, &SyncOptions::new())?;
    /// # assert_eq!(pushed.exit_code(), 0);
    /// # assert!(status.json()?.contains(r#""last_push_ok":true"#));
    /// # drop(root);
    /// # std::env::set_current_dir(std::env::temp_dir()).unwrap();
    /// # std::fs::remove_dir_all(&tmp).unwrap();
    /// # Ok::<(), memkit::Error>(())
    /// ```
    #[doc(alias = "mk_memorybox_sync")]
    pub fn memorybox_sync(
        &mut self,
        now: &Clock,
        command: SyncCommand,
        options: &SyncOptions,
    ) -> Result<CommandResult> {
        let opts = options.to_raw()?;
        let command = command.as_raw();
        // SAFETY: the pointers are valid for the call; `opts` keeps the strings they reach.
        self.run(|out, ws| unsafe { sys::mk_memorybox_sync(out, ws, &now.raw, command, &opts.raw) })
    }

    /// `memkit tiers <command>` ([`Layout::Tiers`](crate::Layout::Tiers), spec tiers3.md §8)
    /// with the arguments set in `options`, exactly as the CLI runs it: reads never write; a
    /// write checks every argument first and then writes all its files or none, L1 then L2 then
    /// L3 (§9), under the workspace's `.memkit/lock`. The JSON is the CLI's envelope, its keys
    /// in `data`. [`applied`](CommandResult::applied) is true when a writer (`log-turn`,
    /// `persist-turn`, `write-theme`, `write-global`, `write-data`, `session-init` without
    /// `no_log`) succeeded, or when `archive-themes` applied its plan; `archive-themes` is the
    /// only command with a [`plan_id`](CommandResult::plan_id).
    ///
    /// A refused argument is a finding in the result, not an `Err`: an argument the command does
    /// not take is the fatal MK-ARG-001 (exit code 2), as is any tiers command on a workspace of
    /// another layout; MK-TIERS-00x for an invalid theme, entry type, tools list, empty content
    /// or `extracted_content` without `theme`. Only a NUL inside a string or an integer of
    /// `i64::MIN` (C's `MK_TIERS_UNSET`) is `MK_E_ARG`, before the library is called.
    ///
    /// ```
    /// # let tmp = std::env::temp_dir().join(format!("memkit-tiers-doc-{}", std::process::id()));
    /// # std::fs::create_dir_all(tmp.join("agent")).unwrap();
    /// # std::env::set_current_dir(&tmp).unwrap(); // each doctest is its own process
    /// use memkit::{Clock, Layout, TiersCommand, TiersOptions, Workspace, WorkspaceOptions};
    ///
    /// let now = Clock::parse("2026-03-07T14:05:09+00:00")?; // or Clock::system()
    /// let options = WorkspaceOptions::new().layout(Layout::Tiers);
    /// let mut ws = Workspace::open_with("agent", &options)?; // its memory lives in agent/memory
    /// let turn = TiersOptions::new()
    ///     .raw_content("The user asked for the default command") // L1: memory/sessions/<date>.md
    ///     .extracted_content("Use persist-turn.") // L2: memory/decision/<date>_<hour>.md
    ///     .theme("decision")
    ///     .template_name("decision"); // heading `Decision Record - <time>`
    /// let done = ws.tiers_run(&now, TiersCommand::PersistTurn, &turn)?; // L1 then L2, or nothing
    /// let theme = TiersOptions::new().theme("decision");
    /// let notes = ws.tiers_run(&now, TiersCommand::ReadTheme, &theme)?; // reads never write
    /// let csv = TiersOptions::new().name("people").csv_content("name,note\nSmith,hi\n");
    /// ws.tiers_run(&now, TiersCommand::WriteData, &csv)?; // memory/data/people.csv, manifest.json
    /// let first = TiersOptions::new().name("people").head(1); // the header is record 1
    /// let head = ws.tiers_run(&now, TiersCommand::ReadData, &first)?;
    /// let days = TiersOptions::new().days(90); // the default
    /// let plan = ws.tiers_run(&now, TiersCommand::ArchiveThemes, &days)?; // a dry run
    /// if let Some(id) = plan.plan_id() {
    ///     let apply = days.confirm_plan_id(id); // the same arguments, confirmed
    ///     ws.tiers_run(&now, TiersCommand::ArchiveThemes, &apply)?; // to memory/archive/<theme>/
    /// }
    /// # assert!(done.applied());
    /// # assert!(notes.json()?.contains("Use persist-turn."));
    /// # assert!(head.json()?.contains(r#""content":"name,note\n""#));
    /// # assert!(std::path::Path::new("agent/memory/decision/2026-03-07_14.md").is_file());
    /// # drop(ws);
    /// # std::env::set_current_dir(std::env::temp_dir()).unwrap();
    /// # std::fs::remove_dir_all(&tmp).unwrap();
    /// # Ok::<(), memkit::Error>(())
    /// ```
    #[doc(alias = "mk_tiers_run")]
    pub fn tiers_run(
        &mut self,
        now: &Clock,
        command: TiersCommand,
        options: &TiersOptions,
    ) -> Result<CommandResult> {
        let opts = options.to_raw()?;
        let command = command.as_raw();
        // SAFETY: the pointers are valid for the call; `opts` keeps the strings they reach.
        self.run(|out, ws| unsafe { sys::mk_tiers_run(out, ws, &now.raw, command, &opts.raw) })
    }

    /// `memkit curated <command> --store ROOT` ([`Layout::Curated`](crate::Layout::Curated),
    /// spec curated.md) with the arguments set in `options`, exactly as the CLI runs it: reads
    /// never write a row (counted reads append their access records, §9); a write checks every
    /// argument and the writer boundary first, then writes its row files and history lines as
    /// one transaction, or nothing, under the store's `.memkit/lock`. The JSON is the CLI's
    /// envelope. [`applied`](CommandResult::applied) is true when a write reached the disk.
    ///
    /// A refused argument is a finding in the result, not an `Err`: no
    /// [`workspace`](CuratedOptions::workspace) is MK-CUR-001, an option the command does not
    /// take the fatal MK-ARG-001 (exit code 2), as is any curated command on a workspace of
    /// another layout. Only a NUL inside a string or an integer of `i64::MIN` (C's
    /// `MK_CURATED_UNSET`) is `MK_E_ARG`, before the library is called.
    ///
    /// ```
    /// # let tmp = std::env::temp_dir().join(format!("memkit-curated-doc-{}", std::process::id()));
    /// # std::fs::create_dir_all(&tmp).unwrap();
    /// # std::env::set_current_dir(&tmp).unwrap(); // each doctest is its own process
    /// use memkit::{Clock, CuratedCommand, CuratedOptions, Layout, Workspace, WorkspaceOptions};
    ///
    /// let now = Clock::parse("2026-11-30T09:00:00Z")?; // or Clock::system()
    /// let options = WorkspaceOptions::new().layout(Layout::Curated);
    /// let mut store = Workspace::open_with("curated", &options)?; // made by the first write
    /// let row = CuratedOptions::new()
    ///     .workspace("ws1") // every command needs it
    ///     .name("project_a")
    ///     .type_("project")
    ///     .body("Fix the flaky build")
    ///     .row_class("thread")
    ///     .status("open");
    /// let added = store.curated_run(&now, CuratedCommand::Add, &row)?; // rows/ws1/project.md
    /// let named = CuratedOptions::new().workspace("ws1").name("project_a");
    /// let shown = store.curated_run(&now, CuratedCommand::Show, &named)?; // counts a read
    /// let digest = CuratedOptions::new().workspace("ws1");
    /// let pending = store.curated_run(&now, CuratedCommand::GetRelevant, &digest)?;
    /// # assert!(added.applied());
    /// # assert!(shown.json()?.contains(r#""body":"Fix the flaky build""#));
    /// # assert!(pending.json()?.contains("project_a"));
    /// # assert!(std::path::Path::new("curated/rows/ws1/project.md").is_file());
    /// # drop(store);
    /// # std::env::set_current_dir(std::env::temp_dir()).unwrap();
    /// # std::fs::remove_dir_all(&tmp).unwrap();
    /// # Ok::<(), memkit::Error>(())
    /// ```
    #[doc(alias = "mk_curated_run")]
    pub fn curated_run(
        &mut self,
        now: &Clock,
        command: CuratedCommand,
        options: &CuratedOptions,
    ) -> Result<CommandResult> {
        let opts = options.to_raw()?;
        let command = command.as_raw();
        // SAFETY: the pointers are valid for the call; `opts` keeps the strings they reach.
        self.run(|out, ws| unsafe { sys::mk_curated_run(out, ws, &now.raw, command, &opts.raw) })
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        // SAFETY: the pointer came from mk_workspace_open and is destroyed only here.
        unsafe { sys::mk_workspace_destroy(self.ptr.as_ptr()) }
    }
}

impl fmt::Debug for Workspace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Workspace").field(&self.ptr).finish()
    }
}

/// A value of a command argument for [`Workspace::run_command`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg<'a> {
    /// Any argument but a flag: text, a path, a time, JSON, or a number as the CLI writes it.
    Text(&'a str),
    /// An integer or number argument.
    Int(i64),
    /// A flag: given or not.
    Flag(bool),
}

/// An `mk_request` released when dropped.
struct Request(*mut sys::mk_request);

impl Drop for Request {
    fn drop(&mut self) {
        // SAFETY: made by mk_request_create, released once.
        unsafe { sys::mk_request_destroy(self.0) }
    }
}
