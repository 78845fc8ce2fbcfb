//go:build unix

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
)

// noFollow and nonBlocking make an open fail on a symbolic link and not
// wait on a FIFO without a writer.
const noFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// isLink says an open failed on a symbolic link (O_NOFOLLOW's ELOOP).
func isLink(err error) bool { return errors.Is(err, syscall.ELOOP) }

// makeOwn checks that -state-dir is the relay's alone, or makes it so.
//
// Refused: a directory another user owns, or a link to one another user
// made; one others may write, or its group without the kubelet's mark
// (below): they could plant a link, a FIFO or an owed record in it; and
// one of root's that a group may write (a volume's root mounted with a
// pod's fsGroup), which the relay cannot make its own.
//
// Repaired: the kubelet's mark. At a mount a cluster gives a volume and
// everything under it to the pod's fsGroup (group write and setgid on a
// directory, 2770; group read-write on a file, 0660), which an image with
// no shell could not undo. On a directory the relay owns with that mark it
// takes the group's bits off the directory, refuses an entry of another
// user's (put there while the group could write), and takes them off its
// own files. What else it accepts it leaves as it is.
//
// It returns the directory's mode before a repair, 0 if none.
func makeOwn(dir string, fi fs.FileInfo) (was uint32, err error) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, nil
	}
	if err := checkLink(dir); err != nil {
		return 0, err
	}
	uid, mode := os.Geteuid(), unixMode(fi.Mode())
	ours := int(st.Uid) == uid
	under := filepath.Join(dir, "relay")
	switch {
	// Root's directories pass, as OpenSSH's StrictModes lets them: root
	// can write anything anyway.
	case !ours && st.Uid != 0:
		return 0, fmt.Errorf("-state-dir %s belongs to uid %d, not to the relay's user (uid %d) or root: give the relay a directory of its own (chown it, or another -state-dir; on Kubernetes, the pod's runAsUser: %d, as when the directory was made)", dir, st.Uid, uid, st.Uid)
	case !ours && mode&0o022 != 0:
		return 0, fmt.Errorf("-state-dir %s belongs to root and may be written by others or a group (gid %d, mode %04o), as a volume's root is (emptyDir; fsGroup): the relay cannot make it its own; name a directory under it, which the relay creates and keeps at 0700 (-state-dir %s)", dir, st.Gid, mode, under)
	case !ours:
		return 0, nil // root's, and no one else may write it
	case mode&0o002 != 0 || (mode&0o020 != 0 && mode&0o2000 == 0):
		return 0, fmt.Errorf("-state-dir %s may be written by other users (mode %04o): chmod 700 %s, or name a directory under it that the relay creates (-state-dir %s)", dir, mode, dir, under)
	case mode&0o020 == 0:
		return 0, nil // no one else may write it: left as it is
	}
	// The kubelet's mark, on a directory of the relay's.
	if err := os.Chmod(dir, fs.FileMode(mode&0o700)); err != nil {
		return 0, fmt.Errorf("-state-dir %s (mode %04o) could not be made the relay's alone: %w", dir, mode, err)
	}
	return mode, tightenFiles(dir, uid)
}

// checkLink refuses a -state-dir that is a symbolic link another user
// made: it would lead the relay, and its repair, where that user chose.
func checkLink(dir string) error {
	lfi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("-state-dir: %w", err)
	}
	if lfi.Mode()&fs.ModeSymlink == 0 {
		return nil
	}
	if st, ok := lfi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() && st.Uid != 0 {
		return fmt.Errorf("-state-dir %s is a symbolic link of uid %d's, not the relay's user's (uid %d) or root's: name the directory itself", dir, st.Uid, os.Geteuid())
	}
	return nil
}

// tightenFiles refuses an entry of dir another user owns, then takes the
// group's bits off the relay's own files. dir is the relay's alone by now,
// so nothing in it changes under the loop but the relay's own temporary
// files, which other relays on the directory may rename meanwhile.
func tightenFiles(dir string, uid int) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("-state-dir %s could not be read: %w", dir, err)
	}
	for _, e := range entries {
		fi, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("-state-dir/%s: %w", e.Name(), err)
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			continue
		}
		if int(st.Uid) != uid && st.Uid != 0 {
			return fmt.Errorf("-state-dir/%s belongs to uid %d, not to the relay's user (uid %d): another user put it there while the directory's group could write it; remove it", e.Name(), st.Uid, uid)
		}
		mode := unixMode(fi.Mode())
		if int(st.Uid) != uid || !fi.Mode().IsRegular() || mode == mode&0o700 || !slices.Contains(relayFiles, e.Name()) {
			continue // root's, a link, the relay's alone already, or not the relay's file
		}
		if err := os.Chmod(filepath.Join(dir, e.Name()), fs.FileMode(mode&0o700)); err != nil {
			return fmt.Errorf("-state-dir/%s (mode %04o) could not be made the relay's alone: %w", e.Name(), mode, err)
		}
	}
	return nil
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
	group := "a group of the relay's user"
	if gid := os.Getegid(); gid != 0 {
		group = fmt.Sprint(gid)
	}
	// Some volumes' drivers do not apply fsGroup (NFS; many ReadWriteMany
	// ones): then the volume's server must give it to the relay's user.
	return fmt.Sprintf(": %s belongs to uid %d, gid %d (mode %04o), which the relay's user (uid %d, gid %d) may not write; on Kubernetes, give the pod securityContext.fsGroup: %s so the volume is the relay's group's (if it is set, the volume's driver does not apply it: give the volume to uid %d where it is served)",
		dir, st.Uid, st.Gid, unixMode(fi.Mode()), os.Geteuid(), os.Getegid(), group, os.Geteuid())
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
