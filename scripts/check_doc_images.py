#!/usr/bin/env python3
"""Every picture the Markdown documents show exists.

    scripts/check_doc_images.py SOURCE_DIR     exit 1 naming each missing file and where it is linked
    scripts/check_doc_images.py --self-test    the check on a tree it builds, one good and one bad link

Screenshots are renumbered when the tour gains a lesson (scripts/screenshots.sh); a README that
still names the old file would show a stale or missing picture.
"""
import os
import re
import sys
import tempfile

IMAGE_LINK = re.compile(r"\]\(([^)\s]+\.(?:png|svg|jpg))\)|src=\"([^\"]+\.(?:png|svg|jpg))\"")
SKIPPED_DIRS = {".git", "build", "node_modules"}


def markdown_files(root):
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("build")]
        for name in files:
            if name.endswith(".md"):
                yield os.path.join(folder, name)


def missing_images(root):
    missing = []
    for path in markdown_files(root):
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                for match in IMAGE_LINK.finditer(line):
                    target = match.group(1) or match.group(2)
                    if "://" in target:
                        continue
                    if not os.path.exists(os.path.join(os.path.dirname(path), target)):
                        missing.append(f"{os.path.relpath(path, root)}:{number}: {target} does not exist")
    return missing


def self_test():
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "docs", "screenshots"))
        open(os.path.join(root, "docs", "screenshots", "01-a.png"), "wb").close()
        with open(os.path.join(root, "README.md"), "w", encoding="utf-8") as f:
            f.write("![a](docs/screenshots/01-a.png)\n![b](docs/screenshots/02-b.png)\n")
        found = missing_images(root)
        if len(found) != 1 or "02-b.png" not in found[0] or "README.md:2" not in found[0]:
            print(f"self-test: expected README.md:2 02-b.png missing, got {found}")
            return 1
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__.strip())
        return 2
    missing = missing_images(sys.argv[1])
    for line in missing:
        print(line)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
