// Command fileorder checks DESIGN.md's rule for the files of a package:
// they use each other in one direction, so a reader can take them bottom
// up. `make lint` runs it on every package (scripts/lint.sh):
//
//	go run ./internal/fileorder [-v] [packages]   (default ./...)
//
// A use is a file naming what another file of the package declares: a
// package-level function, type, variable or constant, a method, or a field
// (charged to the file declaring it). Test files are left out: they may
// use anything. It fails, naming the file and what it uses, when
//
//   - files reach each other through their uses, in a circle (in every
//     package: no order of them could be bottom up);
//   - a package doc holds a list of its files ("Its files, bottom up (each
//     uses only those above it): a, b; c") and a file uses one the list
//     puts after it, or the list leaves a file out, or names one that does
//     not exist (the grammar: listing.go).
//
// Files are those the build takes on this platform (the relay's _unix.go
// on Linux, not its _other.go); the list may name either. With -v it
// prints, for each package, its files, the pairs of files one uses the
// other of, the uses against its list and the files in circles.
//
// Its files, bottom up (each uses only those above it): uses (what one file
// uses of another), listing (a package doc's list), order (the check),
// load (go list and the type check), main.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

func main() {
	os.Exit(run(os.Args[1:], ".", os.Stdout, os.Stderr))
}

// run checks the packages args name, from dir, and returns the exit code:
// 0 when they keep the order, 1 when one does not, 2 when they cannot be
// read.
func run(args []string, dir string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fileorder", flag.ContinueOnError)
	fs.SetOutput(stderr)
	verbose := fs.Bool("v", false, "print what was counted of each package")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	pkgs, err := load(context.Background(), dir, patterns)
	if err != nil {
		fmt.Fprintln(stderr, "fileorder:", err)
		return 2
	}
	failed := 0
	for _, p := range pkgs {
		problems, s := check(p)
		if *verbose {
			fmt.Fprintf(stdout, "%s: %d files, %d file-to-file references, %d against its list, %d files in circles\n",
				p.path, s.files, s.refs, s.against, s.inCircles)
		}
		for _, pr := range problems {
			where := p.dir + string(filepath.Separator)
			if pr.file != "" {
				where = filepath.Join(p.dir, pr.file)
			}
			fmt.Fprintf(stdout, "%s: %s\n", where, pr.msg)
		}
		if len(problems) > 0 {
			failed++
		}
	}
	if failed > 0 {
		fmt.Fprintf(stderr, "fileorder: %d of %d packages break the order of their files (DESIGN.md, \"Packages, and what may import what\")\n", failed, len(pkgs))
		return 1
	}
	return 0
}
