//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// servers are the PostgreSQL and Keystone of one test, run by servers.sh
// in a directory of their own.
type servers struct {
	t        testing.TB
	script   string
	dir      string
	url      string // Keystone's identity v3 URL
	password string // the admin's
}

// startServers starts PostgreSQL and Keystone; they are stopped when the
// test ends. A machine without them fails here with what to install.
func startServers(t testing.TB) *servers {
	t.Helper()
	s := &servers{t: t, script: filepath.Join(repoRoot(t), "e2e", "servers.sh"), dir: tempDirForPostgres(t)}
	t.Cleanup(func() { _, _ = s.run("stop") })
	out, err := s.run("start")
	if err != nil {
		t.Fatalf("starting PostgreSQL and Keystone: %v\n%s", err, out)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), "=")
		switch k {
		case "KEYSTONE_URL":
			s.url = v
		case "KEYSTONE_ADMIN_PASSWORD":
			s.password = v
		}
	}
	if s.url == "" || s.password == "" {
		t.Fatalf("servers.sh start printed no URL or password:\n%s", out)
	}
	return s
}

func (s *servers) run(cmd string) ([]byte, error) {
	c := exec.Command("bash", s.script, cmd, s.dir)
	var out bytes.Buffer
	c.Stdout = &out
	c.Stderr = &out
	err := c.Run()
	return out.Bytes(), err
}

// stopKeystone and startKeystone take Keystone down and bring it back,
// its data and port kept.
func (s *servers) stopKeystone() {
	s.t.Helper()
	if out, err := s.run("stop-keystone"); err != nil {
		s.t.Fatalf("stopping Keystone: %v\n%s", err, out)
	}
}

func (s *servers) startKeystone() {
	s.t.Helper()
	if out, err := s.run("start-keystone"); err != nil {
		s.t.Fatalf("starting Keystone again: %v\n%s", err, out)
	}
}

// tempDirForPostgres is a directory the postgres system user can reach
// (t.TempDir's parent is closed to other users), removed after the test.
func tempDirForPostgres(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "joinit-e2e-servers-") //nolint:usetesting // the postgres user must reach it, and t.TempDir's parent is closed to it
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o711); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("Keystone's log, for the failure: %s", tail(filepath.Join(dir, "keystone.log"), 40))
		}
		_ = os.RemoveAll(dir)
	})
	return dir
}

// tail is the last n lines of a file.
func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
