//! Runs are read under their shared lock.

use c960_store::DirLock;
use c960_verdict::{
    VerdictError,
    balance::{Settings, compute},
};

#[test]
fn a_run_being_written_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let writer = DirLock::exclusive(&run).unwrap();
    let refused = compute(&[], std::slice::from_ref(&run), Settings::default()).unwrap_err();
    let text = refused.to_string();
    assert!(matches!(refused, VerdictError::Lock(_)), "{text}");
    assert!(
        text.contains(&format!("is in use by process {}", std::process::id())),
        "{text}"
    );
    // Not bad input: the same command works once the writer is done.
    assert!(!refused.is_bad_input());
    drop(writer);
    let after = compute(&[], &[run], Settings::default()).unwrap_err();
    assert!(!matches!(after, VerdictError::Lock(_)), "{after}");
}
