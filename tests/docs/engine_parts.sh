#!/usr/bin/env bash
# tests/docs/engine_parts.sh: the simulation step's parts, in the order
# each includes the one before (kernels/sim_step_summary.h back to
# sim_step_base.h), are the parts sim_step.h includes and lists in its
# comment, and the lists of docs/architecture.md and docs/development.md,
# in the same order: a part added or moved fails until every list says so.
set -uo pipefail
cd "$(dirname "$0")/../.."
chain=() part=sim_step_summary.h
while [ -n "$part" ]; do
    chain=("$part" "${chain[@]}")
    part=$(grep -m1 -oE '#include "sim_step_[a-z]+\.h"' "kernels/$part" | grep -oE 'sim_step_[a-z]+\.h' || true)
done
want=$(printf '%s ' "${chain[@]}")
bad=0
check() { # check WHAT LIST
    [ "$2" = "$want" ] || { echo "engine parts: $1 lists '$2', the headers chain '$want'" >&2; bad=1; }
}
check "sim_step.h's includes" "sim_step_base.h $(grep -oE '^#include "sim_step_[a-z]+\.h"' kernels/sim_step.h | grep -oE 'sim_step_[a-z]+\.h' | tr '\n' ' ')"
check "sim_step.h's comment" "$(grep -oE '^ \*   sim_step_[a-z]+\.h' kernels/sim_step.h | grep -oE 'sim_step_[a-z]+\.h' | tr '\n' ' ')"
for doc in docs/architecture.md docs/development.md; do
    # the paragraph that names sim_step_base.h: its parts in order of mention
    check "$doc" "$(awk '/`sim_step_base.h`/ { on = 1 } on { print } on && /sim_step_summary.h/ { exit }' "$doc" |
        grep -oE '`sim_step_[a-z]+\.h`' | tr -d '`' | awk '!seen[$0]++' | tr '\n' ' ')"
done
[ $bad = 0 ] && echo "engine parts: ${#chain[@]} parts, in one order in the headers, sim_step.h and the docs"
exit $bad
