#!/usr/bin/env bash
# make release-check: prove that the provider installs the way users install
# it. GoReleaser (pinned in tools/goreleaser) checks .goreleaser.yml and
# builds an unsigned snapshot release of this machine's platform from it;
# releasecheck verifies the names the registry expects (binary, zip,
# SHA256SUMS, manifest); the zip goes into a packed filesystem mirror; a CLI
# configuration that allows only that mirror lets a real `terraform init`
# install it into a configuration with a local module, and `terraform plan`
# reads the sandbox through it. The lock file must hold the zip's hashes.
#
# Terraform is TF_ACC_TERRAFORM_PATH, else the terraform on PATH; point it at
# tofu to run the same check under OpenTofu (registry.opentofu.org).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work="$root/.release-check"
goreleaser="$root/.tools/goreleaser"
tf=${TF_ACC_TERRAFORM_PATH:-$(command -v terraform || true)}
[ -x "$tf" ] || { echo "release-check: no terraform (set TF_ACC_TERRAFORM_PATH or put terraform on PATH)" >&2; exit 1; }
cd "$root"

# GoReleaser is built once into .tools/ and rebuilt only when the version
# pinned in tools/goreleaser/go.mod changes.
pinned=$(cd tools/goreleaser && go list -m -f '{{.Version}}' github.com/goreleaser/goreleaser/v2)
built=$(go version -m "$goreleaser" 2>/dev/null | awk '($1 == "mod" || $1 == "dep") && $2 == "github.com/goreleaser/goreleaser/v2" { print $3 }' || true)
if [ "$built" != "$pinned" ]; then
  echo "==> building GoReleaser $pinned into .tools/ (once; a few minutes)"
  (cd tools/goreleaser && go build -o "$goreleaser" github.com/goreleaser/goreleaser/v2)
fi

rm -rf "$work"
mkdir -p "$work/config/modules/members"

echo "==> goreleaser check"
"$goreleaser" check

echo "==> snapshot release of $(go env GOOS)_$(go env GOARCH) from .goreleaser.yml (unsigned)"
(
  cd tools/goreleaser
  if ! go test ./releasecheck -count=1 >"$work/releasecheck-test.log" 2>&1; then
    cat "$work/releasecheck-test.log" >&2
    exit 1
  fi
  go build -o "$work/releasecheck" ./releasecheck
)
"$work/releasecheck" host-config -in .goreleaser.yml -out "$work/goreleaser.host.yml" -dist "$work/dist"
"$goreleaser" release --snapshot --clean --skip=sign --config "$work/goreleaser.host.yml" >"$work/goreleaser.log" 2>&1 || {
  cat "$work/goreleaser.log" >&2
  exit 1
}
version=$(sed -n 's/.*"version":"\([^"]*\)".*/\1/p' "$work/dist/metadata.json")
[ -n "$version" ] || { echo "release-check: no version in $work/dist/metadata.json" >&2; exit 1; }
echo "    version $version"
"$work/releasecheck" verify -dist "$work/dist" -manifest terraform-registry-manifest.json | sed 's/^/    /'

host=registry.terraform.io
# Its first line, without a pipe: head would exit after one line, and
# terraform, still writing the next, would die of SIGPIPE, which pipefail
# makes this script's failure (seen: exit 141, once in ten CI runs).
tf_version=$("$tf" version 2>/dev/null)
tf_version=${tf_version%%$'\n'*}
if [[ $tf_version == OpenTofu* ]]; then host=registry.opentofu.org; fi
addr="$host/joinit-community/joinit"

# Terraform's packed mirror layout: HOSTNAME/NAMESPACE/TYPE/<the release zip>.
mirror="$work/mirror"
mkdir -p "$mirror/$addr"
cp "$work"/dist/terraform-provider-joinit_"${version}"_*.zip "$mirror/$addr/"

# Only the mirror: no direct block, so nothing can come from a registry.
cat >"$work/cli.tfrc" <<TFRC
provider_installation {
  filesystem_mirror {
    path    = "$mirror"
    include = ["$addr"]
  }
}
TFRC

cat >"$work/config/main.tf" <<TF
terraform {
  required_providers {
    joinit = {
      source  = "joinit-community/joinit"
      version = "$version"
    }
  }
}

provider "joinit" {}

data "joinit_memberships" "active" {
  status          = 100
  include_records = false
}

module "members" {
  source = "./modules/members"
  emails = data.joinit_memberships.active.emails
}

output "active_member_count" {
  value = module.members.count
}
TF
cat >"$work/config/modules/members/main.tf" <<'TF'
variable "emails" {
  type = list(string)
}

output "count" {
  value = length(var.emails)
}
TF

echo "==> sandbox"
# shellcheck source=scripts/sandbox.sh
. "$root/scripts/sandbox.sh"
start_sandbox "$work" -v
sandbox_url=$(cat "$work/url")

export TF_CLI_CONFIG_FILE="$work/cli.tfrc" TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1
export JOINIT_BASE_URL=$sandbox_url JOINIT_ACCESS_TOKEN=sandbox-token
unset JOINIT_ORGANIZATION_ID # a user's own would refuse the sandbox's records
unset TF_PLUGIN_CACHE_DIR TF_CLI_ARGS TF_CLI_ARGS_init TF_CLI_ARGS_plan

echo "==> $tf_version: init from the mirror only"
"$tf" -chdir="$work/config" init -input=false -no-color >"$work/init.log" 2>&1 || { cat "$work/init.log" >&2; exit 1; }
grep -E "Installed joinit-community/joinit|members in modules/members" "$work/init.log" | sed 's/^/    /' || true

"$work/releasecheck" verify -dist "$work/dist" -lock "$work/config/.terraform.lock.hcl" -host "$host" | sed 's/^/    /'

echo "==> plan against the sandbox"
"$tf" -chdir="$work/config" plan -input=false -no-color >"$work/plan.log" 2>&1 || { cat "$work/plan.log" >&2; exit 1; }
grep -q '/memberships?.*status=100' "$work/sandbox.log" || { cat "$work/plan.log" "$work/sandbox.log" >&2; echo "release-check: the plan did not read the sandbox" >&2; exit 1; }
grep -E 'active_member_count' "$work/plan.log" | sed 's/^ */    /'
echo "release-check: ok ($version, $host, $tf_version)"
