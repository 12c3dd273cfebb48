//! The integration tests of c960-verdict, in one test binary: the verdict
//! table's reader and the fair ranking.

mod fair;
mod locks;
mod sweep_cells;
mod table;
