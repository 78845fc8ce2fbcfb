package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// The companion programs (cmd/): joinit-token, the OAuth helper, and
// joinit-relay, the webhook relay, are each released beside the provider as
// archives of their own, with checksums of their own: nothing of them may be
// in the provider's SHA256SUMS, which is the set the registry reads.
var companions = []string{"joinit-token", "joinit-relay"}

// companionArchiveName is the name of a companion's archive for a platform:
// .zip on Windows, .tar.gz elsewhere.
func companionArchiveName(name, version, goos, goarch string) string {
	ext := ".tar.gz"
	if goos == "windows" {
		ext = ".zip"
	}
	return fmt.Sprintf("%s_%s_%s_%s%s", name, version, goos, goarch, ext)
}

// checkCompanionRelease: the companion was archived, every archive is
// listed with its hash in <name>_<version>_SHA256SUMS and holds the
// executable, and the provider's SHA256SUMS names none of it.
func checkCompanionRelease(dist, name, version string, archives []archive, providerSums map[string]string) error {
	if len(archives) == 0 {
		return fmt.Errorf("the snapshot built no archive of %s", name)
	}
	for listed := range providerSums {
		if strings.HasPrefix(listed, name) {
			return fmt.Errorf("the provider's SHA256SUMS lists %s: the registry reads that file, and %s has checksums of its own", listed, name)
		}
	}
	sumsName := fmt.Sprintf("%s_%s_SHA256SUMS", name, version)
	sums, err := readSums(filepath.Join(dist, sumsName))
	if err != nil {
		return err
	}
	if len(sums) != len(archives) {
		return fmt.Errorf("%s lists %d files, want the %d archives of %s", sumsName, len(sums), len(archives), name)
	}
	for _, a := range archives {
		sum, err := sha256File(a.path)
		if err != nil {
			return err
		}
		if sums[a.name] != sum {
			return fmt.Errorf("%s: %s is listed as %q, its sha256 is %s", sumsName, a.name, sums[a.name], sum)
		}
		bin := name
		if a.goos == "windows" {
			bin += ".exe"
		}
		if err := holdsExecutable(a, bin); err != nil {
			return err
		}
		fmt.Printf("ok  %s holds %s (sha256 %s, as in %s)\n", a.name, bin, sum[:12], sumsName)
	}
	return nil
}

// holdsExecutable checks that archive a (tar.gz or zip) holds bin, with an
// executable mode outside Windows.
func holdsExecutable(a archive, bin string) error {
	var names []string
	check := func(name string, mode os.FileMode) (bool, error) {
		names = append(names, name)
		if name != bin {
			return false, nil
		}
		if a.goos != "windows" && mode.Perm()&0o111 == 0 {
			return true, fmt.Errorf("%s: %s is not executable (mode %v)", a.name, bin, mode)
		}
		return true, nil
	}
	if strings.HasSuffix(a.name, ".zip") {
		zr, err := zip.OpenReader(a.path)
		if err != nil {
			return err
		}
		defer zr.Close()
		for _, f := range zr.File {
			if found, err := check(f.Name, f.Mode()); found || err != nil {
				return err
			}
		}
		return fmt.Errorf("%s holds %v, not %s", a.name, names, bin)
	}
	f, err := os.Open(a.path)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", a.name, err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return fmt.Errorf("%s holds %v, not %s", a.name, names, bin)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", a.name, err)
		}
		if found, err := check(h.Name, h.FileInfo().Mode()); found || err != nil {
			return err
		}
	}
}
