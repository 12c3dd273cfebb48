use super::*;

fn error(text: &str) -> String {
    RunManifest::parse(text).unwrap_err().to_string()
}

#[test]
fn the_published_sweep_manifest_reads_with_its_fields() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/sweep-stockfish-15.1-nodes1000000-mpv3");
    let m = RunManifest::read(&dir).unwrap();
    assert_eq!(m.kind, RunKind::Sweep);
    assert_eq!(m.engine_names(), ["Stockfish 15.1"]);
    assert_eq!(m.engines[0].path.as_deref(), Some("/usr/games/stockfish"));
    assert!(
        m.engines[0]
            .options
            .contains(&("MultiPV".into(), "3".into()))
    );
    assert_eq!(m.limit.as_deref(), Some("nodes 1000000"));
    assert_eq!(
        (m.multipv, m.lines(), m.rows),
        (NonZeroU32::new(3), 3, Some(960))
    );
    assert_eq!(m.positions.as_deref(), Some("all"));
    assert!(m.failed.is_empty());
    assert_eq!(m.finished.as_deref(), Some("2026-11-22T05:26:49Z"));
    // Fields the model does not name are kept, in order.
    let written = m.written();
    assert!(written.starts_with(r#"{"kind":"sweep","c960_version":"#));
    assert!(written.contains(r#","engine":{"name":"Stockfish 15.1""#));
    assert!(written.contains(r#""notes":"#) && written.contains(r#""resumed":0"#));
}

#[test]
fn a_manifest_serializes_as_written() {
    let text = r#"{"kind":"selfplay","engines":[{"name":"A"},{"name":"B"}],"limit":"nodes 5","zeta":1,"alpha":[2]}"#;
    let m = RunManifest::parse(text).unwrap();
    assert_eq!(serde_json::to_string(&m).unwrap(), text);
    assert_eq!(m.engine_names(), ["A", "B"]);
    assert_eq!((m.games, m.c960_version.as_deref()), (None, None));
    // Laid out otherwise, it is the same manifest; another value is not.
    let pretty = serde_json::to_string_pretty(&m).unwrap();
    assert!(pretty.contains("\n  \"zeta\": 1,\n"));
    assert_eq!(RunManifest::parse(&pretty).unwrap(), m);
    let other = text.replace("nodes 5", "nodes 6");
    assert_ne!(RunManifest::parse(&other).unwrap(), m);
}

#[test]
fn an_adaptive_rule_is_read_with_its_level() {
    let run = |adaptive: &str| {
        let text = format!(
            r#"{{"kind":"selfplay","engines":[{{"name":"A"}}],"limit":"nodes 5","adaptive":{adaptive}}}"#
        );
        RunManifest::parse(&text).unwrap().adaptive
    };
    assert_eq!(run("null"), None);
    assert_eq!(
        run(r#"{"rule":"r","alpha":0.01,"rounds":3}"#),
        Some(AdaptiveRule { alpha: Some(0.01) })
    );
    assert_eq!(run(r#"{"rule":"r"}"#), Some(AdaptiveRule { alpha: None }));
}

#[test]
fn an_import_manifest_needs_no_engine() {
    let m = RunManifest::parse(
        r#"{"kind":"import","files":["a.pgn","b.pgn.zst"],"games":4,"read":9,"failed":null}"#,
    )
    .unwrap();
    assert_eq!(m.kind, RunKind::Import);
    assert!(m.engines.is_empty() && m.limit.is_none());
    assert_eq!(m.files, ["a.pgn", "b.pgn.zst"]);
    assert_eq!((m.games, m.read), (Some(4), Some(9)));
}

#[test]
fn failures_are_read_per_unit() {
    let m = RunManifest::parse(
        r#"{"kind":"selfplay","engines":[{"name":"A"}],"limit":"nodes 5",
            "failed":[{"sp":5,"game":3,"reason":"crashed"},{"sp":7}]}"#,
    )
    .unwrap();
    assert_eq!(
        m.failed,
        [
            FailedUnit {
                sp: 5,
                game: Some(3),
                reason: Some("crashed".into())
            },
            FailedUnit {
                sp: 7,
                game: None,
                reason: None
            }
        ]
    );
}

#[test]
fn a_wrong_or_missing_field_is_named() {
    let sweep = |rest: &str| {
        format!(r#"{{"kind":"sweep","engine":{{"name":"E"}},"limit":"nodes 1"{rest}}}"#)
    };
    assert!(RunManifest::parse(&sweep("")).is_ok());
    for (text, said) in [
        (
            r#"{"kind":"sweep","engine":{"name":"E"},"limit":7}"#.to_owned(),
            "manifest.json: limit: invalid type: integer `7`, expected a string",
        ),
        (
            r#"{"kind":"sweep","engine":{"name":"E"}}"#.to_owned(),
            "manifest.json: limit must be a non-empty string",
        ),
        (
            r#"{"kind":"sweep","limit":"nodes 1"}"#.to_owned(),
            "engine.name must be a non-empty string",
        ),
        (
            r#"{"kind":"selfplay","engines":[],"limit":"nodes 1"}"#.to_owned(),
            "engines must be a list of one or two engines",
        ),
        (
            r#"{"kind":"selfplay","engines":[{"name":"A"},{"name":""}],"limit":"nodes 1"}"#
                .to_owned(),
            "engines[1].name must be a non-empty string",
        ),
        (
            sweep(r#","multipv":0"#),
            "multipv: invalid value: integer `0`",
        ),
        (
            sweep(r#","rows":"many""#),
            "rows: invalid type: string \"many\"",
        ),
        (
            sweep(r#","failed":{}"#),
            "failed: invalid type: map, expected a sequence",
        ),
        (
            sweep(r#","failed":[{"reason":"x"}]"#),
            "failed[0]: missing field `sp`",
        ),
        (
            sweep(r#","failed":[{"sp":3},{"sp":960}]"#),
            "failed[1].sp must be a start position number (0 to 959)",
        ),
        (
            sweep(r#","finished":5"#),
            "finished: invalid type: integer `5`",
        ),
        (
            sweep(r#","variant":"chess""#),
            "variant: unknown variant `chess`, expected `chess960` or `dfrc`",
        ),
        (
            r#"{"kind":"sweep","engine":{"name":"E","options":[["a"]]},"limit":"nodes 1"}"#
                .to_owned(),
            "engine.options[0]: invalid length 1, expected a tuple of size 2",
        ),
        (
            r#"{"kind":"tournament"}"#.to_owned(),
            "manifest.json: kind: unknown variant `tournament`, expected one of `sweep`, `selfplay`, `import`",
        ),
        (
            r#"{"limit":"nodes 1"}"#.to_owned(),
            "manifest.json names no run kind",
        ),
        (sweep(r#","limit":"nodes 2""#), "duplicate field `limit`"),
        ("[1]".to_owned(), "manifest.json is not a JSON object"),
        (
            r#"{"kind":"sweep""#.to_owned(),
            "manifest.json is not a JSON object",
        ),
        (sweep(" trailing"), "manifest.json is not a JSON object"),
    ] {
        let found = error(&text);
        assert!(found.contains(said), "{text}: {found}");
    }
}

#[test]
fn the_selfplay_manifest_model_writes_the_published_manifest_back_byte_for_byte() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    let text = fs::read_to_string(data.join("research-v2/selfplay-manifest.json")).unwrap();
    let m: SelfplayManifest = serde_json::from_str(&text).unwrap();
    assert_eq!(m.kind, RunKind::Selfplay);
    assert_eq!(m.limit.to_string(), "nodes 5000");
    assert_eq!(m.processes, PROCESS_PER_SIDE);
    let adaptive = m.adaptive.as_ref().expect("an adaptive run");
    assert_eq!(adaptive.rounds, 1);
    // Field for field, in the order written, the adaptive rule's settings
    // flattened beside its outcome.
    assert_eq!(serde_json::to_string_pretty(&m).unwrap() + "\n", text);
    // A manifest written before the sides had their own processes and
    // before clocks reads with the defaults named at its fields.
    let old =
        fs::read_to_string(data.join("research-stockfish-15.1/selfplay-manifest.json")).unwrap();
    let m: SelfplayManifest = serde_json::from_str(&old).unwrap();
    assert_eq!(m.processes, SHARED_PROCESS);
    assert!(m.replays_exactly && m.adaptive.is_none() && m.merged.shards.is_empty());
}
