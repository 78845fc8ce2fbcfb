//go:build !unix

package main

import "os/exec"

// interruptGroup leaves exec's default: the command is killed when its
// context ends.
func interruptGroup(*exec.Cmd) {}

// killGroup does nothing: without process groups, the command's children
// are its own to end.
func killGroup(*exec.Cmd) {}
