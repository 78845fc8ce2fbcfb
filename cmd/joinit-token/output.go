package main

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"

	"github.com/joinit-community/terraform-provider-joinit/internal/redact"
)

// checkWritable fails when a token could not be written to path, so that
// the single-use authorization code is not spent for nothing. The path
// itself is checked, not only its directory: a directory there cannot be
// replaced by a file, and a file of another user (planted in a shared,
// sticky directory such as /tmp) cannot be replaced by this one, nor should
// it be trusted.
func checkWritable(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	case fi.IsDir():
		return errors.New("it is a directory; name a file")
	case !fi.Mode().IsRegular() && fi.Mode()&fs.ModeSymlink == 0:
		return fmt.Errorf("it is not a regular file (%s)", fi.Mode().Type())
	default:
		if err := ownedByThisUser(fi); err != nil {
			return err
		}
	}
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

// rescueToken keeps a token that could not be written to -out: its code is
// spent, and it does not expire, so losing it would leave a valid token
// nobody holds. It goes to a new mode-0600 file in dir (the temporary
// directory), whose path the error names; if even that fails, to standard
// output, the one place left.
func rescueToken(token, out string, writeErr error, dir string, stdout io.Writer) error {
	path, err := writeNewPrivateFile(dir, token)
	if err == nil {
		return &failure{exitFailure, fmt.Errorf("-out %s could not be written (%w); the access token is kept in %s (mode 0600): move it where it belongs, and delete that file", out, writeErr, path)}
	}
	if _, perr := fmt.Fprintln(stdout, token); perr != nil {
		return &failure{exitFailure, fmt.Errorf("-out %s could not be written (%w), nor a file in %s (%w), nor standard output (%w): the token is lost; revoke the application key's access and run again", out, writeErr, dir, err, perr)}
	}
	return &failure{exitFailure, fmt.Errorf("-out %s could not be written (%w), nor a file in %s (%w): the access token was written to standard output instead", out, writeErr, dir, err)}
}

// writeNewPrivateFile writes token to a new file in dir, mode 0600, and
// returns its path.
func writeNewPrivateFile(dir, token string) (path string, err error) {
	f, err := os.CreateTemp(dir, "joinit-token-rescued-*")
	if err != nil {
		return "", err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = f.Chmod(0o600); err != nil {
		return "", err
	}
	if _, err = f.WriteString(token + "\n"); err != nil {
		return "", err
	}
	if err = f.Sync(); err != nil {
		return "", err
	}
	return f.Name(), f.Close()
}

// Limits, in characters, of what a server's words take in a message.
const (
	maxServerWords = 300
	maxMessage     = 600
)

// serverWords keeps a server's words safe for a terminal: the secrets are
// removed, control characters (escape sequences among them) become
// spaces, and the text is cut short, in that order.
func serverWords(s string, secrets []redact.Secret) string {
	return redact.Text(s, maxServerWords, secrets...)
}

// flowSecrets are the values of a run that must never be printed, with
// the labels that replace them: the client secret, the code, the PKCE
// verifier, and the Basic credentials x/oauth2 builds from the id and the
// secret (form-encoded, RFC 6749 §2.3.1). Empty values are skipped by
// package redact.
func flowSecrets(clientID, secret, code, verifier string) []redact.Secret {
	basic := ""
	if secret != "" {
		basic = base64.StdEncoding.EncodeToString([]byte(url.QueryEscape(clientID) + ":" + url.QueryEscape(secret)))
	}
	return []redact.Secret{
		{Value: basic, Label: "[client credentials]"},
		{Value: secret, Label: "[client secret]"},
		{Value: code, Label: "[code]"},
		{Value: verifier, Label: "[code verifier]"},
	}
}
