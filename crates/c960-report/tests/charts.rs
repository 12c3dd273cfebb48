//! Charts from the published sweep: SVG and PNG files that exist, parse and
//! hold the expected series.

use std::{fs, path::PathBuf};

use c960_report::{
    charts::{ScoreCurve, ScoreHistogram, write},
    per_position,
};

fn published_scores() -> Vec<(u32, f64)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/sweep-stockfish-15.1-nodes1000000-mpv3");
    let (frame, sources, _) = per_position(&[dir]).unwrap();
    let column = format!("{}__score_cp", sources[0].label);
    let sp = frame.column("sp").unwrap().u32().unwrap().clone();
    let cp = frame.column(&column).unwrap().i32().unwrap().clone();
    (0..frame.height())
        .filter_map(|i| Some((sp.get(i)?, f64::from(cp.get(i)?))))
        .collect()
}

#[test]
fn score_curve_and_histogram_as_svg_and_png() {
    let scores = published_scores();
    assert_eq!(scores.len(), 960);
    let out = tempfile::tempdir().unwrap();
    let provenance = "Stockfish 15.1, 1,000,000 nodes, MultiPV 3".to_owned();
    let curve = ScoreCurve {
        title: "White's advantage per position".into(),
        provenance: provenance.clone(),
        scores: scores.clone(),
    };
    let [svg, png] = write(&curve, out.path(), "advantage").unwrap();
    let text = fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
    assert!(
        text.contains("White&apos;s advantage per position")
            || text.contains("White's advantage per position"),
        "title"
    );
    assert!(
        text.contains("SP 518 (classical): +31 cp"),
        "SP 518 is marked in the legend"
    );
    assert!(text.contains("centipawns"), "axis label with unit");
    // Series are told apart by colour: one blue curve (plus its legend
    // sample) and one red marker for SP 518 (plus its legend sample).
    assert_eq!(
        text.matches(r##"stroke="#0000FF" stroke-width="2""##)
            .count(),
        2
    );
    assert_eq!(text.matches("<circle").count(), 2);
    let bytes = fs::read(&png).unwrap();
    if let Ok(keep) = std::env::var("C960_KEEP_CHARTS") {
        fs::copy(&png, format!("{keep}/advantage.png")).unwrap();
    }
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // IHDR: width and height, big-endian, at bytes 16..24.
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), 960);
    assert_eq!(u32::from_be_bytes(bytes[20..24].try_into().unwrap()), 540);

    let histogram = ScoreHistogram {
        title: "Distribution of White's advantage".into(),
        provenance,
        scores: scores.iter().map(|s| s.1).collect(),
        x_desc: "engine score, centipawns (White's view), 10-cp bins".into(),
    };
    let [svg, png] = write(&histogram, out.path(), "histogram").unwrap();
    let text = fs::read_to_string(&svg).unwrap();
    // -2..85 cp spans the ten bins -10..-1 to 80..89: one bar each.
    let bars = text.matches(r##"opacity="0.7" fill="#0000FF""##).count();
    assert_eq!(bars, 10, "one bar per non-empty bin");
    // Drawn in bin order, left to right, and the same file every time.
    let xs: Vec<u32> = text
        .lines()
        .filter(|l| l.contains(r##"opacity="0.7" fill="#0000FF""##))
        .map(|l| l.split('"').nth(1).unwrap().parse().unwrap())
        .collect();
    assert!(
        xs.windows(2).all(|w| w[0] < w[1]),
        "bars out of order: {xs:?}"
    );
    let again = tempfile::tempdir().unwrap();
    let [svg_again, _] = write(&histogram, again.path(), "histogram").unwrap();
    assert_eq!(fs::read_to_string(svg_again).unwrap(), text);
    assert!(text.contains("30..39"), "bins labelled in centipawns");
    assert!(fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    if let Ok(keep) = std::env::var("C960_KEEP_CHARTS") {
        fs::copy(&png, format!("{keep}/histogram.png")).unwrap();
    }
    let mut names: Vec<String> = fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "advantage.png",
            "advantage.svg",
            "histogram.png",
            "histogram.svg"
        ],
        "no temporary files left"
    );
}

#[test]
fn weak_pawns_by_file_and_advantage_by_weak_pawns() {
    use c960_report::charts::{Bars, GroupMeans};
    use c960_verdict::figures::GroupMean;
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/sweep-stockfish-15.1-nodes1000000-mpv3");
    let (frame, sources, _) = per_position(&[dir]).unwrap();
    let files = ["a", "b", "c", "d", "e", "f", "g", "h"];
    let count_on = |column: &str| -> Vec<u32> {
        let col = frame.column(column).unwrap().str().unwrap().clone();
        files
            .iter()
            .map(|f| {
                let on_file = (0..960).filter(|i| col.get(*i).unwrap().split(' ').any(|x| x == *f));
                u32::try_from(on_file.count()).unwrap()
            })
            .collect()
    };
    let undefended = count_on("undefended_files");
    let king_only = count_on("king_only_files");
    // By symmetry of the whole set, file a matches file h, b matches g, ...
    for i in 0..4 {
        assert_eq!(undefended[i], undefended[7 - i]);
        assert_eq!(king_only[i], king_only[7 - i]);
    }
    let as_f64 = |v: &[u32]| v.iter().map(|x| f64::from(*x)).collect::<Vec<f64>>();
    let (undefended, king_only) = (as_f64(&undefended), as_f64(&king_only));
    let out = tempfile::tempdir().unwrap();
    let bars = Bars {
        title: "Weak pawns by file".into(),
        provenance: "all 960 positions, c960 features".into(),
        categories: files.iter().map(|f| (*f).to_owned()).collect(),
        series: vec![
            ("undefended".into(), undefended),
            ("defended by the king only".into(), king_only),
        ],
        x_desc: "file".into(),
        y_desc: "positions with such a pawn on the file".into(),
    };
    let [svg, png] = write(&bars, out.path(), "weak-pawns-by-file").unwrap();
    let text = fs::read_to_string(&svg).unwrap();
    // Eight bars per series (some may be empty: still drawn) plus a legend swatch.
    assert_eq!(text.matches(r##"fill="#1F77B4""##).count(), 9);
    assert_eq!(text.matches(r##"fill="#D62728""##).count(), 9);
    assert!(fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    if let Ok(keep) = std::env::var("C960_KEEP_CHARTS") {
        fs::copy(&png, format!("{keep}/weak.png")).unwrap();
    }

    let weak = frame.column("weak_pawns").unwrap().u32().unwrap().clone();
    let cp = frame
        .column(&format!("{}__score_cp", sources[0].label))
        .unwrap()
        .i32()
        .unwrap()
        .clone();
    let groups: Vec<(String, Vec<f64>)> = (0..=8u32)
        .map(|k| {
            let values: Vec<f64> = (0..960)
                .filter(|i| weak.get(*i) == Some(k))
                .filter_map(|i| cp.get(i).map(f64::from))
                .collect();
            (format!("{k} weak"), values)
        })
        .filter(|(_, v)| !v.is_empty())
        .collect();
    assert_eq!(groups.iter().map(|g| g.1.len()).sum::<usize>(), 960);
    assert_eq!(groups[0].1.len(), 960 - 842, "positions without weak pawns");
    let means = GroupMeans {
        title: "White's advantage by number of weak pawns".into(),
        provenance: "Stockfish 15.1, 1,000,000 nodes".into(),
        groups: groups
            .iter()
            .map(|(label, values)| (label.clone(), GroupMean::of(values)))
            .collect(),
        x_desc: "weak pawns per side".into(),
        y_desc: "mean engine score, centipawns (White's view)".into(),
    };
    let [svg, png] = write(&means, out.path(), "advantage-by-weak-pawns").unwrap();
    let text = fs::read_to_string(&svg).unwrap();
    assert!(
        text.contains(&format!("0 weak (n={})", 960 - 842)),
        "group sizes in the labels"
    );
    assert!(fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    if let Ok(keep) = std::env::var("C960_KEEP_CHARTS") {
        fs::copy(&png, format!("{keep}/means.png")).unwrap();
    }
}

#[test]
fn castling_opportunities_count_every_position_once_per_side() {
    let (frame, _, _) = per_position(&[]).unwrap();
    let bars = c960_report::castling_opportunities(&frame).unwrap();
    assert_eq!(bars.series.len(), 2);
    for (k, (name, values)) in bars.series.iter().enumerate() {
        assert_eq!(values.len(), bars.categories.len());
        assert!((values.iter().sum::<f64>() - 960.0).abs() < 1e-9, "{name}");
        // Nothing in the way is exactly "castling legal on move 1".
        let column = ["castle_a_first_move", "castle_h_first_move"][k];
        let legal = frame.column(column).unwrap().bool().unwrap().sum().unwrap();
        assert!((values[0] - f64::from(legal)).abs() < 1e-9, "{name}");
    }
    assert_eq!(bars.categories[0], "0 (legal on move 1)");
    let out = tempfile::tempdir().unwrap();
    let [svg, _] = write(&bars, out.path(), "castling").unwrap();
    let text = fs::read_to_string(svg).unwrap();
    // One bar per category and side, plus a legend swatch each.
    let n = bars.categories.len() + 1;
    assert_eq!(text.matches(r##"fill="#1F77B4""##).count(), n);
    assert_eq!(text.matches(r##"fill="#D62728""##).count(), n);
}

#[test]
fn self_play_intervals_and_engine_against_self_play() {
    use c960_report::charts::{Intervals, Scatter};
    let known = [(1.0, 2.0), (2.0, 1.0), (3.0, 4.0), (4.0, 3.0)];

    let out = tempfile::tempdir().unwrap();
    let points: Vec<(u32, f64, f64, f64)> = (510..530)
        .map(|sp| {
            let v = 0.4 + 0.01 * f64::from(sp - 510);
            (sp, v, v - 0.1, v + 0.1)
        })
        .collect();
    let intervals = Intervals {
        title: "White's self-play score per position".into(),
        provenance: "test".into(),
        points: points.clone(),
        y_desc: "White's score".into(),
        reference: Some(("all games: 0.500".into(), 0.5)),
    };
    let [svg, png] = write(&intervals, out.path(), "intervals").unwrap();
    let text = fs::read_to_string(svg).unwrap();
    assert!(text.contains("SP 518 (classical): 0.480 [0.380, 0.580]"));
    assert!(text.contains("all games: 0.500"));
    // 20 interval bars and a legend sample, all in the faint series colour.
    assert_eq!(
        text.matches(r##"opacity="0.35" stroke="#1F77B4""##).count(),
        21
    );
    assert!(fs::read(png).unwrap().starts_with(b"\x89PNG"));

    let scatter = Scatter {
        title: "Engine score against self-play score".into(),
        provenance: "test".into(),
        points: known
            .iter()
            .enumerate()
            .map(|(i, (x, y))| (i as u32, *x, *y))
            .collect(),
        x_desc: "engine score, centipawns".into(),
        y_desc: "White's self-play score".into(),
        marked: None,
    };
    let [svg, _] = write(&scatter, out.path(), "scatter").unwrap();
    let text = fs::read_to_string(svg).unwrap();
    assert!(
        text.contains("Pearson r = 0.60"),
        "correlation in the legend"
    );
    assert!(text.contains("4 positions"));
    // Four points and a legend sample.
    assert_eq!(text.matches("<circle").count(), 5);
}
