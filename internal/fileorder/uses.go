package main

import (
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
)

// A use is one file naming something another file of its package declares:
// a package-level function, type, variable or constant, a method, or a
// field (charged to the file that declares the field).
type use struct {
	from, to string // file names, without their directory
	name     string // F, T.Method, T.field (.field for a struct without a name)
}

// uses lists the uses across the files of one type-checked package, each
// once, sorted. A file's uses of its own names are not uses.
func uses(fset *token.FileSet, info *types.Info, pkg *types.Package) []use {
	owners := fieldOwners(pkg)
	seen := map[use]bool{}
	for id, obj := range info.Uses {
		if obj == nil || obj.Pkg() != pkg || !declaredOnce(obj) {
			continue
		}
		u := use{
			from: filepath.Base(fset.Position(id.Pos()).Filename),
			to:   filepath.Base(fset.Position(obj.Pos()).Filename),
			name: nameOf(obj, owners),
		}
		if u.from != u.to {
			seen[u] = true
		}
	}
	out := make([]use, 0, len(seen))
	for u := range seen {
		out = append(out, u)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.from != b.from {
			return a.from < b.from
		}
		if a.to != b.to {
			return a.to < b.to
		}
		return a.name < b.name
	})
	return out
}

// declaredOnce is true for what a file declares for the whole package: a
// package-level object, a method, or a field. Parameters, locals and
// labels belong to their function.
func declaredOnce(obj types.Object) bool {
	switch o := obj.(type) {
	case *types.Func:
		return true
	case *types.Var:
		return o.IsField() || o.Parent() == o.Pkg().Scope()
	case *types.TypeName, *types.Const:
		return o.Parent() == o.Pkg().Scope()
	}
	return false
}

// fieldOwners names the package-level struct type each field belongs to,
// by the field's position.
func fieldOwners(pkg *types.Package) map[token.Pos]string {
	owners := map[token.Pos]string{}
	for _, n := range pkg.Scope().Names() {
		tn, ok := pkg.Scope().Lookup(n).(*types.TypeName)
		if !ok {
			continue
		}
		if s, ok := tn.Type().Underlying().(*types.Struct); ok {
			for f := range s.Fields() {
				owners[f.Pos()] = tn.Name()
			}
		}
	}
	return owners
}

// nameOf is how a problem names a use: F, T.Method or T.field.
func nameOf(obj types.Object, owners map[token.Pos]string) string {
	switch o := obj.(type) {
	case *types.Func:
		if recv := o.Signature().Recv(); recv != nil {
			t := recv.Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if n, ok := t.(*types.Named); ok {
				return n.Obj().Name() + "." + o.Name()
			}
		}
	case *types.Var:
		if o.IsField() {
			return owners[o.Pos()] + "." + o.Name()
		}
	}
	return obj.Name()
}

// byFile groups uses by the pair of files, keeping the names in order.
func byFile(us []use) map[[2]string][]string {
	out := map[[2]string][]string{}
	for _, u := range us {
		k := [2]string{u.from, u.to}
		out[k] = append(out[k], u.name)
	}
	return out
}
