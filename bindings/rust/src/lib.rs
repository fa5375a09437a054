//! memkit: agent memory that stays small and auditable, from Rust.
//!
//! A safe layer over memkit's C ABI (`capi/memkit.h`, copied by hand in [`sys`]). Each method keeps
//! the C word order (`mk_workspace_plan_compaction` is [`Workspace::plan_compaction`]) and carries
//! the C name as a doc alias. A command that ran returns `Ok` with its [`CommandResult`] even when
//! its findings stop it (exit code 1 or 2, a stale Plan ID); only a failing `mk_status` is an
//! [`Error`].
//!
//! ```
//! # let tmp = std::env::temp_dir().join(format!("memkit-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(tmp.join("my-project")).unwrap();
//! # std::env::set_current_dir(&tmp).unwrap(); // each doctest is its own process
//! use memkit::{AddOptions, Clock, CompactOptions, Workspace};
//!
//! let now = Clock::parse("2026-03-07T10:00:00+01:00")?; // or Clock::system()
//! let mut ws = Workspace::open("my-project")?; // its memory lives in my-project/docs/memory
//! ws.init(&now, false)?; // creates the missing memory files, never overwrites
//! for _ in 0..2 { ws.add(&now, "remember the staging URL", &AddOptions::new("inbox"))?; }
//! let plan = ws.plan_compaction(&now, &CompactOptions::new())?; // a dry run: writes nothing
//! let id = plan.plan_id().expect("a duplicate to drop");
//! let done = ws.apply_compaction(&now, &CompactOptions::new(), id)?; // writes only if still `id`
//! println!("exit {}, applied {}: {}", done.exit_code(), done.applied(), done.json()?);
//! for row in ws.status(&now)?.budget_rows()? { println!("{:?}", row) }
//! # assert!(done.applied());
//! # drop(ws);
//! # std::env::set_current_dir(std::env::temp_dir()).unwrap();
//! # std::fs::remove_dir_all(&tmp).unwrap();
//! # Ok::<(), memkit::Error>(())
//! ```

pub mod sys;

mod buffer;
mod c_text;
mod clock;
mod command_result;
mod curated;
mod document;
mod error;
mod gate;
mod options;
mod sync;
mod tiers;
mod version;
mod workspace;

pub use clock::Clock;
pub use command_result::{BudgetRow, BudgetState, CommandResult, InboxCounts};
pub use curated::{CuratedCommand, CuratedOptions};
pub use document::{Document, Unit, UnitKind};
pub use error::{last_error_message, status_name, Error, Result};
pub use gate::{Gate, GateCandidate, Judge};
pub use options::{
    AddOptions, CompactOptions, ForgetMode, ForgetOptions, InitOptions, Layout, Lifecycle, Profile,
    UpdateEvent, WorkspaceOptions,
};
pub use sync::{SyncCommand, SyncOptions};
pub use tiers::{TiersCommand, TiersOptions};
pub use version::{check_version, commands_json, version, version_string};
pub use workspace::{Arg, Workspace};
