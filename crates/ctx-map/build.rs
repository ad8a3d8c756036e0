//! Fingerprints the code that makes the map (this crate's sources and queries and, in
//! the workspace, ctx-core's), so that a map kept in a store by another
//! build of ctx is never taken for this one's (src/map/kept.rs).

use std::hash::Hasher;
use std::path::{Path, PathBuf};

fn main() {
    let roots = [PathBuf::from("src"), PathBuf::from("queries"), PathBuf::from("../ctx-core/src")];
    let mut files = Vec::new();
    for root in roots.iter().filter(|root| root.is_dir()) {
        println!("cargo::rerun-if-changed={}", root.display());
        walk(root, &mut files);
    }
    files.sort();
    // FNV-1a: stable, and no dependency for a build script.
    let mut hash = Fnv(0xcbf2_9ce4_8422_2325);
    for file in &files {
        hash.write(file.to_string_lossy().as_bytes());
        hash.write(&std::fs::read(file).unwrap_or_default());
    }
    println!("cargo::rustc-env=CTX_MAP_SOURCE_HASH={:016x}", hash.finish());
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else {
            out.push(path);
        }
    }
}

struct Fnv(u64);

impl Hasher for Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
