#!/usr/bin/env bash
# package.man_page ATTNSCOPE MANPAGE: the options attnscope(1) documents (its .TP items) are exactly
# those --help, `coref --help`, `heads --help`, `qk --help`, `compare --help`, `norms --help` and `movement --help` list, groff formats the page without a warning,
# and its header names the version --version prints.
set -euo pipefail
source "$(dirname "$0")/common.sh"
bin=$1 page=$2
export QT_QPA_PLATFORM=offscreen
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# The option column of QCommandLineParser's help: "  -h, --help   Displays ..." → -h --help.
help_options() {
  "$bin" "$@" --help 2>/dev/null | awk '/^  -/ { sub(/^  /, ""); split($0, part, "  "); print part[1] }' |
    sed 's/<[^>]*>//g' | grep -oE '(^|[ ,])-{1,2}[a-z][a-z0-9-]*' | tr -d ' ,'
}
{ help_options; help_options coref; help_options heads; help_options qk; help_options compare; help_options norms; help_options movement; } | sort -u > "$work/help"
[ "$(wc -l < "$work/help")" -ge 20 ] || fail "--help lists only $(wc -l < "$work/help") options: $(tr '\n' ' ' < "$work/help")"
grep -qx -- --version "$work/help" || fail "--help does not list --version"

# The line after each .TP of the man page, man escapes undone: "\-\-lesson" → "--lesson".
awk 'after { print; after = 0 } /^\.TP/ { after = 1 }' "$page" | sed 's/\\-/-/g' |
  grep -oE '(^|[ "])-{1,2}[a-z][a-z0-9-]*' | tr -d ' "' | sort -u > "$work/man"
missing=$(comm -23 "$work/help" "$work/man" | tr '\n' ' ')
[ -z "$missing" ] || fail "options in --help but not documented in $page: $missing"
extra=$(comm -13 "$work/help" "$work/man" | tr '\n' ' ')
[ -z "$extra" ] || fail "options documented in $page that no --help lists: $extra"

version=$("$bin" --version 2>/dev/null)
grep -q "^\.TH ATTNSCOPE 1 \"[0-9-]*\" \"$version\"" "$page" || fail "the page's .TH does not name \"$version\""
need groff groff-base
warnings=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" 2>&1)
[ -z "$warnings" ] || fail "groff warns about $page: $warnings"
echo "man page ok: $(wc -l < "$work/help") options, all documented"
