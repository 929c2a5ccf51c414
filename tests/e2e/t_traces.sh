# make traces (scripts/fetch-traces) over data/traces.tsv. The manifest:
# well formed, a row for every trace file the tests, benchmarks, notebooks
# and docs name, and each row as the shared folder's SOURCE.md says. Against
# the shared folder every file checks; in a scratch folder a copied file
# checks, a corrupted one is named with both sums and left as it is, and
# offline (a curl and a wget that fail, first on PATH) every missing file is
# named with its source; from a mirror on disk (a file:// URL base) a file
# is downloaded, checked and renamed, and a corrupt download writes nothing.
# Nothing here reaches the network.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fetch=$root/scripts/fetch-traces
manifest=$root/data/traces.tsv
rows() { grep -v '^#' "$manifest" | tail -n +2; }
[ "$(grep -v '^#' "$manifest" | head -1)" = "$(printf 'path\trepo\tcommit\tupstream_path\tlicence\tbytes\tsha256\turl\tnote')" ] ||
    fail "data/traces.tsv: the header row is not path repo commit upstream_path licence bytes sha256 url note"
n=$(rows | wc -l)
[ "$n" -gt 0 ] || fail "data/traces.tsv has no rows"

# ---- the manifest alone ----
rows | awk -F'\t' '
    function bad(m) { print $1 ": " m; nbad++ }
    NF != 9 { bad(NF " fields") }
    length($3) != 40 || $3 ~ /[^0-9a-f]/ { bad("commit " $3) }
    length($7) != 64 || $7 ~ /[^0-9a-f]/ { bad("sha256 " $7) }
    $6 !~ /^[0-9]+$/ { bad("bytes " $6) }
    $2 !~ /^[^\/ ]+\/[^\/ ]+$/ { bad("repo " $2) }
    $5 == "" || $5 == "-" { bad("no licence") }
    $8 != "-" && $8 != "https://raw.githubusercontent.com/" $2 "/" $3 "/" $4 { bad("url " $8) }
    $8 == "-" && $9 == "-" { bad("no url and no note saying how it was made") }
    seen[$1]++ { bad("twice") }
    END { exit nbad > 0 }' >man.err || fail "data/traces.tsv: $(head -5 man.err)"

# every trace file named in the tests, benchmarks, notebooks and docs is a row
# (a path in the traces folder, after traces/ or a quote: not tests/fixtures')
for f in $(grep -rhoE '(traces/|")(philly|alibaba_[a-z0-9_]+|helios|acme)/[A-Za-z0-9_./=-]+\.(csv|json|trace)' \
        "$root"/tests/e2e/*.sh "$root"/tests/unit/*/*.c "$root"/tests/compare "$root"/bench \
        "$root"/notebooks/*.py "$root"/README.md "$root"/docs "$root"/Makefile |
        sed -E 's/^(traces\/|")//' | sort -u); do
    rows | cut -f1 | grep -qxF "$f" || fail "$f is read by the project but has no row in data/traces.tsv"
done

[ -d "$TRACES" ] || skip "no shared traces folder $TRACES (the manifest's own checks passed)"

# each row's bytes and sha256 as the folder's SOURCE.md lists them
while IFS=$'\t' read -r path repo commit upath licence bytes sum url note; do
    top=${path%%/*}
    line=$(grep -F "| \`${path#*/}\` |" "$TRACES/$top/SOURCE.md" | tail -1)
    [ -n "$line" ] || fail "$path: not in $top/SOURCE.md's manifest"
    want_bytes=$(echo "$line" | awk -F'|' '{ gsub(/[ ,]/, "", $3); print $3 }')
    want_pre=$(echo "$line" | awk -F'|' '{ gsub(/[ `…]/, "", $5); print $5 }')
    [ "$bytes" = "$want_bytes" ] || fail "$path: $bytes bytes, $top/SOURCE.md says $want_bytes"
    [ "${sum:0:16}" = "$want_pre" ] || fail "$path: sha256 $sum, $top/SOURCE.md says $want_pre…"
    grep -qF "${commit:0:8}" "$TRACES/$top/SOURCE.md" || fail "$path: commit $commit not in $top/SOURCE.md"
    grep -qF "$repo" "$TRACES/$top/SOURCE.md" || fail "$path: $repo not in $top/SOURCE.md"
