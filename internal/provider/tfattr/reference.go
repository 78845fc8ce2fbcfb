package tfattr

import (
	"math/big"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// ReferenceValue builds the state as a tftypes.Value, the framework's own
// representation. It serves the framework's Read (a path used only when the
// provider runs without the fast server, as in tests) and is the yardstick
// the direct encoding is compared with, byte for byte.
func ReferenceValue(attrs []Attr, parent any) tftypes.Value {
	vals := make(map[string]tftypes.Value, len(attrs))
	for i := range attrs {
		vals[attrs[i].name] = referenceAttr(&attrs[i], parent)
	}
	return tftypes.NewValue(ObjectType(attrs), vals)
}

func referenceAttr(a *Attr, parent any) tftypes.Value {
	typ := terraformType(*a)
	switch a.kind {
	case kindString:
		return referenceString(a.str(parent))
	case kindInt:
		if n := a.num(parent); n != nil {
			return tftypes.NewValue(typ, new(big.Float).SetInt64(*n))
		}
	case kindBool:
		if b := a.boolean(parent); b != nil {
			return tftypes.NewValue(typ, *b)
		}
	case kindStringList, kindStringSet:
		if l := a.list(parent); !l.null {
			elems := make([]tftypes.Value, l.n)
			for i := range elems {
				elems[i] = referenceString(l.stringAt(i))
			}
			return tftypes.NewValue(typ, elems)
		}
	case kindDynamic:
		// A null dynamic value has no concrete type; any other is the
		// value of its concrete type, which the encoder wraps with it.
		if v := a.dyn(parent); !v.Null {
			return referenceAttr(&v.Of, v.Parent)
		}
	case kindObject:
		if child, ok := a.obj(parent); ok {
			return ReferenceValue(a.children, child)
		}
	case kindObjectList:
		if l := a.list(parent); !l.null {
			elems := make([]tftypes.Value, l.n)
			for i := range elems {
				elems[i] = ReferenceValue(a.children, l.at(i))
			}
			return tftypes.NewValue(typ, elems)
		}
	}
	return tftypes.NewValue(typ, nil)
}

func referenceString(s *string) tftypes.Value {
	if s == nil {
		return tftypes.NewValue(tftypes.String, nil)
	}
	return tftypes.NewValue(tftypes.String, *s)
}
