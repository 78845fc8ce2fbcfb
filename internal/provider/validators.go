package provider

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/client"
)

// baseURLValidator applies the client's own rule (https, or http to
// loopback), so config-time and run-time checks cannot disagree.
type baseURLValidator struct{}

func (baseURLValidator) Description(context.Context) string {
	return "must be an absolute https URL (http only for loopback hosts)"
}

func (v baseURLValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (baseURLValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := client.ParseBaseURL(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid base_url", err.Error())
	}
}

// endpointPathsValidator refuses a key of endpoint_paths that names no
// endpoint, with the nearest, and applies the client's rule to each path.
type endpointPathsValidator struct{}

func (endpointPathsValidator) Description(context.Context) string {
	return "keys must name endpoints (" + strings.Join(apispec.Names(), ", ") + "); paths must start with /, without a query, a fragment or a scheme and host"
}

func (v endpointPathsValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (endpointPathsValidator) ValidateMap(_ context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	elems := req.ConfigValue.Elements()
	for _, name := range slices.Sorted(maps.Keys(elems)) {
		if detail := unknownEndpointKey(name); detail != "" {
			resp.Diagnostics.AddAttributeError(req.Path.AtMapKey(name), "Invalid endpoint_paths key", detail)
			continue
		}
		p, ok := elems[name].(types.String)
		if !ok || p.IsNull() || p.IsUnknown() {
			continue
		}
		if err := client.ValidatePath(name, p.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(req.Path.AtMapKey(name), "Invalid endpoint_paths."+name, message(err))
		}
	}
}

// durationValidator accepts a positive Go duration.
type durationValidator struct{}

func (durationValidator) Description(context.Context) string {
	return "must be a positive duration with a unit, such as 30s, 10m or 1h"
}

func (v durationValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (durationValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := parseTimeout(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(), err.Error())
	}
}

// wholeNumber accepts a whole number, within bounds when max > min. The
// whole-number arguments and settings are Terraform numbers the provider
// checks itself: declared as the framework's Int64, a fraction would fail
// in the framework's own conversion, with a message that blames the
// provider ("Value 2.5 is not an integer ... an error in the provider").
type wholeNumber struct{ min, max int64 }

func (v wholeNumber) Description(context.Context) string {
	if v.max > v.min {
		return fmt.Sprintf("must be a whole number from %d to %d", v.min, v.max)
	}
	return "must be a whole number"
}

func (v wholeNumber) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v wholeNumber) ValidateNumber(_ context.Context, req validator.NumberRequest, resp *validator.NumberResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := checkWholeNumber(req.Path.String(), req.ConfigValue.ValueBigFloat(), v.min, v.max); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(), err.Error())
	}
}

// checkWholeNumber is f as an int64, or why it is not one the argument
// takes: validation and the parse of a read say the same.
func checkWholeNumber(name string, f *big.Float, lo, hi int64) (int64, error) {
	n, acc := f.Int64()
	if acc != big.Exact {
		if f.IsInt() {
			return 0, fmt.Errorf("%s is %s, too large: it must be between %d and %d", name, f.Text('g', -1), lo, hi)
		}
		return 0, fmt.Errorf("%s is %s, not a whole number: write it without a fraction, such as %s", name, f.Text('g', -1), wholeExample(f, lo, hi))
	}
	if hi > lo && (n < lo || n > hi) {
		return 0, fmt.Errorf("%s must be between %d and %d, got: %d", name, lo, hi, n)
	}
	return n, nil
}

// wholeExample is a whole number near f that the bounds allow.
func wholeExample(f *big.Float, lo, hi int64) string {
	n, _ := new(big.Float).SetMode(big.ToZero).SetPrec(64).Set(f).Int64()
	if hi > lo {
		n = min(max(n, lo), hi)
	}
	return strconv.FormatInt(n, 10)
}

// unknownStatusWarnings warns of a status filter that is not a documented
// code, once, after the read (a validator would warn at every validation
// Terraform makes, and cannot see strict_filters).
func unknownStatusWarnings(status *int64, held int) []readWarning {
	if status == nil {
		return nil
	}
	if _, known := statusNames[*status]; known {
		return nil
	}
	s := *status
	return []readWarning{{attr: "status", filter: true, summary: "Unknown membership status code",
		detail: fmt.Sprintf("status = %d is not a status code the API documents (the known codes are %s); %s. "+
			"The read was made with %d all the same, since new codes may appear; if you meant one of the known codes, "+
			"correct it: a status no membership has reads an empty list.", s, knownStatusCodes(), heldBy(held, s), s),
		strictDetail: fmt.Sprintf("status = %d is not a status code the API documents (the known codes are %s); %s.", s, knownStatusCodes(), heldBy(held, s)),
		advice: fmt.Sprintf(" strict_filters is on, so the read failed. If %d is a code the API has added, set strict_filters = false on this data source "+
			"to read it; otherwise correct it.", s)}}
}

// heldBy says how many memberships the API returned with status s.
func heldBy(held int, s int64) string {
	switch held {
	case 0:
		return fmt.Sprintf("the API returned no membership with status %d", s)
	case 1:
		return fmt.Sprintf("the API returned 1 membership with status %d", s)
	}
	return fmt.Sprintf("the API returned %d memberships with status %d", held, s)
}

// parseTimeout reads a positive duration, as every duration of the
// provider is written (request_timeout, max_retry_wait, timeouts.read). One
// message for all of them, with the value quoted (so white space shows) and
// examples: a bare number is refused rather than guessed, since "60" could
// mean seconds or minutes, and Go's own errors name neither the units nor
// an example a user would write.
func parseTimeout(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	switch {
	case err == nil && d <= 0 && strings.TrimSpace(s) == s:
		// "0s" is a duration, and no time at all for a request or a wait.
		return 0, fmt.Errorf("%q is no time at all: write a duration above zero, such as \"30s\", \"10m\" or \"1h\"", s)
	case err != nil || d <= 0 || strings.TrimSpace(s) != s:
		return 0, fmt.Errorf("%q is not a duration: write a positive number with a unit, such as \"30s\", \"10m\" or \"1h\" (units: ms, s, m, h)", s)
	}
	return d, nil
}
