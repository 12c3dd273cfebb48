//! c960-store: how c960 puts results on disk safely. Files are written
//! atomically (a temporary file beside the target, synced, then renamed),
//! long runs append each finished unit of work durably to a journal so
//! that a run killed at any moment resumes where it stopped, and a run
//! directory is locked so that two runs never write into it at once.
//! [`manifest`] is the run-directory contract as readers see it: the file
//! names, the Parquet metadata keys, the typed [`RunManifest`] and the
//! manifest each kind of run writes ([`SweepManifest`],
//! [`SelfplayManifest`], [`ImportManifest`], [`BookManifest`]);
//! [`merge`] what every `c960 merge` shares; [`columns`] the column names
//! of the per-position tables that writers and the report share;
//! [`Frame`] a table built from a slice of rows, one column per field;
//! [`read_position_column`] one number per position from any such table;
//! [`write_csv`] the one way CSV is written (from a table; in slices with
//! [`write_csv_slices`]), and [`spreadsheet_csv`] CSV that spreadsheets
//! open as data, never formulas;
//! [`RunDir`] a run directory held for a run's life (locked, cleared,
//! its outputs checked, put back if the run is refused);
//! [`DirSwap`] an output directory replaced as a whole; [`Settings`] a
//! journal's settings for readers that do not know their type;
//! [`Claim`] the outputs of a command, claimed before any work and
//! written as a set;
//! [`read_input`] an input the user named, refused unless it is a regular
//! file (a FIFO is refused without waiting for it);
//! [`bad_input`] the error every layer raises for a path or file the user
//! gave that cannot be used, told from a failure by its type
//! ([`is_bad_input`]).

mod atomic;
mod bad_input;
mod claim;
pub mod columns;
mod digest;
mod frame;
mod game_slices;
mod input;
mod journal;
mod lock;
pub mod manifest;
pub mod merge;
mod parquet;
mod parquet_columns;
mod position_column;
mod run_dir;
mod sealed_run;
mod settings;
mod setup_columns;
mod spreadsheet;
mod swap;
mod table_csv;
mod untouched;

pub use atomic::{
    OutputFile, check_output, create_dir, describe_write_error, remove_stale_temporaries,
    write_atomically, write_built,
};
pub use bad_input::{BadInput, bad_input, is_bad_input};
pub use claim::{Claim, Claimed, OutputSet};
pub use digest::{hex, sha256_hex};
pub use frame::Frame;
pub use game_slices::{GameSlices, SLICE_ROWS};
pub use input::{check_input, open_input, read_input};
pub use journal::{Check, DroppedLine, Journal, JournalError, Key, Validation};
pub use lock::{DirLock, LOCK_FILE, LockError, lock_dir};
pub use manifest::{
    AdaptiveRule, BALANCE_CSV, BookContents, BookKind, BookManifest, EngineRecord, FailedPosition,
    FailedUnit, GAMES_TABLE, IMPORT_SUMMARY_FILE, ImportManifest, JOURNAL_FILE, MANIFEST_FILE,
    ManifestError, PARQUET_MANIFEST_KEY, POSITIONS_CSV, POSITIONS_TABLE, REPEATS_CSV,
    REPEATS_TABLE, Repeatability, RunKind, RunManifest, SOURCES_KEY, SWEEP_CSV, SWEEP_TABLE,
    SelfplayManifest, Sharding, SweepManifest, Variant, book_manifest_path,
};
pub use parquet::{
    CorruptFile, HASH_KEY, ParquetInfo, ROWS_KEY, SealedWriter, check_parquet, polars_reason,
    quietly, write_sealed,
};
pub use parquet_columns::{ColumnsError, parquet_column_names, parquet_columns};
pub use position_column::{ColumnError, DEFAULT_COLUMNS, PositionColumn, read_position_column};
pub use run_dir::RunDir;
pub use sealed_run::SEALED_TABLES;
pub use settings::{Settings, Verbatim};
pub use setup_columns::label_variant;
pub use spreadsheet::{CsvCell, inert, spreadsheet_csv};
pub use swap::{DirSwap, SwapError};
pub use table_csv::{empty_text_as_missing, write_csv, write_csv_slices, write_parquet_slices};
pub use untouched::Untouched;
