//! The integration tests of c960, in one test binary (each file a module),
//! so the workspace is linked once per crate, not once per test file.

mod util;

mod adaptive_shards;
mod argument_errors;
mod balance;
mod browser;
mod builtin;
mod cli;
mod compare;
mod dfrc;
mod dfrc_report;
mod engine_faults;
mod faults;
mod import;
mod import_defects;
mod integrity;
mod integrity_tables;
mod lying_engines;
mod owned_outputs;
mod readers;
mod reference;
mod regenerate;
mod report;
mod researchers;
mod run;
mod run_raters;
mod selfplay;
mod selfplay_adaptive;
mod selfplay_clock;
mod selfplay_dfrc;
mod selfplay_match;
mod selfplay_sprt;
mod shards;
mod sheets;
mod slurm;
mod stockfish19;
mod sweep;
mod sweep_dfrc;
mod sweep_repeats;
mod tournament;
mod tournament_folder;
mod tournament_language;
mod writers;
