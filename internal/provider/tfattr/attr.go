// Package tfattr is the provider's attribute language: a data source's
// schema declared once, as a tree of Attrs, and everything that follows
// from that one declaration — the framework schema (validation, docs), the
// Terraform types, the parse of the configured arguments into the state,
// the direct msgpack encoding of the state, and the reference
// tftypes.Value that encoding is tested against. It also holds the value
// rules the provider's settings share with arguments: whole numbers,
// durations, the timeouts block.
//
// It imports nothing of this module (depguard's tfattr rule): the provider
// declares data sources in it, never the other way round.
package tfattr

import (
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

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

// DynamicView is a dynamic attribute's value: the Attr that declares its
// concrete type and value, and the parent that Attr reads from; Null
// when the value is null.
type DynamicView struct {
	Null   bool
	Of     Attr
	Parent any
}

// stringAt is element i of a kindStringList or kindStringSet view.
func (l listView) stringAt(i int) *string {
	return l.at(i).(*string) //nolint:forcetypeassert // only StrList and StrSet make these views, and its at returns a *string
}

// Attr is one attribute: its name, type, description, and how to read its
// value from the Go value that stands for its parent object.
type Attr struct {
	name     string
	desc     string
	kind     kind
	children []Attr // object kinds, sorted by name

	str     func(parent any) *string
	num     func(parent any) *int64
	boolean func(parent any) *bool
	obj     func(parent any) (any, bool) // false: null
	list    func(parent any) listView
	dyn     func(parent any) DynamicView

	// arg, when set, makes this a configurable argument: the framework
	// attribute carries Optional/Computed and validators. Its type must
	// match kind (a test checks).
	arg schema.Attribute
	// parse puts the argument's configured value into the state before
	// the read (args.go, timeouts.go); nil for results.
	parse func(args arguments, state any) error
	// block, when set, makes this a nested block of the framework schema
	// rather than an attribute (the timeouts block); in state it is an
	// object like any other.
	block schema.Block
}

// Name is the attribute's name.
func (a Attr) Name() string { return a.name }

// Children are an object's or a list of objects' attributes, sorted by
// name; none for any other kind.
func (a Attr) Children() []Attr { return a.children }

// parentAs recovers the Go value a getter declared for *R reads from. The
// tree is only walked with the values it was declared for: the root is the
// state a data source's read returns for its own attrs, and Object and
// ObjectList hand their children the *C their own getters return.
func parentAs[R any](p any) *R {
	return p.(*R) //nolint:forcetypeassert // a mismatch is a declaration bug, which the provider's TestEncodeStateMatchesFrameworkEncoding hits for every data source
}

func Str[R any](name, desc string, get func(*R) *string) Attr {
	return Attr{name: name, desc: desc, kind: kindString, str: func(p any) *string { return get(parentAs[R](p)) }}
}

func Num[R any](name, desc string, get func(*R) *int64) Attr {
	return Attr{name: name, desc: desc, kind: kindInt, num: func(p any) *int64 { return get(parentAs[R](p)) }}
}

func Bool[R any](name, desc string, get func(*R) *bool) Attr {
	return Attr{name: name, desc: desc, kind: kindBool, boolean: func(p any) *bool { return get(parentAs[R](p)) }}
}

// StrList is a list of strings; get returns false for a null list.
func StrList[R any](name, desc string, get func(*R) ([]*string, bool)) Attr {
	return Attr{name: name, desc: desc, kind: kindStringList, list: func(p any) listView {
		items, ok := get(parentAs[R](p))
		if !ok {
			return listView{null: true}
		}
		return listView{n: len(items), at: func(i int) any { return items[i] }}
	}}
}

// StrSet is a set of strings; get returns false for a null set.
func StrSet[R any](name, desc string, get func(*R) ([]*string, bool)) Attr {
	a := StrList(name, desc, get)
	a.kind = kindStringSet
	return a
}

// Dynamic is an attribute whose concrete type the getter decides per value.
func Dynamic[R any](name, desc string, get func(*R) DynamicView) Attr {
	return Attr{name: name, desc: desc, kind: kindDynamic, dyn: func(p any) DynamicView { return get(parentAs[R](p)) }}
}

// Object is a nested object; get returns nil for null.
func Object[R, C any](name, desc string, get func(*R) *C, children ...Attr) Attr {
	return Attr{name: name, desc: desc, kind: kindObject, children: Sorted(children), obj: func(p any) (any, bool) {
		c := get(parentAs[R](p))
		return c, c != nil
	}}
}

// ObjectList is a list of objects; get returns false for a null list.
func ObjectList[R, C any](name, desc string, get func(*R) ([]C, bool), children ...Attr) Attr {
	return Attr{name: name, desc: desc, kind: kindObjectList, children: Sorted(children), list: func(p any) listView {
		items, ok := get(parentAs[R](p))
		if !ok {
			return listView{null: true}
		}
		return listView{n: len(items), at: func(i int) any { return &items[i] }}
	}}
}

// asArg makes a an argument declared by the given framework attribute.
func asArg(a Attr, declared schema.Attribute) Attr {
	a.arg = declared
	return a
}

// Sorted orders attributes by name: msgpack objects are encoded that way.
func Sorted(attrs []Attr) []Attr {
	out := append([]Attr(nil), attrs...)
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}
