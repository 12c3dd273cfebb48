//! PGN tools for the import benchmark.
//!
//! `pgn_tool gen OUT GAMES [SEED]` writes GAMES realistic Chess960 games
//! (Lichess-style tags and clock comments, every one of the 960 start
//! positions in turn, seeded random legal moves, 20–160 plies) as PGN.
//! `pgn_tool scan PGN` parses a file with pgn-reader and counts games and
//! SAN tokens without checking any move: the parser's own speed, the
//! baseline the importer is measured against.

use std::{
    fmt::Write as _,
    fs::File,
    io::{self, BufReader, BufWriter, Write},
    ops::ControlFlow,
    time::Instant,
};

use c960_core::{
    StartPosition,
    shakmaty::{Chess, Color, Position, san::SanPlus},
};
use pgn_reader::{Reader, Visitor};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

fn generate(out: &str, games: u64, seed: u64) -> io::Result<()> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut file = BufWriter::with_capacity(1 << 20, File::create(out)?);
    let players = [
        "Magnus", "Hikaru", "Alireza", "Fabiano", "Wesley", "Ian", "Levon", "Anish",
    ];
    let time_controls = ["60+0", "180+0", "180+2", "300+3", "600+5"];
    for g in 0..games {
        let position = StartPosition::new((g % 960) as u16).expect("in range");
        let mut board: Chess = position.to_position();
        let white = players[(rng.next_u32() % 8) as usize];
        let black = players[(rng.next_u32() % 8) as usize];
        let white_elo = 1200 + rng.next_u32() % 1500;
        let black_elo = 1200 + rng.next_u32() % 1500;
        let tc = time_controls[(rng.next_u32() % 5) as usize];
        let mut movetext = String::with_capacity(2048);
        let plies = 20 + rng.next_u32() % 141;
        let mut clock = [180u32, 180u32];
        for ply in 0..plies {
            let legal = board.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[(rng.next_u32() as usize) % legal.len()];
            if ply % 2 == 0 {
                let _ = write!(movetext, "{}. ", ply / 2 + 1);
            } else if ply == 0 {
                movetext.push_str("1... ");
            }
            let side = usize::from(board.turn() == Color::Black);
            let san = SanPlus::from_move_and_play_unchecked(&mut board, mv);
            clock[side] = clock[side].saturating_sub(rng.next_u32() % 6);
            let c = clock[side];
            let _ = write!(
                movetext,
                "{san} {{ [%clk 0:{:02}:{:02}] }} ",
                c / 60,
                c % 60
            );
        }
        let result = match board.outcome() {
            c960_core::shakmaty::Outcome::Known(outcome) => outcome.to_string(),
            c960_core::shakmaty::Outcome::Unknown => {
                ["1-0", "0-1", "1/2-1/2"][(rng.next_u32() % 3) as usize].to_owned()
            }
        };
        let day = 1 + g % 28;
        writeln!(
            file,
            "[Event \"Rated Chess960 game\"]\n[Site \"https://lichess.org/{g:08x}\"]\n\
             [Date \"2024.03.{day:02}\"]\n[Round \"-\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\
             [Result \"{result}\"]\n[UTCDate \"2024.03.{day:02}\"]\n[UTCTime \"12:00:00\"]\n\
             [WhiteElo \"{white_elo}\"]\n[BlackElo \"{black_elo}\"]\n[WhiteRatingDiff \"+5\"]\n\
             [BlackRatingDiff \"-5\"]\n[Variant \"Chess960\"]\n[TimeControl \"{tc}\"]\n\
             [ECO \"?\"]\n[Termination \"Normal\"]\n[FEN \"{}\"]\n[SetUp \"1\"]\n\n{movetext}{result}\n",
            position.to_xfen()
        )?;
    }
    file.flush()
}

struct Scan;

impl Visitor for Scan {
    type Tags = ();
    type Movetext = u64;
    type Output = u64;

    fn begin_tags(&mut self) -> ControlFlow<u64, ()> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, (): ()) -> ControlFlow<u64, u64> {
        ControlFlow::Continue(0)
    }

    fn san(&mut self, sans: &mut u64, _: SanPlus) -> ControlFlow<u64> {
        *sans += 1;
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, sans: u64) -> u64 {
        sans
    }
}

fn scan(path: &str) -> io::Result<()> {
    let started = Instant::now();
    let mut reader = Reader::new(BufReader::with_capacity(1 << 16, File::open(path)?));
    let (mut games, mut sans) = (0u64, 0u64);
    while let Some(n) = reader.read_game(&mut Scan)? {
        games += 1;
        sans += n;
    }
    println!(
        "{games} games, {sans} moves parsed in {:.2}s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("gen") if args.len() >= 4 => generate(
            &args[2],
            args[3].parse().expect("GAMES is a number"),
            args.get(4)
                .map_or(0, |s| s.parse().expect("SEED is a number")),
        ),
        Some("scan") if args.len() == 3 => scan(&args[2]),
        _ => {
            eprintln!("usage: pgn_tool gen OUT GAMES [SEED] | pgn_tool scan PGN");
            std::process::exit(2);
        }
    }
}
