package tfattr

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// ParseDuration reads a positive duration, as every duration of the
// provider is written (request_timeout, max_retry_wait, timeouts.read). One
// message for all of them, with the value quoted (so white space shows) and
// examples: a bare number is refused rather than guessed, since "60" could
// mean seconds or minutes, and Go's own errors name neither the units nor
// an example a user would write.
func ParseDuration(s string) (time.Duration, error) {
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

// Duration is the validator of ParseDuration's rule.
var Duration = StringRule{Desc: "must be a positive duration with a unit, such as 30s, 10m or 1h",
	Check: func(s string) error { _, err := ParseDuration(s); return err }}

// StringRule is a validator of a string attribute by a check of its
// value, which the read or configure applies too: the two cannot disagree.
type StringRule struct {
	Desc  string
	Check func(string) error
}

func (r StringRule) Description(context.Context) string { return r.Desc }

func (r StringRule) MarkdownDescription(ctx context.Context) string { return r.Description(ctx) }

func (r StringRule) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := r.Check(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(), err.Error())
	}
}

// ShortDuration prints 20m rather than 20m0s.
func ShortDuration(d time.Duration) string {
	s := d.String()
	for _, unit := range []string{"m0s", "h0m"} {
		if len(s) > len(unit) && s[len(s)-len(unit):] == unit {
			s = s[:len(s)-len(unit)+1]
		}
	}
	return s
}
