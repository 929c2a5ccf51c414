#!/usr/bin/env bash
# tests/install/run.sh: make install into a scratch prefix installs the
# tools, the static and the shared library (with its soname and links),
# the public headers, tracetune.pc, the man pages (found by man), the bash
# completion and the data; a C program builds against that copy with pkg-config alone,
# linked to the shared library and to the static one, and prints tt-sim's
# row; DESTDIR stages the same files; make uninstall leaves nothing; the
# install compiles nothing that make built (one object a source for both
# libraries).
# Run by make installcheck (MAKE, BUILD and BIN as that make has them).
set -euo pipefail
# grep reads its whole input (no -q) where it follows a pipe: -q may exit
# at the first match, and the writer's SIGPIPE would fail the pipeline
cd "$(dirname "$0")/../.."
: "${MAKE:=make}" "${BUILD:=build}" "${BIN:=bin}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "installcheck: FAIL: $*" >&2; exit 1; }
prefix=$tmp/prefix
mk() { $MAKE --no-print-directory -s BUILD="$BUILD" BIN="$BIN" "$@" >"$tmp/make.log" 2>&1 ||
    fail "make $*: $(tail -5 "$tmp/make.log")"; }

# one object a source for both libraries: a changed source is compiled once
# by make install (make -n -W), and make install after make compiles nothing
# (no object newer than before it, none new)
src=libcore/base/error.c
n=$($MAKE --no-print-directory -n -W $src BUILD="$BUILD" BIN="$BIN" install PREFIX="$prefix" 2>&1 |
    grep -c -- "-c $src" || true)
[ "$n" = 1 ] || fail "make install would compile $src $n times (once for each library?)"
touch "$tmp/stamp"
objs=$(find "$BUILD" -name '*.o' | sort)
mk install PREFIX="$prefix"
new=$(find "$BUILD" -name '*.o' -newer "$tmp/stamp")
[ -z "$new" ] && [ "$(find "$BUILD" -name '*.o' | sort)" = "$objs" ] ||
    fail "make install after make compiled: $new $(comm -13 <(echo "$objs") <(find "$BUILD" -name '*.o' | sort))"
version=$(sed -n 's/^#define TT_VERSION "\(.*\)"$/\1/p' libcore/include/tt/version.h)
for f in bin/tt-sim bin/tt-sweep bin/tt-merge lib/libtracetune.a "lib/libtracetune.so.$version" \
    include/tt/sim.h include/tt/version.h lib/pkgconfig/tracetune.pc share/tracetune/models.tsv \
    share/tracetune/gittins/yarn-gput1000.csv share/tracetune/gittins/LICENSE \
    share/tracetune/gittins/README.md; do
    [ -f "$prefix/$f" ] || fail "not installed: $f"
done
[ "$(readlink "$prefix/lib/libtracetune.so")" = libtracetune.so.0 ] &&
    [ "$(readlink "$prefix/lib/libtracetune.so.0")" = "libtracetune.so.$version" ] ||
    fail "links: $(ls -l "$prefix/lib")"
readelf -d "$prefix/lib/libtracetune.so.$version" | grep 'SONAME.*\[libtracetune\.so\.0\]' >/dev/null ||
    fail "soname: $(readelf -d "$prefix/lib/libtracetune.so.$version" | grep SONAME)"
[ "$(ls "$prefix/include/tt" | wc -l)" = "$(ls libcore/include/tt | wc -l)" ] ||
    fail "headers: $(ls "$prefix/include/tt")"
# man finds every page there: one per tool, the files, the overview
for t in "$BIN"/tt-*; do
    [ "$(MANPATH=$prefix/share/man man -w "$(basename "$t")")" = "$prefix/share/man/man1/$(basename "$t").1" ] ||
        fail "man -w $(basename "$t"): $(MANPATH=$prefix/share/man man -w "$(basename "$t")" 2>&1)"
