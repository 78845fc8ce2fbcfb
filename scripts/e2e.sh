#!/usr/bin/env bash
# make e2e: the end-to-end tests against real downstream servers (package
# e2e, build tag e2e): the openstack-group module applied against a real
# Keystone on PostgreSQL, through the sandbox's webhooks and joinit-relay.
# A machine without Keystone or PostgreSQL is told what to install and
# fails: CI installs them (scripts/install-e2e-servers.sh), so it never
# skips this. E2E_RUN picks tests by name (go test -run).
set -euo pipefail
cd "$(dirname "$0")/.."

bash e2e/servers.sh check # says what to install, and how, when a server is missing
export TF_ACC_TERRAFORM_PATH=${TF_ACC_TERRAFORM_PATH:-$(command -v terraform)}
go vet -tags e2e ./e2e
go test -tags e2e ./e2e -run "${E2E_RUN:-^Test}" -count=1 -v -timeout 15m "$@"
