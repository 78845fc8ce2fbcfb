//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// startFails runs the relay on stateDir as the test's user and returns
// what it said, failing the test unless it exits with exitFailure before
// it listens.
func startFails(t *testing.T, stateDir string) string {
	t.Helper()
	started, out := startedAs(t, stateDir, nil)
	if started {
		t.Fatalf("the relay listened, want it to refuse its state directory:\n%s", out)
	}
	return out
}

func TestStateDirOthersCanWriteIsRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if out := startFails(t, dir); !strings.Contains(out, "may be written by other users (mode 0777): chmod 700") {
		t.Errorf("a directory of mode 777: %s", out)
	}
}

func TestStateDirOfAnotherUserIsRefused(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("giving a directory to another user needs root")
	}
	dir := t.TempDir()
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if out := startFails(t, dir); !strings.Contains(out, "belongs to uid 65534, not to the relay's user (uid 0) or root") {
		t.Errorf("a directory of another user: %s", out)
	}
}

func TestFIFOPlantedAsTheRecordIsRefusedAtOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, owedFile), 0o600); err != nil {
		t.Fatal(err)
	}
	if out := startFails(t, dir); !strings.Contains(out, "owed.json is not a regular file") {
		t.Errorf("a FIFO as owed.json: %s", out)
	}
}

func TestFullStateDirStopsTheRelayBeforeItListens(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("mounting a full filesystem needs root")
	}
	dir := t.TempDir()
	// A 4 KiB tmpfs, filled: the probe's write or fsync fails.
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=4k,mode=0700", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("mount tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", dir).Run() })
	_ = os.WriteFile(filepath.Join(dir, "filler"), bytes.Repeat([]byte("x"), 64<<10), 0o600)
	if out := startFails(t, dir); !strings.Contains(out, "cannot hold a record (full, or read-only?)") && !strings.Contains(out, "is not writable") {
		t.Errorf("a full directory: %s", out)
	}
}

func TestRunOutputIsNeverWrittenThroughALinkNorLeftReadable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "root-only")
	if err := os.WriteFile(victim, []byte("untouched\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, runOutputFile)); err != nil {
		t.Fatal(err)
	}
	r := startRelay(t, relayOptions{stateDir: dir}, "-quiet-period", "50ms", "-run-command", "echo ran; "+appendRun)
	post(t, r.hookURL, membership("m1", "memberships.inactive"))
	testutil.Eventually(t, "the refused start is logged", func() bool {
		return strings.Contains(r.log.String(), "last-run.log is a symbolic link, which the relay does not follow: remove it")
	})
	if b, _ := os.ReadFile(victim); string(b) != "untouched\n" {
		t.Fatalf("the relay wrote through the link: %q", b)
	}
	if r.runCount() != 0 {
		t.Fatal("the command ran with its output going nowhere safe")
	}
	// Once the link is gone, the owed run starts, its output the relay's own.
	if err := os.Remove(filepath.Join(dir, runOutputFile)); err != nil {
		t.Fatal(err)
	}
	testutil.Eventually(t, "the run starts once the link is removed", func() bool { return r.runCount() == 1 })
	if err := os.WriteFile(filepath.Join(dir, runOutputFile), []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, runOutputFile), 0o644); err != nil {
		t.Fatal(err)
	}
	post(t, r.hookURL, membership("m2", "memberships.inactive"))
	testutil.Eventually(t, "the second run", func() bool { return r.runCount() == 2 })
	fi, err := os.Stat(filepath.Join(dir, runOutputFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("last-run.log after a run over a world-readable one: %v, %v; want mode 0600", fi.Mode(), err)
	}
}

func TestCreatedStateDirIsLogged(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "new")
	r := startRelay(t, relayOptions{stateDir: dir}, "-run-command", "true")
	if !strings.Contains(r.log.String(), "created -state-dir") {
		t.Errorf("a created -state-dir is not logged:\n%s", r.log)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("created -state-dir: %v, %v; want mode 0700", fi.Mode(), err)
	}
}

// Where there is no shell (the container image), -run-command is refused
// at start, not at the first run.
func TestRunCommandWithoutAShellIsRefusedAtStart(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(relayBinary, "-state-dir", t.TempDir(), "-run-command", "true")
	cmd.Env = []string{envSecret + "=" + testSecret, "PATH=" + t.TempDir()}
	out, err := cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != exitUsage || !strings.Contains(string(out), "-run-command runs its command through sh, which this system lacks") {
		t.Errorf("-run-command without sh: %v\n%s", err, out)
	}
}
