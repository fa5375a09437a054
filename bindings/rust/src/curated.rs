//! Section - Curated memory of memkit.h (spec curated.md): the commands of `memkit curated`
//! ([`CuratedCommand`]) and their arguments ([`CuratedOptions`]), run on a store opened with
//! [`Layout::Curated`](crate::Layout::Curated) by
//! [`Workspace::curated_run`](crate::Workspace::curated_run).

use crate::c_text::{path_cstring, ptr_or_null, text_cstring};
use crate::error::{Error, Result};
use crate::sys;
use std::ffi::CString;
use std::fmt;
use std::os::raw::c_char;
use std::path::{Path, PathBuf};
use std::ptr;

/// The commands of `memkit curated` (`mk_curated_command`), each run by
/// [`Workspace::curated_run`](crate::Workspace::curated_run) with the arguments it takes set in
/// a [`CuratedOptions`]; [`name`](CuratedCommand::name) is the CLI's spelling.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CuratedCommand {
    /// `curated add`: insert or update a row by name (`name`, `type_`, `body` or `body_file`,
    /// `description`, `row_class`, `status`, `initiative`, `project_ref`, `audience`,
    /// `origin_session`, `dry_run`).
    #[doc(alias = "MK_CURATED_ADD")]
    Add,
    /// `curated append NAME`: `body` (or `body_file`) added to the row's body.
    #[doc(alias = "MK_CURATED_APPEND")]
    Append,
    /// `curated edit`: overwrite `field` (description or body) with `content` or `body_file`.
    #[doc(alias = "MK_CURATED_EDIT")]
    Edit,
    /// `curated reclassify NAME`: `row_class` and/or `status` (spec §5).
    #[doc(alias = "MK_CURATED_RECLASSIFY")]
    Reclassify,
    /// `curated link SRC DST --kind K` (`delete_link` removes it).
    #[doc(alias = "MK_CURATED_LINK")]
    Link,
    /// `curated unlink SRC DST --kind K`.
    #[doc(alias = "MK_CURATED_UNLINK")]
    Unlink,
    /// `curated delete NAME`: a dry run without `yes`; soft, or a purge with `hard`.
    #[doc(alias = "MK_CURATED_DELETE")]
    Delete,
    /// `curated restore NAME`: clears `Deleted`.
    #[doc(alias = "MK_CURATED_RESTORE")]
    Restore,
    /// `curated checkpoint --file F`: a record and its pending threads, all or nothing.
    #[doc(alias = "MK_CURATED_CHECKPOINT")]
    Checkpoint,
    /// `curated batch --file F`: independent operations, each its own transaction.
    #[doc(alias = "MK_CURATED_BATCH")]
    Batch,
    /// `curated get-relevant`: the digest of live pending rows, or with `initiative` every one of
    /// that initiative.
    #[doc(alias = "MK_CURATED_GET_RELEVANT")]
    GetRelevant,
    /// `curated kernel`: the fixed corpus injected on every dispatch.
    #[doc(alias = "MK_CURATED_KERNEL")]
    Kernel,
    /// `curated show NAME`: the row view and its read counters.
    #[doc(alias = "MK_CURATED_SHOW")]
    Show,
    /// `curated list`: rows by filter, sorted by one counter or the name.
    #[doc(alias = "MK_CURATED_LIST")]
    List,
    /// `curated search QUERY`: rows (and episodes) by whole tokens.
    #[doc(alias = "MK_CURATED_SEARCH")]
    Search,
    /// `curated stats`: one workspace's counts.
    #[doc(alias = "MK_CURATED_STATS")]
    Stats,
    /// `curated conflicts`: pairs of rows with similar bodies.
    #[doc(alias = "MK_CURATED_CONFLICTS")]
    Conflicts,
    /// `curated lineage NAME`: the link walk in both directions.
    #[doc(alias = "MK_CURATED_LINEAGE")]
    Lineage,
    /// `curated story NAME`: the lineage and its fused timeline.
    #[doc(alias = "MK_CURATED_STORY")]
    Story,
    /// `curated event add`: one record appended to the events floor.
    #[doc(alias = "MK_CURATED_EVENT_ADD")]
    EventAdd,
    /// `curated episode add --file F`: one episode appended to the episodes floor.
    #[doc(alias = "MK_CURATED_EPISODE_ADD")]
    EpisodeAdd,
    /// `curated episode show ID`.
    #[doc(alias = "MK_CURATED_EPISODE_SHOW")]
    EpisodeShow,
    /// `curated floors prune`: a dry run of the day files past retention, or with
    /// `confirm_plan_id` its apply.
    #[doc(alias = "MK_CURATED_FLOORS_PRUNE")]
    FloorsPrune,
    /// `curated telemetry compact --before T`: a dry run of the fold into the snapshot, or
    /// with `confirm_plan_id` its apply.
    #[doc(alias = "MK_CURATED_TELEMETRY_COMPACT")]
    TelemetryCompact,
    /// `curated recover`: the unfinished transactions of the store (`apply`, `rollback`).
    #[doc(alias = "MK_CURATED_RECOVER")]
    Recover,
}