done
MANPATH=$prefix/share/man man -w 5 tracetune-files >/dev/null && MANPATH=$prefix/share/man man -w 7 tracetune >/dev/null ||
    fail "man -w: tracetune-files(5), tracetune(7): $(ls -R "$prefix/share/man")"

# the bash completion, where bash-completion looks for each tool's
comp=$prefix/share/bash-completion/completions
for t in "$BIN"/tt-*; do
    grep -q "^complete -F _tt_complete .*$(basename "$t")" "$comp/$(basename "$t")" ||
        fail "no bash completion for $(basename "$t") in $comp"
done

# a user's program, built with what pkg-config says and nothing else
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
[ "$(pkg-config --modversion tracetune)" = "$version" ] || fail "pkg-config --modversion tracetune"
"$prefix/bin/tt-ingest" -q -o "$tmp/ex.h5" data/example.tsv
"$prefix/bin/tt-sim" -c 2x4x8 -p w0=600 -p theta=1500 "$tmp/ex.h5" >"$tmp/tt-sim.tsv" 2>/dev/null
# shellcheck disable=SC2046 # pkg-config's flags are words
cc -std=c11 -Wall -Wextra -Werror tests/install/use.c $(pkg-config --cflags --libs tracetune) \
    -o "$tmp/use" || fail "cc use.c \$(pkg-config --cflags --libs tracetune)"
LD_LIBRARY_PATH=$prefix/lib ldd "$tmp/use" | grep "libtracetune.so.0 => $prefix/lib/libtracetune.so.0" >/dev/null ||
    fail "use is not linked to the installed libtracetune.so.0: $(LD_LIBRARY_PATH=$prefix/lib ldd "$tmp/use")"
LD_LIBRARY_PATH=$prefix/lib "$tmp/use" "$tmp/ex.h5" 2x4x8 w0=600 theta=1500 >"$tmp/use.tsv" 2>/dev/null ||
    fail "use (shared) failed"
cmp -s "$tmp/use.tsv" "$tmp/tt-sim.tsv" || fail "use (shared) differs from tt-sim: $(diff "$tmp/use.tsv" "$tmp/tt-sim.tsv")"
# the static library: pkg-config --static names everything it needs
libs=$(pkg-config --static --libs tracetune)
# shellcheck disable=SC2046,SC2086
cc -std=c11 -Wall -Wextra -Werror tests/install/use.c $(pkg-config --cflags tracetune) \
    ${libs/-ltracetune/$prefix/lib/libtracetune.a} -o "$tmp/use-static" ||
    fail "cc use.c libtracetune.a \$(pkg-config --static --libs tracetune)"
! ldd "$tmp/use-static" | grep libtracetune >/dev/null || fail "use-static links the shared library"
"$tmp/use-static" "$tmp/ex.h5" 2x4x8 w0=600 theta=1500 >"$tmp/use.tsv" 2>/dev/null || fail "use (static) failed"
cmp -s "$tmp/use.tsv" "$tmp/tt-sim.tsv" || fail "use (static) differs from tt-sim"

# DESTDIR stages the same files under PREFIX, and the .pc names PREFIX
mk install PREFIX=/opt/tt DESTDIR="$tmp/stage"
[ "$(cd "$tmp/stage/opt/tt" && find . | sort)" = "$(cd "$prefix" && find . | sort)" ] ||
    fail "DESTDIR installs other files: $(diff <(cd "$tmp/stage/opt/tt" && find . | sort) <(cd "$prefix" && find . | sort))"
grep -qx 'prefix=/opt/tt' "$tmp/stage/opt/tt/lib/pkgconfig/tracetune.pc" || fail "DESTDIR: the .pc's prefix"

# make uninstall removes every file it installed
n=$(find "$prefix" ! -type d | wc -l)
mk uninstall PREFIX="$prefix"
left=$(find "$prefix" ! -type d)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "installcheck: nothing compiled again, $n files installed, a C program built with pkg-config (shared and static) prints tt-sim's row, uninstalled"
