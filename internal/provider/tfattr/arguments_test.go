package tfattr

import (
	"errors"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A list or set of strings reads in the order Terraform sent it; unset is
// not set; an unknown value or element, or a null element, is an
// ArgError naming the argument.
func TestOptionalStrings(t *testing.T) {
	t.Parallel()
	list := tftypes.List{ElementType: tftypes.String}
	args := arguments{
		"set":          tftypes.NewValue(list, []tftypes.Value{tftypes.NewValue(tftypes.String, "b"), tftypes.NewValue(tftypes.String, "a")}),
		"null":         tftypes.NewValue(list, nil),
		"unknown":      tftypes.NewValue(list, tftypes.UnknownValue),
		"unknown elem": tftypes.NewValue(list, []tftypes.Value{tftypes.NewValue(tftypes.String, tftypes.UnknownValue)}),
		"null elem":    tftypes.NewValue(list, []tftypes.Value{tftypes.NewValue(tftypes.String, nil)}),
	}
	if got, err := args.strings("set"); err != nil || !got.Set || len(got.Values) != 2 || *got.Values[0] != "b" || *got.Values[1] != "a" {
		t.Errorf("set: %v %v", got, err)
	}
	for _, name := range []string{"null", "absent"} {
		if got, err := args.strings(name); err != nil || got.Set || got.Values != nil {
			t.Errorf("%s: %v %v", name, got, err)
		}
	}
	for _, name := range []string{"unknown", "unknown elem", "null elem"} {
		var bad *ArgError
		if _, err := args.strings(name); !errors.As(err, &bad) || bad.Attr != name {
			t.Errorf("%s: error %v, want an ArgError", name, err)
		}
	}
}
