package main

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTarGz writes a tar.gz holding one file of this name and mode.
func writeTarGz(t *testing.T, path, name string, mode int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: mode, Size: 6}); err != nil {
		t.Fatal(err)
	}
	tw.Write([]byte("binary"))
	tw.Close()
	gz.Close()
	f.Close()
}

// companionRelease lays out a companion's archives (linux tar.gz, windows
// zip) and their SHA256SUMS in a dist directory.
func companionRelease(t *testing.T, name, linuxBinary string, linuxMode int64) (dist string, archives []archive) {
	dist = t.TempDir()
	tgz := companionArchiveName(name, testVersion, "linux", "amd64")
	writeTarGz(t, filepath.Join(dist, tgz), linuxBinary, linuxMode)
	zipName := companionArchiveName(name, testVersion, "windows", "amd64")
	writeZip(t, dist, zipName, name+".exe")
	archives = []archive{
		{name: tgz, path: filepath.Join(dist, tgz), goos: "linux", goarch: "amd64"},
		{name: zipName, path: filepath.Join(dist, zipName), goos: "windows", goarch: "amd64"},
	}
	var lines []string
	for _, a := range archives {
		sum, err := sha256File(a.path)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, sum+"  "+a.name)
	}
	os.WriteFile(filepath.Join(dist, fmt.Sprintf("%s_%s_SHA256SUMS", name, testVersion)), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	return dist, archives
}

func TestCompanionRelease(t *testing.T) {
	for _, name := range companions {
		t.Run(name, func(t *testing.T) { testCompanionRelease(t, name) })
	}
}

func testCompanionRelease(t *testing.T, name string) {
	dist, archives := companionRelease(t, name, name, 0o755)
	provider := map[string]string{"terraform-provider-joinit_" + testVersion + "_linux_amd64.zip": "00"}
	if err := checkCompanionRelease(dist, name, testVersion, archives, provider); err != nil {
		t.Fatalf("a good release refused: %v", err)
	}
	// The provider's SHA256SUMS must not list the companion.
	mixed := map[string]string{archives[0].name: "00"}
	if err := checkCompanionRelease(dist, name, testVersion, archives, mixed); err == nil || !strings.Contains(err.Error(), "provider's SHA256SUMS lists "+name) {
		t.Errorf(name+" in the provider's SHA256SUMS accepted: %v", err)
	}
	// An archive its SHA256SUMS does not list as it is.
	os.WriteFile(archives[0].path, []byte("changed"), 0o644)
	if err := checkCompanionRelease(dist, name, testVersion, archives, provider); err == nil || !strings.Contains(err.Error(), "is listed as") {
		t.Errorf("a wrong checksum accepted: %v", err)
	}
	// A binary that is not executable, or of another name.
	dist, archives = companionRelease(t, name, name, 0o644)
	if err := checkCompanionRelease(dist, name, testVersion, archives, provider); err == nil || !strings.Contains(err.Error(), "not executable") {
		t.Errorf("a binary without x accepted: %v", err)
	}
	dist, archives = companionRelease(t, name, "token", 0o755)
	if err := checkCompanionRelease(dist, name, testVersion, archives, provider); err == nil || !strings.Contains(err.Error(), "not "+name) {
		t.Errorf("an archive without "+name+" accepted: %v", err)
	}
	if err := checkCompanionRelease(dist, name, testVersion, nil, provider); err == nil {
		t.Error("a release without " + name + " accepted")
	}
}
