package main

import (
	"os"
	"path/filepath"
)

// checkWritable fails when a token could not be written to path, so that
// the single-use authorization code is not spent for nothing.
func checkWritable(path string) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".joinit-token-check-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// writeTokenFile replaces path with the token, mode 0600. It writes a
// temporary file in the same directory and renames it over path, so a
// reader never sees half a token and the file is never, even for a moment,
// readable by others (os.CreateTemp creates files 0600).
func writeTokenFile(path, token string) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".joinit-token-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = tmp.Chmod(0o600); err != nil { // CreateTemp's mode is not a documented promise
		return err
	}
	if _, err = tmp.WriteString(token + "\n"); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
