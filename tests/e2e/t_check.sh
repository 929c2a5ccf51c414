# make check's closing count (tests/check.sh): every suite runs even after
# one failed, and the run ends on one line "N passed, M failed" summed over
# them, here over canned suite outputs (a stand-in for make): Criterion's
# synthesis, e2e's count, fuzzers' lines (one finding), api's and docs'
# closing lines, a skipped Slurm, a suite that fails with nothing counted.
ROOT="$FIX/../.."
cat >make.sh <<'STUB'
#!/usr/bin/env bash
case $2 in
fuzz) echo "fuzz: ingest: ok, 10 inputs in 1 s (libFuzzer's output: build-fuzz/log/ingest.log)"
      echo "fuzz: h5: FAIL: a finding in tests/fuzz/crashers/h5/ (libFuzzer's output: build-fuzz/log/h5.log):"
      exit 2 ;;
sanitize) echo "[====] Synthesis: Tested: 10 | Passing: 9 | Failing: 1 | Crashing: 0"; exit 2 ;;
slurm) echo "slurm: skipped: no slurmctld" ;;
unit) printf '\033[0;1m[====] Synthesis: Tested: 40 | Passing: 40 | Failing: 0 | Crashing: 0\033[0m\n' ;;
e2e) echo "ok    t_a"; echo "e2e: 30 passed, 1 failed, 2 skipped"; exit 2 ;;
api) echo "stand_ins: compiled x"; echo "headers: 25 public headers compile alone as C11 and C++17"
     echo "symbols: 75 objects, every exported symbol starts with tt" ;;
doccheck) echo "man: 12 pages render without warnings; 10 tools' SYNOPSIS"
          echo "completion: 32 cases completed as expected"
          echo "figures: docs/figures/wf-servers.png is what the tools draw now" ;;
installcheck) echo "cc: error"; exit 2 ;;
notebooks) echo "notebooks: ok: both notebooks ran" ;;
esac
STUB
chmod +x make.sh
got=0
MAKE=$PWD/make.sh CHECK_LOGS=$PWD/logs "$ROOT/tests/check.sh" >out.txt 2>&1 || got=$?
[ $got = 1 ] || fail "check.sh exited $got: $(tail -5 out.txt)"
# fuzz 1+1, sanitize 9+1 (its e2e and api not reached), unit 40, e2e 30+1,
# api 3, docs 3, install 0+1 (nothing counted: the suite as one), notebooks 1
[ "$(tail -1 out.txt)" = "87 passed, 4 failed" ] || fail "last line: $(tail -12 out.txt)"
for s in fuzz sanitize slurm unit e2e api docs install notebooks; do
    [ -s "logs/$s.log" ] || [ $s = slurm ] || fail "no log of $s"
    grep -q "^$s " out.txt || fail "no line for $s: $(tail -12 out.txt)"
done
grep -q "^slurm .*0 passed, 0 failed (skipped: no slurmctld)" out.txt || fail "slurm: $(grep ^slurm out.txt)"
grep -q "^install .*0 passed, 1 failed (make failed: see $PWD/logs/install.log)" out.txt ||
    fail "install: $(grep ^install out.txt)"
grep -q "^fuzz .*(libFuzzer's output in build-fuzz/log/)" out.txt || fail "fuzz: $(grep ^fuzz out.txt)"
