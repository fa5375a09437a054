//! Section - Workspace of memkit.h: a memory folder opened once in one layout, on which the
//! requests of that layout's group, and of the groups of every layout (search), run.

use crate::c_text::{c_string, path_bytes};
use crate::clock::Clock;
use crate::command_result::CommandResult;
use crate::error::{check, Error, Result};
use crate::request::{Arg, Request};
use crate::sys;
use crate::version::check_version;
use std::cell::Cell;
use std::ffi::CString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::ptr::{self, NonNull};

/// The layouts a workspace can be opened with (`mk_layout`); each runs the commands of the group
/// whose `workspace` in the command table is its name, and of the groups whose `workspace` is
/// `"any"` (`search`); a request of another group is `MK_E_ARG`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
#[non_exhaustive]
pub enum Layout {
    /// memory-custodian: `docs/memory` under a project root (spec compaction.md), the `custodian`
    /// commands; the default.
    #[default]
    #[doc(alias = "MK_LAYOUT_CUSTODIAN")]
    Custodian,
    /// MemoryBox: `brain/` and `memory/` under an agent root (spec memorybox.md), the `memorybox`
    /// commands.
    #[doc(alias = "MK_LAYOUT_MEMORYBOX")]
    MemoryBox,
    /// Three-tier session memory: `memory/` under the workspace (the CLI's `--workspace`, spec
    /// tiers3.md), the `tiers` commands.
    #[doc(alias = "MK_LAYOUT_TIERS")]
    Tiers,
    /// Curated memory: the store folder (the CLI's `--store`, spec curated.md), the `curated`
    /// commands; a missing store is an empty one, made by the first write.
    #[doc(alias = "MK_LAYOUT_CURATED")]
    Curated,
}

impl Layout {
    /// The `MK_LAYOUT_*` value.
    pub fn as_raw(self) -> sys::mk_layout {
        match self {
            Layout::Custodian => sys::MK_LAYOUT_CUSTODIAN,
            Layout::MemoryBox => sys::MK_LAYOUT_MEMORYBOX,
            Layout::Tiers => sys::MK_LAYOUT_TIERS,
            Layout::Curated => sys::MK_LAYOUT_CURATED,
        }
    }
}

/// How to open a workspace (`mk_workspace_options`): what is not set keeps the library's default
/// (`mk_workspace_options_init`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkspaceOptions {
    layout: Option<Layout>,
    memory_dir: Option<PathBuf>,
    lock_timeout_seconds: Option<f64>,
}

impl WorkspaceOptions {
    /// The library's defaults.
    pub fn new() -> WorkspaceOptions {
        WorkspaceOptions::default()
    }

    /// The memory layout ([`Layout::Custodian`] by default).
    pub fn layout(mut self, layout: Layout) -> WorkspaceOptions {
        self.layout = Some(layout);
        self
    }

    /// Custodian only: the memory folder relative to the project root (default `docs/memory`);
    /// the library refuses it for the other layouts (`MK_E_ARG`).
    pub fn memory_dir(mut self, memory_dir: impl AsRef<Path>) -> WorkspaceOptions {
        self.memory_dir = Some(memory_dir.as_ref().to_path_buf());
        self
    }

    /// How long applies wait for the lock: 0 to 86400 seconds (default 10).
    pub fn lock_timeout_seconds(mut self, seconds: f64) -> WorkspaceOptions {
        self.lock_timeout_seconds = Some(seconds);
        self
    }

    /// The C struct; `raw.memory_dir` points into the returned CString, which must outlive it.
    #[doc(alias = "mk_workspace_options_init")]
    fn to_raw(&self) -> Result<(sys::mk_workspace_options, Option<CString>)> {
        let memory_dir = match &self.memory_dir {
            Some(dir) => Some(c_string(
                "opts.memory_dir",
                path_bytes("opts.memory_dir", dir)?,
            )?),
            None => None,
        };
        let mut raw = sys::mk_workspace_options {
            version: 0,
            layout: 0,
            memory_dir: ptr::null(),
            lock_timeout_seconds: 0.0,
        };
        // SAFETY: `raw` is a whole struct of the version this binding passes.
        check(unsafe {
            sys::mk_workspace_options_init(&mut raw, sys::MK_WORKSPACE_OPTIONS_VERSION)
        })?;
        if let Some(layout) = self.layout {
            raw.layout = layout.as_raw();
        }
        if let Some(dir) = &memory_dir {
            raw.memory_dir = dir.as_ptr();
        }
        if let Some(seconds) = self.lock_timeout_seconds {
            raw.lock_timeout_seconds = seconds;
        }
        Ok((raw, memory_dir))
    }
}

/// A memory folder opened once in one layout (`mk_workspace`), on which every command of that
/// layout's group, and of every layout's (`ws.search()`), runs: through the generated builders
/// (`ws.custodian_compact()`, see
/// [`commands`](crate::commands)) or by name ([`run`](Workspace::run), [`request`](Workspace::request)).
///
/// memkit.h: "Not thread-safe: use one workspace per thread". A workspace can move to another
/// thread but not be shared:
///
/// ```compile_fail,E0277
/// fn shared_across_threads<T: Sync>() {}
/// shared_across_threads::<memkit::Workspace>();
/// ```
pub struct Workspace {
    ptr: NonNull<sys::mk_workspace>,
    // Set while a request runs: a judge runs inside that call and must not re-enter the
    // workspace (memkit.h), which `&self` alone would let it do.
    running: Cell<bool>,
}

