//! One output contract for every command: outputs are claimed before any
//! work (type-checked, apart from each other and from every input,
//! locked) and written as a set (`c960_store::Claim`).

use std::{fs, os::unix::fs::symlink, process::Command};

use crate::util::Dir;

fn sha256(path: &std::path::Path) -> String {
    c960_book::sha256_hex(&fs::read(path).unwrap())
}

fn names(dir: &Dir) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_book_named_like_its_manifest_is_refused_before_anything_is_written() {
    let dir = Dir::new();
    let line = dir.bad_input(&["book", "starts", "--out", "x.json"]);
    assert!(
        line.contains("--out x.json and its manifest x.json are one file"),
        "{line}"
    );
    assert!(names(&dir).is_empty(), "{:?}", names(&dir));
}

#[test]
fn a_manifest_path_that_is_not_a_regular_file_leaves_no_book() {
    let dir = Dir::new();
    fs::create_dir(dir.file("d.json")).unwrap();
    symlink(dir.file("elsewhere"), dir.file("l.json")).unwrap();
    assert!(
        Command::new("mkfifo")
            .arg(dir.file("f.json"))
            .status()
            .unwrap()
            .success()
    );
    for (book, said) in [
        ("d.epd", "is a directory"),
        ("l.epd", "a symbolic link"),
        ("f.epd", "a FIFO"),
    ] {
        let line = dir.bad_input(&["book", "starts", "--out", book]);
        assert!(line.contains(said), "{book}: {line}");
        assert!(!dir.file(book).exists(), "{book} was written");
    }
    assert!(!dir.file("elsewhere").exists());
    // An output in a directory that does not exist is bad input too.
    for args in [
        &["book", "starts", "--out", "nodir/x.epd"][..],
        &["positions", "--out", "nodir/x.csv"],
    ] {
        let line = dir.bad_input(args);
        assert!(line.contains("nodir does not exist"), "{line}");
    }
}

#[test]
fn an_output_naming_its_own_input_is_refused() {
    let dir = Dir::new();
    let table = dir.file("T.csv");
    fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../data/research-v3/balance.csv"
        ),
        &table,
    )
    .unwrap();
    let before = sha256(&table);
    let line = dir.bad_input(&[
        "book",
        "balanced",
        "--balance",
        "T.csv",
        "--fairest",
        "10",
        "--out",
        "T.csv",
    ]);
    assert!(
        line.contains("--out T.csv is also --balance T.csv, which c960 reads"),
        "{line}"
    );
    assert_eq!(sha256(&table), before);

    // The journal of an expansion is never the book; no engine starts.
    fs::create_dir(dir.file("R")).unwrap();
    fs::write(dir.file("R/journal.jsonl"), "hours of engine work\n").unwrap();
    let engine = crate::util::fake_engine();
    let line = dir.bad_input(&[
        "book",
        "exits",
        "--engine",
        engine.to_str().unwrap(),
        "--positions",
        "0",
        "--run",
        "R",
        "--cp",
        "0..10",
        "--out",
        "R/journal.jsonl",
    ]);
    assert!(
        line.contains("lies inside the run directory R, which c960 reads"),
        "{line}"
    );
    assert_eq!(
        fs::read_to_string(dir.file("R/journal.jsonl")).unwrap(),
        "hours of engine work\n"
    );
}

#[test]
fn concurrent_books_at_one_path_never_mismatch_their_manifest() {
    let dir = Dir::new();
    let children: Vec<_> = (0..6)
        .map(|_| {
            dir.command(&["book", "starts", "--out", "same.epd"])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut written = 0;
    for child in children {
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        match output.status.code() {
            Some(0) => written += 1,
            Some(1) => assert!(stderr.contains("is in use by "), "{stderr}"),
            code => panic!("exit {code:?}: {stderr}"),
        }
    }
    assert!(written >= 1);
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("same.json")).unwrap()).unwrap();
    assert_eq!(manifest["sha256"], sha256(&dir.file("same.epd")));
    assert_eq!(manifest["lines"], 960);
}

#[test]
fn a_kit_never_replaces_the_earlier_kit_it_excludes() {
    let dir = Dir::new();
    dir.ok(&["tournament", "--seed", "3", "--rounds", "2", "--out", "K"]);
    let record = sha256(&dir.file("K/draw.json"));
    let line = dir.bad_input(&[
        "tournament",
        "--seed",
        "4",
        "--rounds",
        "2",
        "--exclude-drawn",
        "K/draw.json",
        "--out",
        "K",
    ]);
    assert!(
        line.contains("--out K would replace --exclude-drawn K/draw.json, which c960 reads"),
        "{line}"
    );
    assert_eq!(sha256(&dir.file("K/draw.json")), record);
    dir.ok(&[
        "tournament",
        "--seed",
        "4",
        "--rounds",
        "2",
        "--exclude-drawn",
        "K/draw.json",
        "--out",
        "K2",
    ]);
}
