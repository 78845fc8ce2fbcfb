#!/usr/bin/env bash
# make demo: build the provider and the sandbox, serve a seeded organization
# on a free loopback port, and run terraform over examples/demo through a
# dev_overrides CLI config, so no registry is ever asked. The sandbox is
# stopped however the script ends.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work="$root/.demo"
rm -rf "$work"
mkdir -p "$work/bin" "$work/tf"

echo "==> building the provider"
(cd "$root" && go build -o "$work/bin/terraform-provider-joinit" .)

echo "==> starting the sandbox"
# shellcheck source=scripts/sandbox.sh
. "$root/scripts/sandbox.sh"
cd "$root"
start_sandbox "$work" -seed 42 -memberships 250 -payments 120 -groups 8 -org-metrics 24
base_url=$(cat "$work/url")
echo "    sandbox at $base_url"

"$work/bin/terraform-provider-joinit" -dev-overrides >"$work/dev.tfrc"
cp "$root"/examples/demo/*.tf "$work/tf/"

export TF_CLI_CONFIG_FILE="$work/dev.tfrc"
export TF_IN_AUTOMATION=1
export JOINIT_BASE_URL="$base_url"
export JOINIT_ACCESS_TOKEN="sandbox-token"

echo "==> terraform apply (examples/demo)"
terraform -chdir="$work/tf" apply -auto-approve -input=false -no-color >"$work/apply.log" 2>&1 || {
  cat "$work/apply.log" >&2
  exit 1
}
echo "==> outputs"
terraform -chdir="$work/tf" output -no-color
