package provider

import (
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

// A data source's schema is declared once, as a tree of attrs. From it come
// the framework schema (validation, docs), the Terraform types, the direct
// msgpack encoding of large results, and the reference tftypes.Value the
// encoding is tested against.

type kind int

const (
	kindString kind = iota
	kindInt
	kindBool
	kindStringList
	kindObject
	kindObjectList
	// kindStringSet is a set of strings, written in the order it is held
	// (Terraform does not order sets; the reference value keeps the same).
	kindStringSet
	// kindDynamic is Terraform's dynamic type: the concrete type is chosen
	// per read (the `records` of `fields`), so the value carries it.
	kindDynamic
)

// listView is a list seen without copying it: n elements, each from at.
type listView struct {
	null bool
	n    int
	at   func(i int) any
}

// dynamicView is a dynamic attribute's value: the attr that declares its
// concrete type and value, and the parent that attr reads from.
type dynamicView struct {
	null   bool
	of     attr
	parent any
}

// stringAt is element i of a kindStringList or kindStringSet view.
func (l listView) stringAt(i int) *string {
	return l.at(i).(*string) //nolint:forcetypeassert // only strList makes kindStringList views, and its at returns a *string
}

// attr is one attribute: its name, type, description, and how to read its
// value from the Go value that stands for its parent object.
type attr struct {
	name     string
	desc     string
	kind     kind
	children []attr // object kinds, sorted by name

	str     func(parent any) *string
	num     func(parent any) *int64
	boolean func(parent any) *bool
	obj     func(parent any) (any, bool) // false: null
	list    func(parent any) listView
	dyn     func(parent any) dynamicView

	// arg, when set, makes this a configurable argument: the framework
	// attribute carries Optional/Computed and validators. Its type must
	// match kind (a test checks).
	arg schema.Attribute
	// parse puts the argument's configured value into the state before
	// the read (args.go); nil for results and for the timeouts block.
	parse func(args arguments, state any) error
	// block, when set, makes this a nested block of the framework schema
	// rather than an attribute (the timeouts block); in state it is an
	// object like any other.
	block schema.Block
}

// parentAs recovers the Go value a getter declared for *R reads from. The
// tree is only walked with the values it was declared for: the root is the
// state a data source's read returns for its own attrs, and object and
// objectList hand their children the *C their own getters return.
func parentAs[R any](p any) *R {
	return p.(*R) //nolint:forcetypeassert // a mismatch is a declaration bug, which TestEncodeStateMatchesFrameworkEncoding hits for every data source
}

func str[R any](name, desc string, get func(*R) *string) attr {
	return attr{name: name, desc: desc, kind: kindString, str: func(p any) *string { return get(parentAs[R](p)) }}
}

func num[R any](name, desc string, get func(*R) *int64) attr {
	return attr{name: name, desc: desc, kind: kindInt, num: func(p any) *int64 { return get(parentAs[R](p)) }}
}

func boolean[R any](name, desc string, get func(*R) *bool) attr {
	return attr{name: name, desc: desc, kind: kindBool, boolean: func(p any) *bool { return get(parentAs[R](p)) }}
}

// strList is a list of strings; get returns false for a null list.
func strList[R any](name, desc string, get func(*R) ([]*string, bool)) attr {
	return attr{name: name, desc: desc, kind: kindStringList, list: func(p any) listView {
		items, ok := get(parentAs[R](p))
		if !ok {
			return listView{null: true}
		}
		return listView{n: len(items), at: func(i int) any { return items[i] }}
	}}
}

// strSet is a set of strings; get returns false for a null set.
func strSet[R any](name, desc string, get func(*R) ([]*string, bool)) attr {
	a := strList(name, desc, get)
	a.kind = kindStringSet
	return a
}

// dynamic is an attribute whose concrete type the getter decides per value.
func dynamic[R any](name, desc string, get func(*R) dynamicView) attr {
	return attr{name: name, desc: desc, kind: kindDynamic, dyn: func(p any) dynamicView { return get(parentAs[R](p)) }}
}

// object is a nested object; get returns nil for null.
func object[R, C any](name, desc string, get func(*R) *C, children ...attr) attr {
	return attr{name: name, desc: desc, kind: kindObject, children: sorted(children), obj: func(p any) (any, bool) {
		c := get(parentAs[R](p))
		return c, c != nil
	}}
}

// objectList is a list of objects; get returns false for a null list.
func objectList[R, C any](name, desc string, get func(*R) ([]C, bool), children ...attr) attr {
	return attr{name: name, desc: desc, kind: kindObjectList, children: sorted(children), list: func(p any) listView {
		items, ok := get(parentAs[R](p))
		if !ok {
			return listView{null: true}
		}
		return listView{n: len(items), at: func(i int) any { return &items[i] }}
	}}
}

// asArg makes a an argument declared by the given framework attribute.
func asArg(a attr, declared schema.Attribute) attr {
	a.arg = declared
	return a
}

// sorted orders attributes by name: msgpack objects are encoded that way.
func sorted(attrs []attr) []attr {
	out := append([]attr(nil), attrs...)
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}
