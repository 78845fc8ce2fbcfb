#!/usr/bin/env bash
# scripts/image.sh TAG [PODMAN BUILD FLAGS]: builds the joinit-relay
# container image (cmd/joinit-relay/Containerfile) with podman, tagged TAG,
# for this machine's architecture; for another, set GOARCH and pass --arch
# (nothing runs in the build, so no emulation is needed). The build context is
# made here, in a temporary directory: nothing is pulled, so it builds
# offline. VERSION sets the binary's -version (default: the dev version).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tag=${1:?usage: scripts/image.sh TAG [PODMAN BUILD FLAGS]}
shift
version=${VERSION:-$(sed -n 's/^## \([0-9][0-9.]*[0-9A-Za-z.-]*\).*/\1/p' "$root/CHANGELOG.md" | head -1)-dev+$(git -C "$root" rev-parse --short HEAD)}
bundle=${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
[ -r "$bundle" ] || { echo "image.sh: no CA bundle at $bundle (Debian's ca-certificates; or set CA_BUNDLE)" >&2; exit 1; }

ctx=$(mktemp -d)
trap 'rm -rf "$ctx"' EXIT
(cd "$root" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$ctx/joinit-relay" ./cmd/joinit-relay)
printf 'relay:x:65532:65532:joinit-relay:/data:/nonexistent\n' >"$ctx/passwd"
printf 'relay:x:65532:\n' >"$ctx/group"
cp "$bundle" "$ctx/ca-certificates.crt"
mkdir "$ctx/state" && mkdir -m 0700 "$ctx/state/data" # the Containerfile copies state/ to /
cp "$root/cmd/joinit-relay/Containerfile" "$ctx/"
# runc and cgroupfs: podman's default crun fails on some hosts' rlimits and
# hybrid cgroups (seen on CI's machines).
podman --runtime runc --cgroup-manager cgroupfs build --quiet -t "$tag" "$@" -f "$ctx/Containerfile" "$ctx" >/dev/null
echo "image.sh: built $tag ($version)"
