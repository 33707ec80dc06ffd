#!/usr/bin/env bash
# Times each question developers ask of a store, as a whole process (start, open, query, print, exit), on a store
# that already holds reports: list, list --reports --limit 50, show GROUP, show ID, paths GROUP, replay ID.
#
#   Tools/query-bench.sh CRASHTRAIL STORE [RUNS]
#
# STORE is an SQLite path or a postgres:// URL. GROUP is the largest group, ID its newest report with a trail. RUNS (default 5)
# runs of each; prints each question's median and its slowest run in milliseconds. The store is migrated first (one
# `list`), so no run pays for a migration.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 CRASHTRAIL STORE [RUNS]" >&2; exit 2; }
BIN=$1
STORE=$2
RUNS=${3:-5}
"$BIN" list --store "$STORE" >/dev/null
GROUP=$("$BIN" list --format json --store "$STORE" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
ID=$("$BIN" list --group "$GROUP" --limit 200 --reports --format json --store "$STORE" | python3 -c '
import json, sys
reports = json.load(sys.stdin)
print(next((r["id"] for r in reports if r["trailInfo"]["source"] in ("embedded", "joined", "inferred")), reports[0]["id"]))')
REPORTS=$("$BIN" list --format json --store "$STORE" | python3 -c 'import json,sys; print(sum(g["count"] for g in json.load(sys.stdin)))')
echo "store: $STORE, $REPORTS reports; group $GROUP, report $ID; $RUNS runs each"
measure() { # label, then the command's arguments
    local label=$1
    shift
    local times=()
    for _ in $(seq "$RUNS"); do
        local start end
        start=$(date +%s%N)
        "$BIN" "$@" --store "$STORE" >/dev/null
        end=$(date +%s%N)
        times+=($(((end - start) / 1000000)))
    done
    printf '%s\n' "${times[@]}" | sort -n | python3 -c "
import sys
values = [int(line) for line in sys.stdin]
print(f'{\"$label\":<28} median {values[len(values) // 2]:>6} ms   slowest {values[-1]:>6} ms')"
}
measure "list" list
measure "list --reports --limit 50" list --reports --limit 50
measure "show GROUP" show "$GROUP"
measure "show ID" show "$ID"
measure "paths GROUP" paths "$GROUP"
measure "replay ID" replay "$ID"
