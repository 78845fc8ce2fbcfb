//go:build unix

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// noFollow and nonBlocking make an open fail on a symbolic link and not
// wait on a FIFO without a writer.
const noFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// isLink says an open failed on a symbolic link (O_NOFOLLOW's ELOOP).
func isLink(err error) bool { return errors.Is(err, syscall.ELOOP) }

// checkOwner refuses a directory another user owns or may write: they
// could plant a link or a FIFO in it, or an owed record.
func checkOwner(dir string, fi fs.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	// Root's directories pass too, as OpenSSH's StrictModes lets them:
	// root can write anything anyway.
	if uid := os.Geteuid(); int(st.Uid) != uid && st.Uid != 0 {
		return fmt.Errorf("-state-dir %s belongs to uid %d, not to the relay's user (uid %d) or root: give the relay a directory of its own (chown it, or another -state-dir)", dir, st.Uid, uid)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("-state-dir %s may be written by other users (mode %04o): chmod 700 %s", dir, fi.Mode().Perm(), dir)
	}
	return nil
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
