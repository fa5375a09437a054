//! The raw layer against the contract: src/sys.rs declares each function memkit.h declares, in
//! header order, under its C prototype, and nothing the export list (capi/memkit.map) lacks; and
//! it copies each integer constant of the header with its value.
use std::fs;
use std::path::{Path, PathBuf};

fn repo_file(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(relative)
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {}", path.display(), e))
}

/// Removes /* ... */ comments, so that names in prose are not taken for declarations.
fn strip_block_comments(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        rest = match rest[start + 2..].find("*/") {
            Some(end) => &rest[start + 2 + end + 2..],
            None => "",
        };
    }
    out.push_str(rest);
    out
}

/// The identifier that ends right before the first '(' of `declaration`.
fn function_name(declaration: &str) -> Option<String> {
    let before = &declaration[..declaration.find('(')?];
    let name: String = before
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if name.is_empty() {
        None
    } else {
        Some(name.chars().rev().collect())
    }
}

/// Removes preprocessor lines (with their backslash continuations): MK_API's own definitions.
fn strip_directives(text: &str) -> String {
    let mut out = String::new();
    let mut continued = false;
    for line in text.lines() {
        if continued || line.trim_start().starts_with('#') {
            continued = line.trim_end().ends_with('\\');
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The functions memkit.h declares with MK_API, in header order.
fn header_functions() -> Vec<String> {
    let header = strip_directives(&strip_block_comments(&read(&repo_file("capi/memkit.h"))));
    header
        .split("MK_API")
        .skip(1)
        .map(|after| {
            let declaration = &after[..after.find(';').expect("a declaration ends with ';'")];
            function_name(declaration).unwrap_or_else(|| panic!("no name in {:?}", declaration))
        })
        .collect()
}

/// The functions src/sys.rs declares, in file order, each with the comment line above it.
fn sys_functions() -> Vec<(String, String)> {
    let sys = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/sys.rs"));
    let lines: Vec<&str> = sys.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let line = line.trim_start();
        if let Some(rest) = line.strip_prefix("pub fn ") {
            let name = function_name(rest).expect("a name before '('");
            // The prototype comment ends right above the declaration.
            let mut comment = Vec::new();
            for above in lines[..i].iter().rev() {
                match above.trim_start().strip_prefix("//") {
                    Some(text) => comment.push(text.trim()),
                    None => break,
                }
            }
            comment.reverse();
            found.push((name, comment.join(" ")));
        }
    }
    found
}

#[test]
fn sys_declares_every_header_function_in_header_order() {
    let header = header_functions();
    assert_eq!(
        header.len(),
        33,
        "memkit.h 0.2 declares 33 functions: {:?}",
        header
    );
    let sys: Vec<String> = sys_functions().into_iter().map(|(name, _)| name).collect();
    assert_eq!(sys, header);
}

#[test]
fn every_sys_function_has_its_c_prototype_above_it() {
    for (name, comment) in sys_functions() {
        let prototype = format!("{}(", name);
        assert!(
            comment.contains(&prototype) && comment.trim_end().ends_with(';'),
            "{}: no C prototype comment above it (found {:?})",
            name,
            comment
        );
    }
}

#[test]
fn the_export_list_names_exactly_the_bound_functions() {
    let map = strip_block_comments(&read(&repo_file("capi/memkit.map")));
    let globals = map
        .split("global:")
        .nth(1)
        .and_then(|rest| rest.split("local:").next())
        .expect("a global: list in memkit.map");
    let mut exported: Vec<String> = globals
        .split(';')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(str::to_string)
        .collect();
    exported.sort();
    let mut bound: Vec<String> = sys_functions().into_iter().map(|(name, _)| name).collect();
    bound.sort();
    assert_eq!(bound, exported);
}

/// The integer constants memkit.h defines, `#define MK_X 1u` and enum members `MK_X = -1`, with
/// their values (expressions such as MK_VERSION_NUMBER are left to the tests that use them).
fn header_constants() -> Vec<(String, i64)> {
    let header = strip_block_comments(&read(&repo_file("capi/memkit.h")));
    let mut found = Vec::new();
    for line in header.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("#define ") {
            let mut words = rest.split_whitespace();
            if let (Some(name), Some(value)) = (words.next(), words.next()) {
                if let Ok(value) = value.trim_end_matches('u').parse::<i64>() {
                    if name.starts_with("MK_") {
                        found.push((name.to_string(), value));
                    }
                }
            }
            continue;
        }
        for member in line.split(['{', '}', ',', ';']) {
            let mut sides = member.splitn(2, '=');
            if let (Some(name), Some(value)) = (sides.next(), sides.next()) {
                let name = name.trim();
                let is_name = name.starts_with("MK_")
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if let (true, Ok(value)) = (is_name, value.trim().parse::<i64>()) {
                    found.push((name.to_string(), value));
                }
            }
        }
    }
    found
}

/// The integer constants src/sys.rs declares (`pub const MK_X: T = 1;`), with their values.
fn sys_constants() -> Vec<(String, i64)> {
    let sys = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/sys.rs"));
    let mut found = Vec::new();
    for line in sys.lines() {
        let rest = match line.trim().strip_prefix("pub const ") {
            Some(rest) => rest,
            None => continue,
        };
        let name = rest.split(':').next().unwrap_or("").trim();
        let value = rest
            .rsplit('=')
            .next()
            .unwrap_or("")
            .trim()
            .trim_end_matches(';');
        if let Ok(value) = value.replace('_', "").parse::<i64>() {
            found.push((name.to_string(), value));
        }
    }
    found
}

#[test]
fn sys_copies_every_header_constant_with_its_value() {
    let mut header = header_constants();
    for expected in [
        "MK_E_CALLBACK",
        "MK_CLOCK_SYSTEM",
        "MK_LAYOUT_CURATED",
        "MK_WORKSPACE_OPTIONS_VERSION",
        "MK_BUDGET_NOT_ENABLED",
        "MK_GATE_PLACEMENT",
        "MK_JUDGE_ABSTAIN",
        "MK_UNIT_TEXT",
    ] {
        assert!(
            header.iter().any(|(name, _)| name == expected),
            "{} not found among the header's constants: {:?}",
            expected,
            header
        );
    }
    let mut sys = sys_constants();
    header.sort();
    sys.sort();
    let only_in = |these: &[(String, i64)], those: &[(String, i64)]| -> Vec<(String, i64)> {
        these
            .iter()
            .filter(|c| !those.contains(c))
            .cloned()
            .collect()
    };
    assert!(
        sys == header,
        "memkit.h but not src/sys.rs: {:?}; src/sys.rs but not memkit.h: {:?}",
        only_in(&header, &sys),
        only_in(&sys, &header)
    );
}
