//! Section - Three-tier session memory of memkit.h (spec tiers3.md): the commands of
//! `memkit tiers` ([`TiersCommand`]) and their arguments ([`TiersOptions`]), run on a workspace
//! opened with [`Layout::Tiers`](crate::Layout::Tiers) by
//! [`Workspace::tiers_run`](crate::Workspace::tiers_run).

use crate::c_text::{path_cstring, ptr_or_null, text_cstring};
use crate::error::{Error, Result};
use crate::sys;
use std::ffi::CString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::ptr;

/// The commands of `memkit tiers` (`mk_tiers_command`), each run by
/// [`Workspace::tiers_run`](crate::Workspace::tiers_run) with the arguments it takes set in a
/// [`TiersOptions`]; [`name`](TiersCommand::name) is the CLI's spelling.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TiersCommand {
    /// `tiers init`: `memory/`, `memory/sessions/`, `memory/data/`, an empty manifest and the
    /// `global.md` skeleton; never overwrites.
    #[doc(alias = "MK_TIERS_INIT")]
    Init,
    /// `tiers session-init`: the context to load for a new chat (`global.md`, recent logs and
    /// themes, optionally cut to `max_tokens`); logs a `SESSION_INIT` entry unless `no_log`.
    #[doc(alias = "MK_TIERS_SESSION_INIT")]
    SessionInit,
    /// `tiers log-turn`: one L1 entry (`content`).
    #[doc(alias = "MK_TIERS_LOG_TURN")]
    LogTurn,
    /// `tiers read-logs`: the recent L1 files.
    #[doc(alias = "MK_TIERS_READ_LOGS")]
    ReadLogs,
    /// `tiers persist-turn`: L1 (`raw_content`), then L2 with `extracted_content` and `theme`,
    /// then L3 with `promote_global`; all or nothing.
    #[doc(alias = "MK_TIERS_PERSIST_TURN")]
    PersistTurn,
    /// `tiers write-theme`: an L1 entry and an L2 note (`theme`, `content`).
    #[doc(alias = "MK_TIERS_WRITE_THEME")]
    WriteTheme,
    /// `tiers read-theme`: a theme's recent L2 notes.
    #[doc(alias = "MK_TIERS_READ_THEME")]
    ReadTheme,
    /// `tiers read-global`: `global.md` and its read-order sections.
    #[doc(alias = "MK_TIERS_READ_GLOBAL")]
    ReadGlobal,
    /// `tiers write-global`: an L1 entry, then `content` appended to `global.md` (or, with
    /// `replace`, written over it after a backup copy).
    #[doc(alias = "MK_TIERS_WRITE_GLOBAL")]
    WriteGlobal,
    /// `tiers list-themes`.
    #[doc(alias = "MK_TIERS_LIST_THEMES")]
    ListThemes,
    /// `tiers write-data`: an L1 entry, the CSV file `memory/data/<name>` and its manifest entry.
    #[doc(alias = "MK_TIERS_WRITE_DATA")]
    WriteData,
    /// `tiers read-data`: a CSV file (its first `head` records) and its manifest entry.
    #[doc(alias = "MK_TIERS_READ_DATA")]
    ReadData,
    /// `tiers list-data`.
    #[doc(alias = "MK_TIERS_LIST_DATA")]
    ListData,
    /// `tiers archive-themes`: a dry run of the plan moving L2 notes older than `days` to
    /// `memory/archive/`, or, with `confirm_plan_id`, its apply (`--apply --confirm-plan ID`).
    #[doc(alias = "MK_TIERS_ARCHIVE_THEMES")]
    ArchiveThemes,
    /// `tiers template NAME`: the body skeleton of a template (`template_name`).
    #[doc(alias = "MK_TIERS_TEMPLATE")]
    Template,
}

impl TiersCommand {
    /// Every command, in `MK_TIERS_*` order.
    pub const ALL: [TiersCommand; 15] = [
        TiersCommand::Init,
        TiersCommand::SessionInit,
        TiersCommand::LogTurn,
        TiersCommand::ReadLogs,
        TiersCommand::PersistTurn,
        TiersCommand::WriteTheme,
        TiersCommand::ReadTheme,
        TiersCommand::ReadGlobal,
        TiersCommand::WriteGlobal,
        TiersCommand::ListThemes,
        TiersCommand::WriteData,
        TiersCommand::ReadData,
        TiersCommand::ListData,
        TiersCommand::ArchiveThemes,
        TiersCommand::Template,
    ];