impl CuratedCommand {
    /// Every command, in `MK_CURATED_*` order.
    pub const ALL: [CuratedCommand; 25] = [
        CuratedCommand::Add,
        CuratedCommand::Append,
        CuratedCommand::Edit,
        CuratedCommand::Reclassify,
        CuratedCommand::Link,
        CuratedCommand::Unlink,
        CuratedCommand::Delete,
        CuratedCommand::Restore,
        CuratedCommand::Checkpoint,
        CuratedCommand::Batch,
        CuratedCommand::GetRelevant,
        CuratedCommand::Kernel,
        CuratedCommand::Show,
        CuratedCommand::List,
        CuratedCommand::Search,
        CuratedCommand::Stats,
        CuratedCommand::Conflicts,
        CuratedCommand::Lineage,
        CuratedCommand::Story,
        CuratedCommand::EventAdd,
        CuratedCommand::EpisodeAdd,
        CuratedCommand::EpisodeShow,
        CuratedCommand::FloorsPrune,
        CuratedCommand::TelemetryCompact,
        CuratedCommand::Recover,
    ];

    /// The `MK_CURATED_*` value.
    pub fn as_raw(self) -> sys::mk_curated_command {
        match self {
            CuratedCommand::Add => sys::MK_CURATED_ADD,
            CuratedCommand::Append => sys::MK_CURATED_APPEND,
            CuratedCommand::Edit => sys::MK_CURATED_EDIT,
            CuratedCommand::Reclassify => sys::MK_CURATED_RECLASSIFY,
            CuratedCommand::Link => sys::MK_CURATED_LINK,
            CuratedCommand::Unlink => sys::MK_CURATED_UNLINK,
            CuratedCommand::Delete => sys::MK_CURATED_DELETE,
            CuratedCommand::Restore => sys::MK_CURATED_RESTORE,
            CuratedCommand::Checkpoint => sys::MK_CURATED_CHECKPOINT,
            CuratedCommand::Batch => sys::MK_CURATED_BATCH,
            CuratedCommand::GetRelevant => sys::MK_CURATED_GET_RELEVANT,
            CuratedCommand::Kernel => sys::MK_CURATED_KERNEL,
            CuratedCommand::Show => sys::MK_CURATED_SHOW,
            CuratedCommand::List => sys::MK_CURATED_LIST,
            CuratedCommand::Search => sys::MK_CURATED_SEARCH,
            CuratedCommand::Stats => sys::MK_CURATED_STATS,
            CuratedCommand::Conflicts => sys::MK_CURATED_CONFLICTS,
            CuratedCommand::Lineage => sys::MK_CURATED_LINEAGE,
            CuratedCommand::Story => sys::MK_CURATED_STORY,
            CuratedCommand::EventAdd => sys::MK_CURATED_EVENT_ADD,
            CuratedCommand::EpisodeAdd => sys::MK_CURATED_EPISODE_ADD,
            CuratedCommand::EpisodeShow => sys::MK_CURATED_EPISODE_SHOW,
            CuratedCommand::FloorsPrune => sys::MK_CURATED_FLOORS_PRUNE,
            CuratedCommand::TelemetryCompact => sys::MK_CURATED_TELEMETRY_COMPACT,
            CuratedCommand::Recover => sys::MK_CURATED_RECOVER,
        }
    }

