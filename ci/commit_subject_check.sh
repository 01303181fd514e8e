#!/usr/bin/env bash
# Every commit after c8db4e5 has a subject line under 72 characters (issue
# 41), so that `git log --oneline` reads as a list; details belong in the body (docs/contributing.md, "Commits").
#
#     bash ci/commit_subject_check.sh [BASE]     (ctest: commit_subject_check, label style)
#
# The rule's first session (2026-12-07) left nine subjects of 72 to 83
# characters before c8db4e5; they stay as they are, since results cite
# their hashes.
#
# Exits 1 naming every commit whose subject is too long, 77 (skipped) outside
# a git checkout or in one that lacks BASE (a shallow clone).
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-c8db4e5}
limit=72
if ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "commit_subject_check: not a git checkout; skipped"
  exit 77
fi
if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
  echo "commit_subject_check: commit $base is not in this clone; skipped"
  exit 77
fi
bad=0
count=0
while IFS= read -r line; do
  count=$((count + 1))
  hash=${line%% *}
  subject=${line#* }
  if [ "${#subject}" -ge "$limit" ]; then
    echo "$hash: subject of ${#subject} characters (at most $((limit - 1))): $subject"
    bad=$((bad + 1))
  fi
done < <(git log --format='%h %s' "$base..HEAD")
echo "commit_subject_check: $count commit(s) after $base, $bad subject(s) of $limit characters or more"
[ "$bad" -eq 0 ]
