//! `memkit search` (the table's search group, whose `workspace` is "any"): the generated builder
//! `ws.search()` on workspaces of two layouts, each a copy of an example under examples/, searching
//! the workspace's root. The comparison with the CLI byte for byte is the vector runner's
//! (tests/vectors/search_layouts).
mod common;

use common::{copy_dir, data_of, envelope, finding_codes, Json, TempDir};
use memkit::{sys, Arg, Clock, Layout, Workspace, WorkspaceOptions};
use std::path::{Path, PathBuf};

fn now() -> Clock {
    Clock::parse("2026-11-30T10:00:00+00:00").expect("the test clock parses")
}

/// A copy of examples/<name> under `tmp`, opened with `layout`.
fn open_example(tmp: &TempDir, name: &str, layout: Layout) -> (PathBuf, Workspace) {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let root = tmp.path().join(name);
    copy_dir(&examples.join(name), &root).expect("copy the example");
    let ws = Workspace::open_with(&root, &WorkspaceOptions::new().layout(layout))
        .unwrap_or_else(|e| panic!("open examples/{}: {}", name, e));
    (root, ws)
}

#[test]
fn search_runs_on_a_workspace_of_every_layout_and_searches_its_root() {
    let tmp = TempDir::new("search");
    for (name, layout, layout_name, word) in [
        ("project", Layout::Custodian, "custodian", "postgresql"),
        ("tiers", Layout::Tiers, "tiers", "ledger"),
    ] {
        let (_, ws) = open_example(&tmp, name, layout);
        let result = ws.search().query(word).run(&now()).unwrap();
        let json = result.json().unwrap();
        assert_eq!(result.exit_code(), 0, "{}", json);
        assert_eq!(result.plan_id(), None);
        assert!(!result.applied());
        assert_eq!(
            envelope(&result).get("command").and_then(Json::as_str),
            Some("search")
        );
        let data = data_of(&result);
        let hits = data
            .get("hits")
            .and_then(Json::as_array)
            .expect("hits is a list");
        let total = data.get("total").and_then(Json::as_u64).expect("a total");
        assert!(total >= 1, "{} is in examples/{}: {}", word, name, json);
        assert_eq!(data.get("query").and_then(Json::as_str), Some(word));
        for hit in hits {
            assert_eq!(
                hit.get("layout").and_then(Json::as_str),
                Some(layout_name),
                "{}",
                json
            );
            for key in [
                "file",
                "first_line",
                "last_line",
                "id",
                "kind",
                "score",
                "facets",
                "snippet",
            ] {
                assert!(hit.get(key).is_some(), "a hit without {}: {}", key, json);
            }
        }
        let one = ws.search().query(word).limit(1).run(&now()).unwrap();
        assert_eq!(
            data_of(&one)
                .get("hits")
                .and_then(Json::as_array)
                .map(<[Json]>::len),
            Some(1)
        );
        // The builder is the generic request by name, with the empty verb.
        let by_name = ws
            .run(&now(), "search", "", &[("query", Arg::Text(word))])
            .unwrap();
        assert_eq!(by_name.json().unwrap(), json);
    }
}

#[test]
fn a_query_that_does_not_parse_is_a_finding_in_the_result() {
    let tmp = TempDir::new("search-error");
    let (_, ws) = open_example(&tmp, "project", Layout::Custodian);
    let result = ws.search().query("\"unbalanced").run(&now()).unwrap();
    assert_eq!(result.exit_code(), 2, "{}", result.json().unwrap());
    assert_eq!(finding_codes(&result), ["MK-ARG-001"]);
    assert_eq!(
        envelope(&result).get("status").and_then(Json::as_str),
        Some("FAIL")
    );
    let missing = ws.search().run(&now()).unwrap(); // the required QUERY, as the library checks it
    assert_eq!(missing.exit_code(), 2, "{}", missing.json().unwrap());
}

#[test]
fn the_root_is_the_workspace_s_and_a_request_cannot_set_it() {
    let tmp = TempDir::new("search-root");
    let (root, ws) = open_example(&tmp, "tiers", Layout::Tiers);
    let generated = include_str!("../src/commands.rs");
    let builder = &generated[generated.find("impl<'w> Search<'w> {").unwrap()..];
    let builder = &builder[..builder.find("\n}\n").unwrap()];
    assert!(
        !builder.contains("pub fn root("),
        "the workspace gives the root: no setter"
    );
    let refused = ws
        .request("search", "")
        .string("query", "ledger")
        .path("root", root.parent().unwrap())
        .run(&now());
    let error = refused.expect_err("MK_E_ARG");
    assert_eq!(error.code(), sys::MK_E_ARG, "{}", error);
    assert_eq!(
        error.message(),
        "root: given by the workspace, not the request"
    );
    // A builder turned into its request refuses it the same way.
    let request = memkit::Request::from(ws.search().query("ledger"));
    let error = request.path("root", "/").run(&now()).expect_err("MK_E_ARG");
    assert_eq!(
        error.message(),
        "root: given by the workspace, not the request"
    );
}