    /// The CLI's words, `memkit curated <name>`: `"add"`, `"get-relevant"`, `"event add"`, ...
    pub fn name(self) -> &'static str {
        match self {
            CuratedCommand::Add => "add",
            CuratedCommand::Append => "append",
            CuratedCommand::Edit => "edit",
            CuratedCommand::Reclassify => "reclassify",
            CuratedCommand::Link => "link",
            CuratedCommand::Unlink => "unlink",
            CuratedCommand::Delete => "delete",
            CuratedCommand::Restore => "restore",
            CuratedCommand::Checkpoint => "checkpoint",
            CuratedCommand::Batch => "batch",
            CuratedCommand::GetRelevant => "get-relevant",
            CuratedCommand::Kernel => "kernel",
            CuratedCommand::Show => "show",
            CuratedCommand::List => "list",
            CuratedCommand::Search => "search",
            CuratedCommand::Stats => "stats",
            CuratedCommand::Conflicts => "conflicts",
            CuratedCommand::Lineage => "lineage",
            CuratedCommand::Story => "story",
            CuratedCommand::EventAdd => "event add",
            CuratedCommand::EpisodeAdd => "episode add",
            CuratedCommand::EpisodeShow => "episode show",
            CuratedCommand::FloorsPrune => "floors prune",
            CuratedCommand::TelemetryCompact => "telemetry compact",
            CuratedCommand::Recover => "recover",
        }
    }

    /// The command the CLI calls `name` (its words, as [`name`](CuratedCommand::name) gives
    /// them), if any.
    pub fn from_name(name: &str) -> Option<CuratedCommand> {
        CuratedCommand::ALL
            .iter()
            .copied()
            .find(|command| command.name() == name)
    }
}

impl fmt::Display for CuratedCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The arguments of a `memkit curated` command (`mk_curated_options`): each setter is the CLI
/// option or positional argument of the same name (spec curated.md), and what is not set is not
/// given. A command given an option it does not take returns a result with the CLI's fatal
/// MK-ARG-001 "unknown option" (exit code 2), and a positional it does not take the CLI's
/// refusal of an extra argument, so set only what the command takes. Every command needs
/// [`workspace`](CuratedOptions::workspace): the library reads no `MEMKIT_*` environment
/// variable.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CuratedOptions {
    workspace: Option<String>,
    actor: Option<String>,
    name: Option<String>,
    dst: Option<String>,
    query: Option<String>,
    id: Option<String>,
    type_: Option<String>,
    body: Option<String>,
    description: Option<String>,
    row_class: Option<String>,
    status: Option<String>,
    initiative: Option<String>,
    project_ref: Option<String>,
    audience: Option<String>,
    origin_session: Option<String>,
    field: Option<String>,
    content: Option<String>,
    kind: Option<String>,
    sort: Option<String>,
    order: Option<String>,
    scope: Option<String>,
    threshold: Option<String>,
    before: Option<String>,
    source: Option<String>,
    agent: Option<String>,
    result: Option<String>,
    severity: Option<String>,
    payload: Option<String>,
    confirm_plan_id: Option<String>,
    body_file: Option<PathBuf>,
    file: Option<PathBuf>,
    max_chars: Option<i64>,
    limit: Option<i64>,
    max_depth: Option<i64>,
    dry_run: bool,
    links: bool,
    history: bool,
    include_deleted: bool,
    yes: bool,
    hard: bool,
    delete_link: bool,
    apply: bool,
    rollback: bool,
}

/// An `mk_curated_options` and the strings its pointers reach, which must outlive the call.
pub(crate) struct RawCuratedOptions {
    pub(crate) raw: sys::mk_curated_options,
    _strings: Vec<CString>,
}

impl CuratedOptions {
    /// Nothing given (`mk_curated_options_init`).
    pub fn new() -> CuratedOptions {
        CuratedOptions::default()
    }