    /// The `MK_TIERS_*` value.
    pub fn as_raw(self) -> sys::mk_tiers_command {
        match self {
            TiersCommand::Init => sys::MK_TIERS_INIT,
            TiersCommand::SessionInit => sys::MK_TIERS_SESSION_INIT,
            TiersCommand::LogTurn => sys::MK_TIERS_LOG_TURN,
            TiersCommand::ReadLogs => sys::MK_TIERS_READ_LOGS,
            TiersCommand::PersistTurn => sys::MK_TIERS_PERSIST_TURN,
            TiersCommand::WriteTheme => sys::MK_TIERS_WRITE_THEME,
            TiersCommand::ReadTheme => sys::MK_TIERS_READ_THEME,
            TiersCommand::ReadGlobal => sys::MK_TIERS_READ_GLOBAL,
            TiersCommand::WriteGlobal => sys::MK_TIERS_WRITE_GLOBAL,
            TiersCommand::ListThemes => sys::MK_TIERS_LIST_THEMES,
            TiersCommand::WriteData => sys::MK_TIERS_WRITE_DATA,
            TiersCommand::ReadData => sys::MK_TIERS_READ_DATA,
            TiersCommand::ListData => sys::MK_TIERS_LIST_DATA,
            TiersCommand::ArchiveThemes => sys::MK_TIERS_ARCHIVE_THEMES,
            TiersCommand::Template => sys::MK_TIERS_TEMPLATE,
        }
    }

    /// The CLI's name, `memkit tiers <name>`: `"init"`, `"session-init"`, ..., `"template"`.
    pub fn name(self) -> &'static str {
        match self {
            TiersCommand::Init => "init",
            TiersCommand::SessionInit => "session-init",
            TiersCommand::LogTurn => "log-turn",
            TiersCommand::ReadLogs => "read-logs",
            TiersCommand::PersistTurn => "persist-turn",
            TiersCommand::WriteTheme => "write-theme",
            TiersCommand::ReadTheme => "read-theme",
            TiersCommand::ReadGlobal => "read-global",
            TiersCommand::WriteGlobal => "write-global",
            TiersCommand::ListThemes => "list-themes",
            TiersCommand::WriteData => "write-data",
            TiersCommand::ReadData => "read-data",
            TiersCommand::ListData => "list-data",
            TiersCommand::ArchiveThemes => "archive-themes",
            TiersCommand::Template => "template",
        }
    }

    /// The command the CLI calls `name`, if any (`"recover"` is not one: it is
    /// [`Workspace::recover`](crate::Workspace::recover)).
    pub fn from_name(name: &str) -> Option<TiersCommand> {
        TiersCommand::ALL
            .iter()
            .copied()
            .find(|command| command.name() == name)
    }
}

impl fmt::Display for TiersCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The arguments of a `memkit tiers` command (`mk_tiers_options`): each setter is the CLI option
/// of the same name (spec tiers3.md §3, §8), and what is not set is not given. A command given an
/// argument it does not take returns a result with the CLI's fatal MK-ARG-001 "unknown option"
/// (exit code 2), so set only the ones the command takes:
///
/// - [`SessionInit`](TiersCommand::SessionInit): `session_id`, `recent_days`, `theme_limit`,
///   `no_log`, `max_tokens`;
/// - [`LogTurn`](TiersCommand::LogTurn): `content`, `entry_type`, `tools`, `session_id`;
/// - [`ReadLogs`](TiersCommand::ReadLogs): `days_back`, `limit`;
/// - [`PersistTurn`](TiersCommand::PersistTurn): `raw_content`, `entry_type`,
///   `extracted_content`, `theme`, `template_name`, `title`, `tools`, `session_id`,
///   `promote_global`;
/// - [`WriteTheme`](TiersCommand::WriteTheme): `theme`, `content`, `template_name`, `title`,
///   `promote_global`, `raw_content`, `entry_type`, `tools`, `session_id`;
/// - [`ReadTheme`](TiersCommand::ReadTheme): `theme`, `hours_back`, `limit`;
/// - [`WriteGlobal`](TiersCommand::WriteGlobal): `content`, `append` or `replace`, `raw_content`,
///   `entry_type`, `tools`, `session_id`;
/// - [`WriteData`](TiersCommand::WriteData): `name`, `csv_content` or `source_file`, `replace`,
///   `description`, `source_label`, `columns`, `raw_content`, `entry_type`, `tools`,
///   `session_id`;
/// - [`ReadData`](TiersCommand::ReadData): `name`, `head`;
/// - [`ArchiveThemes`](TiersCommand::ArchiveThemes): `days`, `confirm_plan_id`;
/// - [`Template`](TiersCommand::Template): `template_name` (the template shown).
///
/// `Init`, `ReadGlobal`, `ListThemes` and `ListData` take none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TiersOptions {
    content: Option<String>,
    raw_content: Option<String>,
    extracted_content: Option<String>,
    theme: Option<String>,
    template_name: Option<String>,
    title: Option<String>,
    entry_type: Option<String>,
    session_id: Option<String>,
    tools_json: Option<String>,
    name: Option<String>,
    csv_content: Option<String>,
    source_file: Option<PathBuf>,
    description: Option<String>,
    source_label: Option<String>,
    columns_json: Option<String>,
    confirm_plan_id: Option<String>,
    recent_days: Option<i64>,
    theme_limit: Option<i64>,
    max_tokens: Option<i64>,
    days_back: Option<i64>,
    limit: Option<i64>,
    hours_back: Option<i64>,
    head: Option<i64>,
    days: Option<i64>,
    no_log: bool,
    promote_global: bool,
    append: bool,
    replace: bool,
}

