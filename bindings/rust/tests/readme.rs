//! The README's example is the crate doc's example, which `cargo test` runs as a doctest: this
//! keeps the one a reader sees first from drifting away from the one that is tested.
use std::fs;
use std::path::Path;

fn crate_file(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {}", path.display(), e))
}

/// The lines of the first ```rust block of the README.
fn readme_example() -> Vec<String> {
    let readme = crate_file("README.md");
    let mut lines = readme.lines().skip_while(|line| *line != "```rust").skip(1);
    let example: Vec<String> = lines
        .by_ref()
        .take_while(|line| *line != "```")
        .map(str::to_string)
        .collect();
    example
}

/// The visible lines of the first example in the crate doc (`//! # ...` lines are hidden).
fn crate_doc_example() -> Vec<String> {
    let lib = crate_file("src/lib.rs");
    let doc: Vec<&str> = lib
        .lines()
        .take_while(|line| line.starts_with("//!"))
        .map(|line| {
            line.strip_prefix("//!")
                .unwrap()
                .strip_prefix(' ')
                .unwrap_or("")
        })
        .collect();
    doc.iter()
        .skip_while(|line| **line != "```")
        .skip(1)
        .take_while(|line| **line != "```")
        .filter(|line| !line.starts_with("# ") && **line != "#")
        .map(|line| line.to_string())
        .collect()
}

#[test]
fn the_readme_shows_the_tested_example() {
    let readme = readme_example();
    assert!(readme.len() >= 10, "no example in README.md: {:?}", readme);
    assert_eq!(readme, crate_doc_example());
}

/// The lines of the ```rust block under the README heading `heading`.
fn readme_block_under(heading: &str) -> Vec<String> {
    let readme = crate_file("README.md");
    readme
        .lines()
        .skip_while(|line| *line != heading)
        .skip_while(|line| *line != "```rust")
        .skip(1)
        .take_while(|line| *line != "```")
        .map(str::to_string)
        .collect()
}

/// The visible lines of the example in the doc comment right above `#[doc(alias = "<alias>")]`
/// in `file`.
fn doc_example_of(file: &str, alias: &str) -> Vec<String> {
    let source = crate_file(file);
    let lines: Vec<&str> = source.lines().collect();
    let marker = format!("#[doc(alias = \"{}\")]", alias);
    let at = lines
        .iter()
        .position(|line| line.trim() == marker)
        .unwrap_or_else(|| panic!("no {} in {}", marker, file));
    let mut doc: Vec<&str> = lines[..at]
        .iter()
        .rev()
        .map(|line| line.trim_start())
        .take_while(|line| line.starts_with("///"))
        .map(|line| {
            let text = line.strip_prefix("///").unwrap();
            text.strip_prefix(' ').unwrap_or(text)
        })
        .collect();
    doc.reverse();
    doc.iter()
        .skip_while(|line| **line != "```")
        .skip(1)
        .take_while(|line| **line != "```")
        .filter(|line| !line.starts_with("# ") && **line != "#")
        .map(|line| line.to_string())
        .collect()
}

/// Asserts that the README's block under `heading` appears, line for line, in the doc example
/// marked `alias` in `file` (which may add lines around it).
fn assert_readme_block_is_tested(heading: &str, file: &str, alias: &str) {
    let readme = readme_block_under(heading);
    assert!(
        readme.len() >= 5,
        "no example under {} in README.md: {:?}",
        heading,
        readme
    );
    let doc = doc_example_of(file, alias);
    assert!(
        doc.windows(readme.len())
            .any(|window| window == readme.as_slice()),
        "README:\n{}\n\ndoc example of {}:\n{}",
        readme.join("\n"),
        alias,
        doc.join("\n")
    );
}

#[test]
fn the_readme_s_request_example_is_the_tested_one() {
    assert_readme_block_is_tested("## Commands", "src/request.rs", "mk_request");
}

#[test]
fn the_readme_s_judge_example_is_the_tested_one() {
    assert_readme_block_is_tested("## The gate's judge", "src/gate.rs", "mk_judge_fn");
}
