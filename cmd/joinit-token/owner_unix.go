//go:build unix

package main

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// ownedByThisUser refuses a file another user owns.
func ownedByThisUser(fi fs.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || int(st.Uid) == os.Geteuid() {
		return nil
	}
	return fmt.Errorf("it belongs to another user (uid %d): in a shared directory such as /tmp it cannot be replaced, and it should not be trusted; name a file of your own", st.Uid)
}