/// A JSON array of `items` as strings: what `--tools` and `--columns-json` parse.
fn json_string_array<I, S>(items: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let mut json = String::from("[");
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            json.push(',');
        }
        json.push('"');
        for c in item.as_ref().chars() {
            match c {
                '"' => json.push_str("\\\""),
                '\\' => json.push_str("\\\\"),
                c if (c as u32) < 0x20 => json.push_str(&format!("\\u{:04x}", c as u32)),
                c => json.push(c),
            }
        }
        json.push('"');
    }
    json.push(']');
    json
}

/// An `mk_tiers_options` and the strings its pointers reach, which must outlive the call.
pub(crate) struct RawTiersOptions {
    pub(crate) raw: sys::mk_tiers_options,
    _strings: Vec<CString>,
}

impl TiersOptions {
    /// Nothing given (`mk_tiers_options_init`): each command's defaults.
    pub fn new() -> TiersOptions {
        TiersOptions::default()
    }

    /// `--content`: the note or log text (stripped; it must not be empty after stripping).
    pub fn content(mut self, content: impl Into<String>) -> TiersOptions {
        self.content = Some(content.into());
        self
    }

    /// `--raw-content`: the L1 entry's text.
    pub fn raw_content(mut self, raw_content: impl Into<String>) -> TiersOptions {
        self.raw_content = Some(raw_content.into());
        self
    }

    /// `--extracted-content`: the L2 note of `persist-turn` (needs [`theme`](Self::theme)).
    pub fn extracted_content(mut self, extracted_content: impl Into<String>) -> TiersOptions {
        self.extracted_content = Some(extracted_content.into());
        self
    }

    /// `--theme`: always the caller's (spec tiers3.md §7); memkit never detects one.
    pub fn theme(mut self, theme: impl Into<String>) -> TiersOptions {
        self.theme = Some(theme.into());
        self
    }

    /// `--template decision|error|task`; for [`TiersCommand::Template`], the template shown.
    pub fn template_name(mut self, template_name: impl Into<String>) -> TiersOptions {
        self.template_name = Some(template_name.into());
        self
    }

    /// `--title`: the L2 heading's title.
    pub fn title(mut self, title: impl Into<String>) -> TiersOptions {
        self.title = Some(title.into());
        self
    }

    /// `--entry-type` (default `turn`), written upper-cased in the L1 heading.
    pub fn entry_type(mut self, entry_type: impl Into<String>) -> TiersOptions {
        self.entry_type = Some(entry_type.into());
        self
    }

    /// `--session-id`.
    pub fn session_id(mut self, session_id: impl Into<String>) -> TiersOptions {
        self.session_id = Some(session_id.into());
        self
    }

    /// `--tools` as JSON text, passed on as it is (the library checks that it is an array of
    /// single-line strings). [`tools`](Self::tools) builds it from the names.
    pub fn tools_json(mut self, tools_json: impl Into<String>) -> TiersOptions {
        self.tools_json = Some(tools_json.into());
        self
    }

