# tt-gen: options, provenance, determinism, the round trip through tt-cat
# and tt-ingest, the bundled example, and an independent Python port of the
# generator that must reproduce it byte for byte.
expect_exit 0 tt-gen -h
grep -q "^usage: tt-gen -n JOBS" out.txt || fail "help lacks usage"
expect_exit 0 tt-gen --version
grep -q "^tt-gen (tracetune " out.txt || fail "version line"

# Usage errors: exit 2, a message, and no output file.
expect_exit 2 tt-gen -o g.h5
expect_err "no job count (-n JOBS)"
expect_exit 2 tt-gen -n 10
expect_err "no output file (-o OUT.h5)"
expect_exit 2 tt-gen -n 0 -o g.h5
expect_err "option -n: too small '0'"
expect_exit 2 tt-gen -n 10 -a abc -o g.h5
expect_err "option -a: not a number 'abc'"
expect_exit 2 tt-gen -n 10 -a 0 -o g.h5
expect_err "mean inter-arrival (-a) must be in (0, 1e+07] s, got 0"
expect_exit 2 tt-gen -n 10 -g 1:0.8,8 -o g.h5
expect_err "option -g: GPU mix '1:0.8,8': entry 2 '8' is not GPUS:WEIGHT"
expect_exit 2 tt-gen -n 10 -g 1:1,1:2 -o g.h5
expect_err "GPU count 1 given twice"
expect_exit 2 tt-gen -n 10 -d 1:60:-1 -o g.h5
expect_err "sigma '-1' is not a number in [0, 10]"
expect_exit 2 tt-gen -n 10 -w 1:1:1 -o g.h5
expect_err "option -w: duration weights per GPU count '1:1:1': entry 1 '1:1:1' is not GPUS:W1:W2:W3"
# -w weighs the components of -d, whatever the order on the line
expect_exit 0 tt-gen -n 10 -w 1:1:1 -d 1:60:1,1:600:1 -o g.h5
tt-cat --info g.h5 | grep -q -- " -d 1:60:1,1:600:1 -w 1:1:1 -u " || fail "-w before -d: $(tt-cat --info g.h5)"
rm g.h5
expect_exit 2 tt-gen -n 10 --peak-hour 24 -o g.h5
expect_err "option --peak-hour: not an hour 0-23 '24'"
expect_exit 2 tt-gen -n 10 --weekend 0 -o g.h5
expect_err "weekend factor (--weekend) must be in [0.01, 100], got 0"
expect_exit 2 tt-gen -n 10 --bogus -o g.h5
expect_err "Try 'tt-gen -h' for more."
expect_exit 2 tt-gen -n 10 -o g.h5 extra
expect_err "unexpected argument 'extra'"
# (-o - writes standard output: tests/e2e/t_stdout.sh)
[ ! -e g.h5 ] || fail "g.h5 written despite usage errors"
# An unwritable output: exit 1, nothing left behind.
expect_exit 1 tt-gen -n 10 -o nodir/g.h5
expect_err "cannot write 'nodir/g.h5'"
[ "$(ls -A | grep -v '^out.txt$\|^err.txt$' || true)" = "" ] || fail "files left: $(ls -A)"

# Provenance and shape of the table.
expect_exit 0 tt-gen -n 1000 -s 3 -o g.h5
tt-cat --info g.h5 > info.tsv
grep -qx "format	tt-gen" info.tsv || fail "format attribute"
grep -qx "jobs	1000" info.tsv || fail "jobs attribute"
grep -qx "rows_read	1000" info.tsv || fail "rows_read"
grep -qx "rows_kept	1000" info.tsv || fail "rows_kept"
grep -qx "time_base	relative" info.tsv || fail "time_base"
grep -q "^notes	tt-gen -n 1000 -s 3 -a 114.4 -b 1.7 --day-ratio 1.8 --peak-hour 15 --weekend 0.55 -g 1:76627,2:1818,4:1870,8:1643,12:7,16:199,24:7,32:67,64:6,128:3 -d 0.355:85.1:0.553,0.582:2270:1.09,0.063:85300:1.17 -w 1:0.351:0.615:0.034,2:0.818:0:0.182,4:0.15:0.387:0.463,8:0.25:0:0.75,16:0.25:0:0.75,32:0:0.841:0.159 -u 300 --user-skew 1 -v 15 --vc-skew 1.5$" info.tsv ||
    fail "notes: $(grep notes info.tsv)"
