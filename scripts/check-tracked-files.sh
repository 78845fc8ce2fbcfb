#!/usr/bin/env bash
# Fails when git tracks a file over 1 MiB or a built executable: build
# outputs belong under ignored paths (bin/, dist/), never in history.
# An executable bit is allowed only on scripts (a file starting with "#!").
set -euo pipefail
cd "$(dirname "$0")/.."

limit=$((1024 * 1024))
bad=0
while IFS= read -r -d '' entry; do
	mode=${entry%% *}
	path=${entry#*$'\t'}
	[ -f "$path" ] || continue
	size=$(wc -c <"$path")
	if [ "$size" -gt "$limit" ]; then
		echo "tracked file over 1 MiB: $path ($size bytes)"
		bad=1
	fi
	magic=$(head -c 4 "$path" | od -An -tx1 | tr -d ' \n')
	case "$magic" in
	7f454c46 | cffaedfe | cefaedfe | feedfacf | feedface)
		echo "tracked file is a built executable: $path"
		bad=1
		continue
		;;
	4d5a*)
		# "MZ" starts Windows executables, and some text: a NUL byte
		# early on tells the executable.
		if head -c 512 "$path" | tr -d '\000' | cmp -s - <(head -c 512 "$path"); then :; else
			echo "tracked file is a built executable: $path"
			bad=1
			continue
		fi
		;;
	esac
	if [ "$mode" = 100755 ] && [ "$(head -c 2 "$path")" != '#!' ]; then
		echo "tracked file is executable but not a script: $path"
		bad=1
	fi
done < <(git ls-files -s -z)
if [ "$bad" -ne 0 ]; then
	echo "remove these from git (git rm --cached) and ignore them"
	exit 1
fi
echo "tracked files: none over 1 MiB, no built executables"
