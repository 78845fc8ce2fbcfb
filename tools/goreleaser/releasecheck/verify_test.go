package main

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/dirhash"
)

const testVersion = "0.0.0-snapshot-abc1234"

// writeZip writes a zip holding one executable file of this name.
func writeZip(t *testing.T, dir, zipName, fileName string) string {
	t.Helper()
	path := filepath.Join(dir, zipName)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	h := &zip.FileHeader{Name: fileName, Method: zip.Deflate}
	h.SetMode(0o755)
	w, err := zw.CreateHeader(h)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("binary"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

func testArchive(t *testing.T, binary string) (archive, map[string]string) {
	name := "terraform-provider-joinit_" + testVersion + "_linux_amd64.zip"
	path := writeZip(t, t.TempDir(), name, binary)
	sum, err := sha256File(path)
	if err != nil {
		t.Fatal(err)
	}
	return archive{name: name, path: path, goos: "linux", goarch: "amd64"}, map[string]string{name: sum}
}

func TestCheckArchiveWantsTheRegistryBinaryName(t *testing.T) {
	a, sums := testArchive(t, "terraform-provider-joinit_v"+testVersion)
	if err := checkArchive(a, testVersion, sums); err != nil {
		t.Errorf("the registry's layout refused: %v", err)
	}
	a, sums = testArchive(t, "terraform-provider-joinit")
	if err := checkArchive(a, testVersion, sums); err == nil || !strings.Contains(err.Error(), "terraform-provider-joinit_v"+testVersion) {
		t.Errorf("a binary without _v<version> accepted: %v", err)
	}
	a, sums = testArchive(t, "terraform-provider-joinit_v"+testVersion)
	sums[a.name] = strings.Repeat("0", 64)
	if err := checkArchive(a, testVersion, sums); err == nil || !strings.Contains(err.Error(), "SHA256SUMS") {
		t.Errorf("a wrong SHA256SUMS line accepted: %v", err)
	}
}

func TestCheckLockWantsTheZipsHash(t *testing.T) {
	a, sums := testArchive(t, "terraform-provider-joinit_v"+testVersion)
	h1, err := dirhash.HashZip(a.path, dirhash.Hash1)
	if err != nil {
		t.Fatal(err)
	}
	lock := func(version string, hashes ...string) string {
		path := filepath.Join(t.TempDir(), ".terraform.lock.hcl")
		body := "provider \"registry.terraform.io/joinit-community/joinit\" {\n  version = \"" + version + "\"\n  hashes = [\n"
		for _, h := range hashes {
			body += "    \"" + h + "\",\n"
		}
		os.WriteFile(path, []byte(body+"  ]\n}\n"), 0o644)
		return path
	}
	check := func(path string) error {
		return checkLock(path, "registry.terraform.io", testVersion, []archive{a}, sums)
	}
	if err := check(lock(testVersion, h1)); err != nil {
		t.Errorf("the zip's own h1 refused: %v", err)
	}
	if err := check(lock(testVersion, h1, "zh:"+sums[a.name])); err != nil {
		t.Errorf("the SHA256SUMS zh refused: %v", err)
	}
	if err := check(lock(testVersion, "h1:AAAA")); err == nil {
		t.Error("a lock without the zip's h1 accepted")
	}
	if err := check(lock(testVersion, h1, "zh:"+strings.Repeat("1", 64))); err == nil {
		t.Error("a zh hash of no archive accepted")
	}
	if err := check(lock("0.0.1", h1)); err == nil {
		t.Error("another version accepted")
	}
	if err := checkLock(lock(testVersion, h1), "registry.opentofu.org", testVersion, []archive{a}, sums); err == nil {
		t.Error("a lock under another registry host accepted")
	}
}
