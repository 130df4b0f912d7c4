#!/usr/bin/env bash
# Runs one row of a tests/hostile/cases-*.tsv table: ATTNSCOPE_BINARY SOURCE_DIR TABLE ROW_NAME.
# Exit 0 when the binary exits as expected and says what the row expects, 77 when the row's setup
# skips it (the reason is printed), 1 otherwise with what was found.
set -uo pipefail
bin="$1"; src="$2"; table="$3"; name="$4"
T="$(mktemp -d)"; trap 'chmod -R u+w "$T" 2>/dev/null; umount -q "$T"/* 2>/dev/null; rm -rf "$T"' EXIT
FIX="$src/tests/reference"; LESSONS="$src/resources/lessons"
export T FIX LESSONS
export XDG_CONFIG_HOME="$T/.config"  # the window's saved settings (language, zoom, theme): this row's own
export HF_HUB_CACHE="$T/hub"  # a Hugging Face cache of its own: the rows never read the real one
row="$(awk -F'\t' -v n="$name" '$1 == n' "$table")"
[ -n "$row" ] || { echo "no row named $name in $table" >&2; exit 1; }
IFS=$'\t' read -r _ setup arguments want_exit want_message check <<<"$row"
cd "$T" || exit 1
if [ "$setup" != "-" ]; then
  (eval "$setup"); status=$?
  [ $status -eq 77 ] && exit 77
  [ $status -eq 0 ] || { echo "setup failed ($status): $setup" >&2; exit 1; }
fi
eval "args=($arguments)"
out="$(timeout "${HOSTILE_TIMEOUT:-20}" "$bin" "${args[@]}" </dev/null 2>&1)"; got_exit=$?
fail() { printf 'FAIL [%s]: %s\n--- output (first 30 lines) ---\n%s\n' "$name" "$1" "$(head -30 <<<"$out")" >&2; exit 1; }
[ $got_exit -eq 124 ] && fail "no answer within ${HOSTILE_TIMEOUT:-20} s (a hang)"
[ "$got_exit" -eq "$want_exit" ] || fail "exit $got_exit, expected $want_exit"
[ "$want_message" = "-" ] || grep -qF -- "$want_message" <<<"$out" || fail "the output does not say: $want_message"
if [ "$check" != "-" ]; then (eval "$check") || fail "check failed: $check"; fi
echo "ok [$name]: exit $got_exit, says \"$want_message\""
