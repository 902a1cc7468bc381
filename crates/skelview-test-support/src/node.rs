//! The reference players the tests run in Node.js (three.js, three-vrm: `tests/vrma`), and
//! running a program whose output a test reads.

use std::path::PathBuf;
use std::process::Command;

/// `tests/vrma` (under the workspace root) when Node.js runs and `package` is installed
/// there (`npm install` in it; `.ci/run` does it); else a note and `None`, or a failure in CI.
pub fn vrma_players(package: &str) -> Option<PathBuf> {
    let dir = super::workspace_root().join("tests/vrma");
    let node = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    let found = if !node {
        Err("Node.js is not installed".to_owned())
    } else if !dir.join("node_modules").join(package).is_dir() {
        Err(format!("{package} is not installed in tests/vrma"))
    } else {
        Ok(dir)
    };
    super::needed(package, "install Node.js, then: cd tests/vrma && npm install", found)
}

/// Runs `c`, which must succeed; its standard output.
pub fn output_of(c: &mut Command) -> String {
    let o = c.output().unwrap_or_else(|e| panic!("{c:?}: {e}"));
    assert!(o.status.success(), "{c:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}
