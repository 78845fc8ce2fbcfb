package main

import (
	"archive/zip"
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/mod/sumdb/dirhash"
)

const (
	projectName = "terraform-provider-joinit"
	// The provider serves plugin protocol 6 (main.go: tf6server); the
	// registry reads the protocol from the manifest.
	protocolVersion = "6.0"
)

// runVerify checks the snapshot's artifacts; with -lock, it checks instead
// that the lock file init wrote holds the host's archive hashes.
func runVerify(args []string) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	dist := fs.String("dist", "", "GoReleaser's dist directory of the snapshot")
	manifest := fs.String("manifest", "terraform-registry-manifest.json", "the project's registry manifest")
	lock := fs.String("lock", "", "the .terraform.lock.hcl written by init")
	host := fs.String("host", "registry.terraform.io", "the registry host the provider was installed under")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dist == "" {
		return errors.New("verify needs -dist")
	}
	version, err := snapshotVersion(*dist)
	if err != nil {
		return err
	}
	archives, companionArchives, err := archivesOf(*dist, version)
	if err != nil {
		return err
	}
	sums, err := readSums(filepath.Join(*dist, fmt.Sprintf("%s_%s_SHA256SUMS", projectName, version)))
	if err != nil {
		return err
	}
	if *lock != "" {
		return checkLock(*lock, *host, version, archives, sums)
	}
	for _, a := range archives {
		if err := checkArchive(a, version, sums); err != nil {
			return err
		}
	}
	if err := checkManifest(*manifest, version, sums); err != nil {
		return err
	}
	for _, name := range companions {
		if err := checkCompanionRelease(*dist, name, version, companionArchives[name], sums); err != nil {
			return err
		}
	}
	return nil
}

type archive struct {
	name, path, goos, goarch string
}

func snapshotVersion(dist string) (string, error) {
	var meta struct {
		ProjectName string `json:"project_name"`
		Version     string `json:"version"`
	}
	if err := readJSON(filepath.Join(dist, "metadata.json"), &meta); err != nil {
		return "", err
	}
	if meta.ProjectName != projectName {
		return "", fmt.Errorf("project_name is %q, the registry needs %q", meta.ProjectName, projectName)
	}
	return meta.Version, nil
}

// archivesOf returns the provider's archives and each companion's, by name,
// checking their names; an archive of none of them is an error.
func archivesOf(dist, version string) (provider []archive, companion map[string][]archive, err error) {
	var list []struct {
		Name   string `json:"name"`
		Path   string `json:"path"`
		Goos   string `json:"goos"`
		Goarch string `json:"goarch"`
		Type   string `json:"type"`
	}
	if err := readJSON(filepath.Join(dist, "artifacts.json"), &list); err != nil {
		return nil, nil, err
	}
	for _, a := range list {
		if a.Type != "Archive" {
			continue
		}
		arch := archive{name: a.Name, path: a.Path, goos: a.Goos, goarch: a.Goarch}
		if name := companionOf(a.Name); name != "" {
			if want := companionArchiveName(name, version, a.Goos, a.Goarch); a.Name != want {
				return nil, nil, fmt.Errorf("archive %q: want %q", a.Name, want)
			}
			if companion == nil {
				companion = map[string][]archive{}
			}
			companion[name] = append(companion[name], arch)
			continue
		}
		want := fmt.Sprintf("%s_%s_%s_%s.zip", projectName, version, a.Goos, a.Goarch)
		if a.Name != want {
			return nil, nil, fmt.Errorf("archive %q: the registry expects %q", a.Name, want)
		}
		provider = append(provider, arch)
	}
	if len(provider) == 0 {
		return nil, nil, errors.New("the snapshot built no archive of the provider")
	}
	return provider, companion, nil
}

// companionOf is the companion an archive's name is of; "" for none.
func companionOf(archiveName string) string {
	for _, name := range companions {
		if strings.HasPrefix(archiveName, name+"_") {
			return name
		}
	}
	return ""
}

