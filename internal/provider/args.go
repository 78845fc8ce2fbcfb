package provider

import (
	"fmt"
	"math/big"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// argError is a bad argument value, reported against its attribute.
type argError struct {
	attr string
	msg  string
}

func (e *argError) Error() string { return fmt.Sprintf("%s: %s", e.attr, e.msg) }

// arguments gives typed access to the arguments a data source's
// configuration sets (its other attributes are results, null in it).
type arguments struct{ attrs map[string]tftypes.Value }

func newArguments(v tftypes.Value) (arguments, error) {
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		return arguments{}, fmt.Errorf("the configuration is not an object: %w", err)
	}
	return arguments{attrs: attrs}, nil
}

// optionalInt64 returns the argument's value, def when it is not set.
func (a arguments) optionalInt64(name string, def *int64) (*int64, error) {
	v, ok := a.attrs[name]
	if !ok || v.IsNull() {
		return def, nil
	}
	if !v.IsKnown() {
		return nil, &argError{name, "the value is not known yet; data sources are read with known arguments only"}
	}
	var f big.Float
	if err := v.As(&f); err != nil {
		return nil, &argError{name, err.Error()}
	}
	n, acc := f.Int64()
	if acc != big.Exact {
		return nil, &argError{name, fmt.Sprintf("%s is not a whole number", f.Text('g', -1))}
	}
	return &n, nil
}

// optionalBool returns the argument's value, def when it is not set.
func (a arguments) optionalBool(name string, def bool) (*bool, error) {
	v, ok := a.attrs[name]
	if !ok || v.IsNull() {
		return &def, nil
	}
	if !v.IsKnown() {
		return nil, &argError{name, "the value is not known yet; data sources are read with known arguments only"}
	}
	var b bool
	if err := v.As(&b); err != nil {
		return nil, &argError{name, err.Error()}
	}
	return &b, nil
}

// pageSize reads page_size, defaulting to and bounded by maxSize.
func (a arguments) pageSize(maxSize int64) (*int64, error) {
	size, err := a.optionalInt64("page_size", &maxSize)
	if err != nil {
		return nil, err
	}
	if *size < 1 || *size > maxSize {
		return nil, &argError{"page_size", fmt.Sprintf("must be between 1 and %d, got %d", maxSize, *size)}
	}
	return size, nil
}

func ptr[T any](v T) *T { return &v }

// optionalStrings returns a list or set of strings argument's elements in
// the order Terraform sent them; set is false when it is null.
func (a arguments) optionalStrings(name string) (elems []*string, set bool, err error) {
	v, ok := a.attrs[name]
	if !ok || v.IsNull() {
		return nil, false, nil
	}
	unknown := &argError{name, "the value is not known yet; data sources are read with known arguments only"}
	if !v.IsKnown() {
		return nil, false, unknown
	}
	var vals []tftypes.Value
	if err := v.As(&vals); err != nil {
		return nil, false, &argError{name, err.Error()}
	}
	elems = make([]*string, len(vals))
	for i, e := range vals {
		if !e.IsKnown() {
			return nil, false, unknown
		}
		if e.IsNull() {
			return nil, false, &argError{name, fmt.Sprintf("element %d is null", i)}
		}
		var s string
		if err := e.As(&s); err != nil {
			return nil, false, &argError{name, err.Error()}
		}
		elems[i] = &s
	}
	return elems, true, nil
}
