#!/usr/bin/env bash
# Real-Chromium views of what readers see (docs/screens/): the v3 index,
# fair.html and a position page, and a German and a Turkish tournament kit
# (announcement and a round sheet, made on A4 and on Letter), each at
# 390 px and 1366 px wide and printed on A4 and Letter (a kit prints on its
# own paper). Fails when a page is wider than its window or a round sheet
# prints on more than one page.
#
# Needs Chromium (apt-get install chromium), pdfinfo/pdftoppm (poppler-utils)
# and playwright-core from npm, found through C960_NODE_MODULES (npm install
# playwright-core in that node_modules). Usage: scripts/screenshots.sh [OUT]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:-docs/screens}
target=${CARGO_TARGET_DIR:-$root/target}
if [ -n "${C960_BIN:-}" ]; then
  c960=$C960_BIN
else
  cargo build --locked --quiet -p c960
  c960="$target/debug/c960"
fi
modules=${C960_NODE_MODULES:-$root/node_modules}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
views=(
  "v3-index=$root/reports/research-v3/index.html"
  "v3-fair=$root/reports/research-v3/fair.html"
  "v3-position-879=$root/reports/research-v3/positions/879.html"
)
# The kits of the organizer's guide: a balance-filtered draw with a sealed
# secret, the longest title the guide shows.
for lang in de tr; do
  for paper in a4 letter; do
    "$c960" tournament --phrase "Vereinsturnier 2026" --rounds 5 --publish-rounds 1 \
      --lang "$lang" --paper "$paper" \
      --secret dfa3fcc02ce1b2b2e75d6fa4920126c5b841a21e4b284c59b74fb0d0f173f313 \
      --fairest 40 --reference equal --balance data/research-v3/balance.csv \
      --title "Vereinsturnier 2026 des Schachklubs Großstadt" \
      --out "$tmp/kit-$lang-$paper" >/dev/null
    views+=("kit-$lang-$paper-announcement=$tmp/kit-$lang-$paper/announcement.html")
    views+=("kit-$lang-$paper-round-1=$tmp/kit-$lang-$paper/round-1.html")
  done
done
rm -f "$out"/*.png
NODE_PATH=$modules node scripts/screenshots.cjs "$out" "${views[@]}"
