package main

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// source makes a package of the files given (name -> text after the
// package clause), with doc as the package doc of the first.
func source(t *testing.T, doc string, files map[string]string) pkg {
	t.Helper()
	fset := token.NewFileSet()
	var parsed []*ast.File
	names := slices.Sorted(maps.Keys(files))
	for i, name := range names {
		text := "package p\n" + files[name]
		if i == 0 && doc != "" {
			text = "// " + strings.ReplaceAll(doc, "\n", "\n// ") + "\n" + text
		}
		f, err := parser.ParseFile(fset, name, text, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	tp, err := (&types.Config{}).Check("p", fset, parsed, info)
	if err != nil {
		t.Fatal(err)
	}
	return pkg{path: "p", dir: "p", files: names, doc: doc, uses: uses(fset, info, tp)}
}

// messages are the problems as the command prints them, "file: message".
func messages(ps []problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.file+": "+p.msg)
	}
	return out
}

// wantProblems fails unless there are as many problems as wants, each
// holding every part of its want, in order.
func wantProblems(t *testing.T, p pkg, wants ...[]string) {
	t.Helper()
	got, _ := check(p)
	if len(got) != len(wants) {
		t.Fatalf("got %d problems, want %d:\n%s", len(got), len(wants), strings.Join(messages(got), "\n"))
	}
	for i, parts := range wants {
		m := messages(got[i : i+1])[0]
		for _, part := range parts {
			if !strings.Contains(m, part) {
				t.Errorf("problem %q does not say %q", m, part)
			}
		}
	}
}

// A layered package: base.go declares, mid.go uses base's, top.go both.
var layered = map[string]string{
	"base.go": "type Rec struct{ ID string }\nfunc (r Rec) Key() string { return r.ID }\nconst Size = 2\n",
	"mid.go":  "func keys(rs []Rec) []string { var k []string; for _, r := range rs { k = append(k, r.Key()) }; return k }\n",
	"top.go":  "func Read() []string { return keys(make([]Rec, Size)) }\n",
}

func TestAPackageInItsListedOrderPasses(t *testing.T) {
	t.Parallel()
	p := source(t, "Package p.\n\nIts files, bottom up (each uses only those above it): base (the record,\nits key); mid, top.", layered)
	wantProblems(t, p)
	if _, s := check(p); s != (summary{files: 3, refs: 3}) {
		t.Errorf("summary %+v, want 3 files and 3 pairs of files", s)
	}
}

// A file that uses a file listed after it is named, with what it uses and
// from where: functions, types, constants, methods and fields alike.
func TestAUseOfAFileListedAfterFails(t *testing.T) {
	t.Parallel()
	p := source(t, "Its files, bottom up (each uses only those above it): mid, base, top.", layered)
	wantProblems(t, p, []string{"mid.go: uses Rec, Rec.Key of base.go", "lists after it"})

	fields := map[string]string{
		"a.go": "type T struct{ n int }\n",
		"b.go": "func get(t T) int { return t.n }\n",
	}
	p = source(t, "Its files, bottom up (each uses only those above it): b, a.", fields)
	wantProblems(t, p, []string{"b.go: uses T, T.n of a.go"})
}

// Without a list, files that reach each other in a circle fail, with the
// way round it.
func TestFilesInACircleFail(t *testing.T) {
	t.Parallel()
	p := source(t, "", map[string]string{
		"a.go": "func A() int { return B() }\n",
		"b.go": "func B() int { return c }\n",
		"c.go": "var c = len(\"x\")\nfunc C() int { return A() }\n",
		"d.go": "func D() int { return A() }\n",
	})
	wantProblems(t, p, []string{"a.go: in a circle of 3 files", "(a.go b.go c.go)", "a.go uses B of b.go, b.go uses c of c.go, c.go uses A of a.go"})
	if _, s := check(p); s.inCircles != 3 {
		t.Errorf("%d files in circles, want 3 (d.go uses the circle, it is not in it)", s.inCircles)
	}
}

// The list names every file, and only files: a file left out, an entry
// that names none and an entry that is not a name each fail.
func TestTheListNamesEachFileAndOnlyFiles(t *testing.T) {
	t.Parallel()
	wantProblems(t, source(t, "Its files, bottom up (each uses only those above it): base, mid.", layered),
		[]string{"top.go: is not in the package doc's list"})
	wantProblems(t, source(t, "Its files, bottom up (each uses only those above it): base, words, mid, top.", layered),
		[]string{`names "words", which is no file`})
	wantProblems(t, source(t, "Its files, bottom up (each uses only those above it): base, mid, top, each with its test.", layered),
		[]string{`no file's name: "each with its test"`})
}

// An entry names the file's variants (x_unix.go) unless another names
// them more closely; a pattern names files by name; "one file ..." names
// the files no other entry does.
func TestVariantsPatternsAndTheUnnamedFiles(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"state.go":       "type S struct{}\n",
		"state_unix.go":  "func open() S { return S{} }\n",
		"state_other.go": "func other() S { return open() }\n",
		"ds_one.go":      "func one() S { return other() }\n",
		"ds_two.go":      "func two() S { return one() }\n",
		"groups.go":      "func g() S { return two() }\n",
		"people.go":      "func h() S { return g() }\n",
	}
	wantProblems(t, source(t, "Its files, bottom up (each uses only those above it): state, state_other, ds_*;\nthen one file an area (groups, people).", files))
	wantProblems(t, source(t, "Its files, bottom up (each uses only those above it): state, state_other, ds_*.", files),
		[]string{"groups.go: is not in the package doc's list"}, []string{"people.go: is not in the package doc's list"})
	wantProblems(t, source(t, "Its files, bottom up (each uses only those above it): state_other, state, ds_*, one file an area.", files),
		[]string{"state_other.go: uses S of state.go"}, []string{"state_other.go: uses open of state_unix.go"})
}

// The command reads a module as make lint does, prints each problem with
// the file's path and fails; a package in order passes.
func TestTheCommandFailsOnAModuleOutOfOrder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.24\n")
	write("good/a.go", "// Package good.\n//\n// Its files, bottom up (each uses only those above it): a, b.\npackage good\n\nimport \"strings\"\n\nfunc A() string { return strings.ToUpper(\"a\") }\n")
	write("good/b.go", "package good\n\nfunc B() string { return A() }\n")
	write("bad/a.go", "// Package bad.\n//\n// Its files, bottom up (each uses only those above it): a, b.\npackage bad\n\nfunc A() string { return B() }\n")
	write("bad/b.go", "package bad\n\nfunc B() string { return \"b\" }\n")

	var stdout, stderr bytes.Buffer
	if code := run([]string{"./good"}, dir, &stdout, &stderr); code != 0 {
		t.Fatalf("a package in order: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	code := run([]string{"-v", "./..."}, dir, &stdout, &stderr)
	want := filepath.Join("bad", "a.go") + ": uses B of b.go, which the package doc lists after it"
	if code != 1 || !strings.Contains(stdout.String(), want) || !strings.Contains(stdout.String(), "example.com/m/good: 2 files, 1 file-to-file references") {
		t.Fatalf("exit %d, want 1, and %q in:\n%s%s", code, want, stdout.String(), stderr.String())
	}
}
