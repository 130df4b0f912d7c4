#!/usr/bin/env python3
"""Every picture the Markdown documents show exists, and a screenshot taken on a screen of a given
size (its name says "-1280x720-") is that size.

    scripts/check_doc_images.py SOURCE_DIR     exit 1 naming each missing file and where it is linked,
                                               and each screenshot larger or smaller than its screen
    scripts/check_doc_images.py --self-test    the checks on a tree they build: one good and one bad
                                               link, one screenshot of its screen's size and one wider

Screenshots are renumbered when the tour gains a lesson (scripts/screenshots.sh); a README that
still names the old file would show a stale or missing picture. A window whose controls want more
than the screen grows past it, and the tour then shoots a picture wider than the screen (the model
window at 1280×720 was 1,487 pixels wide).
"""
import os
import re
import struct
import sys
import tempfile

IMAGE_LINK = re.compile(r"\]\(([^)\s]+\.(?:png|svg|jpg))\)|src=\"([^\"]+\.(?:png|svg|jpg))\"")
SKIPPED_DIRS = {".git", "build", "node_modules"}
SCREEN_SIZE = re.compile(r"-(\d{3,4})x(\d{3,4})-")


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


def png_size(path):
    with open(path, "rb") as f:
        header = f.read(24)
    if len(header) < 24 or header[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", header[16:24])


def off_screen_shots(root):
    wrong = []
    shots = os.path.join(root, "docs", "screenshots")
    for folder, _, files in os.walk(shots):
        for name in sorted(files):
            screen = SCREEN_SIZE.search(name)
            if not name.endswith(".png") or not screen:
                continue
            path = os.path.join(folder, name)
            size, expected = png_size(path), (int(screen.group(1)), int(screen.group(2)))
            where = os.path.relpath(path, root)
            if size is None:
                wrong.append(f"{where}: not a PNG")
            elif size != expected:
                wrong.append(f"{where}: {size[0]}×{size[1]} pixels, not its screen's {expected[0]}×{expected[1]}")
    return wrong


def write_png_header(path, width, height):
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(">II", width, height))


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
        write_png_header(os.path.join(root, "docs", "screenshots", "x-1280x720-fits.png"), 1280, 720)
        write_png_header(os.path.join(root, "docs", "screenshots", "x-1280x720-wide.png"), 1487, 720)
        wrong = off_screen_shots(root)
        if len(wrong) != 1 or "x-1280x720-wide.png: 1487×720 pixels" not in wrong[0]:
            print(f"self-test: expected x-1280x720-wide.png at 1487×720, got {wrong}")
            return 1
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__.strip())
        return 2
    problems = missing_images(sys.argv[1]) + off_screen_shots(sys.argv[1])
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