// checkArchive: the zip is listed in SHA256SUMS with its hash, and holds the
// binary under the name Terraform and the registry expect, executable.
func checkArchive(a archive, version string, sums map[string]string) error {
	sum, err := sha256File(a.path)
	if err != nil {
		return err
	}
	if got, ok := sums[a.name]; !ok || got != sum {
		return fmt.Errorf("SHA256SUMS: %s is listed as %q, its sha256 is %s", a.name, got, sum)
	}
	bin := fmt.Sprintf("%s_v%s", projectName, version)
	if a.goos == "windows" {
		bin += ".exe"
	}
	zr, err := zip.OpenReader(a.path)
	if err != nil {
		return err
	}
	defer zr.Close()
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
		if f.Name != bin {
			continue
		}
		if a.goos != "windows" && f.Mode().Perm()&0o111 == 0 {
			return fmt.Errorf("%s: %s is not executable (mode %v)", a.name, bin, f.Mode())
		}
		fmt.Printf("ok  %s holds %s (sha256 %s, as in SHA256SUMS)\n", a.name, bin, sum[:12])
		return nil
	}
	return fmt.Errorf("%s holds %v, not the binary %s the registry expects", a.name, names, bin)
}

// checkManifest: the project's manifest declares the protocol the provider
// serves, and SHA256SUMS lists it under the name the registry reads.
func checkManifest(path, version string, sums map[string]string) error {
	var m struct {
		Version  int `json:"version"`
		Metadata struct {
			ProtocolVersions []string `json:"protocol_versions"`
		} `json:"metadata"`
	}
	if err := readJSON(path, &m); err != nil {
		return err
	}
	if m.Version != 1 || !slices.Equal(m.Metadata.ProtocolVersions, []string{protocolVersion}) {
		return fmt.Errorf("%s: version %d, protocol_versions %v; want version 1 and [%q]", path, m.Version, m.Metadata.ProtocolVersions, protocolVersion)
	}
	name := fmt.Sprintf("%s_%s_manifest.json", projectName, version)
	sum, err := sha256File(path)
	if err != nil {
		return err
	}
	if sums[name] != sum {
		return fmt.Errorf("SHA256SUMS lists %s as %q; %s has sha256 %s", name, sums[name], path, sum)
	}
	fmt.Printf("ok  SHA256SUMS lists %s (protocol_versions [%q])\n", name, protocolVersion)
	return nil
}

var (
	lockBlockRe = regexp.MustCompile(`(?s)provider "([^"]+)" \{(.*?)\n\}`)
	lockVerRe   = regexp.MustCompile(`\bversion\s*=\s*"([^"]+)"`)
	lockHashRe  = regexp.MustCompile(`"((?:h1|zh):[^"]+)"`)
)

// checkLock: init recorded the snapshot's version and the archive's hashes:
// h1 (the hash of the zip's contents, what Terraform checks on every later
// init) and any zh entries equal to the SHA256SUMS lines of archives.
func checkLock(path, host, version string, archives []archive, sums map[string]string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	addr := host + "/joinit-community/joinit"
	var body string
	for _, m := range lockBlockRe.FindAllStringSubmatch(string(b), -1) {
		if m[1] == addr {
			body = m[2]
		}
	}
	if body == "" {
		return fmt.Errorf("%s has no provider %q", path, addr)
	}
	if v := lockVerRe.FindStringSubmatch(body); v == nil || v[1] != version {
		return fmt.Errorf("%s: %s is locked at %v, the snapshot is %s", path, addr, v, version)
	}
	var hashes []string
	for _, m := range lockHashRe.FindAllStringSubmatch(body, -1) {
		hashes = append(hashes, m[1])
	}
	zipSums := map[string]bool{}
	for _, a := range archives {
		zipSums["zh:"+sums[a.name]] = true
		h1, err := dirhash.HashZip(a.path, dirhash.Hash1)
		if err != nil {
			return err
		}
		if !slices.Contains(hashes, h1) {
			return fmt.Errorf("%s: the hashes of %s are %v, without %s, the hash of %s", path, addr, hashes, h1, a.name)
		}
		fmt.Printf("ok  %s locks %s %s with %s (%s)\n", filepath.Base(path), addr, version, h1, a.name)
	}
	for _, h := range hashes {
		if strings.HasPrefix(h, "zh:") {
			if !zipSums[h] {
				return fmt.Errorf("%s: %s is not the SHA256SUMS hash of any archive", path, h)
			}
			fmt.Printf("ok  %s records %s, the SHA256SUMS line of the archive\n", filepath.Base(path), h)
		}
	}
	return nil
}

func readSums(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sums := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		hash, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			return nil, fmt.Errorf("%s: line %q is not \"<sha256>  <name>\"", path, sc.Text())
		}
		sums[name] = hash
	}
	return sums, sc.Err()
}

func sha256File(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
