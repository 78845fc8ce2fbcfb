package main

import (
	"os/exec"
	"runtime"
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
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }() // reap it
	return nil
}
