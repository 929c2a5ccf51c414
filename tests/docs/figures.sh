#!/usr/bin/env bash
# tests/docs/figures.sh: every figure in docs/figures has a recorded
# command (docs/figures/figures.sh), and each one not marked slow, drawn
# again from the tools and the traces as they are now, is the committed
# file byte for byte: a figure whose numbers or drawing changed is named
# stale (`make figures` draws them again). gnuplot's PNG bytes are stable
# for one gnuplot version, which docs/figures/gnuplot-version records;
# under another version the byte comparison is skipped, saying so.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${TT_BIN:?set TT_BIN to the bin/ folder}"
export TT_BIN
bad=0
names=$(docs/figures/figures.sh --list)
for f in docs/figures/*.png; do
    n=$(basename "$f" .png)
    grep -qx "$n\( (slow)\)\?" <<<"$names" || { echo "figures: $f has no recorded command in docs/figures/figures.sh" >&2; bad=1; }
done
for n in $(grep -v slow <<<"$names"); do
    [ -f "docs/figures/$n.png" ] || { echo "figures: docs/figures/$n.png is missing (make figures)" >&2; bad=1; }
done
want=$(cat docs/figures/gnuplot-version)
have=$(gnuplot --version 2>/dev/null || echo none)
if [ "$have" != "$want" ]; then
    echo "figures: SKIP (part): gnuplot is '$have', the figures were drawn with '$want': bytes not compared"
    exit $bad
fi
[ -r "${TT_SHARED:-../shared}/traces/philly/pollux_philly.csv" ] || {
    echo "figures: SKIP (part): no Philly trace in ${TT_SHARED:-../shared}/traces: not drawn"
    exit $bad
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! docs/figures/figures.sh "$tmp" > "$tmp/log" 2>&1; then
    echo "figures: drawing failed:" >&2
    tail -20 "$tmp/log" >&2
    exit 1
fi
for n in $(grep -v slow <<<"$names"); do
    cmp -s "$tmp/$n.png" "docs/figures/$n.png" ||
        { echo "figures: docs/figures/$n.png is stale: the recorded command draws another figure now (make figures)" >&2; bad=1; }
done
[ $bad = 0 ] && echo "figures: $(grep -vc slow <<<"$names") figures drawn again, each the committed file"
exit $bad
