//go:build unix

package main

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// The image's user and group, which a pod's runAsUser and fsGroup name.
const volumeUID, volumeGID = 65532, 65532

// volume is a directory owned and moded as a cluster leaves a volume at
// /data, in a parent every user may enter: a test makes it as root, and
// the relay runs in it as volumeUID.
type volume struct {
	root string
}

// newVolume makes the volume's root with owner uid, group gid and mode.
func newVolume(t *testing.T, uid, gid int, mode os.FileMode) volume {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("running the relay as another user on another user's volume needs root")
	}
	// The relay's user must reach the volume: the test's directories are
	// 0700 as the testing package makes them.
	parent := t.TempDir()
	for _, d := range []string{parent, filepath.Dir(parent)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	v := volume{root: filepath.Join(parent, "data")}
	v.mkdir(t, "", uid, gid, mode)
	return v
}

// mkdir makes name under the volume (its root for "") with owner and mode
// (setgid as os.ModeSetgid), as the kubelet leaves them.
func (v volume) mkdir(t *testing.T, name string, uid, gid int, mode os.FileMode) {
	t.Helper()
	p := filepath.Join(v.root, name)
	if err := os.Mkdir(p, 0o700); err != nil && !os.IsExist(err) {
		t.Fatal(err)
	}
	v.own(t, p, uid, gid, mode)
}