    /// `--tools`: the tools used, as the JSON array of strings the CLI takes. No tools (an empty
    /// array) writes no `**Tools:**` line.
    pub fn tools<I, S>(self, tools: I) -> TiersOptions
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.tools_json(json_string_array(tools))
    }

    /// `--name`: the data file's name (`.csv` is appended when missing).
    pub fn name(mut self, name: impl Into<String>) -> TiersOptions {
        self.name = Some(name.into());
        self
    }

    /// `--csv-content`: the CSV text, stored byte for byte; `""` is an empty CSV.
    pub fn csv_content(mut self, csv_content: impl Into<String>) -> TiersOptions {
        self.csv_content = Some(csv_content.into());
        self
    }

    /// `--source-file`: a CSV file to copy, relative to the current working directory (not the
    /// workspace).
    pub fn source_file(mut self, source_file: impl AsRef<Path>) -> TiersOptions {
        self.source_file = Some(source_file.as_ref().to_path_buf());
        self
    }

    /// `--description` of the data file, kept in the manifest.
    pub fn description(mut self, description: impl Into<String>) -> TiersOptions {
        self.description = Some(description.into());
        self
    }

    /// `--source-label` of the data file, kept in the manifest.
    pub fn source_label(mut self, source_label: impl Into<String>) -> TiersOptions {
        self.source_label = Some(source_label.into());
        self
    }

    /// `--columns-json` as JSON text, passed on as it is. [`columns`](Self::columns) builds it
    /// from the names.
    pub fn columns_json(mut self, columns_json: impl Into<String>) -> TiersOptions {
        self.columns_json = Some(columns_json.into());
        self
    }

    /// `--columns-json`: the declared columns; the manifest warns (MK-TIERS-013) when they
    /// differ from the CSV's header.
    pub fn columns<I, S>(self, columns: I) -> TiersOptions
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.columns_json(json_string_array(columns))
    }

    /// `--apply --confirm-plan ID` of `archive-themes`: plans again and moves only when the new
    /// plan's ID is `confirm_plan_id` (else MK-PLAN-001, exit code 2, nothing written).
    pub fn confirm_plan_id(mut self, confirm_plan_id: impl Into<String>) -> TiersOptions {
        self.confirm_plan_id = Some(confirm_plan_id.into());
        self
    }

    /// `--recent-days` of `session-init` (default 7).
    pub fn recent_days(mut self, recent_days: i64) -> TiersOptions {
        self.recent_days = Some(recent_days);
        self
    }

    /// `--theme-limit` of `session-init` (default 8).
    pub fn theme_limit(mut self, theme_limit: i64) -> TiersOptions {
        self.theme_limit = Some(theme_limit);
        self
    }

    /// `--max-tokens` of `session-init`: cut the assembled context to this budget.
    pub fn max_tokens(mut self, max_tokens: i64) -> TiersOptions {
        self.max_tokens = Some(max_tokens);
        self
    }

    /// `--days-back` of `read-logs` (default 7).
    pub fn days_back(mut self, days_back: i64) -> TiersOptions {
        self.days_back = Some(days_back);
        self
    }

    /// `--limit` of `read-logs` and `read-theme` (default 20).
    pub fn limit(mut self, limit: i64) -> TiersOptions {
        self.limit = Some(limit);
        self
    }

    /// `--hours-back` of `read-theme` (default 24).
    pub fn hours_back(mut self, hours_back: i64) -> TiersOptions {
        self.hours_back = Some(hours_back);
        self
    }

    /// `--head` of `read-data`: the file's bytes through its `head`th record (the header is
    /// record 1).
    pub fn head(mut self, head: i64) -> TiersOptions {
        self.head = Some(head);
        self
    }

    /// `--days` of `archive-themes` (default 90).
    pub fn days(mut self, days: i64) -> TiersOptions {
        self.days = Some(days);
        self
    }

    /// `--no-log` of `session-init`: write no `SESSION_INIT` entry.
    pub fn no_log(mut self, no_log: bool) -> TiersOptions {
        self.no_log = no_log;
        self
    }

    /// `--promote-global` of `persist-turn` and `write-theme`: also append the note to
    /// `global.md`.
    pub fn promote_global(mut self, promote_global: bool) -> TiersOptions {
        self.promote_global = promote_global;
        self
    }

    /// `--append` of `write-global` (its default).
    pub fn append(mut self, append: bool) -> TiersOptions {
        self.append = append;
        self
    }

    /// `--replace` of `write-global` (backs `global.md` up first) and `write-data` (overwrite
    /// an existing CSV).
    pub fn replace(mut self, replace: bool) -> TiersOptions {
        self.replace = replace;
        self
    }

    /// The C struct, filled by the library's init and then with what was set. Its strings live
    /// in the returned value, which must outlive the call. A NUL inside a string, and an integer
    /// of `i64::MIN` (C's `MK_TIERS_UNSET`, which would silently mean "not given"), are
    /// `MK_E_ARG` before the library is called.
    #[doc(alias = "mk_tiers_options_init")]
    pub(crate) fn to_raw(&self) -> Result<RawTiersOptions> {
        let mut raw = sys::mk_tiers_options {
            version: 0,
            content: ptr::null(),
            raw_content: ptr::null(),
            extracted_content: ptr::null(),
            theme: ptr::null(),
            template_name: ptr::null(),
            title: ptr::null(),
            entry_type: ptr::null(),
            session_id: ptr::null(),
            tools_json: ptr::null(),
            name: ptr::null(),
            csv_content: ptr::null(),
            source_file: ptr::null(),
            description: ptr::null(),
            source_label: ptr::null(),
            columns_json: ptr::null(),
            confirm_plan_id: ptr::null(),
            recent_days: 0,
            theme_limit: 0,
            max_tokens: 0,
            days_back: 0,
            limit: 0,
            hours_back: 0,
            head: 0,
            days: 0,
            no_log: 0,
            promote_global: 0,
            append: 0,
            replace: 0,
        };
        // SAFETY: `raw` is a valid struct to fill.
        unsafe { sys::mk_tiers_options_init(&mut raw) };

        // A CString's bytes live on the heap, so moving it into `strings` after its pointer was
        // taken keeps that pointer valid.
        let mut strings = Vec::new();
        let texts: [(&str, &Option<String>, &mut *const std::os::raw::c_char); 15] = [
            ("opts.content", &self.content, &mut raw.content),
            ("opts.raw_content", &self.raw_content, &mut raw.raw_content),
            (
                "opts.extracted_content",
                &self.extracted_content,
                &mut raw.extracted_content,
            ),
            ("opts.theme", &self.theme, &mut raw.theme),
            (
                "opts.template_name",
                &self.template_name,
                &mut raw.template_name,
            ),
            ("opts.title", &self.title, &mut raw.title),
            ("opts.entry_type", &self.entry_type, &mut raw.entry_type),
            ("opts.session_id", &self.session_id, &mut raw.session_id),
            ("opts.tools_json", &self.tools_json, &mut raw.tools_json),
            ("opts.name", &self.name, &mut raw.name),
            ("opts.csv_content", &self.csv_content, &mut raw.csv_content),
            ("opts.description", &self.description, &mut raw.description),
            (
                "opts.source_label",
                &self.source_label,
                &mut raw.source_label,
            ),
            (
                "opts.columns_json",
                &self.columns_json,
                &mut raw.columns_json,
            ),
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
        if let Some(source_file) = &self.source_file {
            let path = Some(path_cstring("opts.source_file", source_file)?);
            raw.source_file = ptr_or_null(&path);
            strings.extend(path);
        }

        let numbers = [
            ("opts.recent_days", self.recent_days, &mut raw.recent_days),
            ("opts.theme_limit", self.theme_limit, &mut raw.theme_limit),
            ("opts.max_tokens", self.max_tokens, &mut raw.max_tokens),
            ("opts.days_back", self.days_back, &mut raw.days_back),
            ("opts.limit", self.limit, &mut raw.limit),
            ("opts.hours_back", self.hours_back, &mut raw.hours_back),
            ("opts.head", self.head, &mut raw.head),
            ("opts.days", self.days, &mut raw.days),
        ];
        for (what, value, field) in numbers {
            if let Some(value) = value {
                if value == sys::MK_TIERS_UNSET {
                    return Err(Error::new(
                        sys::MK_E_ARG,
                        format!(
                            "{}: i64::MIN is MK_TIERS_UNSET (\"not given\"), not a value",
                            what
                        ),
                    ));
                }
                *field = value;
            }
        }

        raw.no_log = i32::from(self.no_log);
        raw.promote_global = i32::from(self.promote_global);
        raw.append = i32::from(self.append);
        raw.replace = i32::from(self.replace);
        Ok(RawTiersOptions {
            raw,
            _strings: strings,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    fn text(ptr: *const std::os::raw::c_char) -> Option<String> {
        if ptr.is_null() {
            None
        } else {
            // SAFETY: a non-NULL field points into a CString the RawTiersOptions keeps.
            Some(unsafe { CStr::from_ptr(ptr) }.to_str().unwrap().to_string())
        }
    }

    #[test]
    fn nothing_set_is_the_library_s_init() {
        let raw = TiersOptions::new().to_raw().unwrap().raw;
        assert_eq!(raw.version, sys::MK_TIERS_OPTIONS_VERSION);
        assert!(raw.content.is_null() && raw.confirm_plan_id.is_null());
        assert!(raw.source_file.is_null() && raw.columns_json.is_null());
        for number in [
            raw.recent_days,
            raw.theme_limit,
            raw.max_tokens,
            raw.days_back,
            raw.limit,
            raw.hours_back,
            raw.head,
            raw.days,
        ] {
            assert_eq!(number, sys::MK_TIERS_UNSET);
        }
        assert_eq!(
            (raw.no_log, raw.promote_global, raw.append, raw.replace),
            (0, 0, 0, 0)
        );
    }

    #[test]
    fn each_setter_fills_its_own_field() {
        let options = TiersOptions::new()
            .content("c")
            .raw_content("r")
            .extracted_content("x")
            .theme("t")
            .template_name("decision")
            .title("T")
            .entry_type("e")
            .session_id("s")
            .tools(["a", "b"])
            .name("n")
            .csv_content("")
            .source_file("f.csv")
            .description("d")
            .source_label("l")
            .columns(["k"])
            .confirm_plan_id("p")
            .recent_days(1)
            .theme_limit(2)
            .max_tokens(3)
            .days_back(4)
            .limit(5)
            .hours_back(6)
            .head(0)
            .days(-8)
            .no_log(true)
            .promote_global(true)
            .append(true)
            .replace(true);
        let kept = options.to_raw().unwrap();
        let raw = kept.raw;
        let texts: Vec<Option<String>> = [
            raw.content,
            raw.raw_content,
            raw.extracted_content,
            raw.theme,
            raw.template_name,
            raw.title,
            raw.entry_type,
            raw.session_id,
            raw.tools_json,
            raw.name,
            raw.csv_content,
            raw.source_file,
            raw.description,
            raw.source_label,
            raw.columns_json,
            raw.confirm_plan_id,
        ]
        .iter()
        .map(|ptr| text(*ptr))
        .collect();
        let expected = [
            "c",
            "r",
            "x",
            "t",
            "decision",
            "T",
            "e",
            "s",
            "[\"a\",\"b\"]",
            "n",
            "",
            "f.csv",
            "d",
            "l",
            "[\"k\"]",
            "p",
        ];
        let expected: Vec<Option<String>> = expected.iter().map(|s| Some(s.to_string())).collect();
        assert_eq!(texts, expected);
        assert_eq!(
            [
                raw.recent_days,
                raw.theme_limit,
                raw.max_tokens,
                raw.days_back,
                raw.limit,
                raw.hours_back,
                raw.head,
                raw.days
            ],
            [1, 2, 3, 4, 5, 6, 0, -8]
        );
        assert_eq!(
            (raw.no_log, raw.promote_global, raw.append, raw.replace),
            (1, 1, 1, 1)
        );
    }

    #[test]
    fn string_arrays_are_escaped_json() {
        assert_eq!(json_string_array(Vec::<&str>::new()), "[]");
        assert_eq!(
            json_string_array(["say \"hi\"", "a\\b", "tab\there", "é"]),
            "[\"say \\\"hi\\\"\",\"a\\\\b\",\"tab\\u0009here\",\"é\"]"
        );
    }

    #[test]
    fn i64_min_and_a_nul_are_refused_before_the_call() {
        let error = TiersOptions::new().head(i64::MIN).to_raw().err().unwrap();
        assert_eq!(error.code(), sys::MK_E_ARG);
        assert!(error.message().contains("opts.head"), "{}", error);
        let error = TiersOptions::new().theme("a\0b").to_raw().err().unwrap();
        assert_eq!(error.code(), sys::MK_E_ARG);
        assert!(error.message().contains("opts.theme"), "{}", error);
    }

    #[test]
    fn names_round_trip_in_mk_tiers_order() {
        for (i, command) in TiersCommand::ALL.iter().enumerate() {
            assert_eq!(command.as_raw(), i as i32);
            assert_eq!(TiersCommand::from_name(command.name()), Some(*command));
        }
        assert_eq!(TiersCommand::from_name("recover"), None);
        assert_eq!(TiersCommand::PersistTurn.to_string(), "persist-turn");
    }
}
