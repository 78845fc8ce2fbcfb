#!/usr/bin/env bash
# make image-check (CI runs it): builds the joinit-relay image
# (scripts/image.sh) and runs the real binary in it with podman, checking
# what an operator relies on: it runs as a user other than root, /data is
# the relay's with mode 0700 (in the image and in a new volume), it has no
# shell (so -run-command is refused at start), the secret comes from the
# environment, a webhook is answered 202, an owed run is kept across a
# container's restart on the same volume, volumes as clusters mount them
# (fsGroup, emptyDir, without fsGroup, another runAsUser) started or
# refused with the manifest's fix, and a rolling update (two containers on
# one volume at once) loses no webhook. Needs podman and runc
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
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port)
secret=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
containers=()
volumes=()
created=""
fake_pid=""
runs_file=""
cleanup() {
  [ -z "$fake_pid" ] || kill "$fake_pid" 2>/dev/null || true
  [ -z "$runs_file" ] || rm -f "$runs_file"
  [ -z "$created" ] || "${podman[@]}" rm -f -v "$created" >/dev/null 2>&1 || true
  for c in "${containers[@]}"; do "${podman[@]}" rm -f "$c" >/dev/null 2>&1 || true; done
  for v in "$volume" "${volumes[@]}"; do "${podman[@]}" volume rm -f "$v" >/dev/null 2>&1 || true; done
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
# relay_container NAME PORT VOLUME ARGS...: the relay in a container on
# PORT with VOLUME as /data, once it answers /healthz.
relay_container() {
  local name=$1 port=$2 volume=$3
  shift 3
  containers+=("$name")
  "${run[@]}" -d --name "$name" -e JOINIT_RELAY_SECRET="$secret" -e PORT="$port" -e TFE_TOKEN=check \
    -v "$volume:/data" "$tag" -tfe-workspace ws-check "$@" >/dev/null
  for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && return 0
    sleep 0.1
  done
  "${podman[@]}" logs "$name" >&2
  fail "the relay in container $name did not answer /healthz"
}
webhook() { curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
  -d '{"_id":"5f1b2c3d4e5f60718293a4b5","webhook_event_type":"memberships.inactive"}' "http://127.0.0.1:$1/hooks/$secret"; }
health_of() { curl -s "http://127.0.0.1:$1/healthz"; }
start() { relay_container "relay-check-$$-$1" "$port" "$volume" -quiet-period 1h -max-delay 1h; }
start 1
# The volume took /data's mode: the relay accepts 0755 too, so only this tells.
vmode=$(stat -c %a "$("${podman[@]}" volume inspect --format '{{.Mountpoint}}' "$volume")")
[ "$vmode" = 700 ] || fail "a new volume on /data has mode $vmode, want 700"
status=$(webhook "$port")
[ "$status" = 202 ] || fail "a webhook answered $status, want 202"
before=$(health_of "$port")
"${podman[@]}" kill "${containers[0]}" >/dev/null
"${podman[@]}" wait "${containers[0]}" >/dev/null || true
start 2
after=$(health_of "$port")
owed() { sed -n 's/.*"owed_since":"\([^"]*\)".*/\1/p' <<<"$1"; }
if [ -z "$(owed "$before")" ] || [ "$(owed "$before")" != "$(owed "$after")" ]; then
  fail "the owed run was not kept across the restart: before $before, after $after"
fi
echo "image-check: a new volume on /data has mode 700; 202, and the owed run kept across a container's restart on its volume (owed since $(owed "$after"))"

# Volumes as clusters leave them at /data (issue 63), each a prepared
# directory with the owner and mode a cluster gives it, and the relay run
# as the image's user unless a row says otherwise. A row that starts
# answers a webhook; one that is refused must say the manifest's fix.
[ "$(id -u)" = 0 ] || fail "the volume checks give directories to other users (chown): run as root, as CI does"
vols=""
trap 'cleanup; [ -z "$vols" ] || rm -rf "$vols"' EXIT
vols=$(mktemp -d)
vport=$(free_port) # the containers above still hold $port
chmod 755 "$vols"
# volume_dir NAME OWNER MODE: a volume's root.
volume_dir() { mkdir "$vols/$1" && chown "$2" "$vols/$1" && chmod "$3" "$vols/$1" && echo "$vols/$1"; }
# refused DIR WANT [PODMAN RUN FLAGS]: the relay on DIR exits 1 saying
# WANT; prints what it said. A relay that starts instead is stopped after
# 60 s (timeout's exit 124 then fails the row).
refused() {
  local dir=$1 want=$2 out code=0 name
  shift 2
  name="relay-refused-$$-${#containers[@]}"
  containers+=("$name")
  out=$(timeout 60 "${run[@]}" --rm --name "$name" "$@" -e JOINIT_RELAY_SECRET="$secret" -e PORT="$vport" -e TFE_TOKEN=check \
    -v "$dir:/data" "$tag" -tfe-workspace ws-check 2>&1) || code=$?
  { [ "$code" = 1 ] && grep -qF -- "$want" <<<"$out"; } || fail "on $dir the relay exited $code, want 1 saying '$want': $out"
  sed -n 's/.*problem="\(.*\)"$/\1/p' <<<"$out" | sed "s|$vols/||g"
}
# kubelet_applies_fs_group DIR: what the kubelet does to a volume with
# fsGroup 65532 at each mount: everything its group's, group-writable,
# directories setgid.
kubelet_applies_fs_group() { chgrp -R 65532 "$1" && chmod -R g+rwX "$1" && find "$1" -type d -exec chmod g+s {} +; }
# owned_alone DIR: DIR/relay and its files are the relay's user's alone.
owned_alone() {
  local bad
  bad=$(find "$1/relay" \( -perm /077 -o ! -user 65532 \) -printf '%p %m %u\n')
  [ -z "$bad" ] || fail "after a start, not the relay's alone: $bad"
}
# started_on DIR NAME: the relay on DIR answers a webhook 202, then stops.
started_on() {
  relay_container "$2" "$vport" "$1" -quiet-period 1h -max-delay 1h
  [ "$(webhook "$vport")" = 202 ] || fail "on $1 a webhook was not answered 202"
  "${podman[@]}" stop -t 45 "$2" >/dev/null
  owned_alone "$1"
}

# (Each refusal is assigned before it is printed: set -e stops the check
# on a failed assignment, not on a failed substitution inside echo.)
nofsgroup=$(volume_dir nofsgroup 0:0 0755)
said=$(refused "$nofsgroup" "give the pod securityContext.fsGroup: 65532")
echo "image-check: a fresh volume without fsGroup (root, 0755): refused: $said"
fsgroup=$(volume_dir fsgroup 0:65532 2775)
relay_container "relay-fsgroup-$$" "$vport" "$fsgroup" -quiet-period 1h -max-delay 1h
[ "$(webhook "$vport")" = 202 ] || fail "on a volume with fsGroup (2775) a webhook was not answered 202"
before=$(health_of "$vport")
"${podman[@]}" kill "relay-fsgroup-$$" >/dev/null
"${podman[@]}" wait "relay-fsgroup-$$" >/dev/null || true
owned_alone "$fsgroup"
echo "image-check: a fresh volume with fsGroup (root:65532, 2775): started, 202"
kubelet_applies_fs_group "$fsgroup"
reused_mode=$(stat -c %a "$fsgroup/relay")
[ "$reused_mode" = 2770 ] || fail "the kubelet's fsGroup, as this check applies it, left relay/ $reused_mode, want 2770"
relay_container "relay-fsgroup-again-$$" "$vport" "$fsgroup" -quiet-period 1h -max-delay 1h
after=$(health_of "$vport")
if [ -z "$(owed "$before")" ] || [ "$(owed "$before")" != "$(owed "$after")" ]; then
  fail "the owed run was not kept across a replaced container after the kubelet applied fsGroup: before $before, after $after"
fi
"${podman[@]}" stop -t 45 "relay-fsgroup-again-$$" >/dev/null
owned_alone "$fsgroup"
echo "image-check: the same volume after the kubelet applies fsGroup again (relay/ $reused_mode, its files 660): started in a replaced container, the owed run kept (owed since $(owed "$after")), relay/ 700 again"
said=$(refused "$fsgroup" "belongs to uid 65532, not to the relay's user (uid 1000)" --user 1000:65532)
echo "image-check: runAsUser 1000 on that volume: refused: $said"
reused=$(volume_dir reused 65532:65532 2770)
mkdir -m 2770 "$reused/relay" && chown 65532:65532 "$reused/relay"
started_on "$reused" "relay-reused-$$"
echo "image-check: a reused volume of the relay's (65532, 2770; relay/ 2770): started, 202"
emptydir=$(volume_dir emptydir 0:0 0777)
started_on "$emptydir" "relay-emptydir-$$"
echo "image-check: emptyDir (root, 0777): started, 202"

# A rolling update: the new container starts on the volume before the old
# one stops, and takes a webhook while the old one's start is in progress
# (a fake HCP Terraform on loopback holds its first run's request 6 s, and
# logs when it answers each). The old container's success must not clear
# the new one's webhook: it serves it too, as the new container's quiet
# period is an hour (so only the shared record can bring its webhook a
# run). The new container then sees nothing owed.
rolling=joinit-relay-rolling-$$
volumes+=("$rolling")
"${podman[@]}" volume create "$rolling" >/dev/null
fake_port=$(free_port)
runs_file=$(mktemp)
python3 - "$fake_port" "$runs_file" <<'PY' &
import http.server, os, sys, time
class Fake(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if os.path.getsize(sys.argv[2]) == 0:
            time.sleep(6)
        self.send_response(201)
        self.send_header("Content-Type", "application/vnd.api+json")
        self.end_headers()
        self.wfile.write(b'{"data":{"id":"run-check","type":"runs"}}')
        self.wfile.flush()
        with open(sys.argv[2], "a") as f:
            f.write("%.3f %s\n" % (time.time(), self.path))
    def log_message(self, *args):
        pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Fake).serve_forever()
PY
fake_pid=$!
old_port=$(free_port) new_port=$(free_port)
relay_container "relay-old-$$" "$old_port" "$rolling" -quiet-period 1s -max-delay 1h -tfe-address "http://127.0.0.1:$fake_port"
[ "$(webhook "$old_port")" = 202 ] || fail "the old container did not answer 202"
for _ in $(seq 1 50); do health_of "$old_port" | grep -q '"starting":true' && break; sleep 0.1; done
health_of "$old_port" | grep -q '"starting":true' || fail "the old container's start did not begin: $(health_of "$old_port")"
relay_container "relay-new-$$" "$new_port" "$rolling" -quiet-period 1h -max-delay 1h -tfe-address "http://127.0.0.1:$fake_port"
second=$(date +%s.%N)
[ "$(webhook "$new_port")" = 202 ] || fail "the new container did not answer 202"
[ ! -s "$runs_file" ] || fail "the old container's start ended before the new container's webhook: the check's timing did not hold"
for _ in $(seq 1 300); do
  [ "$(awk -v t="$second" '$1 >= t' "$runs_file" | wc -l)" -ge 2 ] && health_of "$new_port" | grep -q '"run_owed":false' && break
  sleep 0.1
done
"${podman[@]}" stop -t 45 "relay-old-$$" >/dev/null
runs=$(wc -l <"$runs_file")
[ "$runs" = 2 ] || fail "the rolling update asked for $runs run(s), want 2: the old container's, and one for the new container's webhook during it"
health=$(health_of "$new_port")
grep -q '"run_owed":false' <<<"$health" || fail "after the rolling update a run is still owed: $health"
echo "image-check: a rolling update on one volume: a webhook to the new container during the old one's start was served by a second run; nothing owed after the old container stopped"
