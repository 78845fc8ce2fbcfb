#!/usr/bin/env bash
# make demo-relay: offboarding in minutes, offline. It builds the provider,
# the sandbox and joinit-relay; applies examples/relay-demo against the
# sandbox; starts the relay with a command backend that applies the same
# configuration; starts the sandbox sending its webhooks to the relay;
# cancels one member through the sandbox; and prints the timeline until that
# member is gone from the applied state. Everything is stopped however the
# script ends.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=${DEMO_DIR:-$root/.demo-relay}
quiet=${QUIET_PERIOD:-5s}
tf=${TF_ACC_TERRAFORM_PATH:-terraform} # terraform, or tofu
rm -rf "$work"
mkdir -p "$work/bin" "$work/tf" "$work/state"

echo "==> building the provider, the sandbox and joinit-relay"
(cd "$root" && go build -o "$work/bin/terraform-provider-joinit" . &&
  go build -o "$work/bin/joinit-relay" ./cmd/joinit-relay)
"$work/bin/terraform-provider-joinit" -dev-overrides >"$work/dev.tfrc"
cp "$root"/examples/relay-demo/*.tf "$work/tf/"
export TF_CLI_CONFIG_FILE="$work/dev.tfrc" TF_IN_AUTOMATION=1 JOINIT_ACCESS_TOKEN=sandbox-token

# The sync run: what a scheduled CI job runs, and what the relay starts.
# JOINIT_BASE_URL is read when it runs: the sandbox starts after the relay.
cat >"$work/sync.sh" <<SYNC
#!/usr/bin/env bash
set -euo pipefail
export JOINIT_BASE_URL=\$(cat "$work/url")
"$tf" -chdir="$work/tf" apply -auto-approve -input=false -no-color >"$work/apply.log" 2>&1
"$tf" -chdir="$work/tf" output -json member_ids >"$work/applied.json.tmp"
mv "$work/applied.json.tmp" "$work/applied.json"
SYNC
chmod +x "$work/sync.sh"

relay_pid=""
sandbox_pid=""
stop_all() {
  for p in $relay_pid $sandbox_pid; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop_all EXIT

echo "==> starting joinit-relay (quiet period $quiet, command backend)"
export JOINIT_RELAY_SECRET
JOINIT_RELAY_SECRET=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
"$work/bin/joinit-relay" -listen 127.0.0.1:0 -state-dir "$work/state" -quiet-period "$quiet" \
  -run-command "$work/sync.sh" >"$work/relay.log" 2>&1 &
relay_pid=$!
relay_addr=""
for _ in $(seq 1 100); do
  relay_addr=$(sed -n 's/.*msg=listening addr=\([^ ]*\).*/\1/p' "$work/relay.log" | head -1)
  [ -n "$relay_addr" ] && break
  sleep 0.1
done
[ -n "$relay_addr" ] || { cat "$work/relay.log" >&2; echo "joinit-relay did not start" >&2; exit 1; }
echo "    relay at http://$relay_addr/hooks/<secret>"

echo "==> starting the sandbox, sending its webhooks to the relay"
# shellcheck source=scripts/sandbox.sh
. "$root/scripts/sandbox.sh"
cd "$root"
start_sandbox "$work" -seed 42 -memberships 250 -webhook-url "http://$relay_addr/hooks/$JOINIT_RELAY_SECRET"
trap stop_all EXIT # start_sandbox set a trap of its own
sandbox_url=$(cat "$work/url")
echo "    sandbox at $sandbox_url"

echo "==> the first sync (as the schedule would run it)"
"$work/sync.sh" || { cat "$work/apply.log" >&2; exit 1; }
member=$(sed -n 's/^\["\([^"]*\)".*/\1/p' "$work/applied.json")
echo "    $(tr ',' '\n' <"$work/applied.json" | grep -c '"') members have access; cancelling $member"

# Milliseconds: bash 5's EPOCHREALTIME, else whole seconds (macOS's bash 3.2
# and its date have neither %N nor EPOCHREALTIME).
now_ms() {
  if [ -n "${EPOCHREALTIME:-}" ]; then
    local us=${EPOCHREALTIME/[.,]/}
    echo $((us / 1000))
  else
    echo $(($(date +%s) * 1000))
  fi
}
began=$(now_ms)
elapsed() {
  local ms=$(($(now_ms) - began))
  printf '%4d.%ds' $((ms / 1000)) $((ms % 1000 / 100))
}
answer=$(curl -sS -X POST -H "Authorization: Bearer $JOINIT_ACCESS_TOKEN" "$sandbox_url/sandbox/memberships/$member/cancel")
echo "$(elapsed)  the sandbox cancelled $member and sent: $(echo "$answer" | grep -o '"event":"[^"]*","attempts":[0-9]*,"status":[0-9]*' | sed 's/"event":"\([^"]*\)","attempts":\([0-9]*\),"status":\([0-9]*\)/\1 -> \3/' | paste -sd, -)"

seen=0
removed=""
for _ in $(seq 1 600); do
  # The relay's own lines, as they come (its log names events and ids only).
  lines=$(grep -c . "$work/relay.log" || true)
  if [ "$lines" -gt "$seen" ]; then
    sed -n "$((seen + 1)),${lines}p" "$work/relay.log" | grep -E 'webhook|sync run' | sed "s/^time=[^ ]* /$(elapsed)  relay: /" || true
    seen=$lines
  fi
  if ! grep -q "\"$member\"" "$work/applied.json"; then
    echo "$(elapsed)  $member is gone from the applied state ($(tr ',' '\n' <"$work/applied.json" | grep -c '"') members have access)"
    removed=yes
    break
  fi
  sleep 0.2
done
# The script ends on its success, not on an exit: shellcheck 0.9 takes a
# script's last exit to make stop_all (run by the trap) unreachable.
if [ -z "$removed" ]; then
  echo "the member was not removed within 2 minutes; relay log:" >&2
  cat "$work/relay.log" >&2
  exit 1
fi
echo "==> done: removed within the quiet period ($quiet) plus one apply"
