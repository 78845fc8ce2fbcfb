//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// syncScript is one sync run, as the relay's command backend (and a
// schedule) starts it: it points the provider at the sandbox whose URL is
// in DIR/url when it starts (a step of the test swaps it), applies, and
// records the run in DIR/runs.log as "N START END EXIT", times in Unix
// seconds. A run that finds another still holding DIR/run.lock records an
// overlap in DIR/overlaps and fails: the relay promises that two never
// overlap.
const syncScript = `#!/usr/bin/env bash
set -uo pipefail
w=%[1]q
exec 9>"$w/run.lock"
if ! flock -n 9; then
  date +%%s.%%N >>"$w/overlaps"
  exit 1
fi
n=$(( $(cat "$w/runs.log" 2>/dev/null | wc -l) + 1 ))
start=$(date +%%s.%%N)
JOINIT_BASE_URL=$(cat "$w/url") %[2]q -chdir=%[3]q apply -auto-approve -input=false -no-color \
  -var organization_id=%[4]q -var max_removals=%[5]d >"$w/apply-$n.log" 2>&1
code=$?
echo "$n $start $(date +%%s.%%N) $code" >>"$w/runs.log"
cat "$w/apply-$n.log"
exit $code
`

// syncRun is one line of runs.log.
type syncRun struct {
	n          int
	start, end time.Time
	exit       int
}

// syncWork is the directory of the sync script, its runs and its
// Terraform configuration.
type syncWork struct {
	t                  testing.TB
	dir, tfDir, script string
	terraform          string
	env                []string
}

// gitSource is a module source of this repository as a copy of the root
// configuration names it, at a tag; localSource puts the copy's own module
// in its place.
var gitSource = regexp.MustCompile(`"github\.com/joinit-community/terraform-provider-joinit//examples/(modules/[^"?]+)(\?ref=[^"]*)?"`)

const localSource = `"../../$1"`

// newSyncWork copies examples/use-cases/keystone-group-sync, the module it
// uses and the module that one calls (member-sync) into dir, points the
// configuration's module source (a git address at a tag, as a user copies
// it) at the copy, installs the modules (terraform get: with every
// provider a dev override, init would ask the registry for their
// versions), and writes the sync script.
func newSyncWork(t testing.TB, dir, terraform, organizationID string, maxRemovals int, env []string) *syncWork {
	t.Helper()
	root := repoRoot(t)
	for _, p := range []string{"use-cases/keystone-group-sync", "modules/openstack-group", "modules/member-sync"} {
		dst := filepath.Join(dir, "examples", p)
		if err := os.CopyFS(dst, os.DirFS(filepath.Join(root, "examples", p))); err != nil {
			t.Fatal(err)
		}
	}
	w := &syncWork{t: t, dir: dir, tfDir: filepath.Join(dir, "examples", "use-cases", "keystone-group-sync"), terraform: terraform, env: env}
	_ = os.RemoveAll(filepath.Join(w.tfDir, "tests"))
	mainTF := filepath.Join(w.tfDir, "main.tf")
	b, err := os.ReadFile(mainTF)
	if err != nil {
		t.Fatal(err)
	}
	if !gitSource.Match(b) {
		t.Fatalf("%s names no module of this repository by its git address", mainTF)
	}
	if err := os.WriteFile(mainTF, gitSource.ReplaceAll(b, []byte(localSource)), 0o600); err != nil {
		t.Fatal(err)
	}
	w.script = filepath.Join(dir, "sync.sh")
	body := fmt.Sprintf(syncScript, dir, terraform, w.tfDir, organizationID, maxRemovals)
	if err := os.WriteFile(w.script, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := w.terraformCmd("get", "-no-color").CombinedOutput(); err != nil {
		t.Fatalf("terraform get: %v\n%s", err, out)
	}
	return w
}

// useSandbox points the next runs at a sandbox.
func (w *syncWork) useSandbox(url string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.dir, "url"), []byte(url), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// run runs the sync script as a schedule would, outside the relay.
func (w *syncWork) run() (time.Duration, error) {
	began := time.Now()
	cmd := exec.Command(w.script)
	cmd.Env = w.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("%w\n%s", err, out)
	}
	return time.Since(began), nil
}

// terraformCmd is terraform in the configuration's directory, with the
// sync's environment (the sandbox of DIR/url).
func (w *syncWork) terraformCmd(args ...string) *exec.Cmd {
	url, _ := os.ReadFile(filepath.Join(w.dir, "url"))
	cmd := exec.Command(w.terraform, append([]string{"-chdir=" + w.tfDir}, args...)...)
	cmd.Env = append(append([]string{}, w.env...), "JOINIT_BASE_URL="+string(url))
	return cmd
}

// runs are the runs so far, in order.
func (w *syncWork) runs() []syncRun {
	w.t.Helper()
	b, err := os.ReadFile(filepath.Join(w.dir, "runs.log"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		w.t.Fatal(err)
	}
	var runs []syncRun
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 4 {
			w.t.Fatalf("runs.log: %q", sc.Text())
		}
		var r syncRun
		r.n, _ = strconv.Atoi(f[0])
		r.start, r.end = unixTime(f[1]), unixTime(f[2])
		r.exit, _ = strconv.Atoi(f[3])
		runs = append(runs, r)
	}
	return runs
}

// applyLog is the output of run n.
func (w *syncWork) applyLog(n int) string {
	b, _ := os.ReadFile(filepath.Join(w.dir, fmt.Sprintf("apply-%d.log", n)))
	return string(b)
}

// overlaps says when a run found another still running; empty is right.
func (w *syncWork) overlaps() string {
	b, _ := os.ReadFile(filepath.Join(w.dir, "overlaps"))
	return string(b)
}

func unixTime(s string) time.Time {
	f, _ := strconv.ParseFloat(s, 64)
	return time.Unix(0, int64(f*1e9))
}
