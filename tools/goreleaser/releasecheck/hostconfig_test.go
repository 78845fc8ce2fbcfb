package main

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

const sampleConfig = `version: 2
# the builds
builds:
  - id: provider
    binary: '{{ .ProjectName }}_v{{ .Version }}'
    goos: [linux, darwin]
    goarch: [amd64, arm64]
    ignore:
      - goos: darwin
        goarch: arm64
archives:
  - name_template: '{{ .ProjectName }}_{{ .Version }}_{{ .Os }}_{{ .Arch }}'
`

// TestHostConfigNarrowsBuildsOnly: the builds get one target and lose the
// platform keys; the rest of the file, comments included, is unchanged.
func TestHostConfigNarrowsBuildsOnly(t *testing.T) {
	out, err := hostConfig([]byte(sampleConfig), "linux_arm64", "/tmp/dist")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Dist   string `yaml:"dist"`
		Builds []map[string]any
		Arch   []map[string]any `yaml:"archives"`
	}
	if err := yaml.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	b := got.Builds[0]
	for _, k := range []string{"goos", "goarch", "ignore"} {
		if _, ok := b[k]; ok {
			t.Errorf("build keeps %s:\n%s", k, out)
		}
	}
	if ts, _ := b["targets"].([]any); len(ts) != 1 || ts[0] != "linux_arm64" {
		t.Errorf("targets %v, want [linux_arm64]", b["targets"])
	}
	if b["binary"] != "{{ .ProjectName }}_v{{ .Version }}" || got.Arch[0]["name_template"] != "{{ .ProjectName }}_{{ .Version }}_{{ .Os }}_{{ .Arch }}" {
		t.Errorf("other keys changed:\n%s", out)
	}
	if got.Dist != "/tmp/dist" || !strings.Contains(string(out), "# the builds") {
		t.Errorf("dist %q, or the comment is lost:\n%s", got.Dist, out)
	}
}

func TestHostConfigRefusesAConfigWithoutBuilds(t *testing.T) {
	if _, err := hostConfig([]byte("version: 2\n"), "linux_amd64", "d"); err == nil {
		t.Error("accepted a configuration without builds")
	}
}
