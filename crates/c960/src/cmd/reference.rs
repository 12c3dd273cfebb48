//! `c960 completions` and `c960 man`: the command reference generated from
//! the clap definitions that `--help` and the parser use, so reference and
//! behaviour cannot drift apart.

use std::{
    io::{self, Write as _},
    path::Path,
};

use anyhow::{Context as _, Result};

use crate::cli::{CompletionsArgs, ManArgs};

/// Shell completions for `c960` on standard output.
pub(crate) fn completions(args: &CompletionsArgs) -> Result<()> {
    let mut command = crate::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut command, "c960", &mut out);
    io::stdout().lock().write_all(&out)?;
    Ok(())
}

/// The man page of `c960` on standard output, or with `--out DIR` that page
/// (`c960.1`) and one per subcommand (`c960-run.1`, …), each written
/// atomically.
pub(crate) fn man(args: &ManArgs) -> Result<()> {
    let mut command = crate::command();
    command.build();
    let Some(dir) = &args.out else {
        let mut out = Vec::new();
        clap_mangen::Man::new(command).render(&mut out)?;
        io::stdout().lock().write_all(&out)?;
        return Ok(());
    };
    let mut pages = vec![("c960".to_owned(), command.clone())];
    for sub in command.get_subcommands() {
        let name = format!("c960-{}", sub.get_name());
        pages.push((
            name.clone(),
            sub.clone().name(name).version(env!("CARGO_PKG_VERSION")),
        ));
    }
    for (name, page) in pages {
        let mut text = Vec::new();
        clap_mangen::Man::new(page).render(&mut text)?;
        write_page(&dir.join(format!("{name}.1")), &text)?;
    }
    Ok(())
}

fn write_page(path: &Path, text: &[u8]) -> Result<()> {
    c960_store::write_atomically(path, |out| out.write_all(text))
        .with_context(|| format!("cannot write {}", path.display()))
}
