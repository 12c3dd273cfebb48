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
    let (frame, sources) = per_position(&[dir]).unwrap();
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
    };
    let [svg, png] = write(&histogram, out.path(), "histogram").unwrap();
    let text = fs::read_to_string(&svg).unwrap();
    // -2..85 cp spans the ten bins -10..-1 to 80..89: one bar each.
    let bars = text.matches(r##"opacity="0.7" fill="#0000FF""##).count();
    assert_eq!(bars, 10, "one bar per non-empty bin");
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
