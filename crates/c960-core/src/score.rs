//! The range of an engine's centipawn score.

/// The largest centipawn score, either sign, that an engine may report:
/// 16 bits, what UCI engines print (Stockfish's infinite is 32001). A
/// `score cp` beyond it is not an evaluation: the engine misbehaves, and a
/// table holding one is damaged.
pub const MAX_SCORE_CP: i32 = 32_767;
