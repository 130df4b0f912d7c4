#!/usr/bin/env python3
"""Fills unfinished entries of a Qt .ts file from a table of proposed translations.

After `cmake --build build --target attnscope_app_lupdate` has added a branch's new tr() texts as
unfinished entries, a table (context<TAB>source<TAB>translation, '#' comments, \\n for a newline;
e.g. resources/translations/pending/*.tsv) fills them in. Only unfinished entries are touched;
every %1…%9 of the source must be in the translation.

usage: fill_translations.py TS TABLE...   (prints how many were filled and which rows found no entry)
"""
import re
import sys
import xml.etree.ElementTree as ET

PLACEHOLDER = re.compile(r"%(?:[1-9]|n)")


def read_table(path):
    rows = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            context, source, translation = line.rstrip("\n").split("\t")
            source, translation = source.replace("\\n", "\n"), translation.replace("\\n", "\n")
            if sorted(PLACEHOLDER.findall(source)) != sorted(PLACEHOLDER.findall(translation)):
                sys.exit(f"{path}: the placeholders of {source!r} differ in its translation")
            rows[(context, source)] = translation
    return rows


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    ts, rows = sys.argv[1], {}
    for table in sys.argv[2:]:
        rows.update(read_table(table))
    tree = ET.parse(ts)
    filled, used = 0, set()
    for context in tree.getroot().iter("context"):
        name = context.findtext("name")
        for message in context.iter("message"):
            key = (name, message.findtext("source"))
            translation = message.find("translation")
            if key in rows and translation.get("type") == "unfinished":
                translation.text = rows[key]
                del translation.attrib["type"]
                filled += 1
                used.add(key)
    with open(ts, "w", encoding="utf-8") as f:  # lupdate's header; lupdate rewrites the rest its own way
        f.write('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n')
        f.write(ET.tostring(tree.getroot(), encoding="unicode") + "\n")
    print(f"{ts}: filled {filled}")
    for context, source in sorted(set(rows) - used):
        print(f"  no unfinished entry: {context}: {source}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
