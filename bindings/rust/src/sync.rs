//! Section - MemoryBox sync of memkit.h (spec memorybox.md §9): the verbs of
//! `memkit memorybox sync` ([`SyncCommand`]) and their arguments ([`SyncOptions`]), run on a
//! workspace opened with [`Layout::MemoryBox`](crate::Layout::MemoryBox) by
//! [`Workspace::memorybox_sync`](crate::Workspace::memorybox_sync).

use crate::c_text::{ptr_or_null, text_cstring};
use crate::error::Result;
use crate::sys;
use std::ffi::CString;
use std::fmt;
use std::ptr;

/// The verbs of `memkit memorybox sync` (`mk_sync_command`), each run by
/// [`Workspace::memorybox_sync`](crate::Workspace::memorybox_sync) with the arguments it takes
/// set in a [`SyncOptions`]; [`name`](SyncCommand::name) is the CLI's spelling.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum SyncCommand {
    /// `sync pull`: merge the remote's records into the files (`remote`, `workspace_id`,
    /// `apply`, `confirm_plan`). New entries are written at once; a plan that replaces or removes
    /// local text waits for `confirm_plan`.
    #[doc(alias = "MK_SYNC_PULL")]
    Pull,
    /// `sync push`: send every record changed since the last push (`remote`, `workspace_id`),
    /// after writing the Id and Updated lines it needs.
    #[doc(alias = "MK_SYNC_PUSH")]
    Push,
    /// `sync status`: the sync state; with `remote`, also what a pull would bring.
    #[doc(alias = "MK_SYNC_STATUS")]
    Status,
    /// `sync resolve`: settle one open conflict (`id`, `take`).
    #[doc(alias = "MK_SYNC_RESOLVE")]
    Resolve,
}

impl SyncCommand {
    /// Every verb, in `MK_SYNC_*` order.
    pub const ALL: [SyncCommand; 4] = [
        SyncCommand::Pull,
        SyncCommand::Push,
        SyncCommand::Status,
        SyncCommand::Resolve,
    ];

    /// The `MK_SYNC_*` value.
    pub fn as_raw(self) -> sys::mk_sync_command {
        match self {
            SyncCommand::Pull => sys::MK_SYNC_PULL,
            SyncCommand::Push => sys::MK_SYNC_PUSH,
            SyncCommand::Status => sys::MK_SYNC_STATUS,
            SyncCommand::Resolve => sys::MK_SYNC_RESOLVE,
        }
    }

    /// The CLI's verb, `memkit memorybox sync <name>`: `"pull"`, `"push"`, `"status"`,
    /// `"resolve"`.
    pub fn name(self) -> &'static str {
        match self {
            SyncCommand::Pull => "pull",
            SyncCommand::Push => "push",
            SyncCommand::Status => "status",
            SyncCommand::Resolve => "resolve",
        }
    }

    /// The verb the CLI calls `name`, if any.
    pub fn from_name(name: &str) -> Option<SyncCommand> {
        SyncCommand::ALL
            .iter()
            .copied()
            .find(|command| command.name() == name)
    }
}

impl fmt::Display for SyncCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The arguments of a `memkit memorybox sync` verb (`mk_sync_options`): each setter is the CLI
/// option of the same name, and what is not set is not given. A verb given an argument it does
/// not take returns a result with the CLI's fatal MK-ARG-001 (exit code 2), so set only the ones
/// it takes:
///
/// - [`Pull`](SyncCommand::Pull): `remote` (required), `conninfo`, `workspace_id`, `apply`,
///   `confirm_plan`;
/// - [`Push`](SyncCommand::Push): `remote` (required), `conninfo`, `workspace_id`;
/// - [`Status`](SyncCommand::Status): `remote`, `conninfo`;
/// - [`Resolve`](SyncCommand::Resolve): `id`, `take`.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct SyncOptions {
    remote: Option<String>,
    conninfo: Option<String>,
    workspace_id: Option<String>,
    id: Option<String>,
    take: Option<String>,
    confirm_plan: Option<String>,
    apply: bool,
}

// The connection string may hold a password: Debug shows only whether one is set.
impl fmt::Debug for SyncOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SyncOptions")
            .field("remote", &self.remote)
            .field("conninfo", &self.conninfo.as_ref().map(|_| "<set>"))
            .field("workspace_id", &self.workspace_id)
            .field("id", &self.id)
            .field("take", &self.take)
            .field("confirm_plan", &self.confirm_plan)
            .field("apply", &self.apply)
            .finish()
    }
}

/// An `mk_sync_options` and the strings its pointers reach, which must outlive the call.
pub(crate) struct RawSyncOptions {
    pub(crate) raw: sys::mk_sync_options,
    _strings: Vec<CString>,
}

