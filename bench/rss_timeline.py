#!/usr/bin/python3
"""Runs a command and samples its resident memory, split into anonymous and file-backed pages.

    bench/rss_timeline.py [--every SECONDS] -- COMMAND [ARG...]

/usr/bin/time's peak RSS is one number; a long run's memory is the sum of several parts (the
mapped weight file, the hidden states, the shown layer's weights, scratch), and which part makes
the peak decides what to change. Every SECONDS (default 0.25) this reads the process's
/proc/PID/smaps_rollup (Rss, Anonymous, and Rss minus Anonymous: the mapped file's pages and the
libraries) and prints one line whenever the total moved by 32 MiB or more, then the peak with its
split and the kernel's own high-water mark (VmHWM, which the sampling can miss by a little).
The command's own output goes to its stdout/stderr unchanged; this script writes to stderr.
"""
import subprocess
import sys
import time

MIB = 1024 * 1024


def rollup(pid):
    """(rss, anonymous) in bytes, or None once the process is gone."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line and not line.startswith("0"))
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    kib = lambda key: int(fields.get(key, "0 kB").split()[0]) * 1024
    return kib("Rss"), kib("Anonymous")


def high_water(pid):
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (FileNotFoundError, ProcessLookupError):
        pass
    return None


def main(argv):
    every = 0.25
    if argv[:1] == ["--every"]:
        every, argv = float(argv[1]), argv[2:]
    if argv[:1] == ["--"]:
        argv = argv[1:]
    if not argv:
        sys.exit(__doc__)
    started = time.monotonic()
    child = subprocess.Popen(argv)
    peak, last, hwm = (0, 0), 0, None
    while child.poll() is None:
        sample = rollup(child.pid)
        hwm = high_water(child.pid) or hwm
        if sample:
            rss, anon = sample
            if rss > peak[0]:
                peak = sample
            if abs(rss - last) >= 32 * MIB:
                print(f"{time.monotonic() - started:8.1f} s  rss {rss / MIB:7.0f} MiB  anonymous {anon / MIB:7.0f}"
                      f"  file {(rss - anon) / MIB:7.0f}", file=sys.stderr)
                last = rss
        time.sleep(every)
    rss, anon = peak
    print(f"peak sampled: rss {rss / MIB:.0f} MiB = anonymous {anon / MIB:.0f} + file {(rss - anon) / MIB:.0f};"
          f" VmHWM {hwm / MIB if hwm else float('nan'):.0f} MiB (last read before the exit);"
          f" {time.monotonic() - started:.1f} s; exit {child.returncode}", file=sys.stderr)
    return child.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
