#!/usr/bin/env bash
# Dataset v3's searches take more engine hours than one working session on
# a machine that does not keep runs/ between sessions. This script carries
# an unfinished run across machines through the repository:
#
#   bash data/v3-progress.sh save      # runs/research-v3 -> data/research-v3-progress
#   bash data/v3-progress.sh restore   # data/research-v3-progress -> runs/research-v3
#
# `save` copies the run's plan and every rater's journal (finished raters
# with their tables and manifests) but no lock file; of a journal copied
# while a search is being appended it keeps the whole lines only, and the
# resume searches that position again. `restore` puts them back only where
# runs/research-v3 does not exist yet, so the next `bash data/publish-v3.sh`
# continues where the saved run stopped. The journals record the engine's
# command (for Stockfish 19 the path of its node_modules), and a resume
# refuses other settings: restore on a machine with the same install path.
# publish-v3.sh restores by itself and removes the progress once v3 is
# published.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
run=runs/research-v3
progress=data/research-v3-progress

case "${1:-}" in
  save)
    [ -f "$run/run.json" ] || { echo "v3-progress: no run at $run" >&2; exit 1; }
    rm -rf "$progress.tmp"
    mkdir -p "$progress.tmp"
    (cd "$run" && find . -path ./published -prune -o -type f ! -name '.c960*' ! -name '*.tmp' -print0) \
      | while IFS= read -r -d '' file; do
          mkdir -p "$progress.tmp/$(dirname "$file")"
          cp "$run/$file" "$progress.tmp/$file"
        done
    for journal in "$progress.tmp"/raters/*/journal.jsonl; do
      # Only whole lines: a search being appended is left to the resume.
      if [ -s "$journal" ] && [ "$(tail -c 1 "$journal" | od -An -c | tr -d ' ')" != '\n' ]; then
        partial=$(tail -n 1 "$journal" | wc -c)
        truncate -s $(($(wc -c < "$journal") - partial)) "$journal"
      fi
    done
    rm -rf "$progress"
    mv "$progress.tmp" "$progress"
    for journal in "$progress"/raters/*/journal.jsonl; do
      rater=$(basename "$(dirname "$journal")")
      echo "saved $rater: $(($(wc -l < "$journal") - 1)) search(es)"
    done
    ;;
  restore)
    [ -d "$progress" ] || { echo "v3-progress: nothing saved at $progress" >&2; exit 1; }
    if [ -e "$run" ]; then
      echo "v3-progress: $run exists; it is continued as it is" >&2
      exit 0
    fi
    mkdir -p "$(dirname "$run")"
    cp -r "$progress" "$run.tmp"
    mv "$run.tmp" "$run"
    echo "restored $run from $progress"
    ;;
  *)
    echo "usage: bash data/v3-progress.sh save|restore" >&2
    exit 2
    ;;
esac
