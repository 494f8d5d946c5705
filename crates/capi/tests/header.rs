//! include/zkmsm.h is what cbindgen makes of src/lib.rs: the header cannot
//! drift from the ABI. `ZKMSM_BLESS=1 cargo test -p zkmsm-capi --test header`
//! rewrites it after a deliberate change.

use std::path::Path;

#[test]
fn header_is_current() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).unwrap();
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen could not read src/lib.rs")
        .write(&mut generated);
    let generated = String::from_utf8(generated).unwrap();
    let path = crate_dir.join("include/zkmsm.h");
    if std::env::var_os("ZKMSM_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} is out of date with src/lib.rs: run `ZKMSM_BLESS=1 cargo test -p zkmsm-capi --test header` and commit it",
        path.display()
    );
}
