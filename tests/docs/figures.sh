#!/usr/bin/env bash
# tests/docs/figures.sh: a figure of the docs that is cheap to draw is not
# stale. docs/figures/wf-servers.png is drawn by make figures-workflows
# (tt-gen, tt-size, tt-plot size; under a second), which keeps its gnuplot
# script beside it (docs/figures/wf-servers.gp, its data inline): the same
# target run into a scratch folder must write the same script, but for the
# folder, so a change to what those tools draw fails here until the figure
# is drawn again (make figures-workflows). Skipped, saying why, without
# gnuplot. Run by make doccheck (MAKE as that make has it).
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${MAKE:=make}"
command -v gnuplot >/dev/null || { echo "figures: skipped: no gnuplot"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! $MAKE --no-print-directory -s figures-workflows FIGURES="$tmp/fig" WF_DIR="$tmp/wf" \
    >"$tmp/log" 2>&1; then
    echo "figures: FAIL: make figures-workflows: $(tail -5 "$tmp/log")" >&2
    exit 1
fi
sed "s|$tmp/fig/|docs/figures/|g" "$tmp/fig/wf-servers.gp" >"$tmp/now.gp"
if ! cmp -s docs/figures/wf-servers.gp "$tmp/now.gp"; then
    echo "figures: FAIL: docs/figures/wf-servers.png is stale: its script differs from what the" \
        "tools draw now (make figures-workflows draws both again):" >&2
    diff docs/figures/wf-servers.gp "$tmp/now.gp" | head -8 >&2
    exit 1
fi
echo "figures: docs/figures/wf-servers.png is what the tools draw now"
