package manifests

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// optionalEntry is a resources entry kustomization.yaml holds commented
// out: "  # - name.yaml", alone on its line (anything after the name is
// what an operator would uncomment with it).
var optionalEntry = regexp.MustCompile(`^(\s*)# (- (\S+).*)$`)

// TestOptionalEntriesUncomment lists each optional file as an operator
// does: the leading "# " of its one line in kustomization.yaml deleted,
// nothing else changed; kustomize must then build the directory, with the
// file's objects in it, and each must decode strictly (issue 69: a note
// kept after the name on that line made it a YAML object, or part of the
// file's name). Every YAML file of the directory that the build does not
// list must be one of these entries, but the Secret's template.
func TestOptionalEntriesUncomment(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(dir, kustFileName))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var optional []string
	all := slices.Clone(lines) // every optional entry listed at once
	for i, line := range lines {
		m := optionalEntry.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		name := m[3]
		optional = append(optional, name)
		all[i] = m[1] + m[2]
		t.Run(name, func(t *testing.T) {
			edited := slices.Clone(lines)
			edited[i] = m[1] + m[2]
			checkListed(t, buildEdited(t, strings.Join(edited, "\n")), name)
		})
	}
	if len(optional) == 0 {
		t.Fatalf("%s: no commented resources entry (a line \"  # - name.yaml\")", kustFileName)
	}
	t.Run("all", func(t *testing.T) {
		objs := buildEdited(t, strings.Join(all, "\n"))
		for _, name := range optional {
			checkListed(t, objs, name)
		}
	})
	k := kustomization(t)
	for _, name := range yamlFiles(t) {
		if name == "secret.example.yaml" || slices.Contains(k.Resources, name) {
			continue
		}
		if !slices.Contains(optional, name) {
			t.Errorf("%s: neither listed in %s's resources nor there as a commented entry (\"  # - %s\" on a line of its own)", name, kustFileName, name)
		}
	}
}

// checkListed fails unless the build holds each object of the file name.
func checkListed(t *testing.T, objs []object, name string) {
	t.Helper()
	for _, want := range fileObjectsOf(t, name) {
		if !slices.ContainsFunc(objs, func(o object) bool { return sameObject(o, want) }) {
			t.Errorf("kustomize build with %s listed: no %s", name, want)
		}
	}
}

// buildEdited builds a copy of the directory whose kustomization.yaml is
// the given text, and decodes each object strictly.
func buildEdited(t *testing.T, kustomizationText string) []object {
	t.Helper()
	fs := filesys.MakeFsInMemory()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == kustFileName {
			data = []byte(kustomizationText)
		}
		if err := fs.WriteFile(filepath.Join("/app", e.Name()), data); err != nil {
			t.Fatal(err)
		}
	}
	resources, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(fs, "/app")
	if err != nil {
		t.Fatalf("kustomize build: %v", err)
	}
	return decodeBuilt(t, resources)
}

// fileObjectsOf decodes one file of the directory strictly.
func fileObjectsOf(t *testing.T, name string) []object {
	t.Helper()
	var objs []object
	for _, o := range fileObjects(t) {
		if o.where == name || strings.HasPrefix(o.where, name+" (") {
			objs = append(objs, o)
		}
	}
	if len(objs) == 0 {
		t.Fatalf("%s: no object (is the file there?)", name)
	}
	return objs
}

// sameObject says whether two decoded objects have one kind and name.
func sameObject(a, b object) bool {
	name := func(o object) string {
		if m, ok := o.obj.(interface{ GetName() string }); ok {
			return m.GetName()
		}
		return ""
	}
	return a.obj.GetObjectKind().GroupVersionKind().Kind == b.obj.GetObjectKind().GroupVersionKind().Kind && name(a) == name(b)
}
