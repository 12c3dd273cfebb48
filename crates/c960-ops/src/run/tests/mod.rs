//! In-process tests of a run: plans resolved from profiles, config files
//! and options, and the stages' configurations (`plans.rs`); runs of a
//! few positions with the built-in engine, their `run.json`, summary,
//! resumption, stop and refusal (`runs.rs`).

mod plans;
mod runs;

use std::{
    cell::RefCell,
    fs,
    num::NonZeroUsize,
    path::{Path, PathBuf},
};

use anyhow::Result;
use c960_engine::{EngineName, EngineSpec};

use super::{EngineRequest, InputError, PlanOptions};

/// The built-in engine for every request, each request kept.
fn builtin(
    asked: &RefCell<Vec<(EngineName, u32)>>,
) -> impl Fn(EngineRequest<'_>) -> Result<EngineSpec> {
    move |r: EngineRequest<'_>| {
        asked.borrow_mut().push((r.engine.clone(), r.hash.get()));
        Ok(EngineSpec::Builtin {
            hash_mb: r.hash.get() as usize,
            watchdog: None,
        })
    }
}

/// Options for a run of SP 518 alone with the built-in engine.
fn one_position(out: &Path) -> PlanOptions {
    PlanOptions {
        out: Some(out.to_owned()),
        engine: Some(EngineName::Builtin),
        positions: Some("518".to_owned()),
        sweep_nodes: Some(300),
        jobs: NonZeroUsize::new(1),
        ..PlanOptions::default()
    }
}

/// The message of an error that must be bad input.
fn input_error(result: Result<impl std::fmt::Debug>) -> String {
    let err = result.expect_err("refused");
    assert!(
        err.chain().any(<dyn std::error::Error>::is::<InputError>),
        "not bad input: {err:#}"
    );
    format!("{err:#}")
}

fn config(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("run.toml");
    fs::write(&path, text).unwrap();
    path
}
