use std::{io::Write as _, os::unix::fs::symlink, process::Command};

use super::*;

fn refused(claim: Claim) -> String {
    let error = claim.take().expect_err("the claim must be refused");
    assert!(crate::is_bad_input(&error), "{error}");
    error.to_string()
}

#[test]
fn a_book_and_its_manifest_at_one_path_are_refused() {
    let temp = tempfile::tempdir().unwrap();
    let book = temp.path().join("x.json");
    let message = refused(
        Claim::new()
            .file(&book, "--out")
            .file(&crate::book_manifest_path(&book), "its manifest"),
    );
    assert!(message.contains("are one file"), "{message}");
    // Two spellings of one place are one file too.
    let spelled = temp.path().join("sub/../x.epd");
    fs::create_dir(temp.path().join("sub")).unwrap();
    let message = refused(
        Claim::new()
            .file(&temp.path().join("x.epd"), "--out")
            .file(&spelled, "--other"),
    );
    assert!(message.contains("are one file"), "{message}");
    assert_eq!(
        fs::read_dir(temp.path()).unwrap().count(),
        1,
        "nothing written"
    );
}

#[test]
fn an_output_that_is_an_input_or_inside_one_is_refused() {
    let temp = tempfile::tempdir().unwrap();
    let table = temp.path().join("t.csv");
    fs::write(&table, "sp\n").unwrap();
    let message = refused(
        Claim::new()
            .file(&table, "--out")
            .input(&table, "--balance"),
    );
    assert!(message.contains("is also --balance"), "{message}");
    // Through a link to the input, or a hard link of it.
    let link = temp.path().join("link.csv");
    symlink(&table, &link).unwrap();
    refused(Claim::new().file(&table, "--out").input(&link, "--balance"));
    let hard = temp.path().join("hard.csv");
    fs::hard_link(&table, &hard).unwrap();
    refused(Claim::new().file(&hard, "--out").input(&table, "--balance"));
    // Inside an input directory; a directory holding an input.
    let run = temp.path().join("run");
    fs::create_dir(&run).unwrap();
    let message = refused(
        Claim::new()
            .file(&run.join("journal.jsonl"), "--out")
            .input_dir(&run, "--from"),
    );
    assert!(message.contains("lies inside --from"), "{message}");
    let kit = temp.path().join("kit");
    fs::create_dir(&kit).unwrap();
    let message = refused(
        Claim::new()
            .dir(&kit, "--out")
            .input(&kit.join("draw.json"), "--exclude-drawn"),
    );
    assert!(
        message.contains("would replace --exclude-drawn"),
        "{message}"
    );
    // Apart, all is well, and the input is untouched.
    let claimed = Claim::new()
        .file(&temp.path().join("book.epd"), "--out")
        .dir(&temp.path().join("site"), "--site")
        .input(&table, "--balance")
        .input_dir(&run, "--from")
        .take()
        .unwrap();
    drop(claimed);
    assert_eq!(fs::read_to_string(&table).unwrap(), "sp\n");
}

#[test]
fn outputs_of_the_wrong_kind_are_refused_before_anything_is_written() {
    let temp = tempfile::tempdir().unwrap();
    let fifo = temp.path().join("fifo.json");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let dir = temp.path().join("dir.json");
    fs::create_dir(&dir).unwrap();
    let link = temp.path().join("link.json");
    symlink(temp.path().join("elsewhere"), &link).unwrap();
    let file = temp.path().join("file");
    fs::write(&file, "").unwrap();
    for (path, said) in [
        (fifo.as_path(), "a FIFO"),
        (dir.as_path(), "is a directory"),
        (link.as_path(), "a symbolic link"),
        (&temp.path().join("nodir/x.epd"), "does not exist"),
    ] {
        let message = refused(Claim::new().file(path, "--out"));
        assert!(message.contains(said), "{said}: {message}");
    }
    let message = refused(Claim::new().dir(&file, "--out"));
    assert!(message.contains("is a file, not a directory"), "{message}");
    assert!(!temp.path().join("elsewhere").exists());
}

#[test]
fn a_second_claim_of_one_file_is_refused_while_the_first_holds_it() {
    let temp = tempfile::tempdir().unwrap();
    let book = temp.path().join("same.epd");
    let first = Claim::new().file(&book, "--out").take().unwrap();
    let busy = Claim::new().file(&book, "--out").take().unwrap_err();
    assert!(!crate::is_bad_input(&busy));
    assert!(busy.to_string().contains("is in use by process"), "{busy}");
    drop(first);
    Claim::new().file(&book, "--out").take().unwrap();
}

