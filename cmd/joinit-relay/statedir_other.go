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

// tightening is what makeOwn changed: nothing without Unix modes.
type tightening struct {
	was   uint32
	files int
}

// makeOwn checks nothing without Unix owners and modes.
func makeOwn(string, fs.FileInfo) (tightening, error) { return tightening{}, nil }

func unwritableHint(string) string { return "" }

func blocking(*os.File) error { return nil }
