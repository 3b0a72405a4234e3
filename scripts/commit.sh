#!/bin/sh
# Prints the commit of the checkout as levlab's records name it: 12 hex
# digits, and -dirty where tracked files outside results/ have changes
# (results/ holds records, not code). make build stamps it into bin/levlab
# (internal/buildinfo), so that a binary names the commit it was built
# from even after the checkout moves on.
cd "$(dirname "$0")/.." || exit 1
rev=$(git rev-parse HEAD 2>/dev/null | cut -c1-12)
[ -n "$rev" ] || exit 0
if [ -n "$(git status --porcelain --untracked-files=no -- . ':(exclude)results' 2>/dev/null)" ]; then
	rev="$rev-dirty"
fi
echo "$rev"
