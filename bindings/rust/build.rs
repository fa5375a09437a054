//! Links libmemkit. The library is built by the project's CMake, not by cargo: MEMKIT_LIB_DIR
//! names the folder holding libmemkit.so (e.g. the build tree's capi/), and the dynamic loader
//! finds it at run time through LD_LIBRARY_PATH (or the system paths once installed).
use std::env;

fn main() {
    println!("cargo:rerun-if-env-changed=MEMKIT_LIB_DIR");
    if let Ok(dir) = env::var("MEMKIT_LIB_DIR") {
        println!("cargo:rustc-link-search=native={}", dir);
    }
    println!("cargo:rustc-link-lib=dylib=memkit");
}
