package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// secretEnv names the environment variable that holds the client secret.
const secretEnv = "JOINIT_CLIENT_SECRET"

// maxSecretLine bounds what is read from a piped standard input.
const maxSecretLine = 4096

// readSecret takes the client secret from the environment, else from a
// prompt that does not echo when stdin is a terminal, else from the first
// line of stdin (so `pass show app | joinit-token ...` works). It never
// comes from a flag.
func readSecret(getenv func(string) string, stdin io.Reader, stderr io.Writer) (string, error) {
	if s := getenv(secretEnv); s != "" {
		return s, nil
	}
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprint(stderr, "Client secret (input is not echoed): ")
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(stderr)
		if err != nil {
			return "", fmt.Errorf("reading the client secret: %w", err)
		}
		return nonEmptySecret(string(b))
	}
	line, err := bufio.NewReader(io.LimitReader(stdin, maxSecretLine)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("reading the client secret from standard input: %w", err)
	}
	return nonEmptySecret(strings.TrimRight(line, "\r\n"))
}

func nonEmptySecret(s string) (string, error) {
	if s == "" {
		return "", fmt.Errorf("no client secret: set %s, or type it at the prompt", secretEnv)
	}
	return s, nil
}
