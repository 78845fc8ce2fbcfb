package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// The state directory holds what the relay trusts across restarts (the
// owed run) and what it writes for the operator (the command's output,
// members' addresses in it). On a shared host another user must not be
// able to plant a file there, so the relay checks it before it listens,
// as OpenSSH's StrictModes checks a home directory, and opens its files
// without following links.

// openStateDir creates -state-dir when it is missing (mode 0700), makes
// it the relay's alone or refuses it (makeOwn), and writes and fsyncs a
// probe in it, so a read-only or full directory stops the relay before it
// answers a webhook it could not record.
func openStateDir(dir string) (opened stateDirOpened, err error) {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			hint := ""
			if errors.Is(err, fs.ErrPermission) {
				hint = unwritableHint(filepath.Dir(dir))
			}
			return opened, fmt.Errorf("-state-dir %s could not be created: %w%s", dir, err, hint)
		}
		// Exactly 0700: MkdirAll's mode passes through the umask, and a
		// setgid parent (a volume's root with fsGroup) passes its bit on.
		if err := os.Chmod(dir, 0o700); err != nil {
			return opened, fmt.Errorf("-state-dir %s: %w", dir, err)
		}
		opened.created = true
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return opened, fmt.Errorf("-state-dir: %w", err)
	}
	if !fi.IsDir() {
		return opened, fmt.Errorf("-state-dir %s is not a directory", dir)
	}
	if opened.repaired, err = makeOwn(dir, fi); err != nil {
		return opened, err
	}
	return opened, probe(dir)
}

// stateDirOpened is what openStateDir did, for the log.
type stateDirOpened struct {
	created  bool   // made now
	repaired uint32 // the mode the kubelet left, when the relay took the group's bits off; 0 if none
}

// probe writes, fsyncs and removes a file, as recording an owed run does.
func probe(dir string) error {
	f, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		hint := ""
		if errors.Is(err, fs.ErrPermission) {
			hint = unwritableHint(dir)
		}
		return fmt.Errorf("-state-dir %s is not writable: %w%s", dir, err, hint)
	}
	defer os.Remove(f.Name())
	_, err = f.Write([]byte("joinit-relay can write here\n"))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = syncDir(dir)
	}
	if err != nil {
		return fmt.Errorf("-state-dir %s cannot hold a record (full, or read-only?): %w", dir, err)
	}
	return nil
}

// openRegular opens name in the state directory without following a
// symbolic link, and refuses anything but a regular file (a FIFO would
// block the relay, a device would take its writes): such a file was put
// there by someone else.
func openRegular(dir, name string, flag int, perm fs.FileMode) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, name), flag|noFollow, perm)
	if err != nil {
		if isLink(err) {
			return nil, fmt.Errorf("-state-dir/%s is a symbolic link, which the relay does not follow: remove it", name)
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("-state-dir/%s is not a regular file (%s): remove it", name, fi.Mode().Type())
	}
	if err == nil {
		err = blocking(f)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// readRegular reads a whole regular file of the state directory.
func readRegular(dir, name string) ([]byte, error) {
	f, err := openRegular(dir, name, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 1<<20))
}

// writeSynced replaces dir/name with b durably: a temporary file, fsynced,
// renamed over name, then the directory fsynced so the rename survives a
// power cut.
func writeSynced(dir, name string, b []byte) error {
	tmp, err := os.CreateTemp(dir, "."+name+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		return err
	}
	return syncDir(dir)
}

// removeSynced removes dir/name durably.
func removeSynced(dir, name string) error {
	if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return syncDir(dir)
}

func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil // Windows cannot sync a directory; its renames are durable on their own
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
