#!/usr/bin/env bash
# make install-local: build the provider for this machine and put it in a
# local filesystem mirror, in Terraform's packed layout, under the version
# being developed (CHANGELOG.md's first heading), then print the CLI
# configuration that installs it. With it, `terraform init` installs the
# provider the way it installs a released one — offline, with modules, and
# writing .terraform.lock.hcl — unlike dev_overrides, which skip
# installation. Both registry hosts are laid out, so OpenTofu finds it too.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
mirror="$root/.local-mirror"
version=$(sed -n 's/^## \([0-9][0-9.]*[0-9A-Za-z.-]*\).*/\1/p' "$root/CHANGELOG.md" | head -1)
[ -n "$version" ] || { echo "install-local: no version heading (## X.Y.Z) in CHANGELOG.md" >&2; exit 1; }
command -v zip >/dev/null || { echo "install-local: needs zip on PATH" >&2; exit 1; }
goos=$(go env GOOS)
goarch=$(go env GOARCH)

# The binary and zip names the registry uses (see .goreleaser.yml).
bin="terraform-provider-joinit_v$version"
[ "$goos" = windows ] && bin="$bin.exe"
zipname="terraform-provider-joinit_${version}_${goos}_${goarch}.zip"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Say so before the build: the first one compiles every dependency.
echo "install-local: building terraform-provider-joinit $version for $goos/$goarch (the first build takes about 45 s on 2 cores; later ones seconds)..." >&2
(cd "$root" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$tmp/$bin" .)
for host in registry.terraform.io registry.opentofu.org; do
  dir="$mirror/$host/joinit-community/joinit"
  mkdir -p "$dir"
  rm -f "$dir/$zipname"
  (cd "$tmp" && zip -q -X "$dir/$zipname" "$bin")
done

# The mirror serves joinit only; every other provider still comes from its
# registry (which needs the network).
cat >"$mirror/terraform.tfrc" <<TFRC
provider_installation {
  filesystem_mirror {
    path    = "$mirror"
    include = ["registry.terraform.io/joinit-community/joinit", "registry.opentofu.org/joinit-community/joinit"]
  }
  direct {
    exclude = ["registry.terraform.io/joinit-community/joinit", "registry.opentofu.org/joinit-community/joinit"]
  }
}
TFRC

cat <<MSG
terraform-provider-joinit $version ($goos/$goarch) is in the local mirror $mirror.
Point Terraform (or OpenTofu) at it:

  export TF_CLI_CONFIG_FILE=$mirror/terraform.tfrc

then, in a configuration whose required_providers has joinit-community/joinit
at version "~> ${version%.*}" (or "$version"):

  terraform init    # offline: provider from the mirror, local modules; writes .terraform.lock.hcl
  terraform plan

A rebuild is a different package under the same version: delete
.terraform.lock.hcl and run terraform init again (the lock file refuses it,
as it should). While changing the provider, use dev_overrides instead (CONTRIBUTING.md).
MSG
