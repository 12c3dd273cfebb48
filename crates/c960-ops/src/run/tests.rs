//! In-process tests of a run: plans, profiles, the record, the summary
//! and the v4 comparison.
