#!/usr/bin/env bash
# make image-check (CI runs it): builds the joinit-relay image
# (scripts/image.sh) and runs the real binary in it with podman, checking
# what an operator relies on: it runs as a user other than root, /data is
# the relay's with mode 0700 (in the image and in a new volume), it has no
# shell (so -run-command is refused at start), the secret comes from the
# environment, a webhook is answered 202, and an owed run is kept across a
# container's restart on the same volume. Needs podman and runc
# (scripts/install-image-tools.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
for c in podman runc; do
  command -v "$c" >/dev/null || { echo "image-check: $c is missing; install it with: sudo bash scripts/install-image-tools.sh" >&2; exit 1; }
done

tag=localhost/joinit-relay:check-$$
volume=joinit-relay-check-$$
# runc and cgroupfs: crun fails on this machine's rlimits and hybrid
# cgroups; host networking: the check reaches the relay on loopback.
podman=(podman --runtime runc --cgroup-manager cgroupfs)
run=("${podman[@]}" run --ulimit nofile=1024:1024 --ulimit nproc=1000:1000 --network host)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
secret=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
containers=()
created=""
cleanup() {
  [ -z "$created" ] || "${podman[@]}" rm -f -v "$created" >/dev/null 2>&1 || true
  for c in "${containers[@]}"; do "${podman[@]}" rm -f "$c" >/dev/null 2>&1 || true; done
  "${podman[@]}" volume rm -f "$volume" >/dev/null 2>&1 || true
  "${podman[@]}" rmi -f "$tag" >/dev/null 2>&1 || true
}
trap cleanup EXIT
fail() { echo "image-check: $*" >&2; exit 1; }

bash scripts/image.sh "$tag"

user=$("${podman[@]}" image inspect --format '{{.Config.User}}' "$tag")
[ "$user" = 65532:65532 ] || fail "the image runs as '$user', want 65532:65532"
# /data as the image holds it (a named volume mounted there starts with its
# owner and mode): read from a container's file system, as no shell runs in it.
created=$("${podman[@]}" create "$tag")
data=$("${podman[@]}" export "$created" | tar --numeric-owner -tvf - | awk '$NF == "data/" || $NF == "./data/" { print $1, $2 }')
"${podman[@]}" rm -v "$created" >/dev/null
[ "$data" = "drwx------ 65532/65532" ] || fail "/data in the image is '$data', want drwx------ 65532/65532 (mode 0700, the relay's user)"
if "${run[@]}" --rm --entrypoint /bin/sh "$tag" -c true >/dev/null 2>&1; then
  fail "the image has a shell"
fi
out=$("${run[@]}" --rm -e JOINIT_RELAY_SECRET="$secret" "$tag" -run-command true 2>&1 || true)
grep -q 'which this system lacks' <<<"$out" || fail "-run-command in the image: $out"
out=$("${run[@]}" --rm -e PORT="$port" "$tag" -tfe-workspace ws-check 2>&1 || true)
grep -q 'JOINIT_RELAY_SECRET is not set' <<<"$out" || fail "without the secret: $out"
echo "image-check: runs as 65532, /data 0700 and its own, no shell, -run-command refused, the secret required"

"${podman[@]}" volume create "$volume" >/dev/null
start() {
  local name=relay-check-$$-$1
  containers+=("$name")
  "${run[@]}" -d --name "$name" -e JOINIT_RELAY_SECRET="$secret" -e PORT="$port" -e TFE_TOKEN=check \
    -v "$volume:/data" "$tag" -quiet-period 1h -max-delay 1h -tfe-workspace ws-check >/dev/null
  for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && return 0
    sleep 0.1
  done
  "${podman[@]}" logs "$name" >&2
  fail "the relay in the container did not answer /healthz"
}
start 1
# The volume took /data's mode: the relay accepts 0755 too, so only this tells.
vmode=$(stat -c %a "$("${podman[@]}" volume inspect --format '{{.Mountpoint}}' "$volume")")
[ "$vmode" = 700 ] || fail "a new volume on /data has mode $vmode, want 700"
status=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
  -d '{"_id":"5f1b2c3d4e5f60718293a4b5","webhook_event_type":"memberships.inactive"}' "http://127.0.0.1:$port/hooks/$secret")
[ "$status" = 202 ] || fail "a webhook answered $status, want 202"
before=$(curl -s "http://127.0.0.1:$port/healthz")
"${podman[@]}" kill "${containers[0]}" >/dev/null
"${podman[@]}" wait "${containers[0]}" >/dev/null || true
start 2
after=$(curl -s "http://127.0.0.1:$port/healthz")
owed() { sed -n 's/.*"owed_since":"\([^"]*\)".*/\1/p' <<<"$1"; }
if [ -z "$(owed "$before")" ] || [ "$(owed "$before")" != "$(owed "$after")" ]; then
  fail "the owed run was not kept across the restart: before $before, after $after"
fi
echo "image-check: a new volume on /data has mode 700; 202, and the owed run kept across a container's restart on its volume (owed since $(owed "$after"))"
