# shellcheck shell=bash
# Sourced by the scripts that plan against the API sandbox (demo.sh,
# relay-demo.sh, release-check.sh): start_sandbox DIR [FLAGS...] builds
# joinit-sandbox into DIR, starts it on a free loopback port with FLAGS,
# stops it when the script exits, and returns once the sandbox has written
# its base URL to DIR/url (read it from there); the sandbox's stderr is
# DIR/sandbox.log.
start_sandbox() {
  local dir=$1
  shift
  go build -o "$dir/joinit-sandbox" ./cmd/joinit-sandbox
  "$dir/joinit-sandbox" -addr 127.0.0.1:0 -url-file "$dir/url" "$@" >/dev/null 2>"$dir/sandbox.log" &
  sandbox_pid=$!
  trap 'kill "$sandbox_pid" 2>/dev/null || true; wait "$sandbox_pid" 2>/dev/null || true' EXIT
  for _ in $(seq 1 100); do
    [ -s "$dir/url" ] && break
    kill -0 "$sandbox_pid" 2>/dev/null || { cat "$dir/sandbox.log" >&2; echo "the sandbox did not start" >&2; exit 1; }
    sleep 0.1
  done
  [ -s "$dir/url" ] || { echo "the sandbox did not report its address" >&2; exit 1; }
}
