#!/usr/bin/env bash
# package.lintian DEB: lintian finds no error in the package (warnings and notes are printed).
set -euo pipefail
source "$(dirname "$0")/common.sh"
deb=$1
[ -f "$deb" ] || skip "no $deb: package.build_deb was skipped"
need lintian
rc=0
report=$(lintian --fail-on error --display-info "$deb" 2>&1) || rc=$?
echo "$report"
# Non-zero: an error tag, or lintian could not check the package at all; both fail.
[ "$rc" -eq 0 ] || fail "lintian exited $rc ($(echo "$report" | grep -c '^E: ' || true) errors)"
echo "lintian: no error ($(echo "$report" | grep -c '^W: ' || true) warnings)"
