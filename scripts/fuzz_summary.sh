#!/usr/bin/env bash
# Prints what each fuzz.<target> ctest entry of the last ctest run did, from libFuzzer's final
# statistics in ctest's log: `./dev.sh test` calls it after the suite, so every run (and CI's)
# shows the executions per target. Usage: scripts/fuzz_summary.sh BUILD_DIR
set -uo pipefail
log="${1:?usage: fuzz_summary.sh BUILD_DIR}/Testing/Temporary/LastTest.log"
[ -f "$log" ] || exit 0
awk '
  /^[0-9]+\/[0-9]+ Test: fuzz\./ { target = $3; sub(/^fuzz\./, "", target) }
  /^[0-9]+\/[0-9]+ Test: / && !/ Test: fuzz\./ { target = "" }
  target != "" && /stat::number_of_executed_units:/ { runs[target] = $2; order[++n] = target }
  target != "" && /stat::average_exec_per_sec:/ { rate[target] = $2 }
  target != "" && /stat::new_units_added:/ { added[target] = $2 }
  END {
    if (n == 0) exit
    print "fuzzing (libFuzzer, this run):"
    for (i = 1; i <= n; i++) {
      t = order[i]
      printf "  %-26s %10d executions, %7d per second, %4d new inputs\n", t, runs[t], rate[t], added[t]
    }
  }' "$log"