    /// --workspace: the workspace every command needs (without it, the CLI's MK-CUR-001).
    /// The library reads no `MEMKIT_WORKSPACE`.
    pub fn workspace(mut self, workspace: impl Into<String>) -> CuratedOptions {
        self.workspace = Some(workspace.into());
        self
    }

    /// --actor of a write, checked against config.json's writers (MK-CUR-002); not set,
    /// the write is the human owner's. The library reads no `MEMKIT_ACTOR`.
    pub fn actor(mut self, actor: impl Into<String>) -> CuratedOptions {
        self.actor = Some(actor.into());
        self
    }

    /// The row: `--name` of [`Add`](CuratedCommand::Add) and [`Edit`](CuratedCommand::Edit),
    /// the positional NAME of append, reclassify, delete, restore, show, lineage and story, and
    /// the SRC of link and unlink.
    pub fn name(mut self, name: impl Into<String>) -> CuratedOptions {
        self.name = Some(name.into());
        self
    }

    /// The positional DST of [`Link`](CuratedCommand::Link) and
    /// [`Unlink`](CuratedCommand::Unlink).
    pub fn dst(mut self, dst: impl Into<String>) -> CuratedOptions {
        self.dst = Some(dst.into());
        self
    }

    /// The positional QUERY of [`Search`](CuratedCommand::Search).
    pub fn query(mut self, query: impl Into<String>) -> CuratedOptions {
        self.query = Some(query.into());
        self
    }

    /// The positional ID of [`EpisodeShow`](CuratedCommand::EpisodeShow).
    pub fn id(mut self, id: impl Into<String>) -> CuratedOptions {
        self.id = Some(id.into());
        self
    }

    /// `--type`: the row type of add and list (`project`, `user`, `feedback`, `atom`,
    /// `decision`, `negative`), or the event's type of [`EventAdd`](CuratedCommand::EventAdd).
    /// C's field `type`.
    #[doc(alias = "type")]
    pub fn type_(mut self, type_: impl Into<String>) -> CuratedOptions {
        self.type_ = Some(type_.into());
        self
    }

    /// `--body` of add and append (trailing blank lines are removed on write).
    pub fn body(mut self, body: impl Into<String>) -> CuratedOptions {
        self.body = Some(body.into());
        self
    }

    /// `--description` of add: one line.
    pub fn description(mut self, description: impl Into<String>) -> CuratedOptions {
        self.description = Some(description.into());
        self
    }

    /// `--class`: `anchor`, `thread` or `log` (add, reclassify, list). C's field
    /// `row_class`.
    pub fn row_class(mut self, row_class: impl Into<String>) -> CuratedOptions {
        self.row_class = Some(row_class.into());
        self
    }

    /// `--status`: `open`, `carry_forward`, `graduated`, `closed`, or `null` to clear it
    /// (add, reclassify, list).
    pub fn status(mut self, status: impl Into<String>) -> CuratedOptions {
        self.status = Some(status.into());
        self
    }

    /// `--initiative`, normalised (add, edit, checkpoint, get-relevant, list); `_none` names
    /// the no-initiative bucket in get-relevant and list.
    pub fn initiative(mut self, initiative: impl Into<String>) -> CuratedOptions {
        self.initiative = Some(initiative.into());
        self
    }

    /// `--project-ref`: an opaque identity (add, edit, checkpoint).
    pub fn project_ref(mut self, project_ref: impl Into<String>) -> CuratedOptions {
        self.project_ref = Some(project_ref.into());
        self
    }

    /// `--audience`: `orchestrator`, `executor` or `any` (add, edit, list).
    pub fn audience(mut self, audience: impl Into<String>) -> CuratedOptions {
        self.audience = Some(audience.into());
        self
    }

    /// `--origin-session` of add.
    pub fn origin_session(mut self, origin_session: impl Into<String>) -> CuratedOptions {
        self.origin_session = Some(origin_session.into());
        self
    }

    /// `--field description|body` of edit.
    pub fn field(mut self, field: impl Into<String>) -> CuratedOptions {
        self.field = Some(field.into());
        self
    }

