package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// listed is what `go list -json` says of one package.
type listed struct {
	ImportPath     string
	Dir            string
	GoFiles        []string
	IgnoredGoFiles []string
	Export         string
	DepOnly        bool
	Error          *struct{ Err string }
}

// load reads the packages the patterns name, run from dir: the go command
// lists them with their dependencies and builds the dependencies' export
// data (from its cache after a build), so each package is type-checked
// from its own files alone, without its tests.
func load(ctx context.Context, dir string, patterns []string) ([]pkg, error) {
	args := append([]string{"list", "-deps", "-export", "-json=ImportPath,Dir,GoFiles,IgnoredGoFiles,Export,DepOnly,Error", "--"}, patterns...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	exports := map[string]string{}
	var targets []listed
	for dec := json.NewDecoder(bytes.NewReader(stdout)); ; {
		var l listed
		if err := dec.Decode(&l); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list: %w", err)
		}
		if l.Error != nil {
			return nil, fmt.Errorf("%s: %s", l.ImportPath, l.Error.Err)
		}
		exports[l.ImportPath] = l.Export
		if !l.DepOnly {
			targets = append(targets, l)
		}
	}
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	out := make([]pkg, 0, len(targets))
	for _, l := range targets {
		p, err := typeCheck(root, l, exports)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// typeCheck parses one package's files and finds the uses across them;
// root is where problems name its directory from.
func typeCheck(root string, l listed, exports map[string]string) (pkg, error) {
	fset := token.NewFileSet()
	files := make([]*ast.File, 0, len(l.GoFiles))
	doc := ""
	for _, name := range l.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(l.Dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return pkg{}, err
		}
		if f.Doc != nil {
			doc += f.Doc.Text() + "\n"
		}
		files = append(files, f)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		if exports[path] == "" {
			return nil, fmt.Errorf("go list built no export data for %s", path)
		}
		return os.Open(exports[path])
	})}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	tp, err := conf.Check(l.ImportPath, fset, files, info)
	if err != nil {
		return pkg{}, fmt.Errorf("%s: %w", l.ImportPath, err)
	}
	rel, err := filepath.Rel(root, l.Dir)
	if err != nil {
		rel = l.Dir
	}
	return pkg{
		path: l.ImportPath, dir: rel, files: l.GoFiles, ignored: l.IgnoredGoFiles,
		doc: doc, uses: uses(fset, info, tp),
	}, nil
}
