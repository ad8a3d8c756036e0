//! File-system helpers: nothing ctx writes is ever half-written.

use std::io::Write;
use std::path::Path;

use crate::error::{Error, Result};

/// Write `bytes` to `path` through a temporary file in the same folder and a
/// rename, so readers see the old file or the new one, never a part.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut temp = tempfile_in(dir).map_err(|err| Error::io(dir, err))?;
    let written = temp.1.write_all(bytes).and_then(|()| temp.1.sync_all());
    if let Err(err) = written {
        let _ = std::fs::remove_file(&temp.0);
        return Err(Error::io(path, err));
    }
    drop(temp.1);
    std::fs::rename(&temp.0, path).map_err(|err| {
        let _ = std::fs::remove_file(&temp.0);
        Error::io(path, err)
    })
}

/// Remove the file at `path`; one that is already gone is no error.
pub fn remove_if_exists(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Err(err) if err.kind() != std::io::ErrorKind::NotFound => Err(Error::io(path, err)),
        _ => Ok(()),
    }
}

/// Create a new, uniquely named file in `dir`.
fn tempfile_in(dir: &Path) -> std::io::Result<(std::path::PathBuf, std::fs::File)> {
    use std::sync::atomic::{AtomicU32, Ordering};
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    loop {
        let name = format!(".ctx-tmp-{}-{}", std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed));
        let path = dir.join(name);
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((path, file)),
            Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(err) => return Err(err),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_content_and_leaves_no_temp_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.txt");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn missing_folder_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let err = write_atomic(&dir.path().join("no/such/f.txt"), b"x").unwrap_err();
        assert_eq!(err.code(), "IO_ERROR");
    }
}
