use std::process::Command;

use super::*;

#[test]
fn a_fifo_a_device_or_a_directory_is_refused_without_waiting() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("balance.csv");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    for (path, what) in [
        (fifo.as_path(), "a FIFO"),
        (Path::new("/dev/null"), "a device"),
        (dir.path(), "a directory"),
    ] {
        for err in [
            check_input(path).unwrap_err(),
            read_input(path).unwrap_err(),
        ] {
            assert!(crate::is_bad_input(&err), "{what}: {err}");
            assert!(
                err.to_string().starts_with(&format!("it is {what},")),
                "{err}"
            );
        }
    }
    let file = dir.path().join("t.csv");
    fs::write(&file, "sp\n1\n").unwrap();
    assert_eq!(read_input(&file).unwrap(), b"sp\n1\n");
    assert!(check_input(&file).is_ok());
    let missing = read_input(&dir.path().join("no.csv")).unwrap_err();
    assert_eq!(missing.kind(), io::ErrorKind::NotFound);
    assert!(!crate::is_bad_input(&missing));
}
