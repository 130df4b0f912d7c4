#!/usr/bin/env bash
# package.installed_run DEB SRC BUILD VERSION: the package extracted to a temporary root holds
# what a desktop needs, and its binary runs (--version, --list-lessons, a lesson printed, heads
# on the installed coreference set, an installed example model opened by name) without the source or build tree:
#   - no file of the package names the source or build folder (so nothing can be looked up there);
#   - the runs happen with both folders hidden under empty tmpfs mounts (a mount namespace, when
#     this machine allows one; otherwise with a cleared environment from /, and it says so), and
#     print the same as the build tree's binary does.
set -euo pipefail
source "$(dirname "$0")/common.sh"
deb=$1 src=$2 build=$3 version=$4
[ -f "$deb" ] || skip "no $deb: package.build_deb was skipped"
need dpkg-deb dpkg
root=$(mktemp -d /tmp/attnscope-package.XXXXXX)
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root/pkg"
pkg=$root/pkg

# ---- What the package holds.
for f in usr/bin/attnscope usr/share/applications/$app_id.desktop usr/share/metainfo/$app_id.metainfo.xml \
         usr/share/icons/hicolor/scalable/apps/$app_id.svg usr/share/man/man1/attnscope.1.gz \
         usr/share/doc/attnscope/copyright usr/share/doc/attnscope/changelog.gz; do
  [ -s "$pkg/$f" ] || fail "the package has no $f"
done
for size in 16 22 24 32 48 64 128 256; do
  png=$pkg/usr/share/icons/hicolor/${size}x${size}/apps/$app_id.png
  [ -s "$png" ] || fail "the package has no ${size}x${size} icon"
  # A PNG's width and height are the big-endian words at bytes 16 and 20 (the IHDR chunk).
  read -r w h < <(od -An -tu4 --endian=big -j16 -N8 "$png")
  [ "$w $h" = "$size $size" ] || fail "${size}x${size}/$app_id.png is ${w}x${h}"