done < <(rows)

# ---- the shared folder: every file checks ----
expect_exit 0 env TT_TRACES="$TRACES" "$fetch"
grep -qxF "fetch-traces: $n files in $TRACES: $n checked" out.txt || fail "summary: $(cat out.txt err.txt)"
[ ! -s err.txt ] || fail "messages on a folder that checks: $(head -3 err.txt)"
# a folder or a file of the manifest picks those rows; a path that is none is a usage error
expect_exit 0 env TT_TRACES="$TRACES" "$fetch" acme/ philly/simulator_shipped/tiresias/60_job.csv
grep -qxF "fetch-traces: 3 files in $TRACES: 3 checked" out.txt || fail "selection: $(cat out.txt err.txt)"
expect_exit 2 env TT_TRACES="$TRACES" "$fetch" philly/nothing.csv
expect_err "no file of data/traces.tsv is philly/nothing.csv or under it"
# make traces runs it, and needs none of the build's libraries
expect_exit 0 make -s -C "$root" traces TT_TRACES="$TRACES" TRACE_FILES=acme PKG_CONFIG=false
grep -qxF "fetch-traces: 2 files in $TRACES: 2 checked" out.txt || fail "make traces: $(cat out.txt err.txt)"

# ---- a scratch folder, offline: one file copied, one corrupted ----
ti=philly/simulator_shipped/tiresias
mkdir -p fake s/$ti
for g in curl wget; do
    printf '#!/bin/sh\necho %s "$@" >>"%s/calls"\nexit 6\n' $g "$PWD" >fake/$g
    chmod +x fake/$g
done
cp "$TRACES/$ti/60_job.csv" s/$ti/
{ cat "$TRACES/$ti/yarn-gput1000.csv"; echo 99; } >s/$ti/yarn-gput1000.csv
cp s/$ti/yarn-gput1000.csv corrupted.csv
good=$(sha256sum <"$TRACES/$ti/yarn-gput1000.csv" | cut -d' ' -f1)
badsum=$(sha256sum <corrupted.csv | cut -d' ' -f1)
expect_exit 1 env PATH="$PWD/fake:$PATH" TT_TRACES="$PWD/s" "$fetch"
expect_err "$ti/yarn-gput1000.csv in $PWD/s: sha256 $badsum, data/traces.tsv says $good"
cmp -s s/$ti/yarn-gput1000.csv corrupted.csv || fail "the corrupted file was changed"
cmp -s s/$ti/60_job.csv "$TRACES/$ti/60_job.csv" || fail "the copied file was changed"
! grep -q "60_job.csv" err.txt || fail "the copied file is reported: $(grep 60_job.csv err.txt)"
expect_err "philly/pollux_philly.csv missing in $PWD/s: offline?"
expect_err "copy it from petuum/adaptdl@c793c708:simulator/traces/philly.csv or set TT_TRACES"
expect_err "alibaba_gpu_v2023_openb/csv/openb_pod_list_default.csv missing in $PWD/s: offline? copy it from alibaba/clusterdata@7a6c496e:cluster-trace-gpu-v2023/csv/openb_pod_list_default.csv"
expect_err "acme/readme_examples/trace_seren.example.csv missing in $PWD/s: no download (extracted, from InternLM/AcmeTrace@6d6ac9cd:README.md)"
[ "$(grep -c " missing in $PWD/s: " err.txt)" = $((n - 2)) ] || fail "not one line per missing file: $(head -3 err.txt)"
expect_err "fetch-traces: $n files in $PWD/s: 1 checked, $((n - 2)) missing, 1 with a wrong sha256 (sources: data/traces.tsv)"
# one try: once the network has failed no other file is tried
[ "$(wc -l <calls)" = 1 ] || fail "the download was tried $(wc -l <calls) times offline"
[ "$(find s -type f | wc -l)" = 2 ] || fail "files were written offline: $(find s -type f)"
# a folder made for a download that fails is removed again
expect_exit 1 env PATH="$PWD/fake:$PATH" TT_TRACES="$PWD/new" "$fetch" philly/pollux_philly.csv
[ ! -e new ] || fail "folders left by a failed download: $(find new)"
# wget where there is no curl; neither: the url to fetch by hand (a PATH of
# only what the script runs)
mkdir path
for c in bash dirname sha256sum cut mkdir rmdir mv rm; do ln -s "$(command -v $c)" path/$c; done
expect_exit 1 env PATH="$PWD/path" TT_TRACES="$PWD/s" "$fetch" philly/pollux_philly.csv
expect_err "philly/pollux_philly.csv missing in $PWD/s: neither curl nor wget found: download https://raw.githubusercontent.com/petuum/adaptdl/"
cp fake/wget path/
expect_exit 1 env PATH="$PWD/path" TT_TRACES="$PWD/s" "$fetch" philly/pollux_philly.csv
expect_err "philly/pollux_philly.csv missing in $PWD/s: offline? (wget failed (exit 6) on https://raw.githubusercontent.com/petuum/adaptdl/c793c7089bd307462686339d29707925c461f9a9/simulator/traces/philly.csv) copy it from petuum/adaptdl@c793c708:simulator/traces/philly.csv or set TT_TRACES"
tail -1 calls | grep -q "^wget .* https://raw.githubusercontent.com/petuum/adaptdl/" || fail "wget was not tried: $(cat calls)"
[ "$(find s -type f | wc -l)" = 2 ] || fail "files were written offline: $(find s -type f)"

