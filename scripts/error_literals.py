"""The error-catalogue rule of scripts/check_architecture.py (issue 12): core/ builds its errors from
core/text/error_messages.hpp, so each can be shown in Chinese too. An offence is a message argument of
`Error{where, message}`, `field.error(message)`, `field.expected(what)` or `requireObject / elements /
members(what)` that holds an English string literal itself (a literal inside errorText(…) is an argument:
a name, a quote, a symbol), or rewraps another error's English `.message` / `.text()`; and a `where` with
a literal of two words ("model id"). Files still to convert are listed in ALLOWED, the debt one can see.
"""
import os
import re

# Files not yet on the error catalogue (each one is debt: convert it and remove it here).
ALLOWED: set = set()  # every file of core/ is on the catalogue

CALL = re.compile(r"\bError\s*\{|\b(?:error|expected|requireObject|elements|members)\s*\(|\bfail\s*\(\s*\"")
WORD = re.compile(r"[A-Za-z]{2,}")
TWO_WORDS = re.compile(r"[A-Za-z]{2,} [A-Za-z]{2,}")


def _arguments(src, start, close):
    """Top-level arguments of the call whose opening bracket is just before `start`, with the text of
    nested brackets dropped; string literals are kept. None when unbalanced."""
    args, current, depth, i = [], [], 0, start
    while i < len(src):
        c = src[i]
        if c == '"':
            j = i + 1
            while j < len(src) and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            if depth == 0:
                current.append(src[i:j + 1])
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                args.append("".join(current))
                return args
            depth -= 1
        elif c == "," and depth == 0:
            args.append("".join(current))
            current = []
        elif depth == 0:
            current.append(c)
        i += 1
    return None


def _literals(expression):
    return re.findall(r'"((?:[^"\\]|\\.)*)"', expression)


def _without_comments(src):
    """The source with // and /* */ comments blanked; string literals kept (a "//" inside one stays)."""
    return re.sub(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*.*?\*/',
                  lambda m: m.group(0) if m.group(0).startswith('"') else re.sub(r"[^\n]", " ", m.group(0)),
                  src, flags=re.DOTALL)


def offences(root):
    found = []
    core = os.path.join(root, "core")
    for base, _, files in os.walk(core):
        for name in sorted(files):
            path = os.path.join(base, name)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            if not name.endswith((".cpp", ".hpp")) or rel in ALLOWED or rel.startswith("core/text/error_messages"):
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                src = _without_comments(f.read())
            for m in CALL.finditer(src):
                open_at = m.end() - (1 if m.group(0).endswith('"') else 0)
                args = _arguments(src, open_at, None)
                if not args or args == [""]:
                    continue
                message, where = args[-1], (args[0] if len(args) > 1 else "")
                english = [t for t in _literals(message) if WORD.search(re.sub(r'\\"[^"\\]*\\"', "", t))]
                rewrap = re.search(r"\.(message|text\(\))\s*$|\.message\b(?!Form)", message)
                two_words = [t for t in _literals(where) if TWO_WORDS.search(t)]
                if english or rewrap or two_words:
                    line = src.count("\n", 0, m.start()) + 1
                    what = english[0] if english else two_words[0] if two_words else ".message"
                    found.append(f"{rel}:{line}: an error built from English text ({what[:60]!r}); "
                                 f"use an id of core/text/error_messages.hpp")
    return found