tt-cat g.h5 > g.tsv
[ "$(head -1 g.tsv)" = "$(printf 'submit\tduration\tgpus\tgpu_milli\tstart\tend\tnodes\tname\tuser\tvc\tmodel\tstatus')" ] ||
    fail "header: $(head -1 g.tsv)"
awk -F'\t' 'NR == 1 { next }
    NF != 12 { print "line " NR ": " NF " fields"; exit 1 }
    $1 < prev { print "line " NR ": submit not sorted"; exit 1 }
    $2 < 1 || $2 > 5184000 { print "line " NR ": duration " $2; exit 1 }
    $3 !~ /^(1|2|4|8|12|16|24|32|64|128)$/ { print "line " NR ": gpus " $3; exit 1 }
    $4 != $3 * 1000 { print "line " NR ": gpu_milli " $4; exit 1 }
    $5 != "" || $6 != "" || $7 != "" || $11 != "" || $12 != "" { print "line " NR ": not absent"; exit 1 }
    $8 != "job-" NR - 1 { print "line " NR ": name " $8; exit 1 }
    $9 !~ /^user-([1-9]|[1-9][0-9]|[12][0-9][0-9]|300)$/ { print "line " NR ": user " $9; exit 1 }
    $10 !~ /^vc-([1-9]|1[0-5])$/ { print "line " NR ": vc " $10; exit 1 }
    { prev = $1 }
    END { if (NR != 1001) { print NR " lines"; exit 1 } }' g.tsv > awk.txt || fail "table: $(cat awk.txt)"

# Same seed, same trace; the notes reproduce it; another seed differs.
expect_exit 0 tt-gen -n 1000 -s 3 -o g2.h5
tt-cat g2.h5 | cmp -s - g.tsv || fail "same seed, different trace"
notes=$(sed -n 's/^notes	//p' info.tsv)
expect_exit 0 $notes -o g3.h5
tt-cat g3.h5 | cmp -s - g.tsv || fail "the notes do not reproduce the trace"
expect_exit 0 tt-gen -n 1000 -s 4 -o g4.h5
! tt-cat g4.h5 | cmp -s - g.tsv || fail "seeds 3 and 4 gave the same trace"

# Absolute times: --start, time base unix.
expect_exit 0 tt-gen -n 100 --start 1500000000 -o u.h5
tt-cat --info u.h5 | grep -qx "time_base	unix" || fail "time_base unix"
first=$(tt-cat -H -c submit u.h5 | head -1)
[ "$first" -ge 1500000000 ] && [ "$first" -lt 1500100000 ] || fail "first submit $first"

# tt-gen -> tt-cat -> tt-ingest -f csv -> tt-cat gives the same table.
expect_exit 0 tt-ingest -f csv -o back.h5 g.tsv
expect_err "1000 rows read, 1000 kept, 0 dropped"
tt-cat back.h5 | cmp -s - g.tsv || fail "csv round trip changed the table"

# The bundled example is exactly what its recipe (data/README.md) makes.
example="$FIX/../../data/example.tsv"
expect_exit 0 tt-gen -n 2000 -s 12 -o ex.h5
tt-cat ex.h5 | cmp -s - "$example" || fail "data/example.tsv differs from tt-gen -n 2000 -s 12"

# An independent port of the generator to Python (IEEE doubles, the same
# operations in the same order) must give the same bytes: this is what
# "the same trace on any machine" means.
command -v python3 >/dev/null || skip "python3 not found: reference-port check not run (all else passed)"
cat > ref.py <<'EOF'
import math, sys
M = (1 << 64) - 1
def mix64(z):
    z = (z + 0x9e3779b97f4a7c15) & M
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M
    return z ^ (z >> 31)