    /// `--content` of edit.
    pub fn content(mut self, content: impl Into<String>) -> CuratedOptions {
        self.content = Some(content.into());
        self
    }

    /// `--kind`: the link kind (`relates_to`, `supersedes`, `derived_from`, `graduated_to`).
    pub fn kind(mut self, kind: impl Into<String>) -> CuratedOptions {
        self.kind = Some(kind.into());
        self
    }

    /// `--sort name|injection|deliberate|kernel` of list.
    pub fn sort(mut self, sort: impl Into<String>) -> CuratedOptions {
        self.sort = Some(sort.into());
        self
    }

    /// `--order asc|desc` of list.
    pub fn order(mut self, order: impl Into<String>) -> CuratedOptions {
        self.order = Some(order.into());
        self
    }

    /// `--scope memory|episodes|both` of search.
    pub fn scope(mut self, scope: impl Into<String>) -> CuratedOptions {
        self.scope = Some(scope.into());
        self
    }

    /// `--threshold` of conflicts, as text (`"0.3"`).
    pub fn threshold(mut self, threshold: impl Into<String>) -> CuratedOptions {
        self.threshold = Some(threshold.into());
        self
    }

    /// `--before`: an RFC 3339 time (telemetry compact).
    pub fn before(mut self, before: impl Into<String>) -> CuratedOptions {
        self.before = Some(before.into());
        self
    }

    /// `--source` of event add.
    pub fn source(mut self, source: impl Into<String>) -> CuratedOptions {
        self.source = Some(source.into());
        self
    }

    /// `--agent` of event add.
    pub fn agent(mut self, agent: impl Into<String>) -> CuratedOptions {
        self.agent = Some(agent.into());
        self
    }

    /// `--result` of event add.
    pub fn result(mut self, result: impl Into<String>) -> CuratedOptions {
        self.result = Some(result.into());
        self
    }

    /// `--severity` of event add.
    pub fn severity(mut self, severity: impl Into<String>) -> CuratedOptions {
        self.severity = Some(severity.into());
        self
    }

    /// `--payload` of event add: JSON text, passed on as it is (a number in it must be an
    /// integer).
    pub fn payload(mut self, payload: impl Into<String>) -> CuratedOptions {
        self.payload = Some(payload.into());
        self
    }

    /// `--apply --confirm-plan ID` of floors prune and telemetry compact: plans again and
    /// applies only when the new plan's ID is `confirm_plan_id` (else MK-PLAN-001).
    pub fn confirm_plan_id(mut self, confirm_plan_id: impl Into<String>) -> CuratedOptions {
        self.confirm_plan_id = Some(confirm_plan_id.into());
        self
    }

    /// `--body-file` of add, append and edit: read relative to the current working directory
    /// (`-`, the CLI's standard input, is refused with MK-ARG-001).
    pub fn body_file(mut self, body_file: impl AsRef<Path>) -> CuratedOptions {
        self.body_file = Some(body_file.as_ref().to_path_buf());
        self
    }

    /// `--file` of checkpoint, batch and episode add: read relative to the current working
    /// directory (`-` is refused, as for [`body_file`](Self::body_file)).
    pub fn file(mut self, file: impl AsRef<Path>) -> CuratedOptions {
        self.file = Some(file.as_ref().to_path_buf());
        self
    }

    /// `--max-chars` of get-relevant and kernel.
    pub fn max_chars(mut self, max_chars: i64) -> CuratedOptions {
        self.max_chars = Some(max_chars);
        self
    }

    /// `--limit` of list and search.
    pub fn limit(mut self, limit: i64) -> CuratedOptions {
        self.limit = Some(limit);
        self
    }

    /// `--max-depth` of lineage and story (default 5).
    pub fn max_depth(mut self, max_depth: i64) -> CuratedOptions {
        self.max_depth = Some(max_depth);
        self
    }

    /// `--dry-run` of the writes (delete's dry run is the absence of [`yes`](Self::yes)):
    /// the exact entry text and the files that would change; writes nothing.
    pub fn dry_run(mut self, dry_run: bool) -> CuratedOptions {
        self.dry_run = dry_run;
        self
    }