// memkit.h: a workspace may be used from any one thread at a time; the thread-local error
// message lives outside the handle. Not Sync: `running` is a Cell and the handle not shareable.
unsafe impl Send for Workspace {}

impl Workspace {
    /// Opens the memory folder of a project with the default options (the custodian layout,
    /// `docs/memory`). The memory directory need not exist yet (`custodian init` creates it).
    /// Reads no memory file.
    ///
    /// Fails with `MK_E_ARG`, `MK_E_LAYOUT`, `MK_E_UNSAFE_PATH` or `MK_E_IO`, or with
    /// `MK_E_INTERNAL` when the loaded library is another version ([`check_version`]).
    #[doc(alias = "mk_workspace_open")]
    pub fn open(project_root: impl AsRef<Path>) -> Result<Workspace> {
        Workspace::open_raw(project_root.as_ref(), None)
    }

    /// Opens a root with `options`: an agent root for [`Layout::MemoryBox`], the workspace
    /// folder for [`Layout::Tiers`], the store for [`Layout::Curated`].
    #[doc(alias = "mk_workspace_open")]
    pub fn open_with(root: impl AsRef<Path>, options: &WorkspaceOptions) -> Result<Workspace> {
        Workspace::open_raw(root.as_ref(), Some(options))
    }

    fn open_raw(root: &Path, options: Option<&WorkspaceOptions>) -> Result<Workspace> {
        check_version()?;
        let root = c_string("project_root", path_bytes("project_root", root)?)?;
        let raw = options.map(WorkspaceOptions::to_raw).transpose()?;
        let opts = raw.as_ref().map_or(ptr::null(), |(raw, _)| raw as *const _);
        let mut out = ptr::null_mut();
        // SAFETY: every pointer is valid for the call; the options' strings live in `raw`.
        check(unsafe { sys::mk_workspace_open(&mut out, root.as_ptr(), opts) })?;
        let ptr = NonNull::new(out).ok_or_else(|| {
            Error::new(
                sys::MK_E_INTERNAL,
                "mk_workspace_open returned MK_OK without a workspace",
            )
        })?;
        Ok(Workspace {
            ptr,
            running: Cell::new(false),
        })
    }

    /// Closes the workspace now; dropping it does the same. Neither the workspace nor a builder
    /// made from it can be used afterwards:
    ///
    /// ```compile_fail,E0382
    /// let ws = memkit::Workspace::open(".").unwrap();
    /// ws.close();
    /// ws.custodian_status(); // use after close
    /// ```
    ///
    /// ```compile_fail,E0505
    /// let ws = memkit::Workspace::open(".").unwrap();
    /// let status = ws.custodian_status();
    /// ws.close(); // while a request still borrows it
    /// status.run(&memkit::Clock::system());
    /// ```
    #[doc(alias = "mk_workspace_destroy")]
    pub fn close(self) {}

    /// The `mk_workspace*` for calls into [`sys`]; it stays owned by `self`.
    pub fn as_raw(&self) -> *mut sys::mk_workspace {
        self.ptr.as_ptr()
    }

    /// A request for `memkit <group> <verb>` on this workspace, its arguments set by name (see
    /// [`Request`]): the generic door under the generated builders, for a command or argument
    /// newer than them. `verb` is whole for two words (`"sync push"`), and `""` for a command
    /// without one (`ws.request("search", "")`).
    pub fn request(&self, group: &str, verb: &str) -> Request<'_> {
        Request::new(self, group, verb)
    }

    /// Runs any command of the command table ([`commands_json`](crate::commands_json)) by its
    /// group and verb, with `args` set by name: `ws.run(&now, "custodian", "add", &[("message",
    /// Arg::Text("Use PostgreSQL")), ("type", Arg::Text("decision"))])`. Names are the table's
    /// without dashes (`"confirm-plan"` or `"confirm_plan"`), positionals by their lower-case
    /// names (`"message"`). An unknown name or a wrong type is an `MK_E_ARG` error naming it and
    /// the closest known one; the workspace gives the root and `now` the clock.
    #[doc(alias = "mk_workspace_run")]
    pub fn run(
        &self,
        now: &Clock,
        group: &str,
        verb: &str,
        args: &[(&str, Arg<'_>)],
    ) -> Result<CommandResult> {
        args.iter()
            .fold(self.request(group, verb), |request, (name, value)| {
                request.arg(name, *value)
            })
            .run(now)
    }

    /// Runs `request` (made by mk_request_create) on this workspace, once at a time.
    pub(crate) fn run_raw(
        &self,
        now: &Clock,
        request: *const sys::mk_request,
    ) -> Result<CommandResult> {
        if self.running.replace(true) {
            return Err(Error::new(
                sys::MK_E_ARG,
                "ws: a command is already running on this workspace (a judge must not use it)",
            ));
        }
        let mut out = ptr::null_mut();
        // SAFETY: the workspace, clock and request are live for the call.
        let status =
            unsafe { sys::mk_workspace_run(&mut out, self.ptr.as_ptr(), &now.raw, request) };
        self.running.set(false);
        check(status)?;
        let ptr = NonNull::new(out).ok_or_else(|| {
            Error::new(
                sys::MK_E_INTERNAL,
                "mk_workspace_run returned MK_OK without a result",
            )
        })?;
        Ok(CommandResult { ptr })
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
