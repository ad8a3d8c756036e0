//! Helpers shared by the criterion benchmarks: synthetic repositories of a
//! chosen shape, written into temp dirs.

use std::path::Path;

/// Write a tree of `n_files` small source files, `per_folder` to a folder,
/// folders nested three deep, into `root`.
pub fn write_tree(root: &Path, n_files: usize, per_folder: usize) -> std::io::Result<()> {
    for i in 0..n_files {
        let folder = i / per_folder.max(1);
        let dir = root.join(format!("pkg{}/mod{}/sub{folder}", folder % 10, folder % 37));
        std::fs::create_dir_all(&dir)?;
        let body = format!("def function_{i}(x):\n    \"\"\"Doc {i}.\"\"\"\n    return x + {i}\n").repeat(20);
        std::fs::write(dir.join(format!("file_{i}.py")), body)?;
    }
    Ok(())
}
