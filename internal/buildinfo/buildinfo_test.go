package buildinfo

import (
	"runtime"
	"strings"
	"testing"
)

func TestLine(t *testing.T) {
	t.Parallel()
	if got := Line("joinit-token", "1.2.3"); !strings.HasPrefix(got, "joinit-token 1.2.3 ("+runtime.Version()+" ") {
		t.Fatalf("a stamped version: %q", got)
	}
	// A test binary has no module version: "dev", not "(devel)" or "".
	if got := Line("terraform-provider-joinit", "dev"); !strings.HasPrefix(got, "terraform-provider-joinit dev (") {
		t.Fatalf("an unstamped build: %q", got)
	}
}
