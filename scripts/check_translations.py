#!/usr/bin/env python3
"""Fails when a user-visible string of app/ or ui/ lacks its Chinese translation (issue 12).

The committed .ts files may be stale (a tr() added without running the attnscope_app_lupdate
target), so each one is copied to a temporary folder and brought up to date there by lupdate over
the sources, with the options of the build's lupdate target; the committed file is never
rewritten. Then every message must have a translation (no type="unfinished", no empty text or
numerus form), and every %1…%9, %n, %v, %m of the source must appear in it.

usage: check_translations.py LUPDATE ROOT TS...     (exit 1 naming each offender)
       check_translations.py LUPDATE ROOT --self-test  (a new untranslated tr() must be caught)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SOURCE_DIRS = ("app", "ui")
PLACEHOLDER = re.compile(r"%(?:[1-9]|n|v|m)")


def refreshed_copy(lupdate, root, ts, work, extra_sources=()):
    copy = os.path.join(work, os.path.basename(ts))
    shutil.copyfile(ts, copy)
    sources = [os.path.join(root, d) for d in SOURCE_DIRS] + list(extra_sources)
    command = [lupdate, "-silent", "-no-obsolete", "-locations", "none", "-I", root, "-recursive", *sources,
               "-ts", copy]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return copy


def problems_of(ts):
    """Each message without a usable translation, as 'context: "source": why'."""
    found = []
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name")
        for message in context.iter("message"):
            source = message.findtext("source") or ""
            translation = message.find("translation")
            kind = translation.get("type") if translation is not None else "missing"
            if kind in ("vanished", "obsolete"):
                continue
            forms = [f.text or "" for f in translation.iter("numerusform")] or [translation.text or ""]
            where = f'{name}: "{source[:70]}"'
            if kind == "unfinished" or kind == "missing":
                found.append(where + ": not translated")
            elif any(not f.strip() for f in forms):
                found.append(where + ": empty translation")
            else:
                lost = sorted(set(PLACEHOLDER.findall(source)) - set().union(*(PLACEHOLDER.findall(f) for f in forms)))
                if lost:
                    found.append(where + ": the translation lacks " + ", ".join(lost))
    return found


def check(lupdate, root, ts_files, extra_sources=()):
    problems = []
    with tempfile.TemporaryDirectory() as work:
        for ts in ts_files:
            copy = refreshed_copy(lupdate, root, ts, work, extra_sources)
            count = sum(1 for _ in ET.parse(copy).getroot().iter("message"))
            found = problems_of(copy)
            print(f"{os.path.basename(ts)}: {count} messages, {len(found)} without a translation")
            problems += [f"{os.path.basename(ts)}: {p}" for p in found]
    return problems


def self_test(lupdate, root):
    ts = os.path.join(root, "resources", "translations", "attnscope_zh_CN.ts")
    with tempfile.TemporaryDirectory() as work:
        extra = os.path.join(work, "new_string.cpp")
        with open(extra, "w", encoding="utf-8") as f:
            f.write('void f() { QObject::tr("A string added without its translation"); }\n')
        problems = check(lupdate, root, [ts], [extra])
    if not any("A string added without its translation" in p for p in problems):
        print("self-test FAILED: a new untranslated tr() string was not reported", file=sys.stderr)
        return 1
    print("self-test passed: the new untranslated string was reported")
    return 0


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    lupdate, root = argv[1], argv[2]
    if argv[3] == "--self-test":
        return self_test(lupdate, root)
    problems = check(lupdate, root, argv[3:])
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