    /// `--links` of show.
    pub fn links(mut self, links: bool) -> CuratedOptions {
        self.links = links;
        self
    }

    /// `--history` of show.
    pub fn history(mut self, history: bool) -> CuratedOptions {
        self.history = history;
        self
    }

    /// `--include-deleted` of show, list, lineage and story.
    pub fn include_deleted(mut self, include_deleted: bool) -> CuratedOptions {
        self.include_deleted = include_deleted;
        self
    }

    /// `--yes` of delete: without it, delete is a dry run.
    pub fn yes(mut self, yes: bool) -> CuratedOptions {
        self.yes = yes;
        self
    }

    /// `--hard` of delete: purge the row, its links, history and access records.
    pub fn hard(mut self, hard: bool) -> CuratedOptions {
        self.hard = hard;
        self
    }

    /// `--delete` of link: remove the link (as unlink). C's field `delete_link`.
    pub fn delete_link(mut self, delete_link: bool) -> CuratedOptions {
        self.delete_link = delete_link;
        self
    }

    /// `--apply` of recover: finish the unfinished transactions.
    pub fn apply(mut self, apply: bool) -> CuratedOptions {
        self.apply = apply;
        self
    }

    /// `--rollback` of recover (with [`apply`](Self::apply)): roll them back instead.
    pub fn rollback(mut self, rollback: bool) -> CuratedOptions {
        self.rollback = rollback;
        self
    }

