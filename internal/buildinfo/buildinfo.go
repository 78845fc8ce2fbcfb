// Package buildinfo says which build of a command is running, for its
// -version flag: the version a release stamps in (GoReleaser's ldflags),
// else the module version and VCS revision Go records, and the Go version.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Line is "name version (go1.26.x linux/amd64)", with the commit for a
// build from a checkout. stamped is the version a release build set; "" or
// "dev" when none was.
func Line(name, stamped string) string {
	v, commit := stamped, ""
	if info, ok := debug.ReadBuildInfo(); ok {
		if v == "" || v == "dev" {
			v = info.Main.Version
		}
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				commit = ", commit " + s.Value[:12]
			}
		}
	}
	if v == "" || v == "(devel)" {
		v = "dev"
	}
	return fmt.Sprintf("%s %s (%s %s/%s%s)", name, v, runtime.Version(), runtime.GOOS, runtime.GOARCH, commit)
}