#[test]
fn a_set_is_written_whole_or_not_at_all() {
    let temp = tempfile::tempdir().unwrap();
    let book = temp.path().join("b.epd");
    let manifest = temp.path().join("b.json");
    fs::write(&book, "old book").unwrap();
    fs::write(&manifest, "old manifest").unwrap();
    let claimed = Claim::new()
        .file(&book, "--out")
        .file(&manifest, "its manifest")
        .take()
        .unwrap();
    // The second file fails: neither is replaced, no temporary is left.
    let mut set = claimed.write_set();
    set.write(&book, |out| out.write_all(b"new book")).unwrap();
    let failed = set.write(&manifest, |_| Err(io::Error::other("disk on fire")));
    assert!(failed.is_err());
    drop(set);
    assert_eq!(fs::read_to_string(&book).unwrap(), "old book");
    assert_eq!(fs::read_to_string(&manifest).unwrap(), "old manifest");
    // Written in full, both are replaced.
    let mut set = claimed.write_set();
    set.write(&book, |out| out.write_all(b"new book")).unwrap();
    set.write(&manifest, |out| out.write_all(b"new manifest"))
        .unwrap();
    set.commit().unwrap();
    assert_eq!(fs::read_to_string(&book).unwrap(), "new book");
    assert_eq!(fs::read_to_string(&manifest).unwrap(), "new manifest");
    let mut names: Vec<String> = fs::read_dir(temp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, [".b.epd.lock", ".b.json.lock", "b.epd", "b.json"]);
    // A file not claimed is not written.
    let mut set = claimed.write_set();
    assert!(set.write(&temp.path().join("other"), |_| Ok(())).is_err());
    drop(set);
    drop(claimed);
    assert_eq!(
        fs::read_dir(temp.path()).unwrap().count(),
        2,
        "no lock file left"
    );
}

#[test]
fn a_run_directory_may_hold_its_inputs_but_never_write_over_one() {
    let temp = tempfile::tempdir().unwrap();
    let run = temp.path().join("sp");
    let shard = run.join("shards/0");
    fs::create_dir_all(&shard).unwrap();
    // Merging shards into the run that holds them is how shards end.
    Claim::new()
        .run_dir(&run, "--out", &["journal.jsonl", "games.parquet"])
        .input(&shard, "the input")
        .take()
        .unwrap();
    // Not into one of them, nor over a file read.
    let message = refused(
        Claim::new()
            .run_dir(&shard, "--out", &["journal.jsonl"])
            .input(&shard, "the input"),
    );
    assert!(message.contains("is also the input"), "{message}");
    let message = refused(
        Claim::new()
            .run_dir(&run.join("shards/0/inner"), "--out", &[])
            .input(&shard, "the input"),
    );
    assert!(message.contains("lies inside the input"), "{message}");
    fs::write(run.join("games.parquet"), "table").unwrap();
    let message = refused(
        Claim::new()
            .run_dir(&run, "--out", &["games.parquet"])
            .input(&run.join("games.parquet"), "TABLE"),
    );
    assert!(
        message.contains("sp/games.parquet is also TABLE"),
        "{message}"
    );
    // A run directory not made yet is no error.
    Claim::new()
        .run_dir(&temp.path().join("new/run"), "--out", &["journal.jsonl"])
        .take()
        .unwrap();
}

/// Issue 48, item 22: a refused file named after another output (a book's
/// manifest) tells which flag to change, in a sentence ("choose another
/// its manifest" named no flag).
#[test]
fn a_refused_manifest_names_the_flag_to_change() {
    let temp = tempfile::tempdir().unwrap();
    let table = temp.path().join("x.json");
    fs::write(&table, "sp\n").unwrap();
    let message = refused(
        Claim::new()
            .file(&temp.path().join("x.epd"), "--out")
            .file_beside(&table, "its manifest", "--out")
            .input(&table, "--balance"),
    );
    assert!(
        message.ends_with("choose another --out, which its manifest is named after"),
        "{message}"
    );
    let run = temp.path().join("run");
    fs::create_dir(&run).unwrap();
    let message = refused(
        Claim::new()
            .file(&temp.path().join("x.epd"), "--out")
            .file_beside(&run.join("x.lines.csv"), "its per-line table", "--out")
            .input_dir(&run, "--from"),
    );
    assert!(
        message.ends_with("choose another --out, which its per-line table is named after"),
        "{message}"
    );
    let message = refused(
        Claim::new()
            .file(&table, "--out")
            .input(&table, "--balance"),
    );
    assert!(message.ends_with("; choose another --out"), "{message}");
}