done
# The example models (resources/models/example-*) are installed whole, byte for byte.
for model in "$src"/resources/models/*/; do
  for f in "$model"*; do
    rel=models/$(basename "$model")/$(basename "$f")
    cmp -s "$f" "$pkg/usr/share/attnscope/$rel" || fail "$rel is not installed"
  done
done
for set in "$src"/resources/coref/*.jsonl; do
  cmp -s "$set" "$pkg/usr/share/attnscope/coref/$(basename "$set")" || fail "coreference set $(basename "$set") is not installed"
done
# Translations: the .qm files the build makes (packaging/CMakeLists.txt, ATTNSCOPE_QM_FILES) must
# all be installed, and nothing else. Today the build makes none (the interface is English only),
# so this checks that the package holds no stray translation; it checks real files once there are.
expected=$(sort "$build/packaging/expected-translations.txt")
found=$( (cd "$pkg" && find usr/share/attnscope -name '*.qm' -printf '%f\n') | sort)
[ "$found" = "$expected" ] || fail "translations in the package: [${found//$'\n'/ }], the build made: [${expected//$'\n'/ }]"
for qm in $found; do
  # Every .qm file starts with Qt's magic number 3c b8 64 18.
  [ "$(od -An -tx1 -N4 "$pkg/usr/share/attnscope/translations/$qm" | tr -d ' ')" = 3cb86418 ] || fail "$qm is not a .qm file"
done

# ---- Nothing in the package points into the source or build tree. Searched with a folder of the
# tree appended: a bare clone path such as /attnscope is also part of /usr/share/attnscope.
for tree in "$src/resources/" "$src/app/" "$src/core/" "$src/packaging/" "$src/tests/" "$build/"; do
  if grep -rlF -- "$tree" "$pkg" >/dev/null; then fail "$(grep -rlF -- "$tree" "$pkg" | head -3) names $tree"; fi
done
if command -v readelf >/dev/null && readelf -d "$pkg/usr/bin/attnscope" | grep -qE 'RPATH|RUNPATH'; then
  fail "the installed binary has an RPATH/RUNPATH: $(readelf -d "$pkg/usr/bin/attnscope" | grep -E 'RPATH|RUNPATH')"
fi

# ---- The expected outputs, from the build tree's binary, before the trees are hidden. The runs
# are a script in the temporary root, so they stay readable when the trees are hidden.
lessons_in_qrc=$(grep -c '<file>lessons/.*\.json</file>' "$src/resources/resources.qrc")
mkdir -p "$root/expected" "$root/got" "$root/home" "$root/run" && chmod 700 "$root/run"
cat > "$root/runs.sh" <<'EOS'
# runs.sh BINARY OUTDIR COREF_SET: the commands compared, from / with a cleared environment.
set -e
cd /
run() { env -i PATH=/usr/bin:/bin HOME="$home" XDG_RUNTIME_DIR="$runtime" QT_QPA_PLATFORM=offscreen "$@"; }
home=$(dirname "$2")/home runtime=$(dirname "$2")/run
run "$1" --version > "$2/version"
run "$1" --list-lessons > "$2/lessons"
run "$1" --lesson causal-mask --print --step weights > "$2/lesson"
run "$1" heads --lesson coreference --coref-set "$3" --top 3 > "$2/heads"
run "$1" --model example-bert --sentence "the lord is my shepherd" --print --step weights > "$2/model"
EOS
coref_set=$pkg/usr/share/attnscope/coref/english.jsonl
bash "$root/runs.sh" "$build/app/attnscope" "$root/expected" "$coref_set" || fail "the build tree's binary failed"

# ---- The installed binary, with the source and build trees hidden (the build folder first: it
# may be inside the source folder).
hidden_check="[ ! -e '$src/CMakeLists.txt' ] && [ ! -e '$build/app/attnscope' ] || { echo 'the trees are still visible' >&2; exit 3; }"
hide="mount -t tmpfs attnscope-hidden '$build' && mount -t tmpfs attnscope-hidden '$src' && $hidden_check"
installed_run="bash '$root/runs.sh' '$pkg/usr/bin/attnscope' '$root/got' '$coref_set'"
mkdir "$root/probe"
if unshare --mount --propagation private sh -c "mount -t tmpfs probe '$root/probe'" 2>/dev/null; then
  unshare --mount --propagation private sh -c "$hide && $installed_run" ||
    fail "the installed binary failed with the source and build trees hidden"
  echo "ran with $src and $build hidden (mount namespace)"
else
  echo "NOTE: no mount namespace here; ran from / with a cleared environment, the trees not hidden" >&2
  sh -c "$installed_run" || fail "the installed binary failed"
fi

[ "$(cat "$root/got/version")" = "AttnScope $version" ] || fail "--version printed \"$(cat "$root/got/version")\""
[ "$(wc -l < "$root/got/lessons")" -eq "$lessons_in_qrc" ] ||
  fail "--list-lessons lists $(wc -l < "$root/got/lessons") lessons, resources.qrc has $lessons_in_qrc"
grep -q 'Attention weights' "$root/got/lesson" || fail "the lesson printed no attention weights: $(head -3 "$root/got/lesson")"
grep -q 'examples evaluated' "$root/got/heads" || fail "heads evaluated no example of the installed set: $(head -3 "$root/got/heads")"
grep -q 'shepherd' "$root/got/model" || fail "the installed example model printed no run: $(head -3 "$root/got/model")"
for out in version lessons lesson heads model; do
  [ -s "$root/got/$out" ] || fail "the installed binary printed nothing for $out"
  cmp -s "$root/expected/$out" "$root/got/$out" || fail "the installed binary's $out differs from the build tree's:
$(diff "$root/expected/$out" "$root/got/$out" | head -10)"
done
echo "installed binary ok: $(wc -l < "$root/got/lessons") lessons, $(wc -l < "$root/got/lesson") lines of lesson output"
