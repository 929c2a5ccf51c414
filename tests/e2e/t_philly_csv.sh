# The Pollux Philly CSV: 82,247 jobs and 978,078.47 GPU-hours, through the
# real tools and back out as TSV.
[ -r "$TRACES/philly/pollux_philly.csv" ] || skip "no shared Philly CSV"
expect_exit 0 tt-ingest -o p.h5 "$TRACES/philly/pollux_philly.csv"
expect_err "82247 rows read, 82247 kept, 0 dropped"
expect_err "65 duplicate rows kept"
expect_err "7 local times fell in a DST fall-back hour"
[ "$(tt-cat -H -c gpus p.h5 | wc -l)" = 82247 ] || fail "row count"
gh=$(tt-cat -c duration,gpus p.h5 | awk -F'\t' 'NR>1{s+=$1*$2} END{printf "%.2f", s/3600}')
[ "$gh" = "978078.47" ] || fail "GPU-hours $gh"
tt-cat --info p.h5 | grep -qx "format	philly-csv" || fail "format attribute"
tt-cat --info p.h5 | grep -q "^source_sha256	[0-9a-f]\{64\}$" || fail "sha256 attribute"
