#!/usr/bin/env bash
# Records the Terraform schema of a provider a sync module in
# examples/modules requires, as tools/recorded-provider/schemas/NAME.json,
# which the stand-in provider there serves to tests offline.
#
#   scripts/record-schema.sh NAME BINARY VERSION COMMIT
#
# NAME is okta, azuread, googleworkspace or slack. BINARY is that provider,
# already built: this script builds nothing. A maintainer gets one by
# building the provider from its public source (the repository below) at the
# tag of VERSION, which the module's version constraint must allow, e.g.
# `go build -o /tmp/okta/terraform-provider-okta .` in a checkout of okta's
# v6.12.0; the file must be named terraform-provider-TYPE, as Terraform looks
# for it. COMMIT is the 40-hex commit that tag points at (`git rev-parse
# v6.12.0^{commit}`).
#
# Needs terraform and jq; CI does not run it. The module's required_providers
# is the authority for the provider's address; the file keeps only the types
# the module and its root example use (the example's import target), without
# descriptions (another project's prose is not ours to copy; the interface is
# a fact). TestModulesAllowTheRecordedVersion fails while a module's
# constraint does not allow VERSION.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

[ $# -eq 4 ] || { echo "usage: record-schema.sh okta|azuread|googleworkspace|slack BINARY VERSION COMMIT" >&2; exit 2; }
name=$1 binary=$2 version=$3 commit=$4
case $name in
okta) module=okta-group repo=https://github.com/okta/terraform-provider-okta ;;
azuread) module=entra-id-group repo=https://github.com/hashicorp/terraform-provider-azuread ;;
googleworkspace) module=google-group repo=https://github.com/SamuZad/terraform-provider-googleworkspace ;;
slack) module=slack-usergroup repo=https://github.com/pablovarela/terraform-provider-slack ;;
*) echo "record-schema.sh: unknown provider $name" >&2; exit 2 ;;
esac
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "record-schema.sh: VERSION is X.Y.Z, as the tag vX.Y.Z names it" >&2; exit 2; }
[[ $commit =~ ^[0-9a-f]{40}$ ]] || { echo "record-schema.sh: COMMIT is a full 40-hex commit id" >&2; exit 2; }
[ -x "$binary" ] || { echo "record-schema.sh: $binary is not an executable" >&2; exit 2; }
[ "$(basename "$binary")" = "terraform-provider-$name" ] || { echo "record-schema.sh: dev_overrides needs the file named terraform-provider-$name" >&2; exit 2; }
files=("$root/examples/modules/$module"/*.tf "$root/examples/use-cases/$module-sync"/*.tf)

# source from the module's `NAME = { ... }` entry in required_providers
# (one entry a line each, as the modules are written).
entry=$(sed -n "/^ *$name = {/,/}/p" "$root/examples/modules/$module/versions.tf")
source=$(sed -n 's/^ *source *= *"\([^"]*\)".*/\1/p' <<<"$entry")
if [ -z "$source" ]; then
  echo "record-schema.sh: no source for $name in examples/modules/$module/versions.tf" >&2
  exit 1
fi

# The types the module and its example use: resource and data blocks, and
# import targets (`to = module.CALL.TYPE.NAME`), of this provider (TYPE
# starts with NAME_).
resources=$( { sed -n "s/^ *resource \"\(${name}_[a-z0-9_]*\)\".*/\1/p" "${files[@]}"
  sed -n "s/^ *to *= *\(module\.[a-z0-9_]*\.\)\{0,1\}\(${name}_[a-z0-9_]*\)\..*/\2/p" "${files[@]}"; } | sort -u | jq -Rn '[inputs]')
datas=$(sed -n "s/^ *data \"\(${name}_[a-z0-9_]*\)\".*/\1/p" "${files[@]}" | sort -u | jq -Rn '[inputs]')

# With dev_overrides Terraform runs the binary as it is: no terraform init,
# no registry, no lock file. A configuration of only required_providers is
# enough for `providers schema` (checked with Terraform 1.11.4: it leaves no
# .terraform directory and no lock file).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/cli.tfrc" <<EOF
provider_installation {
  dev_overrides {
    "$source" = "$(cd "$(dirname "$binary")" && pwd)"
  }
  direct {}
}
EOF
cat >"$tmp/main.tf" <<EOF
terraform {
  required_providers {
    $name = {
      source = "$source"
    }
  }
}
EOF
# An empty environment: a plugin SDK v2 provider reports an attribute that
# is required but has an environment default (slack's token, SLACK_TOKEN)
# as optional while that variable is set, so the file would depend on the
# maintainer's shell.
tf() { (cd "$tmp" && env -i PATH="$PATH" HOME="$tmp" TF_CLI_CONFIG_FILE="$tmp/cli.tfrc" CHECKPOINT_DISABLE=1 terraform "$@"); }
tfversion=$(tf version -json | jq -r .terraform_version)
tf providers schema -json >"$tmp/schema.json"

out="$root/tools/recorded-provider/schemas/$name.json"
mkdir -p "$(dirname "$out")"
# The one provider in the output, whatever case Terraform gives its address
# (it lowers it). Every type the module uses must be there. "description"
# and "description_kind" go where their value is a string: an attribute
# named description (slack_usergroup has one) is an object and stays.
jq -S --arg version "$version" --arg repo "$repo" \
  --arg commit "$commit" --arg module "$module" --arg tf "$tfversion" \
  --argjson resources "$resources" --argjson datas "$datas" '
  (.provider_schemas | to_entries) as $p
  | if ($p | length) != 1 then error("expected one provider, got \($p | map(.key))") else $p[0] end
  | . as {key: $address, value: $s}
  | ([$resources[] | select($s.resource_schemas[.] == null)]
     + [$datas[] | select(($s.data_source_schemas // {})[.] == null)]) as $missing
  | if ($missing | length) > 0 then error("not in the schema: \($missing)") else . end
  | {
      address: $address,
      version: $version,
      source: $repo,
      tag: "v\($version)",
      commit: $commit,
      recorded_with: "terraform providers schema -json (Terraform \($tf)) on the provider built from its source at the tag; reduced by scripts/record-schema.sh to the types examples/modules/\($module) uses, descriptions removed",
      provider: $s.provider,
      resource_schemas: ($s.resource_schemas | with_entries(select(.key | IN($resources[])))),
      data_source_schemas: (($s.data_source_schemas // {}) | with_entries(select(.key | IN($datas[]))))
    }
  | walk(if type == "object"
         then with_entries(select((.key == "description" or .key == "description_kind") and (.value | type) == "string" | not))
         else . end)
' "$tmp/schema.json" >"$tmp/out.json"
mv "$tmp/out.json" "$out"
echo "record-schema.sh: $out: $(jq -c '[.address, (.resource_schemas | keys), (.data_source_schemas | keys)]' "$out")"
