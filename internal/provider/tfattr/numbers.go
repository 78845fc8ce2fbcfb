package tfattr

import (
	"context"
	"fmt"
	"math/big"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// WholeNumber accepts a whole number, within bounds when Max > Min. The
// whole-number arguments and settings are Terraform numbers the provider
// checks itself: declared as the framework's Int64, a fraction would fail
// in the framework's own conversion, with a message that blames the
// provider ("Value 2.5 is not an integer ... an error in the provider").
type WholeNumber struct{ Min, Max int64 }

func (v WholeNumber) Description(context.Context) string {
	if v.Max > v.Min {
		return fmt.Sprintf("must be a whole number from %d to %d", v.Min, v.Max)
	}
	return "must be a whole number"
}

func (v WholeNumber) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v WholeNumber) ValidateNumber(_ context.Context, req validator.NumberRequest, resp *validator.NumberResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := v.check(req.Path.String(), req.ConfigValue.ValueBigFloat()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(), err.Error())
	}
}

// Parse is a known, non-null Terraform number as an int64, or why it is
// not one the bounds take; name is what the message calls it. Validation
// and the parse of a read say the same.
func (v WholeNumber) Parse(name string, n tftypes.Value) (int64, error) {
	var f big.Float
	if err := n.As(&f); err != nil {
		return 0, err
	}
	return v.check(name, &f)
}

func (v WholeNumber) check(name string, f *big.Float) (int64, error) {
	lo, hi := v.Min, v.Max
	n, acc := f.Int64()
	if acc != big.Exact {
		if f.IsInt() {
			return 0, fmt.Errorf("%s is %s, too large: it must be between %d and %d", name, f.Text('g', -1), lo, hi)
		}
		return 0, fmt.Errorf("%s is %s, not a whole number: write it without a fraction, such as %s", name, f.Text('g', -1), v.example(f))
	}
	if hi > lo && (n < lo || n > hi) {
		return 0, fmt.Errorf("%s must be between %d and %d, got: %d", name, lo, hi, n)
	}
	return n, nil
}

// example is a whole number near f that the bounds allow.
func (v WholeNumber) example(f *big.Float) string {
	n, _ := new(big.Float).SetMode(big.ToZero).SetPrec(64).Set(f).Int64()
	if v.Max > v.Min {
		n = min(max(n, v.Min), v.Max)
	}
	return strconv.FormatInt(n, 10)
}
