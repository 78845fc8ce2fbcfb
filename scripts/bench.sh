#!/usr/bin/env bash
# make bench: the scale benchmark, as one report on this machine, against the
# sandbox on loopback. Pass flags through, e.g. `scripts/bench.sh -sizes 1000,10000`.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "# joinit scale benchmark — $(nproc) cores, $(TF_CLI_CONFIG_FILE=/dev/null terraform version | head -1), $(go version | cut -d' ' -f3)"
echo
go run ./cmd/joinit-bench "$@"
