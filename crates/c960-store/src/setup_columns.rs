//! How tables name their setups: Chess960 tables by Scharnagl number in
//! an `sp` column, DFRC tables by index in a `setup` column with each
//! side's Scharnagl number beside it.

use c960_core::Variant;
use polars::prelude::*;

use crate::Frame;

/// Names a table's setups as its variant does: a DFRC table's `sp` column
/// becomes `setup` (the DFRC index), with `white_sp` and `black_sp` (each
/// side's Scharnagl number) before `placement`. Chess960 tables are left
/// as they are.
pub fn label_variant(frame: &mut DataFrame, variant: Variant) -> PolarsResult<()> {
    if variant == Variant::Chess960 {
        return Ok(());
    }
    frame.rename("sp", variant.id_column().into())?;
    let ids: Vec<u32> = frame
        .column(variant.id_column())?
        .u32()?
        .into_no_null_iter()
        .collect();
    let at = frame.get_column_index("placement").unwrap_or(1);
    Frame::new(&ids)
        .column("white_sp", |n| n % 960)
        .column("black_sp", |n| n / 960)
        .insert_into(frame, at)
}
