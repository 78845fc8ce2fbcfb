package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

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

// endpointPathValidator applies the client's own rule for an endpoint
// path, so the plan-time and run-time checks cannot disagree.
type endpointPathValidator struct{ endpoint string }

func (endpointPathValidator) Description(context.Context) string {
	return "must be a path starting with /, without a query, a fragment or a scheme and host"
}

func (v endpointPathValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v endpointPathValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := client.ValidatePath(v.endpoint, req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(), message(err))
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

// knownStatusCode warns of a status filter that is not a documented code.
// It is a warning, not an error: the documentation says other codes may
// appear. But `status = 10` meant as 100 reads no one, and in an SSO sync
// an empty list revokes everyone's access.
type knownStatusCode struct{}

func (knownStatusCode) Description(context.Context) string {
	return "warns when not a documented status code (" + knownStatusCodes() + ")"
}

func (v knownStatusCode) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (knownStatusCode) ValidateInt64(_ context.Context, req validator.Int64Request, resp *validator.Int64Response) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if w := unknownStatusWarnings(ptr(req.ConfigValue.ValueInt64())); w != nil {
		resp.Diagnostics.AddAttributeWarning(req.Path, w[0].summary, w[0].detail)
	}
}

// unknownStatusWarnings warns of a status filter that is not a documented
// code: at validation (knownStatusCode), and after the read as an error
// with strict_filters (a validator cannot see the provider's settings).
func unknownStatusWarnings(status *int64) []readWarning {
	if status == nil {
		return nil
	}
	if _, known := statusNames[*status]; known {
		return nil
	}
	return []readWarning{{attr: "status", filter: true, strictOnly: true, summary: "Unknown membership status code",
		detail: fmt.Sprintf("status = %d is not a status code the API documents. The known codes are %s. "+
			"The read is made with %d all the same, since new codes may appear; if you meant one of the known codes, "+
			"correct it: a status no membership has reads an empty list.", *status, knownStatusCodes(), *status)}}
}

// parseTimeout reads a positive duration, as every duration of the
// provider is written (request_timeout, max_retry_wait, timeouts.read). One
// message for all of them, with the value quoted (so white space shows) and
// examples: a bare number is refused rather than guessed, since "60" could
// mean seconds or minutes, and Go's own errors name neither the units nor
// an example a user would write.
func parseTimeout(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || d <= 0 || strings.TrimSpace(s) != s {
		return 0, fmt.Errorf("%q is not a duration: write a positive number with a unit, such as \"30s\", \"10m\" or \"1h\" (units: ms, s, m, h)", s)
	}
	return d, nil
}
