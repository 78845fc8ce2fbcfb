#!/usr/bin/env bash
# make alert-check (CI runs it): the relay's alert rules, checked by
# Prometheus's own promtool. `promtool check rules` parses the rules file
# (examples/relay-alerts/joinit-relay.rules.yml) and each expression, and
# `promtool test rules` runs its unit tests (joinit-relay.rules.test.yml):
# each alert fires after its `for` on the series its failure gives, and
# stays quiet through normal operation. The PrometheusRule of
# examples/relay-kubernetes holds the same groups (make k8s-check says so).
# Then TestAlertsOnARealPrometheus (cmd/joinit-relay, go test -tags
# prometheus): a real Prometheus scrapes a running relay with the rules
# file loaded, and each alert's expression is false before the relay is
# driven into its condition and true after (about 10 s). Needs promtool
# and prometheus (Debian's prometheus package:
# scripts/install-alert-tools.sh).
set -euo pipefail
cd "$(dirname "$0")/../examples/relay-alerts"
for tool in promtool prometheus; do
	command -v "$tool" >/dev/null || { echo "alert-check: $tool is missing; install it with: sudo bash scripts/install-alert-tools.sh" >&2; exit 1; }
done
echo "alert-check: $(promtool --version 2>&1 | head -1)"
promtool check rules joinit-relay.rules.yml
start=$(date +%s%N)
promtool test rules joinit-relay.rules.test.yml
echo "alert-check: promtool test rules took $((($(date +%s%N) - start) / 1000000)) ms"
cd ../..
go test -tags prometheus -run '^TestAlertsOnARealPrometheus$' -count=1 -v ./cmd/joinit-relay