    /// The C struct, filled by the library's init and then with what was set. Its strings live
    /// in the returned value, which must outlive the call. A NUL inside a string, and an integer
    /// of `i64::MIN` (C's `MK_CURATED_UNSET`, which would silently mean "not given"), are
    /// `MK_E_ARG` before the library is called.
    #[doc(alias = "mk_curated_options_init")]
    pub(crate) fn to_raw(&self) -> Result<RawCuratedOptions> {
        let mut raw = sys::mk_curated_options {
            version: 0,
            workspace: ptr::null(),
            actor: ptr::null(),
            name: ptr::null(),
            dst: ptr::null(),
            query: ptr::null(),
            id: ptr::null(),
            type_: ptr::null(),
            body: ptr::null(),
            body_file: ptr::null(),
            description: ptr::null(),
            row_class: ptr::null(),
            status: ptr::null(),
            initiative: ptr::null(),
            project_ref: ptr::null(),
            audience: ptr::null(),
            origin_session: ptr::null(),
            field: ptr::null(),
            content: ptr::null(),
            kind: ptr::null(),
            file: ptr::null(),
            sort: ptr::null(),
            order: ptr::null(),
            scope: ptr::null(),
            threshold: ptr::null(),
            before: ptr::null(),
            source: ptr::null(),
            agent: ptr::null(),
            result: ptr::null(),
            severity: ptr::null(),
            payload: ptr::null(),
            confirm_plan_id: ptr::null(),
            max_chars: 0,
            limit: 0,
            max_depth: 0,
            dry_run: 0,
            links: 0,
            history: 0,
            include_deleted: 0,
            yes: 0,
            hard: 0,
            delete_link: 0,
            apply: 0,
            rollback: 0,
        };
        // SAFETY: `raw` is a valid struct to fill.
        unsafe { sys::mk_curated_options_init(&mut raw) };

        // A CString's bytes live on the heap, so moving it into `strings` after its pointer was
        // taken keeps that pointer valid.
        let mut strings = Vec::new();
        let texts: [(&str, &Option<String>, &mut *const c_char); 29] = [
            ("opts.workspace", &self.workspace, &mut raw.workspace),
            ("opts.actor", &self.actor, &mut raw.actor),
            ("opts.name", &self.name, &mut raw.name),
            ("opts.dst", &self.dst, &mut raw.dst),
            ("opts.query", &self.query, &mut raw.query),
            ("opts.id", &self.id, &mut raw.id),
            ("opts.type", &self.type_, &mut raw.type_),
            ("opts.body", &self.body, &mut raw.body),
            ("opts.description", &self.description, &mut raw.description),
            ("opts.row_class", &self.row_class, &mut raw.row_class),
            ("opts.status", &self.status, &mut raw.status),
            ("opts.initiative", &self.initiative, &mut raw.initiative),
            ("opts.project_ref", &self.project_ref, &mut raw.project_ref),
            ("opts.audience", &self.audience, &mut raw.audience),
            (
                "opts.origin_session",
                &self.origin_session,
                &mut raw.origin_session,
            ),
            ("opts.field", &self.field, &mut raw.field),
            ("opts.content", &self.content, &mut raw.content),
            ("opts.kind", &self.kind, &mut raw.kind),
            ("opts.sort", &self.sort, &mut raw.sort),
            ("opts.order", &self.order, &mut raw.order),
            ("opts.scope", &self.scope, &mut raw.scope),
            ("opts.threshold", &self.threshold, &mut raw.threshold),
            ("opts.before", &self.before, &mut raw.before),
            ("opts.source", &self.source, &mut raw.source),
            ("opts.agent", &self.agent, &mut raw.agent),
            ("opts.result", &self.result, &mut raw.result),
            ("opts.severity", &self.severity, &mut raw.severity),
            ("opts.payload", &self.payload, &mut raw.payload),
            (
                "opts.confirm_plan_id",
                &self.confirm_plan_id,
                &mut raw.confirm_plan_id,
            ),
        ];
        for (what, value, field) in texts {
            if let Some(value) = value {
                let text = Some(text_cstring(what, value)?);
                *field = ptr_or_null(&text);
                strings.extend(text);
            }
        }
        let paths: [(&str, &Option<PathBuf>, &mut *const c_char); 2] = [
            ("opts.body_file", &self.body_file, &mut raw.body_file),
            ("opts.file", &self.file, &mut raw.file),
        ];
        for (what, value, field) in paths {
            if let Some(value) = value {
                let path = Some(path_cstring(what, value)?);
                *field = ptr_or_null(&path);
                strings.extend(path);
            }
        }
        let numbers = [
            ("opts.max_chars", self.max_chars, &mut raw.max_chars),
            ("opts.limit", self.limit, &mut raw.limit),
            ("opts.max_depth", self.max_depth, &mut raw.max_depth),
        ];
        for (what, value, field) in numbers {
            if let Some(value) = value {
                if value == sys::MK_CURATED_UNSET {
                    return Err(Error::new(
                        sys::MK_E_ARG,
                        format!(
                            "{}: i64::MIN is MK_CURATED_UNSET (\"not given\"), not a value",
                            what
                        ),
                    ));
                }
                *field = value;
            }
        }
        raw.dry_run = i32::from(self.dry_run);
        raw.links = i32::from(self.links);
        raw.history = i32::from(self.history);
        raw.include_deleted = i32::from(self.include_deleted);
        raw.yes = i32::from(self.yes);
        raw.hard = i32::from(self.hard);
        raw.delete_link = i32::from(self.delete_link);
        raw.apply = i32::from(self.apply);
        raw.rollback = i32::from(self.rollback);
        Ok(RawCuratedOptions {
            raw,
            _strings: strings,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    fn text(ptr: *const c_char) -> Option<String> {
        if ptr.is_null() {
            None
        } else {
            // SAFETY: a non-NULL field points into a CString the RawCuratedOptions keeps.
            Some(unsafe { CStr::from_ptr(ptr) }.to_str().unwrap().to_string())
        }
    }

    #[test]
    fn nothing_set_is_the_library_s_init() {
        let raw = CuratedOptions::new().to_raw().unwrap().raw;
        assert_eq!(raw.version, sys::MK_CURATED_OPTIONS_VERSION);
        assert!(raw.workspace.is_null() && raw.type_.is_null() && raw.confirm_plan_id.is_null());
        assert!(raw.body_file.is_null() && raw.file.is_null());
        for number in [raw.max_chars, raw.limit, raw.max_depth] {
            assert_eq!(number, sys::MK_CURATED_UNSET);
        }
        let flags = [
            raw.dry_run,
            raw.links,
            raw.history,
            raw.include_deleted,
            raw.yes,
            raw.hard,
            raw.delete_link,
            raw.apply,
            raw.rollback,
        ];
        assert_eq!(flags, [0; 9]);
    }

    #[test]
    fn each_setter_fills_its_own_field() {
        let options = CuratedOptions::new()
            .workspace("w")
            .actor("a")
            .name("n")
            .dst("d")
            .query("q")
            .id("i")
            .type_("t")
            .body("b")
            .body_file("bf")
            .description("de")
            .row_class("c")
            .status("s")
            .initiative("in")
            .project_ref("p")
            .audience("au")
            .origin_session("o")
            .field("f")
            .content("co")
            .kind("k")
            .file("fi")
            .sort("so")
            .order("or")
            .scope("sc")
            .threshold("0.3")
            .before("be")
            .source("src")
            .agent("ag")
            .result("r")
            .severity("se")
            .payload("{}")
            .confirm_plan_id("id")
            .max_chars(1)
            .limit(0)
            .max_depth(-3)
            .dry_run(true)
            .links(true)
            .history(true)
            .include_deleted(true)
            .yes(true)
            .hard(true)
            .delete_link(true)
            .apply(true)
            .rollback(true);
        let kept = options.to_raw().unwrap();
        let raw = kept.raw;
        let texts: Vec<Option<String>> = [
            raw.workspace,
            raw.actor,
            raw.name,
            raw.dst,
            raw.query,
            raw.id,
            raw.type_,
            raw.body,
            raw.body_file,
            raw.description,
            raw.row_class,
            raw.status,
            raw.initiative,
            raw.project_ref,
            raw.audience,
            raw.origin_session,
            raw.field,
            raw.content,
            raw.kind,
            raw.file,
            raw.sort,
            raw.order,
            raw.scope,
            raw.threshold,
            raw.before,
            raw.source,
            raw.agent,
            raw.result,
            raw.severity,
            raw.payload,
            raw.confirm_plan_id,
        ]
        .iter()
        .map(|ptr| text(*ptr))
        .collect();
        let expected = [
            "w", "a", "n", "d", "q", "i", "t", "b", "bf", "de", "c", "s", "in", "p", "au", "o",
            "f", "co", "k", "fi", "so", "or", "sc", "0.3", "be", "src", "ag", "r", "se", "{}",
            "id",
        ];
        let expected: Vec<Option<String>> = expected.iter().map(|s| Some(s.to_string())).collect();
        assert_eq!(texts, expected);
        assert_eq!([raw.max_chars, raw.limit, raw.max_depth], [1, 0, -3]);
        let flags = [
            raw.dry_run,
            raw.links,
            raw.history,
            raw.include_deleted,
            raw.yes,
            raw.hard,
            raw.delete_link,
            raw.apply,
            raw.rollback,
        ];
        assert_eq!(flags, [1; 9]);
    }

    #[test]
    fn i64_min_and_a_nul_are_refused_before_the_call() {
        let error = CuratedOptions::new()
            .limit(i64::MIN)
            .to_raw()
            .err()
            .unwrap();
        assert_eq!(error.code(), sys::MK_E_ARG);
        assert!(error.message().contains("opts.limit"), "{}", error);
        let error = CuratedOptions::new().type_("a\0b").to_raw().err().unwrap();
        assert_eq!(error.code(), sys::MK_E_ARG);
        assert!(error.message().contains("opts.type"), "{}", error);
    }

    #[test]
    fn names_round_trip_in_mk_curated_order() {
        for (i, command) in CuratedCommand::ALL.iter().enumerate() {
            assert_eq!(command.as_raw(), i as i32);
            assert_eq!(CuratedCommand::from_name(command.name()), Some(*command));
        }
        assert_eq!(CuratedCommand::from_name("event"), None);
        assert_eq!(CuratedCommand::EventAdd.to_string(), "event add");
        assert_eq!(CuratedCommand::GetRelevant.to_string(), "get-relevant");
    }
}
