//! Finds and links libmemkit, which the project's CMake builds (or a package installs), never
//! cargo. In order:
//!
//! 1. `MEMKIT_LIB_DIR`, when set: the folder holding libmemkit.so (libmemkit.a with the `static`
//!    feature), such as a build tree's `capi/`. An explicit choice wins over what is installed.
//! 2. `pkg-config memkit` (`PKG_CONFIG` names another pkg-config; `PKG_CONFIG_PATH` finds a
//!    prefix off the system paths): the Debian package `libmemkit-dev`, or `cmake --install`.
//!
//! The library must be the version this crate binds (its major and minor). Linked dynamically, the
//! crate's own tests and examples get an rpath to the library's folder; a program that depends on
//! the crate reads that folder from `DEP_MEMKIT_LIBDIR` in its own build script (rpaths do not
//! pass from a dependency), or finds the library on the system path where the Debian package puts
//! it. The `static` feature links libmemkit.a instead, with what `pkg-config --static` lists, so
//! the program needs no libmemkit.so at run time.
use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

const INSTALL_HINT: &str = "install the Debian package libmemkit-dev, or build memkit and \
     `cmake --install` it (then set PKG_CONFIG_PATH to the prefix's lib/pkgconfig), or set \
     MEMKIT_LIB_DIR to the folder holding libmemkit.so";

/// What the link needs: folders to search and libraries, each `dylib` or `static`.
struct Link {
    lib_dir: PathBuf,
    search: Vec<PathBuf>,
    libs: Vec<(&'static str, String)>,
}

fn main() {
    for var in ["MEMKIT_LIB_DIR", "PKG_CONFIG", "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR"] {
        println!("cargo:rerun-if-env-changed={}", var);
    }
    let want_static = env::var_os("CARGO_FEATURE_STATIC").is_some();
    let link = match env::var_os("MEMKIT_LIB_DIR") {
        Some(dir) if !dir.is_empty() => from_lib_dir(PathBuf::from(dir), want_static),
        _ => from_pkg_config(want_static),
    };

    for dir in &link.search {
        println!("cargo:rustc-link-search=native={}", dir.display());
    }
    for (kind, name) in &link.libs {
        println!("cargo:rustc-link-lib={}={}", kind, name);
    }
    // links = "memkit": dependents read DEP_MEMKIT_LIBDIR (and DEP_MEMKIT_STATIC).
    println!("cargo:libdir={}", link.lib_dir.display());
    println!("cargo:static={}", if want_static { 1 } else { 0 });
    if !want_static {
        // The crate's own tests and examples find the library where it was linked.
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", link.lib_dir.display());
    }
}

fn library_file(want_static: bool) -> &'static str {
    if want_static {
        "libmemkit.a"
    } else {
        "libmemkit.so"
    }
}

fn from_lib_dir(dir: PathBuf, want_static: bool) -> Link {
    let file = library_file(want_static);
    if !dir.join(file).exists() {
        panic!("memkit: MEMKIT_LIB_DIR={} holds no {}; {}", dir.display(), file, INSTALL_HINT);
    }
    let mut libs = vec![(if want_static { "static" } else { "dylib" }, "memkit".to_string())];
    if want_static {
        // What memkit.pc's Libs.private and Requires.private say libmemkit.a needs.
        for name in ["fmt", "stdc++", "m", "pthread", "dl"] {
            libs.push(("dylib", name.to_string()));
        }
    }
    Link { lib_dir: dir.clone(), search: vec![dir], libs }
}

fn pkg_config(args: &[&str]) -> Result<String, String> {
    let program = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".to_string());
    let output = Command::new(&program)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run {}: {}", program, e))?;
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).trim().to_string());
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
}

fn from_pkg_config(want_static: bool) -> Link {
    let version = pkg_config(&["--modversion", "memkit"]).unwrap_or_else(|e| {
        panic!("memkit: libmemkit was not found (pkg-config memkit: {}); {}", e, INSTALL_HINT)
    });
    let crate_version = env::var("CARGO_PKG_VERSION").unwrap();
    if major_minor(&version) != major_minor(&crate_version) {
        panic!(
            "memkit: pkg-config found libmemkit {}, but this crate binds {} (the C ABI changes \
             between minor versions before 1.0); install memkit {} or use the crate of version {}",
            version,
            crate_version,
            major_minor(&crate_version),
            version
        );
    }
    let lib_dir = pkg_config(&["--variable=libdir", "memkit"])
        .map(PathBuf::from)
        .unwrap_or_else(|e| panic!("memkit: pkg-config --variable=libdir memkit: {}", e));
    let file = library_file(want_static);
    if !Path::new(&lib_dir).join(file).exists() {
        panic!("memkit: memkit.pc's libdir {} holds no {}; {}", lib_dir.display(), file, INSTALL_HINT);
    }
    let mut args = vec!["--libs", "memkit"];
    if want_static {
        args.insert(0, "--static");
    }
    let flags = pkg_config(&args).unwrap_or_else(|e| panic!("memkit: pkg-config {:?}: {}", args, e));
    let mut link = Link { lib_dir, search: Vec::new(), libs: Vec::new() };
    for flag in flags.split_whitespace() {
        if let Some(dir) = flag.strip_prefix("-L") {
            link.search.push(PathBuf::from(dir));
        } else if let Some(name) = flag.strip_prefix("-l") {
            let kind = if want_static && name == "memkit" { "static" } else { "dylib" };
            link.libs.push((kind, name.to_string()));
        } else if flag == "-pthread" {
            link.libs.push(("dylib", "pthread".to_string()));
        }
    }
    link
}

/// "0.2.0" -> "0.2".
fn major_minor(version: &str) -> String {
    version.split('.').take(2).collect::<Vec<_>>().join(".")
}
