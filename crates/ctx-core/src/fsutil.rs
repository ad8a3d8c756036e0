//! File-system helpers: nothing ctx writes is ever half-written.

use std::io::Write;
use std::path::Path;

use crate::error::{Error, Result};

/// Write `bytes` to `path` through a temporary file in the same folder and a
/// rename, so readers see the old file or the new one, never a part. A file
/// replaced keeps its permissions (a private `~/.claude.json` stays private).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut temp = tempfile_in(dir).map_err(|err| Error::io(dir, err))?;
    let keep = std::fs::metadata(path).map(|meta| meta.permissions());
    let written = temp
        .1
        .write_all(bytes)
        .and_then(|()| keep.map_or(Ok(()), |permissions| temp.1.set_permissions(permissions)))
        .and_then(|()| temp.1.sync_all());
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

/// Whether process `pid` has ended (so what it left behind is garbage).
/// Known where `/proc` tells (Linux); elsewhere, never. This process never has.
pub fn process_is_gone(pid: u32) -> bool {
    pid != std::process::id()
        && Path::new("/proc/self").exists()
        && !Path::new("/proc").join(pid.to_string()).exists()
}

/// Remove the file at `path`; one that is already gone is no error.
pub fn remove_if_exists(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Err(err) if err.kind() != std::io::ErrorKind::NotFound => Err(Error::io(path, err)),
        _ => Ok(()),
    }
}

/// Open the regular file at `path` for reading, refusing a symlink as its
/// last component, also one swapped in between the check and the open (on
/// Unix the opened file must be the one checked).
pub(crate) fn open_no_symlink(path: &Path) -> std::io::Result<std::fs::File> {
    let checked = std::fs::symlink_metadata(path)?;
    if !checked.file_type().is_file() {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file"));
    }
    let file = std::fs::File::open(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let opened = file.metadata()?;
        if (opened.dev(), opened.ino()) != (checked.dev(), checked.ino()) {
            return Err(std::io::Error::other("replaced while being opened"));
        }
    }
    Ok(file)
}

/// Open `path` (absolute, or relative to `root`) for reading if, every link
/// resolved, it is a regular file under `root`, which must be canonical (a
/// workspace root is). A path the store holds may have become a link to
/// anywhere since the scan: whatever is outside the workspace is never read.
pub fn open_within(root: &Path, path: impl AsRef<Path>) -> std::io::Result<std::fs::File> {
    let real = std::fs::canonicalize(root.join(path))?;
    if !real.starts_with(root) {
        return Err(std::io::Error::new(std::io::ErrorKind::PermissionDenied, "outside the workspace"));
    }
    open_no_symlink(&real)
}

/// The bytes of the file at `path`, read through [`open_within`].
pub fn read_within(root: &Path, path: impl AsRef<Path>) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut open_within(root, path)?, &mut bytes)?;
    Ok(bytes)
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

    #[cfg(unix)]
    #[test]
    fn reads_within_the_root_never_follow_a_link_out_of_it() {
        use std::os::unix::fs::symlink;
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("passwd"), "root:x:0:0").unwrap();
        std::fs::create_dir(outside.path().join("etc")).unwrap();
        std::fs::write(outside.path().join("etc/a.py"), "root:x:0:0").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir(root.join("src")).unwrap();
        std::fs::write(root.join("src/a.py"), "a = 1").unwrap();
        std::fs::write(root.join("src/b.py"), "b = 1").unwrap();
        assert_eq!(read_within(&root, "src/a.py").unwrap(), b"a = 1");
        assert_eq!(read_within(&root, root.join("src/a.py")).unwrap(), b"a = 1");

        // A link that stays inside is read; a file replaced by a link out is not.
        symlink(root.join("src/b.py"), root.join("inside.py")).unwrap();
        assert_eq!(read_within(&root, "inside.py").unwrap(), b"b = 1");
        std::fs::remove_file(root.join("src/a.py")).unwrap();
        symlink(outside.path().join("passwd"), root.join("src/a.py")).unwrap();
        let err = read_within(&root, "src/a.py").unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::PermissionDenied);
        // Nor is a folder replaced by a link out.
        std::fs::remove_dir_all(root.join("src")).unwrap();
        symlink(outside.path().join("etc"), root.join("src")).unwrap();
        assert!(read_within(&root, "src/a.py").is_err());
        // And a link is never opened as a file by the scan's open.
        assert!(open_no_symlink(&root.join("inside.py")).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("private.json");
        std::fs::write(&path, "{}").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        write_atomic(&path, b"{\"a\": 1}").unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    }

    #[test]
    fn missing_folder_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let err = write_atomic(&dir.path().join("no/such/f.txt"), b"x").unwrap_err();
        assert_eq!(err.code(), "IO_ERROR");
    }
}
