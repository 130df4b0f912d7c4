#!/usr/bin/env bash
# package.desktop_entry SRC: the desktop entry passes desktop-file-validate, and names the binary,
# the icon and the window class the package installs and the app sets.
set -euo pipefail
source "$(dirname "$0")/common.sh"
src=$1
entry=$src/packaging/$app_id.desktop
need desktop-file-validate desktop-file-utils
# desktop-file-validate exits 0 on hints; print them anyway.
desktop-file-validate "$entry" || fail "desktop-file-validate refused $entry"
value() { sed -n "s/^$1=//p" "$entry"; }
[ "$(value Exec)" = attnscope ] || fail "Exec is \"$(value Exec)\", expected attnscope (the binary takes no file argument)"
[ "$(value Icon)" = "$app_id" ] || fail "Icon is \"$(value Icon)\", expected $app_id (the installed icon's name)"
[ -f "$src/packaging/icons/$(value Icon).svg" ] || fail "no packaging/icons/$(value Icon).svg"
# The X11 class Qt sets is the application name (app/app_identity.cpp).
[ "$(value StartupWMClass)" = AttnScope ] || fail "StartupWMClass is \"$(value StartupWMClass)\", expected AttnScope"
grep -q "kDesktopId\[\] = \"$app_id\"" "$src/app/app_identity.hpp" || fail "app/app_identity.hpp's kDesktopId is not $app_id"
grep -q '^Comment\[zh_CN\]=' "$entry" || fail "no Chinese Comment[zh_CN]"
echo "desktop entry ok"
