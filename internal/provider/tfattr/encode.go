package tfattr

import (
	"bytes"
	"fmt"

	"github.com/vmihailenco/msgpack/v5"
)

// The state is written straight to msgpack, as Terraform reads it, without
// building a tftypes.Value of every record first: at 100,000 memberships
// that intermediate tree is most of the framework's cost. The calls mirror
// terraform-plugin-go's own encoder (the same library, attributes in name
// order, integers compact), and a test holds the bytes equal to
// tfprotov6.NewDynamicValue of the reference value.
//
// The state is encoded twice: once to count its bytes (EncodedSize, which
// the provider also measures against the message ceiling), once into a
// buffer of exactly that size (EncodeSized). Growing a buffer by doubling
// instead would leave about three times the state's size of garbage (87 MB
// of msgpack at 100,000 memberships) in the provider's peak memory; the
// counting pass costs a fraction of a second.

// EncodedSize is the size of the state's msgpack encoding, found without
// keeping any of it.
func EncodedSize(attrs []Attr, state any) (int64, error) {
	var n countingWriter
	if err := writeObject(msgpack.NewEncoder(&n), attrs, state); err != nil {
		return 0, err
	}
	return int64(n), nil
}

// EncodeSized encodes a state whose size EncodedSize has found.
func EncodeSized(attrs []Attr, state any, n int64) ([]byte, error) {
	buf := bytes.NewBuffer(make([]byte, 0, int(n)))
	if err := writeObject(msgpack.NewEncoder(buf), attrs, state); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// countingWriter counts what is written to it and keeps nothing.
type countingWriter int64

func (w *countingWriter) Write(p []byte) (int, error) {
	*w += countingWriter(len(p))
	return len(p), nil
}

// WriteByte and WriteString keep the encoder from wrapping the writer in a
// buffer of its own.
func (w *countingWriter) WriteByte(byte) error { *w++; return nil }

func (w *countingWriter) WriteString(s string) (int, error) {
	*w += countingWriter(len(s))
	return len(s), nil
}

func writeObject(enc *msgpack.Encoder, attrs []Attr, parent any) error {
	if err := enc.EncodeMapLen(len(attrs)); err != nil {
		return err
	}
	for i := range attrs {
		a := &attrs[i]
		if err := enc.EncodeString(a.name); err != nil {
			return err
		}
		if err := writeValue(enc, a, parent); err != nil {
			return fmt.Errorf("%s: %w", a.name, err)
		}
	}
	return nil
}

func writeValue(enc *msgpack.Encoder, a *Attr, parent any) error {
	switch a.kind {
	case kindString:
		return writeString(enc, a.str(parent))
	case kindInt:
		if n := a.num(parent); n != nil {
			return enc.EncodeInt(*n)
		}
		return enc.EncodeNil()
	case kindBool:
		if b := a.boolean(parent); b != nil {
			return enc.EncodeBool(*b)
		}
		return enc.EncodeNil()
	case kindStringList, kindStringSet:
		return writeList(enc, a.list(parent), func(i int, l listView) error {
			return writeString(enc, l.stringAt(i))
		})
	case kindDynamic:
		return writeDynamic(enc, a.dyn(parent))
	case kindObject:
		child, ok := a.obj(parent)
		if !ok {
			return enc.EncodeNil()
		}
		return writeObject(enc, a.children, child)
	case kindObjectList:
		return writeList(enc, a.list(parent), func(i int, l listView) error {
			if err := writeObject(enc, a.children, l.at(i)); err != nil {
				return fmt.Errorf("[%d].%w", i, err)
			}
			return nil
		})
	}
	return fmt.Errorf("unknown attribute kind %d", a.kind)
}

// writeDynamic writes a dynamic value as Terraform's msgpack has it: null
// as nil, anything else as a pair of its type's JSON (bytes) and its value.
func writeDynamic(enc *msgpack.Encoder, v DynamicView) error {
	if v.Null {
		return enc.EncodeNil()
	}
	typeJSON, err := terraformType(v.Of).MarshalJSON() //nolint:staticcheck // the wire format terraform-plugin-go writes for a dynamic value
	if err != nil {
		return err
	}
	if err := enc.EncodeArrayLen(2); err != nil {
		return err
	}
	if err := enc.EncodeBytes(typeJSON); err != nil {
		return err
	}
	return writeValue(enc, &v.Of, v.Parent)
}

// writeList writes a list's length and then each element with elem; a null
// list is nil.
func writeList(enc *msgpack.Encoder, l listView, elem func(i int, l listView) error) error {
	if l.null {
		return enc.EncodeNil()
	}
	if err := enc.EncodeArrayLen(l.n); err != nil {
		return err
	}
	for i := 0; i < l.n; i++ {
		if err := elem(i, l); err != nil {
			return err
		}
	}
	return nil
}

func writeString(enc *msgpack.Encoder, s *string) error {
	if s == nil {
		return enc.EncodeNil()
	}
	return enc.EncodeString(*s)
}