// write puts a file of uid's under the volume as the kubelet leaves it
// with fsGroup: the pod's group's, mode 0660.
func (v volume) write(t *testing.T, name, content string, uid int) {
	t.Helper()
	p := filepath.Join(v.root, name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	v.own(t, p, uid, volumeGID, 0o660)
}

func (volume) own(t *testing.T, p string, uid, gid int, mode os.FileMode) {
	t.Helper()
	if err := os.Chown(p, uid, gid); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

// modeOf is p's mode as chmod writes it (2770).
func modeOf(t *testing.T, p string) uint32 {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return unixMode(fi.Mode())
}

// startedAs runs the relay on stateDir as user (nil: the test's own).
// When it listens, it is sent a webhook, which must be answered 202, and
// stopped: started is true. When it exits, it must exit with exitFailure
// before it listens. out is its log.
func startedAs(t *testing.T, stateDir string, user *syscall.Credential) (started bool, out string) {
	t.Helper()
	// The relay's user runs the tests' build where TestMain put it. (A copy
	// of the binary could fail to start, "text file busy", while another
	// test's fork holds the copy's descriptor.)
	if err := os.Chmod(filepath.Dir(relayBinary), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(relayBinary, "-listen", "127.0.0.1:0", "-state-dir", stateDir, "-quiet-period", "1h", "-max-delay", "1h", "-run-command", "true")
	cmd.Env = append(environWithout(os.Environ(), envSecret, envPort), envSecret+"="+testSecret)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: user}
	log := &testutil.SyncBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	listening := regexp.MustCompile(`msg=listening addr=(\S+)`)
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); {
		select {
		case <-exited:
			if code := cmd.ProcessState.ExitCode(); code != exitFailure || listening.MatchString(log.String()) {
				t.Fatalf("exit %d after listening %v, want exit %d before it listens:\n%s", code, listening.MatchString(log.String()), exitFailure, log.String())
			}
			return false, log.String()
		case <-time.After(10 * time.Millisecond):
		}
		if m := listening.FindStringSubmatch(log.String()); m != nil {
			status, body := post(t, "http://"+m[1]+hookPrefix+testSecret, membership("m1", "memberships.inactive"))
			_ = cmd.Process.Signal(syscall.SIGTERM)
			<-exited
			if status != http.StatusAccepted {
				t.Fatalf("a webhook answered %d %s, want 202:\n%s", status, body, log.String())
			}
			return true, log.String()
		}
	}
	_ = cmd.Process.Kill()
	<-exited
	t.Fatalf("the relay neither listened nor exited within 60 s:\n%s", log.String())
	return false, ""
}

// The volumes of issue 63's table, as a cluster leaves them at /data, with
// the image's -state-dir /data/relay unless a row says otherwise; the
// relay runs as the image's user (65532).
func TestStateDirOnVolumesAsClustersMountThem(t *testing.T) {
	t.Parallel()
	// Owed since now: the run is not due within the test (-max-delay 1h),
	// so the files stay as the volume left them unless the start tightens them.
	now := time.Now().UTC().Format(time.RFC3339)
	owed := `{"id":"0123456789abcdef","webhooks":1,"owed_since":"` + now + `","last_webhook":"` + now + `"}`
	for _, c := range []struct {
		name     string
		volume   func(t *testing.T) volume
		stateDir string // under the volume; "relay" unless set
		refused  string // what the relay says, "" if it starts
		// Started, the directory and what else is in it left as they were
		// (0755; notes.txt 0644), not made the relay's alone.
		leftAsItWas bool
	}{{
		name:    "a fresh volume, no fsGroup (root, 0755)",
		volume:  func(t *testing.T) volume { return newVolume(t, 0, 0, 0o755) },
		refused: "which the relay's user (uid 65532, gid 65532) may not write; on Kubernetes, give the pod securityContext.fsGroup: 65532",
	}, {
		name:   "a fresh volume with fsGroup (root:gid, 2775)",
		volume: func(t *testing.T) volume { return newVolume(t, 0, volumeGID, 0o775|os.ModeSetgid) },
	}, {
		name: "a reused volume after the kubelet applies fsGroup again (2770, files 0660)",
		volume: func(t *testing.T) volume {
			v := newVolume(t, 0, volumeGID, 0o775|os.ModeSetgid)
			v.mkdir(t, "relay", volumeUID, volumeGID, 0o770|os.ModeSetgid)
			v.write(t, "relay/"+owedFile, owed, volumeUID)
			v.write(t, "relay/"+runOutputFile, "a run's output\n", volumeUID)
			v.write(t, "relay/"+owedLockFile, "", volumeUID)
			return v
		},
	}, {
		name: "a reused 0700 volume whose root is the relay's, after the kubelet applies fsGroup (2770), as -state-dir",
		volume: func(t *testing.T) volume {
			v := newVolume(t, volumeUID, volumeGID, 0o770|os.ModeSetgid)
			v.write(t, owedFile, owed, volumeUID)
			v.write(t, owedLockFile, "", volumeUID)
			return v
		},
		stateDir: ".",
	}, {
		name:   "emptyDir (root, 0777)",
		volume: func(t *testing.T) volume { return newVolume(t, 0, 0, 0o777) },
	}, {
		name:     "a volume's root with fsGroup (root:gid, 2775) as -state-dir",
		volume:   func(t *testing.T) volume { return newVolume(t, 0, volumeGID, 0o775|os.ModeSetgid) },
		stateDir: ".",
		refused:  "belongs to root and may be written by others or a group (gid 65532, mode 2775), as a volume's root is (emptyDir; fsGroup): the relay cannot make it its own; name a directory under it, which the relay creates and keeps at 0700 (-state-dir ",
	}, {
		name:     "emptyDir's root (root, 0777) as -state-dir",
		volume:   func(t *testing.T) volume { return newVolume(t, 0, 0, 0o777) },
		stateDir: ".",
		refused:  "belongs to root and may be written by others or a group (gid 0, mode 0777)",
	}, {
		name: "a directory of the relay's that its group may write without the kubelet's mark (0770, a shared host's)",
		volume: func(t *testing.T) volume {
			v := newVolume(t, 0, 0, 0o755)
			v.mkdir(t, "relay", volumeUID, volumeGID, 0o770)
			return v
		},
		refused: "may be written by other users (mode 0770): chmod 700",
	}, {
		name: "a directory of the relay's that no one else may write (0755), holding another file: left as it was",
		volume: func(t *testing.T) volume {
			v := newVolume(t, 0, 0, 0o755)
			v.mkdir(t, "relay", volumeUID, volumeGID, 0o755)
			v.write(t, "relay/notes.txt", "the operator's\n", volumeUID)
			v.own(t, filepath.Join(v.root, "relay/notes.txt"), volumeUID, volumeGID, 0o644)
			return v
		},
		leftAsItWas: true,
	}, {
		name: "a link another user made to a directory of the relay's",
		volume: func(t *testing.T) volume {
			v := newVolume(t, 0, volumeGID, 0o775|os.ModeSetgid)
			v.mkdir(t, "elsewhere", volumeUID, volumeGID, 0o770|os.ModeSetgid)
			link := filepath.Join(v.root, "relay")
			if err := os.Symlink("elsewhere", link); err != nil {
				t.Fatal(err)
			}
			if err := os.Lchown(link, 1000, volumeGID); err != nil {
				t.Fatal(err)
			}
			return v
		},
		refused: "is a symbolic link of uid 1000's, not the relay's user's (uid 65532) or root's",
	}, {
		name: "runAsUser other than the owner of the relay's directory",
		volume: func(t *testing.T) volume {
			v := newVolume(t, 0, volumeGID, 0o775|os.ModeSetgid)
			v.mkdir(t, "relay", 1000, volumeGID, 0o700|os.ModeSetgid)
			return v
		},
		refused: "belongs to uid 1000, not to the relay's user (uid 65532) or root",
	}, {
		name: "a file another user put in the relay's directory while its group could write it",
		volume: func(t *testing.T) volume {
			v := newVolume(t, 0, volumeGID, 0o775|os.ModeSetgid)
			v.mkdir(t, "relay", volumeUID, volumeGID, 0o770|os.ModeSetgid)
			v.write(t, "relay/"+owedFile, owed, 1000)
			return v
		},
		refused: "-state-dir/owed.json belongs to uid 1000, not to the relay's user (uid 65532): another user put it there while the directory's group could write it; remove it",
	}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			v := c.volume(t)
			rel := c.stateDir
			if rel == "" {
				rel = "relay"
			}
			dir := filepath.Join(v.root, rel)
			started, out := startedAs(t, dir, &syscall.Credential{Uid: volumeUID, Gid: volumeGID, Groups: []uint32{volumeGID}})
			switch {
			case c.refused != "" && started:
				t.Fatalf("started, want it refused with %q:\n%s", c.refused, out)
			case c.refused != "":
				if !strings.Contains(out, c.refused) {
					t.Fatalf("refused with:\n%s\nwant %q", out, c.refused)
				}
				t.Logf("refused: %s", strings.TrimSpace(out))
				return
			case !started:
				t.Fatalf("refused, want it started:\n%s", out)
			}
			if c.leftAsItWas {
				if m, n := modeOf(t, dir), modeOf(t, filepath.Join(dir, "notes.txt")); m != 0o755 || n != 0o644 {
					t.Errorf("after the start, -state-dir %04o and notes.txt %04o; want them left as they were, 0755 and 0644", m, n)
				}
				return
			}
			// Started: what it keeps is the relay's alone.
			if m := modeOf(t, dir); m != 0o700 {
				t.Errorf("-state-dir after the start: mode %04o, want 0700", m)
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if m := modeOf(t, filepath.Join(dir, e.Name())); m&0o077 != 0 {
					t.Errorf("-state-dir/%s after the start: mode %04o, want the relay's user's alone", e.Name(), m)
				}
			}
			if strings.Contains(c.name, "reused") && !strings.Contains(out, "a run owed before the restart is still owed") {
				t.Errorf("the owed run recorded before the kubelet applied fsGroup was not kept:\n%s", out)
			}
		})
	}
}