# ---- a mirror on disk: a download is checked, then renamed ----
if command -v curl >/dev/null 2>&1; then
    tcommit=$(rows | awk -F'\t' -v p="$ti/60_job.csv" '$1 == p { print $3 }')
    m=m/SymbioticLab/Tiresias/$tcommit/simulator
    mkdir -p $m d
    cp "$TRACES/$ti/60_job.csv" $m/
    { cat "$TRACES/$ti/yarn-gput5000.csv"; echo 1; } >$m/yarn-gput5000.csv
    badsum=$(sha256sum <$m/yarn-gput5000.csv | cut -d' ' -f1)
    good=$(sha256sum <"$TRACES/$ti/yarn-gput5000.csv" | cut -d' ' -f1)
    expect_exit 1 env TT_TRACES="$PWD/d" TT_TRACES_URL_BASE="file://$PWD/m" "$fetch" \
        $ti/60_job.csv $ti/yarn-gput5000.csv
    cmp -s d/$ti/60_job.csv "$TRACES/$ti/60_job.csv" || fail "the downloaded file differs"
    [ ! -e d/$ti/yarn-gput5000.csv ] || fail "a download with a wrong sha256 was kept"
    expect_err "$ti/yarn-gput5000.csv: downloaded file://$PWD/$m/yarn-gput5000.csv but its sha256 is $badsum, data/traces.tsv says $good: nothing written"
    expect_err "2 files in $PWD/d: 0 checked, 1 downloaded and checked, 1 with a wrong sha256"
    [ "$(find d -type f | wc -l)" = 1 ] || fail "temporary files left: $(find d -type f)"
    # the next run checks it without downloading it again
    rm -rf m
    expect_exit 0 env TT_TRACES="$PWD/d" TT_TRACES_URL_BASE="file://$PWD/m" "$fetch" $ti/60_job.csv
    grep -qxF "fetch-traces: 1 file in $PWD/d: 1 checked" out.txt || fail "second run: $(cat out.txt err.txt)"
else
    echo "SKIP (part): no curl for the download from a mirror on disk" >&2
fi
