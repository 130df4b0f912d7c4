#!/usr/bin/env bash
# `attnscope --print > FILE` on a full disk must not exit 0 with the results lost: /dev/full
# answers every write with ENOSPC. Usage: stdout_full_device.sh ATTNSCOPE_BINARY
bin="$1"
[ -w /dev/full ] || { echo "SKIPPED: no writable /dev/full here"; exit 77; }
for args in "--lesson first-hand-exercise --print" "--lesson two-layers --print --format json" \
            "coref --lesson coreference --heads 1:1"; do
  err="$("$bin" $args 2>&1 >/dev/full)"; code=$?
  [ $code -eq 1 ] || { echo "FAIL [$args]: exit $code, expected 1; stderr: $err"; exit 1; }
  grep -q "standard output could not be written: No space left on device" <<<"$err" \
    || { echo "FAIL [$args]: stderr does not give the reason: $err"; exit 1; }
  echo "ok [$args]: $err"
done
