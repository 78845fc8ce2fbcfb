package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// TestHelpListsSeededData: -h names every membership type (name and id of
// the default seed) and every group of the default data set.
func TestHelpListsSeededData(t *testing.T) {
	var stderr bytes.Buffer
	if _, err := parseFlags([]string{"-h"}, &stderr); !errors.Is(err, flag.ErrHelp) {
		t.Fatal(err)
	}
	help := stderr.String()
	for _, mt := range sandbox.MembershipTypes(defaultSeed) {
		if !strings.Contains(help, mt.Name+strings.Repeat(" ", 13-len(mt.Name))+mt.ID) {
			t.Errorf("-h does not list membership type %s (%s):\n%s", mt.Name, mt.ID, help)
		}
	}
	unwrapped := strings.Join(strings.Fields(help), " ")
	if want := strings.Join(sandbox.GroupNames(defaultGroups()), ", ") + "."; !strings.Contains(unwrapped, want) {
		t.Errorf("-h does not list the groups %q:\n%s", want, help)
	}
}

// TestSeededDataFollowsFlags: -v describes the data set of the flags given.
func TestSeededDataFollowsFlags(t *testing.T) {
	var b bytes.Buffer
	writeSeededData(&b, 42, 11)
	for _, mt := range sandbox.MembershipTypes(42) {
		if !strings.Contains(b.String(), mt.ID) {
			t.Errorf("no id %s of %s for -seed 42:\n%s", mt.ID, mt.Name, b.String())
		}
	}
	if !strings.Contains(b.String(), "Board of Directors 2.") {
		t.Errorf("the 11th group is not listed:\n%s", b.String())
	}
}

// TestContributingListsSeededData: CONTRIBUTING.md's table of the default data set
// names each membership type with its id and share, and every group.
func TestContributingListsSeededData(t *testing.T) {
	b, err := os.ReadFile("../../CONTRIBUTING.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for i, mt := range sandbox.MembershipTypes(defaultSeed) {
		row := fmt.Sprintf("| %s | `%s` | %d%% |", mt.Name, mt.ID, []int{50, 20, 20, 10}[i])
		if !strings.Contains(readme, row) {
			t.Errorf("CONTRIBUTING.md has no row %q", row)
		}
	}
	unwrapped := strings.Join(strings.Fields(readme), " ")
	if want := "Groups: " + strings.Join(sandbox.GroupNames(defaultGroups()), ", ") + "."; !strings.Contains(unwrapped, want) {
		t.Errorf("CONTRIBUTING.md does not list %q", want)
	}
}
