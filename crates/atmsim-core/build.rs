//! Fingerprint the engine's source so every result records exactly which engine made it: the
//! results store keys runs by the engine version, and a rebuilt engine that changes results
//! without a version bump must not reuse old runs.

use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).expect("src directory").map(|e| e.expect("entry").path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

fn main() {
    let src = Path::new("src");
    println!("cargo:rerun-if-changed=src");
    let mut all = Vec::new();
    files(src, &mut all);
    // FNV-1a over (relative path, contents) of every source file, in path order.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in &all {
        let rel = p.strip_prefix(src).expect("under src").to_string_lossy().replace('\\', "/");
        for b in rel.bytes().chain([0]).chain(std::fs::read(p).expect("readable source")).chain([0]) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    println!("cargo:rustc-env=ATMSIM_SOURCE_HASH={h:016x}");
}
