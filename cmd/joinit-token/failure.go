package main

// Exit codes. Each failure a user can act on has its own, so a script can
// tell a typo in the secret from a closed browser tab.
const (
	exitOK            = 0
	exitFailure       = 1 // anything else: the code was refused, -out cannot be written, interrupted
	exitUsage         = 2 // bad flags, or no client secret
	exitBadClient     = 3 // the token endpoint refused the client credentials (401 / invalid_client)
	exitDenied        = 4 // the authorization was denied (error= on the callback)
	exitStateMismatch = 5 // the callback's state is not this run's
	exitTimeout       = 6 // no callback within -timeout
	exitPortInUse     = 7 // cannot listen on the redirect URI's port
	exitUnreachable   = 8 // the auth URL or its token endpoint cannot be reached
)

// failure is an error with the exit code it ends the command with.
type failure struct {
	code int
	err  error
}

func (f *failure) Error() string { return f.err.Error() }
func (f *failure) Unwrap() error { return f.err }
