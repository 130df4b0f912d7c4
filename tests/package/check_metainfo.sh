#!/usr/bin/env bash
# package.metainfo SRC VERSION DATE: the AppStream file passes `appstreamcli validate --no-net`;
# its newest release is the project's version and date; every screenshot is a file of
# docs/screenshots/; summary and description exist in English and Simplified Chinese; the licence
# is the one in LICENSE.
set -euo pipefail
source "$(dirname "$0")/common.sh"
src=$1 version=$2 date=$3
xml=$src/packaging/$app_id.metainfo.xml
need appstreamcli appstream
appstreamcli validate --no-net "$xml" || fail "appstreamcli validate refused $xml"
newest=$(grep -o '<release version="[^"]*" date="[^"]*"' "$xml" | head -1)
[ "$newest" = "<release version=\"$version\" date=\"$date\"" ] ||
  fail "newest release is '$newest', expected version $version date $date (project(VERSION), ATTNSCOPE_RELEASE_DATE)"
grep -q "^attnscope ($version) " "$src/packaging/changelog" || fail "packaging/changelog has no entry for $version"
shots=$(grep -o '<image>[^<]*</image>' "$xml" | sed 's|</image>||; s|.*/||')
[ -n "$shots" ] || fail "no screenshot"
for shot in $shots; do
  [ -f "$src/docs/screenshots/$shot" ] || fail "screenshot $shot is not a file of docs/screenshots/"
done
grep -q '<summary xml:lang="zh-CN">' "$xml" || fail "no Chinese summary"
grep -q '<p xml:lang="zh-CN">' "$xml" || fail "no Chinese description"
grep -q '<content_rating type="oars-1.1"' "$xml" || fail "no oars-1.1 content rating"
grep -q '<project_license>GPL-3.0-or-later</project_license>' "$xml" || fail "project_license is not GPL-3.0-or-later"
grep -q 'GNU GENERAL PUBLIC LICENSE' "$src/LICENSE" && grep -q 'Version 3, 29 June 2007' "$src/LICENSE" ||
  fail "LICENSE is not the GPL version 3"
grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" "$xml" || fail "launchable is not $app_id.desktop"
echo "metainfo ok: $(echo $shots | wc -w) screenshots"
