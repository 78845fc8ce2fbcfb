package provider

import (
	"context"
	"errors"
	"fmt"
	"strconv"
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
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(), err.Error())
	}
}

// durationValidator accepts a positive Go duration.
type durationValidator struct{}

func (durationValidator) Description(context.Context) string {
	return "must be a positive Go duration such as 60s or 2m"
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
	code := req.ConfigValue.ValueInt64()
	if _, known := statusNames[code]; known {
		return
	}
	resp.Diagnostics.AddAttributeWarning(req.Path, "Unknown membership status code",
		fmt.Sprintf("status = %d is not a status code the API documents. The known codes are %s. "+
			"The read is made with %d all the same, since new codes may appear; if you meant one of the known codes, "+
			"correct it: a status no membership has reads an empty list.", code, knownStatusCodes(), code))
}

// parseTimeout reads a positive Go duration. A bare number is refused with
// an example rather than guessed: "60" could mean seconds or minutes, and
// time.ParseDuration's own "missing unit" does not say which units exist.
func parseTimeout(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		if _, numErr := strconv.ParseFloat(strings.TrimSpace(s), 64); numErr == nil {
			return 0, fmt.Errorf("%q has no unit: use a unit, such as \"60s\", \"5m\" or \"1h\"", s)
		}
		return 0, err
	}
	if d <= 0 {
		return 0, errors.New("the duration must be positive, like 60s")
	}
	return d, nil
}
