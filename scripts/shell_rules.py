"""The shell's wiring rules (docs/architecture.md), for scripts/check_architecture.py:
  - nothing under app/ or ui/ finds a part by an object-name string (findChild<T>("name")): the
    window, the composition root, hands each part what it needs;
  - no helper of app/ includes the window back (only main_window*.cpp, main.cpp and run_window.cpp
    include app/main_window.hpp);
  - the shipped code carries no test or screenshot hooks (…ForTests, ATTNSCOPE_SCREENSHOT_DIR):
    tests and the screenshot tour drive the window from outside (scripts/driver/window_driver.hpp).
"""
import os
import re

SHELL_DIRS = ("app", "ui")
SOURCE_SUFFIXES = (".cpp", ".hpp")
NAMED_FIND = re.compile(r'\bfindChild(?:ren)?\s*<[^>]*>\s*\(\s*(?:QStringLiteral\(|QLatin1String\(|QString\()?\s*"')
WINDOW_INCLUDE = re.compile(r'^\s*#\s*include\s*"app/main_window\.hpp"', re.MULTILINE)
WINDOW_FILES = re.compile(r"^app/(main_window[a-z_]*\.(cpp|hpp)|main\.cpp|run_window\.cpp)$")
TEST_HOOK = re.compile(r"\w+ForTests\b|ATTNSCOPE_SCREENSHOT_DIR")


def offences(root):
    found = []
    for folder in SHELL_DIRS:
        for base, _, files in os.walk(os.path.join(root, folder)):
            for name in sorted(files):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.join(base, name)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                with open(path, encoding="utf-8", errors="replace") as f:
                    src = f.read()
                for number, line in enumerate(src.split("\n"), 1):
                    if NAMED_FIND.search(line):
                        found.append(f"{rel}:{number}: finds a part by its object name (hand it over from the window)")
                    if m := TEST_HOOK.search(line):
                        found.append(f"{rel}:{number}: a test or screenshot hook in the shipped code ({m.group(0)})")
                if WINDOW_INCLUDE.search(src) and not WINDOW_FILES.match(rel):
                    found.append(f"{rel}: includes app/main_window.hpp (a helper gets WindowActions, not the window)")
    return found
