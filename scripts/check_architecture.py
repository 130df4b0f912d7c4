#!/usr/bin/env python3
"""The architecture's size and layering limits, checked on a source tree (ctest: architecture.limits).

  scripts/check_architecture.py [ROOT]      exit 1 naming every offender, 0 when the tree keeps them
  scripts/check_architecture.py --self-test builds bad trees in a temporary folder and checks that
                                            each one fails naming its offender (architecture.self_test)

The limits (docs/architecture.md, "Rules of the house"):
  - a .cpp/.hpp under app/ or ui/ has at most 400 lines;
  - a function in a .cpp/.hpp under app/ or ui/ has at most 60 lines (signature to closing brace);
  - app/main_window.hpp (the window class) has under 100 lines (issue 11: "under 100");
  - nothing under app/ or ui/ mentions "modelMode" (the window asks its source what it offers);
  - no file under core/ includes a Qt header (<Q...> or <qt...>);
  - no error of core/ is built from an English literal: it takes an id of core/text/error_messages.hpp
    (scripts/error_literals.py, with its allow-list of files still to convert);
  - the shell's wiring (scripts/shell_rules.py): no part found by an object-name string, no helper
    including the window back, no test or screenshot hook in app/ or ui/.
The function scan counts braces on the text with comments and literals blanked out; it is not a
C++ parser, but it only has to find bodies, and a body it mis-measures shows up as an offender
one can look at.
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import error_literals  # noqa: E402
import shell_rules  # noqa: E402

MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 60
MAX_WINDOW_HEADER_LINES = 99
WINDOW_HEADER = os.path.join("app", "main_window.hpp")
SHELL_DIRS = ("app", "ui")
SOURCE_SUFFIXES = (".cpp", ".hpp", ".h", ".cc")
QT_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](Q[A-Za-z]|qt)', re.MULTILINE)


def blank_comments_and_literals(src):
    """The source with comments, strings and character literals replaced by spaces (newlines kept)."""
    out, i, n = [], 0, len(src)
    blank = lambda text: re.sub(r"[^\n]", " ", text)
    while i < n:
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif src.startswith('R"', i) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', src[i:])
            end = ')' + m.group(1) + '"' if m else '"'
            j = src.find(end, i + 2)
            j = n if j < 0 else j + len(end)
        elif src[i] == '"' or (src[i] == "'" and not (i > 0 and src[i - 1].isdigit())):  # 1'000 is a number
            quote, j = src[i], i + 1
            while j < n and src[j] != quote and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            j = min(j + 1, n)
        else:
            out.append(src[i])
            i += 1
            continue
        out.append(blank(src[i:j]))
        i = j
    return "".join(out)


def function_lengths(src):
    """(first line, line count) of every function body outside another function, lambdas at
    namespace scope included; member functions defined inside a class count too."""
    text = blank_comments_and_literals(src)
    text = re.sub(r"^[ \t]*#[^\n]*", lambda m: " " * len(m.group(0)), text, flags=re.MULTILINE)
    stack, header_start, found = [], 0, []
    line_of = lambda pos: text.count("\n", 0, pos) + 1
    for pos, c in enumerate(text):
        in_function = any(kind == "function" for kind, _ in stack)
        if c == "{":
            header = text[header_start:pos]
            if in_function:
                kind = "block"
            elif re.search(r"\bnamespace\b|\bextern\s*$", header):
                kind = "namespace"
            elif re.search(r"\b(class|struct|union|enum)\b", header) and "(" not in header:
                kind = "class"
            elif "(" in header and re.search(r"\)\s*:", header) and re.search(r"[\w>]\s*$", header):
                kind = "member-init"  # a constructor's `member_{value}`: the body is still to come
            elif "(" in header or re.search(r"\]\s*$", header):
                kind = "function"
            else:
                kind = "block"  # an initializer list, an enum's values
            start = header_start + len(header) - len(header.lstrip())
            stack.append((kind, line_of(start)))
            if kind != "member-init":
                header_start = pos + 1
        elif c == "}" and stack:
            kind, first = stack.pop()
            if kind == "function":
                found.append((first, line_of(pos) - first + 1))
            if kind != "member-init":
                header_start = pos + 1
        elif c == ";" and not in_function:
            header_start = pos + 1
    return found


def shell_sources(root):
    for folder in SHELL_DIRS:
        for base, _, files in os.walk(os.path.join(root, folder)):
            for name in sorted(files):
                if name.endswith(SOURCE_SUFFIXES):
                    yield os.path.join(base, name)


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def offences(root):
    found = []
    rel = lambda path: os.path.relpath(path, root)
    for path in shell_sources(root):
        src = read(path)
        lines = src.count("\n") + (0 if src.endswith("\n") or not src else 1)
        if lines > MAX_FILE_LINES:
            found.append(f"{rel(path)}: {lines} lines, more than {MAX_FILE_LINES} (split it by responsibility)")
        for first, count in function_lengths(src):
            if count > MAX_FUNCTION_LINES:
                signature = src.split("\n")[first - 1].strip()
                found.append(f"{rel(path)}:{first}: a function of {count} lines, more than "
                             f"{MAX_FUNCTION_LINES}: {signature[:100]}")
    window = os.path.join(root, WINDOW_HEADER)
    if os.path.exists(window):
        lines = read(window).count("\n")
        if lines > MAX_WINDOW_HEADER_LINES:
            found.append(f"{WINDOW_HEADER}: {lines} lines, more than {MAX_WINDOW_HEADER_LINES} (the window is a thin shell)")
    for folder in SHELL_DIRS:
        for base, _, files in os.walk(os.path.join(root, folder)):
            for name in sorted(files):
                path = os.path.join(base, name)
                for number, line in enumerate(read(path).split("\n"), 1):
                    if "modelMode" in line:
                        found.append(f"{rel(path)}:{number}: mentions modelMode (ask the source what it offers)")
    for base, _, files in os.walk(os.path.join(root, "core")):
        for name in sorted(files):
            path = os.path.join(base, name)
            src = read(path)
            for m in QT_INCLUDE.finditer(src):
                number = src.count("\n", 0, m.start()) + 1
                found.append(f"{rel(path)}:{number}: core/ includes a Qt header: {src.split(chr(10))[number - 1].strip()}")
    return found + error_literals.offences(root) + shell_rules.offences(root)


def check(root):
    found = offences(root)
    for line in found:
        print("architecture.limits: " + line)
    if found:
        print(f"architecture.limits: {len(found)} offence(s) in {root}")
        return 1
    print(f"architecture.limits: {root} keeps every limit")
    return 0


def self_test():
    """Each bad tree must fail naming its offender; the good tree must pass."""
    def function(name, body_lines):
        return f"int {name}() {{\n" + "".join(f"    int v{i} = {i};\n" for i in range(body_lines)) + "    return 0;\n}\n"

    good = {
        "app/main_window.hpp": "#pragma once\n" + "// line\n" * 90,
        "app/shell.cpp": function("fine", 57) + "const char* s = \"}{ modelMod\";\n",
        "app/main_window_source.cpp": "#include \"app/main_window.hpp\"\nauto* lab = findChild<Lab*>(QString(), Qt::FindDirectChildrenOnly);\n",
        "ui/view.cpp": "// 400 lines\n" * 399 + "int x = 0;\n",
        "ui/tricky.cpp": "A::A(int v) : QObject(nullptr), v_{v} {\n    run();\n}\n"
                         "const auto f = [](int c) { return c == '{'; };\n" + function("ok", 57),
        "core/engine.cpp": "#include <vector>\n#include \"core/base/result.hpp\"\n// see QString in ui/\n",
        "core/io/named.cpp": "Error e{\"f\", errorText(ErrorId::Quoted, \"a b\")}; // Error{w, \"is missing\"}\n"
                             "auto r = f.expected(ErrorId::ANumber);\nError g{file + \": weight_map\", ErrorId::IsMissing};\n",
    }
    bad = {
        "ui/big.cpp": ("ui/big.cpp: 401 lines", {"ui/big.cpp": "int x = 0;\n" * 401}),
        "app/long_function.cpp": ("app/long_function.cpp:1: a function of 61 lines",
                                  {"app/long_function.cpp": function("tooLong", 58)}),
        "a long member in a class": ("ui/widget.hpp:2: a function of 61 lines",
                                     {"ui/widget.hpp": "class W {\n    " + function("member", 58) + "};\n"}),
        "app/main_window.hpp": ("app/main_window.hpp: 100 lines",
                                {"app/main_window.hpp": "#pragma once\n" + "// line\n" * 99}),
        "modelMode": ("ui/tab.cpp:2: mentions modelMode", {"ui/tab.cpp": "void f() {\n    if (modelMode_) {}\n}\n"}),
        "core Qt": ("core/io/reader.cpp:2: core/ includes a Qt header: #include <QFile>",
                    {"core/io/reader.cpp": "#include <vector>\n#include <QFile>\n"}),
        "core qt": ("core/x.hpp:1: core/ includes a Qt header: #  include <qtconcurrentrun.h>",
                    {"core/x.hpp": "#  include <qtconcurrentrun.h>\n"}),
        "English error": ("core/io/reader.cpp:2: an error built from English text ('is missing')",
                          {"core/io/reader.cpp": "int x;\nreturn Error{path, \"is missing\"};\n"}),
        "English expectation": ("core/io/reader.cpp:1: an error built from English text ('a list of ')",
                                {"core/io/reader.cpp": "f.elements(\"a list of \" + n);\n"}),
        "English rewrap": ("core/io/reader.cpp:1: an error built from English text ('.message')",
                           {"core/io/reader.cpp": "return Error{w, e.error().message};\n"}),
        "named find": ("app/zoom.cpp:1: finds a part by its object name",
                       {"app/zoom.cpp": "auto* p = window_->findChild<MatrixPanel*>(QStringLiteral(\"matrixPanel\"));\n"}),
        "window included back": ("app/file_menu.cpp: includes app/main_window.hpp",
                                 {"app/file_menu.cpp": "#include \"app/main_window.hpp\"\n"}),
        "test hook": ("app/worker.hpp:1: a test or screenshot hook in the shipped code (setProgressHookForTests)",
                      {"app/worker.hpp": "void setProgressHookForTests(Hook hook);\n"}),
        "English where": ("core/io/reader.cpp:1: an error built from English text ('model id')",
                          {"core/io/reader.cpp": "return Error{\"model id\", ErrorId::IsEmpty};\n"}),
    }

    def make(tree, files):
        for path, text in files.items():
            full = os.path.join(tree, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(text)

    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        clean = os.path.join(tmp, "good")
        make(clean, good)
        if offences(clean):
            failures.append(f"the good tree was refused: {offences(clean)}")
        for label, (expected, files) in bad.items():
            tree = os.path.join(tmp, re.sub(r"\W", "_", label))
            make(tree, {**good, **files})
            found = offences(tree)
            if not any(line.startswith(expected) for line in found):
                failures.append(f"{label}: expected an offence starting with {expected!r}, found {found}")
            elif check(tree) != 1:
                failures.append(f"{label}: check() did not exit 1")
    for line in failures:
        print("architecture.self_test: FAILED: " + line)
    if not failures:
        print(f"architecture.self_test: the good tree passes, {len(bad)} bad trees fail naming their offender")
    return 1 if failures else 0


def script_main(check_tree, run_self_test):
    """The command line of the checking scripts: --self-test, else check ROOT (default: the source tree)."""
    if sys.argv[1:] == ["--self-test"]:
        return run_self_test()
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    return check_tree(os.path.abspath(root))


if __name__ == "__main__":
    sys.exit(script_main(check, self_test))
