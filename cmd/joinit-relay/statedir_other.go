//go:build !unix

package main

import (
	"io/fs"
	"os"
)

// noFollow is not needed where the relay's state directory has no Unix
// permissions to check.
const noFollow = 0

func isLink(error) bool { return false }

// makeOwn checks nothing without Unix owners and modes.
func makeOwn(string, fs.FileInfo) (uint32, error) { return 0, nil }

func unwritableHint(string) string { return "" }

func blocking(*os.File) error { return nil }
