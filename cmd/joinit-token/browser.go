package main

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// browserEnv names a command to open URLs with instead of the platform's.
const browserEnv = "JOINIT_BROWSER"

// openBrowser starts the platform's URL opener (or $JOINIT_BROWSER) on u
// without waiting for it: the flow goes on whether or not a browser shows
// up, since the URL is printed too. No shell is involved, so the URL's &
// characters are safe.
func openBrowser(getenv func(string) string, u string) error {
	var cmd *exec.Cmd
	switch {
	case getenv(browserEnv) != "":
		cmd = exec.Command(getenv(browserEnv), u)
	case runtime.GOOS == "darwin":
		cmd = exec.Command("open", u)
	case runtime.GOOS == "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", u)
	default:
		cmd = exec.Command("xdg-open", u)
	}
	cmd.Env = withoutJoinitVars(os.Environ())
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }() // reap it
	return nil
}

// withoutJoinitVars drops every JOINIT_* variable: the client secret
// (JOINIT_CLIENT_SECRET) and any access token are no business of a
// browser, which may be any command and may live on long after this one.
func withoutJoinitVars(environ []string) []string {
	kept := make([]string, 0, len(environ))
	for _, kv := range environ {
		if !strings.HasPrefix(strings.ToUpper(kv), "JOINIT_") {
			kept = append(kept, kv)
		}
	}
	return kept
}
