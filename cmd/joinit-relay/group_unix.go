//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// interruptGroup runs the command in a process group of its own and, when
// its context ends, sends SIGINT to the whole group: sh -c's children
// (terraform) stop as on Ctrl-C, not only the shell.
func interruptGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) }
}

// killGroup kills what is left of the command's process group once the
// command has returned: a child that ignored the interrupt, or one it left
// in the background, would otherwise run beside the next run.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
