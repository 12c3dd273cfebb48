//! The two batch scripts of a sharded run: the array of shards and the
//! merge job after it (for adaptive self-play, the job that merges a round
//! and submits the next).
//!
//! Every path and argument is quoted for the reader that reads it: bash
//! (single quotes) in commands, sbatch's own parser (backslash escapes)
//! in `#SBATCH` lines, and Slurm's file-name patterns (`%%`) in the log
//! paths. Control characters are refused before a script is written (see
//! `check_text` in `checks.rs`): no quoting makes a newline inside an
//! `#SBATCH` line safe.
//!
//! A shard task marks itself finished (`DIR/slurm/finished/I`) only when
//! its c960 command succeeds: a shard whose positions or games failed
//! exits 1, is not finished, and the merge job resubmits it (its journal
//! keeps everything else).

use std::{
    fmt::Write as _,
    fs,
    path::{Path, PathBuf},
};

use super::{
    ATTEMPTS, SlurmError, SlurmOptions,
    book::Book,
    quote::{sbatch_quote, shell_quote},
};

/// What the merge job does once every shard finished.
pub(super) enum Merge<'a> {
    /// `c960 merge` the shards into the run directory.
    Shards,
    /// Merge the round of adaptive self-play and decide the next.
    Rounds,
    /// Build the exit book from the shards' journals.
    Book(&'a Book),
}

/// What the two scripts need.
pub(super) struct Jobs<'a> {
    pub(super) exe: &'a Path,
    pub(super) cwd: &'a Path,
    pub(super) out: &'a Path,
    pub(super) name: &'a str,
    pub(super) slurm: &'a SlurmOptions,
    /// The file a finished shard has.
    pub(super) done: &'a str,
    /// The flag that names a task's shard directory.
    pub(super) dir_flag: &'a str,
}