def draw(seed, stream, i): return mix64(mix64(mix64(seed) ^ stream) ^ i)
def u01c(r): return float((r >> 11) + 1) * 2.0**-53
def u01o(r): return (float(r >> 11) + 0.5) * 2.0**-53
HI, LO, L2E = 6.93147180369123816490e-01, 1.90821492927058770002e-10, 1.44269504088896338700e+00
INV_ODD = [1.0] + [1.0 / k for k in range(3, 26, 2)]
def ln(x):
    m, e = math.frexp(x)
    if m < 0.70710678118654752440: m, e = m * 2.0, e - 1
    s = (m - 1.0) / (m + 1.0); z = s * s; t = INV_ODD[12]
    for k in range(11, -1, -1): t = INV_ODD[k] + z * t
    return 2.0 * s * t + float(e) * HI + float(e) * LO
def exp(x):
    if x < -700.0: return 0.0
    x = min(x, 700.0); k = math.floor(x * L2E + 0.5); r = (x - k * HI) - k * LO; t = 1.0
    for i in range(14, 0, -1): t = 1.0 + r * t * (1.0 / i)
    return math.ldexp(t, int(k))
A = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00]
B = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01]
C = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00]
D = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
def probit(p):
    if p < 0.02425 or p > 1.0 - 0.02425:
        q = math.sqrt(-2.0 * ln(p if p < 0.02425 else 1.0 - p))
        x = (((((C[0]*q+C[1])*q+C[2])*q+C[3])*q+C[4])*q+C[5]) / ((((D[0]*q+D[1])*q+D[2])*q+D[3])*q+1.0)
        return x if p < 0.02425 else -x
    q = p - 0.5; r = q * q
    return (((((A[0]*r+A[1])*r+A[2])*r+A[3])*r+A[4])*r+A[5])*q / (((((B[0]*r+B[1])*r+B[2])*r+B[3])*r+B[4])*r+1.0)
def cum(w):
    tot = 0.0
    for x in w: tot += x
    acc, out = 0.0, []
    for i, x in enumerate(w):
        acc += x; out.append(1 << 53 if i == len(w) - 1 else int(acc / tot * float(1 << 53)))
    return out
def pick(c, r): return next(i for i, v in enumerate(c) if (r >> 11) < v)
def zipf(n, s): return cum([1.0 if s == 0.0 else exp(-s * ln(k + 1.0)) for k in range(n)])
n, seed, a, b, R, peak, wk, start, gmix, dmix, wmix, users, us, vcs, vs = sys.argv[1:]
n, seed, peak, users, vcs = int(n), int(seed), int(peak), int(users), int(vcs)
a, b, R, wk, us, vs = map(float, (a, b, R, wk, us, vs))
start = None if start == "-" else int(start)
gpus = [(int(k), float(w)) for k, w in (e.split(":") for e in gmix.split(","))]
durs = [tuple(map(float, e.split(":"))) for e in dmix.split(",")]
wby = {} if wmix == "-" else {int(e.split(":")[0]): [float(x) for x in e.split(":")[1:]] for e in wmix.split(",")}
COS = [1.0, 0.96592582628906829, 0.86602540378443865, 0.70710678118654752, 0.5, 0.25881904510252076]
COS = COS + [0.0] + [-c for c in reversed(COS[1:])]  # 0..90 degrees, then 90..180
COS = COS + [-1.0] + list(reversed(COS[1:]))         # 180..360
amp = (R - 1.0) / (R + 1.0); w = []
for h in range(168):
    v = 1000.0 * (wk if h >= 120 else 1.0) * (1.0 + amp * COS[(h % 24 - peak) % 24])
    w.append(max(1, int(v + 0.5)))
