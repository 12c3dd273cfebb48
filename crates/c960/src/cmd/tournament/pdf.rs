//! The kit's PDF: `kit.html` printed by headless Chromium (`chromium`, or
//! the program named by `C960_CHROMIUM`), written beside the kit under a
//! temporary name and renamed once complete.

use std::{
    fs,
    path::Path,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use anyhow::{Context, Result, bail};

use crate::cli::InputError;

/// Prints `html` to `pdf` with headless Chromium; the PDF appears only once
/// complete. Errors name `shown`, where the PDF goes in the finished kit.
pub(super) fn print_pdf(html: &Path, pdf: &Path, shown: &Path) -> Result<()> {
    let chromium = std::env::var("C960_CHROMIUM").unwrap_or_else(|_| "chromium".to_owned());
    let html = fs::canonicalize(html)?;
    let profile = tempfile::tempdir()?;
    let partial = pdf.with_extension("pdf.partial");
    let mut child = Command::new(&chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-pdf-header-footer",
            "--print-to-pdf-no-header",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--print-to-pdf={}", partial.display()))
        .arg(format!("file://{}", html.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| {
            InputError(format!(
                "--pdf needs headless Chromium: cannot run {chromium}: {e} \
                 (apt-get install chromium, or set C960_CHROMIUM)"
            ))
        })?;
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if started.elapsed() > Duration::from_mins(2) {
            let _ = child.kill();
            let _ = child.wait();
            let _ = fs::remove_file(&partial);
            bail!(
                "{chromium} did not finish printing {} within 120 s",
                shown.display()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    if !status.success() || !partial.is_file() {
        let _ = fs::remove_file(&partial);
        bail!("{chromium} could not print {} ({status})", shown.display());
    }
    fs::rename(&partial, pdf).with_context(|| format!("cannot write {}", shown.display()))?;
    Ok(())
}