impl Jobs<'_> {
    /// Writes `DIR/slurm/shard.sbatch` and `merge.sbatch` and returns
    /// their paths.
    pub(super) fn write_scripts(
        &self,
        task_args: &[String],
        merge: &Merge<'_>,
    ) -> Result<(PathBuf, PathBuf), SlurmError> {
        let dir = self.out.join("slurm");
        for sub in ["logs", FINISHED] {
            fs::create_dir_all(dir.join(sub)).map_err(|source| SlurmError::Create {
                path: dir.clone(),
                source,
            })?;
        }
        fs::create_dir_all(self.out.join("shards"))?;
        let shard_script = dir.join("shard.sbatch");
        let merge_script = dir.join("merge.sbatch");
        let mut shard_args = task_args.to_vec();
        let exe = shell_quote(&self.exe.to_string_lossy());
        let last = self.slurm.shards.get() - 1;
        let merge_text = match merge {
            Merge::Rounds => {
                shard_args.extend([
                    "--rounds-from".to_owned(),
                    self.out.to_string_lossy().into_owned(),
                ]);
                self.next_round_script(task_args)
            }
            Merge::Shards => self.merge_script(
                "Merges\n# the shards",
                &format!(
                    "shards=()\nfor i in $(seq 0 {last}); do shards+=(\"$out/shards/$i\"); done\n\
                     exec {exe} merge \"${{shards[@]}}\" --out \"$out\"\n"
                ),
            ),
            Merge::Book(book) => self.merge_script(
                if book.out.is_some() {
                    "Builds\n# the book"
                } else {
                    "Checks\n# the shards"
                },
                &book.merge_tail(&exe, last),
            ),
        };
        write_script(&shard_script, &self.shard_script(&shard_args))?;
        write_script(&merge_script, &merge_text)?;
        Ok((shard_script, merge_script))
    }

    fn header(&self, lines: &[String]) -> String {
        let mut text = String::from("#!/bin/bash\n");
        let mut options = vec![
            format!("--job-name={}", self.name),
            format!("--chdir={}", sbatch_quote(&self.cwd.to_string_lossy())),
            "--ntasks=1".to_owned(),
        ];
        options.extend(lines.iter().cloned());
        if let Some(p) = &self.slurm.partition {
            options.push(format!("--partition={p}"));
        }
        if let Some(t) = &self.slurm.time {
            options.push(format!("--time={t}"));
        }
        for option in options {
            let _ = writeln!(text, "#SBATCH {option}");
        }
        text
    }

    /// `#SBATCH --output=` for the log file `name` (a Slurm pattern).
    fn log_option(&self, name: &str) -> String {
        let logs = self.out.join("slurm").join("logs");
        format!(
            "--output={}/{name}",
            sbatch_quote(&logs.to_string_lossy().replace('%', "%%"))
        )
    }

    fn shard_script(&self, args: &[String]) -> String {
        let n = self.slurm.shards.get();
        let mut text = self.header(&[
            format!("--array=0-{}", n - 1),
            format!("--cpus-per-task={}", self.slurm.cpus_per_task),
            self.log_option("shard-%a-%A.out"),
        ]);
        let command: Vec<String> = std::iter::once(self.exe.to_string_lossy().into_owned())
            .chain(args.iter().cloned())
            .map(|a| shell_quote(&a))
            .collect();
        let finished = self.out.join("slurm").join(FINISHED);
        let _ = write!(
            text,
            "# Written by c960 slurm: shard $SLURM_ARRAY_TASK_ID of {n}, resumed from its journal\n\
             # when run again; marked finished only when c960 succeeds.\n\
             set -euo pipefail\n\
             cd {}\n\
             shard=\"$SLURM_ARRAY_TASK_ID\"\n\
             finished={}/\"$shard\"\n\
             rm -f \"$finished\"\n\
             {} --shard \"$shard/{n}\" --jobs \"${{SLURM_CPUS_PER_TASK:-1}}\" --quiet \\\n  \
             {} {}/\"$shard\"\n\
             touch \"$finished\"\n",
            shell_quote(&self.cwd.to_string_lossy()),
            shell_quote(&finished.to_string_lossy()),
            command.join(" "),
            self.dir_flag,
            shell_quote(&self.out.join("shards").to_string_lossy()),
        );
        text
    }

    /// The merge job of adaptive self-play: `c960 slurm ... --next-round
    /// --submit` merges the round and submits the next.
    fn next_round_script(&self, args: &[String]) -> String {
        let n = self.slurm.shards.get();
        let mut text = self.header(&[
            "--cpus-per-task=1".to_owned(),
            self.log_option("merge-%j.out"),
        ]);
        let command: Vec<String> = [self.exe.to_string_lossy().into_owned(), "slurm".to_owned()]
            .into_iter()
            .chain(args.iter().cloned())
            .map(|a| shell_quote(&a))
            .collect();
        let _ = write!(
            text,
            "# Written by c960 slurm: runs after every shard task of a round ended (afterany).\n\
             # Merges the round into the run directory when every shard played it and decides\n\
             # the next from all games so far (written to rounds.jsonl), then submits it and\n\
             # this job after it; resubmits unfinished shards instead, at most {ATTEMPTS} times;\n\
             # writes the final tables when the rule stops.\n\
             set -euo pipefail\n\
             cd {}\n\
             exec {} --shards {n} --out {} --next-round --submit\n",
            shell_quote(&self.cwd.to_string_lossy()),
            command.join(" "),
            shell_quote(&self.out.to_string_lossy()),
        );
        text
    }

    /// The merge job: `what` it does with the shards once all finished
    /// (for its comment) and the `tail` of the script that does it.
    fn merge_script(&self, what: &str, tail: &str) -> String {
        let n = self.slurm.shards.get();
        let mut text = self.header(&[
            "--cpus-per-task=1".to_owned(),
            self.log_option("merge-%j.out"),
        ]);
        let cwd = shell_quote(&self.cwd.to_string_lossy());
        let out = shell_quote(&self.out.to_string_lossy());
        let _ = write!(
            text,
            r#"# Written by c960 slurm: runs after every shard task ended (afterany). {what} when all finished (their c960 command succeeded); otherwise resubmits the
# unfinished tasks (the same command resumes from their journals, retrying what failed)
# and this job after them, at most {ATTEMPTS} times.
set -euo pipefail
cd {cwd}
out={out}
attempt="${{C960_MERGE_ATTEMPT:-1}}"
unfinished=()
for i in $(seq 0 {last}); do
  [ -e "$out/slurm/{FINISHED}/$i" ] && [ -e "$out/shards/$i/{done}" ] || unfinished+=("$i")
done
if [ ${{#unfinished[@]}} -gt 0 ]; then
  list=$(IFS=,; echo "${{unfinished[*]}}")
  if [ "$attempt" -ge {ATTEMPTS} ]; then
    echo "c960: shards $list did not finish after $attempt attempts; see $out/slurm/logs" >&2
    exit 1
  fi
  array=$(sbatch --parsable --array="$list" "$out/slurm/shard.sbatch")
  array="${{array%%;*}}"
  merge=$(sbatch --parsable --dependency="afterany:$array" \
    --export="ALL,C960_MERGE_ATTEMPT=$((attempt + 1))" "$out/slurm/merge.sbatch")
  merge="${{merge%%;*}}"
  printf 'resubmitted shards %s\nshards %s\nmerge %s\n' "$list" "$array" "$merge" >>"$out/slurm/jobs.log"
  echo "c960: shards $list unfinished: resubmitted as job $array, merge as job $merge"
  exit 0
fi
{tail}"#,
            last = n - 1,
            done = self.done,
        );
        text
    }
}

fn write_script(path: &Path, text: &str) -> std::io::Result<()> {
    c960_store::write_atomically(path, |f| std::io::Write::write_all(f, text.as_bytes()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        fs::set_permissions(path, fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}

/// The directory of `DIR/slurm` where each shard task that succeeded
/// leaves a file named after its index.
pub(super) const FINISHED: &str = "finished";
