//! Paths as messages print them: one line whatever the bytes.

use std::path::Path;

/// A path as printed in messages: control characters, backslashes and bytes
/// that are not UTF-8 escaped (`\n`, `\\`, `\xff`), so it is one line.
pub fn shown(path: &Path) -> String {
    #[cfg(unix)]
    let bytes = std::os::unix::ffi::OsStrExt::as_bytes(path.as_os_str()).to_vec();
    #[cfg(not(unix))]
    let bytes = path.to_string_lossy().into_owned().into_bytes();
    if bytes.is_empty() {
        return "\"\"".into();
    }
    let mut s = String::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c == '\\' || c.is_control() {
                s.extend(c.escape_default());
            } else {
                s.push(c);
            }
        }
        for b in chunk.invalid() {
            s.push_str(&format!("\\x{b:02x}"));
        }
    }
    s
}
