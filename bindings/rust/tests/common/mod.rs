//! What the tests share: a temporary folder that removes itself, a recursive copy, a small JSON
//! reader for tests/vectors/*/case.json (the crate takes no dependencies, so no serde), and the
//! parts of a command's result envelope the tests look at.
#![allow(dead_code)] // each test binary uses its own part of this module

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// A fresh folder under the system's temporary directory, removed (with its contents) on drop.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    pub fn new(label: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let name = format!(
            "memkit-rust-{}-{}-{}-{}",
            label,
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::SeqCst),
            nanos
        );
        let path = std::env::temp_dir().join(name);
        // create_dir (not create_dir_all) fails if the name is taken, so no two tests share one.
        fs::create_dir(&path).expect("create a temporary folder");
        TempDir { path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
    }
}

/// Copies the folder `from` into `to` (created if missing), recursively.
pub fn copy_dir(from: &Path, to: &Path) -> io::Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else if kind.is_file() {
            fs::copy(entry.path(), &target)?;
        } else {
            return Err(io::Error::new(
                io::ErrorKind::Other,
                format!("{}: neither a file nor a folder", entry.path().display()),
            ));
        }
    }
    Ok(())
}

/// A JSON value. Objects keep their keys in file order; numbers keep their text.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(String),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Number(text) => text.parse().ok(),
            _ => None,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Json::Number(text) => text.parse().ok(),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }
}

/// Parses one JSON document (RFC 8259), surrounded by optional whitespace.
pub fn parse_json(text: &str) -> Result<Json, String> {
    let mut parser = Parser {
        bytes: text.as_bytes(),
        at: 0,
    };
    let value = parser.value()?;
    parser.skip_space();
    if parser.at != parser.bytes.len() {
        return Err(parser.fail("text after the value"));
    }
    Ok(value)
}

struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Parser<'a> {
    fn fail(&self, what: &str) -> String {
        format!("JSON: {} at byte {}", what, self.at)
    }

    fn skip_space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn expect_byte(&mut self, byte: u8) -> Result<(), String> {
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.fail(&format!("expected '{}'", byte as char)))
        }
    }

    fn literal(&mut self, word: &str, value: Json) -> Result<Json, String> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.fail("unknown literal"))
        }
    }

    fn value(&mut self) -> Result<Json, String> {
        self.skip_space();
        match self.peek() {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => self.string().map(Json::String),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'n') => self.literal("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.fail("unexpected byte")),
            None => Err(self.fail("unexpected end")),
        }
    }

    fn object(&mut self) -> Result<Json, String> {
        self.expect_byte(b'{')?;
        let mut members = Vec::new();
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Json::Object(members));
        }
        loop {
            self.skip_space();
            let key = self.string()?;
            self.skip_space();
            self.expect_byte(b':')?;
            let value = self.value()?;
            members.push((key, value));
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Json::Object(members));
                }
                _ => return Err(self.fail("expected ',' or '}'")),
            }
        }
    }

    fn array(&mut self) -> Result<Json, String> {
        self.expect_byte(b'[')?;
        let mut items = Vec::new();
        self.skip_space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Json::Array(items));
        }
        loop {
            items.push(self.value()?);
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Json::Array(items));
                }
                _ => return Err(self.fail("expected ',' or ']'")),
            }
        }
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let digits = |p: &mut Parser<'_>| {
            let from = p.at;
            while let Some(b'0'..=b'9') = p.peek() {
                p.at += 1;
            }
            p.at > from
        };
        if !digits(self) {
            return Err(self.fail("a number needs digits"));
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if !digits(self) {
                return Err(self.fail("a fraction needs digits"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            if !digits(self) {
                return Err(self.fail("an exponent needs digits"));
            }
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).map_err(|e| e.to_string())?;
        Ok(Json::Number(text.to_string()))
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let end = self.at + 4;
        let hex = self
            .bytes
            .get(self.at..end)
            .and_then(|h| std::str::from_utf8(h).ok())
            .ok_or_else(|| self.fail("\\u needs four hex digits"))?;
        let value =
            u32::from_str_radix(hex, 16).map_err(|_| self.fail("\\u needs four hex digits"))?;
        self.at = end;
        Ok(value)
    }

    fn string(&mut self) -> Result<String, String> {
        self.expect_byte(b'"')?;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let byte = self.peek().ok_or_else(|| self.fail("unclosed string"))?;
            self.at += 1;
            match byte {
                b'"' => break,
                b'\\' => {
                    let escape = self.peek().ok_or_else(|| self.fail("unclosed escape"))?;
                    self.at += 1;
                    let c = match escape {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let first = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&first) {
                                // A high surrogate: the low half must follow as another \u.
                                if self.bytes.get(self.at..self.at + 2) != Some(b"\\u") {
                                    return Err(self.fail("a lone high surrogate"));
                                }
                                self.at += 2;
                                let second = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&second) {
                                    return Err(self.fail("a bad low surrogate"));
                                }
                                0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                            } else {
                                first
                            };
                            char::from_u32(code).ok_or_else(|| self.fail("a lone low surrogate"))?
                        }
                        _ => return Err(self.fail("unknown escape")),
                    };
                    let mut utf8 = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
                }
                0x00..=0x1F => return Err(self.fail("a control character inside a string")),
                _ => out.push(byte),
            }
        }
        String::from_utf8(out).map_err(|_| self.fail("a string that is not UTF-8"))
    }
}

/// Checks the JSON reader on what case.json files hold; called by the vectors test so a broken
/// reader fails loudly instead of silently skipping expectations.
pub fn self_test_json() {
    let value = parse_json(concat!(
        r#" {"a": [1, -2.5e3, true, false, null], "#,
        r#""s": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "o": {}} "#
    ))
    .unwrap();
    assert_eq!(
        value.get("a").unwrap().as_array().unwrap(),
        &[
            Json::Number("1".into()),
            Json::Number("-2.5e3".into()),
            Json::Bool(true),
            Json::Bool(false),
            Json::Null
        ][..]
    );
    assert_eq!(
        value.get("s").unwrap().as_str().unwrap(),
        "x\"\\/\u{8}\u{c}\n\r\t\u{e9}\u{1F600}"
    );
    assert_eq!(value.get("o"), Some(&Json::Object(vec![])));
    assert!(parse_json("{").is_err());
    assert!(parse_json("[1,]").is_err());
    assert!(parse_json("\"\\ud800\"").is_err());
    assert!(parse_json("1 2").is_err());
}

/// A result's envelope, parsed.
pub fn envelope(result: &memkit::CommandResult) -> Json {
    let json = result.json().unwrap();
    parse_json(&json).unwrap_or_else(|e| panic!("{}: {}", e, json))
}

/// A result's `data` object, parsed.
pub fn data_of(result: &memkit::CommandResult) -> Json {
    envelope(result).get("data").expect("a data member").clone()
}

/// The `code`s of a result's findings.
pub fn finding_codes(result: &memkit::CommandResult) -> Vec<String> {
    envelope(result)
        .get("findings")
        .and_then(Json::as_array)
        .expect("a findings array")
        .iter()
        .map(|f| f.get("code").and_then(Json::as_str).unwrap().to_string())
        .collect()
}