week, mean_w = sum(w) * 3600, float(sum(w)) / 168
t0 = start or 0; hour0 = t0 - t0 % 3600
how0 = 0 if start is None else ((t0 // 86400 + 3) % 7) * 24 + (t0 % 86400) // 3600
slot, used = 0, (t0 - hour0) * w[how0]
gc, mu = cum([g[1] for g in gpus]), [ln(d[1]) for d in durs]
dc = [cum(wby.get(g[0], [d[0] for d in durs])) for g in gpus]  # one duration mix per GPU count
uc, vcc = zipf(users, us), zipf(vcs, vs)
lnq = ln(1.0 - 1.0 / b) if b > 1.0 else 0.0
jobs, j, bi = [], 0, 0
while j < n:
    units = int(-ln(u01c(draw(seed, 1, bi))) * (a * b) * mean_w + 0.5)
    while True:
        left = w[(how0 + slot) % 168] * 3600 - used
        if units < left: used += units; break
        units -= left; slot += 1; used = 0
        if units >= week: slot += 168 * (units // week); units %= week
    size = 1
    if b > 1.0:
        k = 1.0 + math.floor(ln(u01c(draw(seed, 2, bi))) / lnq)
        size = int(k) if k < float(n - j) else n - j
    gi = pick(gc, draw(seed, 3, bi)); g = gpus[gi][0]
    vc, u = pick(vcc, draw(seed, 4, bi)), pick(uc, draw(seed, 5, bi))
    sub = hour0 + slot * 3600 + used // w[(how0 + slot) % 168]
    for i in range(size):
        if i: sub += ((draw(seed, 6, j) >> 32) * 6) >> 32
        k = pick(dc[gi], draw(seed, 7, j))
        d = exp(mu[k] + durs[k][2] * probit(u01o(draw(seed, 8, j))))
        d = 1 if not d >= 1 else 5184000 if d >= 5184000 else int(d + 0.5)
        jobs.append((sub, d, g, u, vc)); j += 1
    bi += 1
jobs.sort(key=lambda x: x[0])
print("submit\tduration\tgpus\tgpu_milli\tstart\tend\tnodes\tname\tuser\tvc\tmodel\tstatus")
for i, (s, d, g, u, v) in enumerate(jobs):
    print("%d\t%d\t%d\t%d\t\t\t\tjob-%d\tuser-%d\tvc-%d\t\t" % (s, d, g, g * 1000, i + 1, u + 1, v + 1))
EOF
philly_g=1:76627,2:1818,4:1870,8:1643,12:7,16:199,24:7,32:67,64:6,128:3
philly_d=0.355:85.1:0.553,0.582:2270:1.09,0.063:85300:1.17
philly_w=1:0.351:0.615:0.034,2:0.818:0:0.182,4:0.15:0.387:0.463,8:0.25:0:0.75,16:0.25:0:0.75,32:0:0.841:0.159
python3 ref.py 2000 12 114.4 1.7 1.8 15 0.55 - $philly_g $philly_d $philly_w 300 1 15 1.5 > ref.tsv
cmp -s ref.tsv "$example" || fail "Python port differs from data/example.tsv: $(cmp ref.tsv "$example")"
args="-n 3000 -s 99 -a 30 -b 3 --day-ratio 5 --peak-hour 22 --weekend 0.3 --start 1600000000 -g 1:5,2:1,8:0.5 -d 0.5:100:1,0.5:5000:2.5 -u 50 --user-skew 0.8 -v 4 --vc-skew 2"
expect_exit 0 tt-gen $args -o p.h5
python3 ref.py 3000 99 30 3 5 22 0.3 1600000000 1:5,2:1,8:0.5 0.5:100:1,0.5:5000:2.5 - 50 0.8 4 2 > ref2.tsv
tt-cat p.h5 | cmp -s - ref2.tsv || fail "Python port differs for: tt-gen $args"
args="-n 1000 -s 5 -g 1:3,2:1,8:1 -d 1:100:1,1:5000:2 -w 8:0:1,2:2:1,16:1:0"
expect_exit 0 tt-gen $args -o w.h5
python3 ref.py 1000 5 114.4 1.7 1.8 15 0.55 - 1:3,2:1,8:1 1:100:1,1:5000:2 8:0:1,2:2:1,16:1:0 300 1 15 1.5 > ref3.tsv
tt-cat w.h5 | cmp -s - ref3.tsv || fail "Python port differs for: tt-gen $args"