impl SyncOptions {
    /// Nothing given (`mk_sync_options_init`).
    pub fn new() -> SyncOptions {
        SyncOptions::default()
    }

    /// `--remote`: `"dir:PATH"` (a folder that exists; a relative path names one of the current
    /// working directory) or `"postgres"`.
    pub fn remote(mut self, remote: impl Into<String>) -> SyncOptions {
        self.remote = Some(remote.into());
        self
    }

    /// The PostgreSQL connection string (a libpq string or URI) for remote `"postgres"`, in
    /// place of the CLI's `MEMKIT_SYNC_CONNINFO`, which the library never reads; unset, libpq's
    /// defaults (its `PG*` variables, `~/.pgpass`, services). No result ever contains it.
    pub fn conninfo(mut self, conninfo: impl Into<String>) -> SyncOptions {
        self.conninfo = Some(conninfo.into());
        self
    }

    /// `--workspace-id`: a lower-case 8-4-4-4-12 UUID, needed only by a root's first sync
    /// (otherwise a random one is made); refused when it differs from `.memkit/sync.json`'s.
    pub fn workspace_id(mut self, workspace_id: impl Into<String>) -> SyncOptions {
        self.workspace_id = Some(workspace_id.into());
        self
    }

    /// `--id` of `resolve`: the record id of an open conflict.
    pub fn id(mut self, id: impl Into<String>) -> SyncOptions {
        self.id = Some(id.into());
        self
    }

    /// `--take` of `resolve`: `"local"` or `"remote"`.
    pub fn take(mut self, take: impl Into<String>) -> SyncOptions {
        self.take = Some(take.into());
        self
    }

    /// `--apply --confirm-plan ID` of `pull`: plans again and writes only when the new plan's
    /// ID is `confirm_plan` (else MK-PLAN-001, exit code 2, nothing written).
    pub fn confirm_plan(mut self, confirm_plan: impl Into<String>) -> SyncOptions {
        self.confirm_plan = Some(confirm_plan.into());
        self
    }

    /// `--apply` of `pull` (implied by [`confirm_plan`](Self::confirm_plan)).
    pub fn apply(mut self, apply: bool) -> SyncOptions {
        self.apply = apply;
        self
    }

    /// The C struct, filled by the library's init and then with what was set. Its strings live
    /// in the returned value, which must outlive the call. A NUL inside a string is `MK_E_ARG`
    /// before the library is called.
    #[doc(alias = "mk_sync_options_init")]
    pub(crate) fn to_raw(&self) -> Result<RawSyncOptions> {
        let mut raw = sys::mk_sync_options {
            version: 0,
            remote: ptr::null(),
            conninfo: ptr::null(),
            workspace_id: ptr::null(),
            id: ptr::null(),
            take: ptr::null(),
            confirm_plan: ptr::null(),
            apply: 0,
        };
        // SAFETY: `raw` is a valid struct to fill.
        unsafe { sys::mk_sync_options_init(&mut raw) };

        // A CString's bytes live on the heap, so moving it into `strings` after its pointer was
        // taken keeps that pointer valid.
        let mut strings = Vec::new();
        let texts: [(&str, &Option<String>, &mut *const std::os::raw::c_char); 6] = [
            ("options.remote", &self.remote, &mut raw.remote),
            ("options.conninfo", &self.conninfo, &mut raw.conninfo),
            (
                "options.workspace_id",
                &self.workspace_id,
                &mut raw.workspace_id,
            ),
            ("options.id", &self.id, &mut raw.id),
            ("options.take", &self.take, &mut raw.take),
            (
                "options.confirm_plan",
                &self.confirm_plan,
                &mut raw.confirm_plan,
            ),
        ];
        for (what, value, field) in texts {
            if let Some(value) = value {
                let text = Some(text_cstring(what, value)?);
                *field = ptr_or_null(&text);
                strings.extend(text);
            }
        }
        raw.apply = i32::from(self.apply);
        Ok(RawSyncOptions {
            raw,
            _strings: strings,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_in_raw_order() {
        for (i, command) in SyncCommand::ALL.iter().enumerate() {
            assert_eq!(command.as_raw(), i as sys::mk_sync_command);
            assert_eq!(SyncCommand::from_name(command.name()), Some(*command));
        }
        assert_eq!(SyncCommand::from_name("fetch"), None);
    }

    #[test]
    fn debug_hides_the_connection_string() {
        let options = SyncOptions::new()
            .remote("postgres")
            .conninfo("password=sekrit");
        assert!(!format!("{:?}", options).contains("sekrit"));
    }

    #[test]
    fn a_nul_inside_a_string_is_refused_before_the_call() {
        let error = SyncOptions::new()
            .id("a\0b")
            .to_raw()
            .err()
            .expect("refused");
        assert_eq!(error.code(), sys::MK_E_ARG);
    }
}
