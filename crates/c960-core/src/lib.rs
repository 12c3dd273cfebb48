//! c960-core: the 960 Chess960 start positions, their static features and
//! reproducible organizer draws. Pure computation on top of shakmaty; no I/O.
//! Also the keys of the runs' units of work ([`SearchKey`] for a sweep's
//! (setup, repeat), [`GameKey`] for self-play's (setup, game)), so every
//! crate names them alike.
//!
//! # Examples
//!
//! ```
//! use c960_core::{Features, StartPosition};
//!
//! let sp = StartPosition::new(518)?;
//! let features = Features::of(sp);
//! assert_eq!(features.undefended_count(), 0);
//! assert_eq!(features.king_only_files(), vec!['f']);
//! assert_eq!(sp.mirror().placement(), "RNBKQBNR");
//! # Ok::<(), c960_core::StartPositionError>(())
//! ```

mod castling;
mod dfrc;
mod dice;
mod draw;
mod error;
mod features;
mod lang;
pub mod pgn;
mod position;
mod record;
mod score;
mod seal;
mod seed;
mod setup;
mod shard;
mod tally;
mod texts;
mod unit;

pub use castling::{CastlingRule, CastlingText, castling_rules, castling_texts};
pub use dfrc::{
    DFRC_COUNT, DfrcError, DfrcFeatures, DfrcSetup, SideAttack, SideTable, parse_dfrc_set,
    stratified_sample,
};
pub use dice::{DiceDraw, DiceStep, RollOutcome, dice};
pub use draw::{Allowed, Draw, DrawFilter, DrawMethod, draw, draw_among};
pub use error::{DiceError, DrawError, StartPositionError};
pub use features::{CastlingFeature, CastlingKind, Features, FirstMoveAttack};
pub use lang::Lang;
pub use position::{POSITION_COUNT, StartPosition, format_position_set, parse_position_set};
pub use record::{DfrcRecord, PositionRecord};
pub use score::MAX_SCORE_CP;
pub use seal::{Key, SEAL_LABEL, SEAL_SCHEME, Seal, draw_sealed, open_seal};
pub use seed::splitmix64;
pub use setup::{Setup, SetupError, Variant};
pub use shakmaty;
pub use shard::{Shard, ShardError};
pub use tally::{CastlingTally, histogram_median};
pub use texts::{TextTable, is_bidi_control, plural, without_bidi_controls};
pub use unit::{GameKey, PairKey, RoundTarget, SearchKey};
