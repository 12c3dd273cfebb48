//! Cost of the position table: features for all 960 positions, against a
//! baseline measured in the same run (setting up the 960 shakmaty positions
//! and generating their first moves). Prints medians and their ratio, and
//! checks the answer so that a fast wrong result cannot look like a win.

use std::{hint::black_box, time::Instant};

use c960_core::{Features, PositionRecord, StartPosition, shakmaty::Position};

const RUNS: usize = 31;

fn median_ms(mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[RUNS / 2]
}

fn main() {
    let all = Features::all();
    assert_eq!(all.iter().filter(|f| f.weak_count() > 0).count(), 842);

    let baseline = median_ms(|| {
        for sp in StartPosition::all() {
            black_box(sp.to_position().legal_moves().len());
        }
    });
    let features = median_ms(|| {
        black_box(Features::all());
    });
    let table = median_ms(|| {
        let records: Vec<PositionRecord> =
            Features::all().iter().map(PositionRecord::from).collect();
        black_box(records);
    });
    println!("median of {RUNS} runs, 960 positions each");
    println!("  baseline (set up + legal moves): {baseline:8.3} ms");
    println!(
        "  features:                         {features:8.3} ms  ({:.1}x baseline)",
        features / baseline
    );
    println!(
        "  features + table rows:            {table:8.3} ms  ({:.1}x baseline)",
        table / baseline
    );
}
