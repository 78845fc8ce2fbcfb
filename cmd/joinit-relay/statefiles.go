package main

// The files of the state directory.
const (
	// owedFile is the record of an owed run: present while a run is owed,
	// removed once a run that began after its last webhook succeeded.
	owedFile = "owed.json"
	// owedLockFile is the lock under which owedFile is read and
	// rewritten: relays sharing -state-dir (a rolling update, replicas on
	// one volume) never lose each other's webhooks.
	owedLockFile = "owed.lock"
	// runLockFile is the lock every start is made holding (runlock_unix.go).
	runLockFile = "run.lock"
	// runOutputFile is where a command's output goes: a sync's output
	// (terraform's plan) names members, and the relay's log must not.
	runOutputFile = "last-run.log"
)

// relayFiles are the names the relay keeps in -state-dir.
var relayFiles = []string{owedFile, owedLockFile, runLockFile, runOutputFile}
