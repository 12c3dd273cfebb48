//! A-vs-B statistics against worked examples computed independently by a
//! short Python script (plain math, and scipy's constrained optimizer for
//! the generalized SPRT's maximum-likelihood distributions).

use std::process::Command;

use c960_balance::elo::{MatchStats, Sprt};

/// For each line `LL LD DD WD WW`: score, its 95% interval, Elo, nElo,
/// LOS and the LLR for elo0=0, elo1=5, alpha=beta=0.05. The LLR's
/// distributions are found by SLSQP maximizing Σ nᵢ ln pᵢ under Σ pᵢ = 1
/// and Σ pᵢ aᵢ = s (not by the Lagrange root c960 solves), with empty
/// outcomes counting 0.001 pairs as in fishtest and fastchess.
const WORKED: &str = r#"
import math, sys
from scipy.optimize import minimize
from scipy.stats import norm
a = [0, 0.25, 0.5, 0.75, 1]
for line in sys.stdin:
    n = [int(x) for x in line.split()]
    N = sum(n)
    p = [c / N for c in n]
    mu = sum(pi * ai for pi, ai in zip(p, a))
    var = sum(pi * (ai - mu) ** 2 for pi, ai in zip(p, a))
    se = math.sqrt(var / N)
    lo, hi = mu - norm.ppf(0.975) * se, mu + norm.ppf(0.975) * se
    elo = lambda s: -400 * math.log10(1 / s - 1)
    nelo = lambda s: (s - 0.5) / math.sqrt(2 * var) * 800 / math.log(10)
    los = norm.cdf((mu - 0.5) / se)
    r = [c if c > 0 else 1e-3 for c in n]
    def mle(s):
        cons = [{"type": "eq", "fun": lambda q: sum(q) - 1},
                {"type": "eq", "fun": lambda q: sum(qi * ai for qi, ai in zip(q, a)) - s}]
        f = lambda q: -sum(ri * math.log(max(qi, 1e-300)) for ri, qi in zip(r, q))
        res = minimize(f, [1 / 5] * 5, constraints=cons, bounds=[(1e-12, 1)] * 5,
                       method="SLSQP", options={"ftol": 1e-15, "maxiter": 1000})
        return res.x
    score = lambda e: 1 / (1 + 10 ** (-e / 400))
    p0, p1 = mle(score(0)), mle(score(5))
    llr = sum(ri * (math.log(q1) - math.log(q0)) for ri, q0, q1 in zip(r, p0, p1))
    print(mu, lo, hi, elo(mu), elo(lo), elo(hi), nelo(mu), nelo(lo), nelo(hi), los, llr)
"#;

