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

// checkOwner checks nothing without Unix owners and modes.
func checkOwner(string, fs.FileInfo) error { return nil }

func blocking(*os.File) error { return nil }
