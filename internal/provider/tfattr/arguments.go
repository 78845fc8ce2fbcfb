package tfattr

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// ArgError is a bad argument value, reported against its attribute.
type ArgError struct {
	Attr string
	Msg  string
}

func (e *ArgError) Error() string { return fmt.Sprintf("%s: %s", e.Attr, e.Msg) }

const notKnownYet = "the value is not known yet; data sources are read with known arguments only"

// arguments gives typed access to the arguments a data source's
// configuration sets (its other attributes are results, null in it).
type arguments map[string]tftypes.Value

func newArguments(v tftypes.Value) (arguments, error) {
	var args arguments
	if err := v.As((*map[string]tftypes.Value)(&args)); err != nil {
		return nil, fmt.Errorf("the configuration is not an object: %w", err)
	}
	return args, nil
}

// set returns the argument's value when it is set; an error when it is
// not known yet.
func (a arguments) set(name string) (tftypes.Value, bool, error) {
	v, ok := a[name]
	if !ok || v.IsNull() {
		return v, false, nil
	}
	if !v.IsKnown() {
		return v, false, &ArgError{name, notKnownYet}
	}
	return v, true, nil
}

// Strings is a list or set of strings as configured; Set is false when it
// is null.
type Strings struct {
	Values []*string
	Set    bool
}

func (v Strings) get() ([]*string, bool) { return v.Values, v.Set }

// strings returns a list or set of strings argument's elements in the
// order Terraform sent them.
func (a arguments) strings(name string) (Strings, error) {
	v, ok, err := a.set(name)
	if err != nil || !ok {
		return Strings{}, err
	}
	var vals []tftypes.Value
	if err := v.As(&vals); err != nil {
		return Strings{}, &ArgError{name, err.Error()}
	}
	elems := make([]*string, len(vals))
	for i, e := range vals {
		if !e.IsKnown() {
			return Strings{}, &ArgError{name, notKnownYet}
		}
		if e.IsNull() {
			return Strings{}, &ArgError{name, fmt.Sprintf("element %d is null", i)}
		}
		var s string
		if err := e.As(&s); err != nil {
			return Strings{}, &ArgError{name, err.Error()}
		}
		elems[i] = &s
	}
	return Strings{Values: elems, Set: true}, nil
}
