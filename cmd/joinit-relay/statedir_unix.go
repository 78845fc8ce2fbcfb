//go:build unix

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// noFollow and nonBlocking make an open fail on a symbolic link and not
// wait on a FIFO without a writer.
const noFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// isLink says an open failed on a symbolic link (O_NOFOLLOW's ELOOP).
func isLink(err error) bool { return errors.Is(err, syscall.ELOOP) }

// makeOwn makes -state-dir the relay's alone, or refuses it.
//
// Refused: a directory another user owns or that every user may write
// (they could plant a link, a FIFO or an owed record in it), and one of
// root's that a group may write (a volume's root mounted with a pod's
// fsGroup), which the relay cannot make its own.
//
// Repaired: a directory the relay owns is tightened to the relay's user
// alone (mode 0700, its files 0600) at each start. A cluster's kubelet
// gives a volume and everything under it to the pod's fsGroup at every
// mount (group write and setgid: 2770), and an image with no shell could
// not undo it. The group is the pod's, and once the directory is 0700 no
// one else can add to it; an entry another user owns (put there while the
// group could write) is refused.
//
// It returns the mode it tightened, and how many files, for the log.
func makeOwn(dir string, fi fs.FileInfo) (tightened tightening, err error) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return tightened, nil
	}
	uid, mode := os.Geteuid(), unixMode(fi.Mode())
	switch {
	// Root's directories pass, as OpenSSH's StrictModes lets them: root
	// can write anything anyway.
	case int(st.Uid) != uid && st.Uid != 0:
		return tightened, fmt.Errorf("-state-dir %s belongs to uid %d, not to the relay's user (uid %d) or root: give the relay a directory of its own (chown it, or another -state-dir; on Kubernetes, the pod's runAsUser: %d, as when the directory was made)", dir, st.Uid, uid, st.Uid)
	case mode&0o002 != 0:
		return tightened, fmt.Errorf("-state-dir %s may be written by other users (mode %04o): chmod 700 %s, or name a directory under it that the relay creates (-state-dir %s)", dir, mode, dir, filepath.Join(dir, "relay"))
	case int(st.Uid) != uid && mode&0o020 != 0:
		return tightened, fmt.Errorf("-state-dir %s belongs to root and may be written by its group (gid %d, mode %04o), as a volume's root mounted with fsGroup is: the relay cannot make it its own; name a directory under it, which the relay creates and keeps at 0700 (-state-dir %s)", dir, st.Gid, mode, filepath.Join(dir, "relay"))
	case int(st.Uid) != uid:
		return tightened, nil // root's, and no one else may write it
	}
	if mode != mode&0o700 {
		if err := os.Chmod(dir, fs.FileMode(mode&0o700)); err != nil {
			return tightened, fmt.Errorf("-state-dir %s (mode %04o) could not be made the relay's alone: %w", dir, mode, err)
		}
		tightened.was = mode
	}
	return tightenFiles(dir, uid, tightened)
}

// tightening is what makeOwn changed: the directory's mode before (0 if
// none), and how many of its files it tightened.
type tightening struct {
	was   uint32
	files int
}

// tightenFiles refuses an entry of dir another user owns, and takes group
// and others' bits off the relay's own files and directories. dir is the
// relay's alone by now, so nothing in it changes under the loop.
func tightenFiles(dir string, uid int, t tightening) (tightening, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return t, fmt.Errorf("-state-dir %s could not be read: %w", dir, err)
	}
	for _, e := range entries {
		fi, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue // a temporary file of another relay on the directory, renamed since
		}
		if err != nil {
			return t, fmt.Errorf("-state-dir/%s: %w", e.Name(), err)
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			continue
		}
		if int(st.Uid) != uid && st.Uid != 0 {
			return t, fmt.Errorf("-state-dir/%s belongs to uid %d, not to the relay's user (uid %d): another user put it there; remove it", e.Name(), st.Uid, uid)
		}
		mode := unixMode(fi.Mode())
		if int(st.Uid) != uid || mode == mode&0o700 || !(fi.Mode().IsRegular() || fi.IsDir()) {
			continue // root's; already the relay's alone; a link's mode means nothing
		}
		if err := os.Chmod(filepath.Join(dir, e.Name()), fs.FileMode(mode&0o700)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return t, fmt.Errorf("-state-dir/%s (mode %04o) could not be made the relay's alone: %w", e.Name(), mode, err)
		}
		t.files++
	}
	return t, nil
}

// unwritableHint says, for a directory the relay's user may not write, who
// owns it and what gives the relay a volume it can write.
func unwritableHint(dir string) string {
	fi, err := os.Stat(dir)
	if err != nil {
		return ""
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || int(st.Uid) == os.Geteuid() {
		return ""
	}
	return fmt.Sprintf(": %s belongs to uid %d, gid %d (mode %04o), which the relay's user (uid %d, gid %d) may not write; on Kubernetes, give the pod securityContext.fsGroup: %d so the volume is the relay's group's",
		dir, st.Uid, st.Gid, unixMode(fi.Mode()), os.Geteuid(), os.Getegid(), os.Getegid())
}

// unixMode is m as chmod(1) writes it: 2770 for a directory the kubelet
// gave a pod's fsGroup.
func unixMode(m fs.FileMode) uint32 {
	v := uint32(m.Perm())
	for bit, unix := range map[fs.FileMode]uint32{fs.ModeSetuid: 0o4000, fs.ModeSetgid: 0o2000, fs.ModeSticky: 0o1000} {
		if m&bit != 0 {
			v |= unix
		}
	}
	return v
}

// blocking clears O_NONBLOCK (noFollow's, for a FIFO's sake) from a file
// found regular, whose descriptor a command may inherit.
func blocking(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.SetNonblock(int(fd), false) }); err != nil {
		return err
	}
	return serr
}