#[test]
fn score_elo_nelo_los_and_llr_match_worked_examples() {
    let examples: [[u64; 5]; 4] = [
        [3, 10, 25, 12, 5],
        [0, 4, 30, 9, 2],
        [40, 210, 480, 230, 45],
        [12, 30, 51, 22, 9],
    ];
    let input: String = examples
        .iter()
        .map(|e| {
            e.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect();
    let python = std::env::var("C960_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let mut child = Command::new(&python)
        .args(["-c", WORKED])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "scipy is required for this test (`pip install scipy`; CI sets C960_PYTHON to a \
         virtual environment with it): {stderr}"
    );
    let sprt = Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    let expected = String::from_utf8(output.stdout).unwrap();
    for (counts, line) in examples.iter().zip(expected.lines()) {
        let want: Vec<f64> = line
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect();
        let stats = MatchStats::from_pentanomial(*counts, 0, [0, 0, 0], Some(sprt));
        let (score, elo, nelo) = (
            stats.score.unwrap(),
            stats.elo.unwrap(),
            stats.normalized_elo.unwrap(),
        );
        let got = [
            score.value,
            score.low,
            score.high,
            elo.value,
            elo.low,
            elo.high,
            nelo.value,
            nelo.low,
            nelo.high,
            stats.los.unwrap(),
        ];
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(
                (g - w).abs() < 1e-6 * w.abs().max(1.0),
                "{counts:?} value {i}: {g} vs {w}"
            );
        }
        let llr = stats.sprt.as_ref().unwrap().llr;
        assert!(
            (llr - want[10]).abs() < 1e-4,
            "{counts:?} LLR: {llr} vs {}",
            want[10]
        );
    }
}

#[test]
fn sprt_bounds_and_decisions() {
    let sprt: Sprt = "elo0=0,elo1=5,alpha=0.05,beta=0.1".parse().unwrap();
    assert!((sprt.lower() - (0.1f64 / 0.95).ln()).abs() < 1e-12);
    assert!((sprt.upper() - (0.9f64 / 0.05).ln()).abs() < 1e-12);
    // Every pair won: H1; every pair even: H0; a few pairs: no decision.
    let h1 = MatchStats::from_pentanomial([0, 0, 0, 0, 300], 0, [600, 0, 0], Some(sprt));
    assert_eq!(
        h1.sprt.unwrap().accepted,
        Some(c960_balance::elo::Hypothesis::H1)
    );
    let h0 = MatchStats::from_pentanomial([0, 0, 2000, 0, 0], 0, [0, 4000, 0], Some(sprt));
    assert_eq!(
        h0.sprt.unwrap().accepted,
        Some(c960_balance::elo::Hypothesis::H0)
    );
    let open = MatchStats::from_pentanomial([1, 2, 3, 2, 1], 0, [0; 3], Some(sprt));
    assert_eq!(open.sprt.unwrap().accepted, None);
    for bad in [
        "elo0=5,elo1=0,alpha=0.05,beta=0.05",
        "elo0=0,elo1=5,alpha=0,beta=0.05",
        "elo0=0,elo1=5,alpha=0.6,beta=0.5",
        "elo0=0,elo1=5,alpha=0.05",
        "elo0=0,elo1=5,alpha=0.05,beta=0.05,gamma=1",
        "elo0=x,elo1=5,alpha=0.05,beta=0.05",
    ] {
        assert!(bad.parse::<Sprt>().is_err(), "{bad}");
    }
    // No pairs, no estimates; an all-won match has no finite Elo.
    let empty = MatchStats::from_pentanomial([0; 5], 0, [0; 3], None);
    assert!(empty.score.is_none() && empty.elo.is_none() && empty.los.is_none());
    assert!(h1.elo.is_none());
    assert_eq!(h1.los, Some(1.0));
}

/// Pentanomial counts and the figures fastchess v1.8.2-alpha printed for
/// them (`Elo: E +/- e, nElo: N +/- n`, two decimals), from real matches of
/// Stockfish 15.1 at 1.5×N against N nodes per move (the book benchmark,
/// `crates/c960-book/bench/bench-books.sh`, checks every run the same way).
const FASTCHESS_PRINTED: [([u64; 5], [f64; 4]); 5] = [
    ([0, 4, 15, 4, 17], [157.66, 72.92, 192.44, 76.13]),
    ([0, 1, 6, 3, 10], [214.85, 116.47, 271.60, 107.67]),
    ([0, 0, 2, 9, 9], [284.85, 97.11, 507.25, 107.67]),
    ([2, 1, 8, 6, 3], [61.43, 89.10, 77.61, 107.67]),
    ([1, 1, 4, 5, 9], [190.85, 124.56, 215.47, 107.67]),
];

#[test]
fn resolution_elo_and_nelo_equal_fastchess_figures() {
    for (counts, [elo, elo_error, nelo, nelo_error]) in FASTCHESS_PRINTED {
        let stats = MatchStats::from_pentanomial(counts, 0, [0; 3], None);
        let (e, n) = (stats.elo.unwrap(), stats.normalized_elo.unwrap());
        // fastchess prints the half-width of the same mapped interval.
        for (what, got, want) in [
            ("Elo", e.value, elo),
            ("Elo ±", (e.high - e.low) / 2.0, elo_error),
            ("nElo", n.value, nelo),
            ("nElo ±", (n.high - n.low) / 2.0, nelo_error),
        ] {
            assert!(
                (got - want).abs() <= 0.005 + 1e-9,
                "{counts:?} {what}: c960 {got:.4}, fastchess {want:.2}"
            );
        }
    }
}

#[test]
fn pairs_ratio_and_game_pair_elo_follow_their_formulas_and_cover_the_truth() {
    use c960_balance::{
        elo::{game_pair_elo, pairs_ratio},
        rng::Rng,
    };
    // fastchess's PairsRatio and the wiki's ngpElo on one result.
    let counts = [12, 30, 51, 22, 9];
    assert!((pairs_ratio(counts).unwrap() - 31.0 / 42.0).abs() < 1e-12);
    let ngp = game_pair_elo(counts).unwrap();
    let expected = 100.0 * (40.0_f64 / 54.0).log10();
    assert!((ngp.value - expected).abs() < 1e-9, "{ngp:?}");
    assert!(pairs_ratio([0, 0, 3, 2, 1]).is_none());
    assert!(game_pair_elo([0, 0, 3, 2, 1]).is_none());
    // Pairs drawn from a known pentanomial distribution: the interval
    // covers the true ngpElo about 95 % of the time.
    let p: [f64; 5] = [0.03, 0.17, 0.45, 0.25, 0.10];
    let truth = 100.0 * ((2.0 * p[4] + p[3]) / (2.0 * p[0] + p[1])).log10();
    let mut rng = Rng::new(11);
    let runs = 400;
    let mut covered = 0;
    for _ in 0..runs {
        let mut n = [0_u64; 5];
        for _ in 0..800 {
            let u = rng.uniform();
            let mut acc = 0.0;
            let k = p.iter().position(|&q| {
                acc += q;
                u < acc
            });
            n[k.unwrap_or(4)] += 1;
        }
        let e = game_pair_elo(n).unwrap();
        if e.low <= truth && truth <= e.high {
            covered += 1;
        }
    }
    // 95 % ± 3.3 points (three binomial standard errors at 400 runs).
    let rate = f64::from(covered) / f64::from(runs);
    assert!((rate - 0.95).abs() < 0.033, "coverage {rate}");
}
