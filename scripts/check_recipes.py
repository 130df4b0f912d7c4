#!/usr/bin/env python3
"""Keeps the "where do I add…" recipes of docs/architecture.md honest (ctest: architecture.recipes).

  scripts/check_recipes.py [ROOT]       exit 1 naming every file or name a recipe cites that the tree lacks
  scripts/check_recipes.py --self-test  a recipe citing a missing file and one citing a missing name fail

Every `backticked` token of a bullet under a "where do I add…" heading is checked: a path (it has a
'/' or a source suffix; `<family>` matches any name) must exist, a C++ name (`TraceTab`,
`MainWindow::buildTabs`, `offers()`) must occur as a word in core/, ui/, app/, scripts/driver/ or tests/.
Qt's own names (QSaveFile, …) are what a recipe forbids, so they are not looked up.
"""
import glob
import os
import re
import sys
import tempfile

SOURCE_DIRS = ("core", "ui", "app", "scripts", "tests", "fuzz", "bench")
SOURCE_SUFFIXES = (".cpp", ".hpp", ".inl", ".cmake", ".txt", ".py", ".tsv", ".sh")
HEADING = re.compile(r"^#+ .*where do i add", re.IGNORECASE)
TOKEN = re.compile(r"`([^`]+)`")
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*(<[^>]*>)?(\(\))?$")


def recipes(doc):
    """The bullet texts under every "where do I add…" heading."""
    found, inside, bullet = [], False, None
    for line in doc.split("\n"):
        if line.startswith("#"):
            inside = bool(HEADING.match(line))
            continue
        if not inside:
            continue
        if line.startswith("- "):
            bullet = [line]
            found.append(bullet)
        elif line.startswith("  ") and bullet is not None:
            bullet.append(line)
        elif line.strip():
            bullet = None
    return [" ".join(part.strip() for part in b) for b in found]


def source_words(root):
    words = set()
    for folder in SOURCE_DIRS:
        for base, _, files in os.walk(os.path.join(root, folder)):
            for name in files:
                if name.endswith(SOURCE_SUFFIXES):
                    with open(os.path.join(base, name), encoding="utf-8", errors="replace") as f:
                        words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", f.read()))
    return words


def offences(root):
    with open(os.path.join(root, "docs", "architecture.md"), encoding="utf-8") as f:
        bullets = recipes(f.read())
    if not bullets:
        return ["docs/architecture.md: no \"where do I add…\" recipe found"]
    words, found = source_words(root), []
    for text in bullets:
        title = re.search(r"\*\*(.+?)\*\*", text)
        label = title.group(1) if title else text[:40]
        for token in TOKEN.findall(text):
            if "/" in token or token.endswith(SOURCE_SUFFIXES):
                pattern = re.sub(r"<[^>]+>", "*", token.split(" ")[0])
                if not glob.glob(os.path.join(root, pattern)):
                    found.append(f"recipe \"{label}\": no file {token}")
            elif NAME.match(token) and not token.startswith("Q"):
                for part in re.sub(r"<[^>]*>|\(\)", "", token).split("::"):
                    if part not in words:
                        found.append(f"recipe \"{label}\": no {part} in the sources ({token})")
    return found


def check(root):
    found = offences(root)
    for line in found:
        print("architecture.recipes: " + line)
    print(f"architecture.recipes: {len(found)} stale reference(s)" if found else
          f"architecture.recipes: every file and name the recipes cite exists in {root}")
    return 1 if found else 0


def self_test():
    doc = "# A\n### Where do I add…\n- **a view**: a widget in `ui/<family>/`, one line in `MainWindow::{}`\n  and `{}`.\n"
    cases = {"good": ("buildTabs", "ui/view.hpp", 0), "missing name": ("buildPages", "ui/view.hpp", 1),
             "missing file": ("buildTabs", "ui/gone.hpp", 1)}
    failures = []
    for label, (name, path, want) in cases.items():
        with tempfile.TemporaryDirectory() as tree:
            for rel, text in {"docs/architecture.md": doc.format(name, path),
                              "ui/attention/view.hpp": "void MainWindow::buildTabs();\n", "ui/view.hpp": ""}.items():
                os.makedirs(os.path.dirname(os.path.join(tree, rel)), exist_ok=True)
                with open(os.path.join(tree, rel), "w", encoding="utf-8") as f:
                    f.write(text)
            if check(tree) != want:
                failures.append(label)
    print("architecture.recipes self-test: " + (f"FAILED: {failures}" if failures else "every case as expected"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import check_architecture  # noqa: E402
    sys.exit(check_architecture.script_main(check, self_test))
