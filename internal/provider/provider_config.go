package provider

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
)

// providerModel is the provider block. It is small, so the framework's
// reflection is the right tool here.
type providerModel struct {
	AccessToken           types.String `tfsdk:"access_token"`
	BaseURL               types.String `tfsdk:"base_url"`
	OrganizationID        types.String `tfsdk:"organization_id"`
	MaxConcurrentRequests types.Int64  `tfsdk:"max_concurrent_requests"`
	RequestTimeout        types.String `tfsdk:"request_timeout"`
	MaxRetries            types.Int64  `tfsdk:"max_retries"`
	MaxRetryWait          types.String `tfsdk:"max_retry_wait"`
	StrictFilters         types.Bool   `tfsdk:"strict_filters"`
	EndpointPaths         types.Object `tfsdk:"endpoint_paths"`
}

// configure builds the provider data from the provider block and the
// environment. It returns nil, with diagnostics on error, or without them
// when the block holds values unknown until apply: then data sources say
// they cannot read yet (or are deferred, where Terraform allows it), as the
// framework advises, instead of failing here.
func configure(ctx context.Context, version string, req provider.ConfigureRequest, resp *provider.ConfigureResponse) *providerData {
	var m providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return nil
	}
	paths, pathsUnknown := endpointPaths(m.EndpointPaths)
	if m.hasUnknown() || pathsUnknown {
		tflog.Warn(ctx, "provider configuration has values unknown until apply; the joinit client is not configured during this plan")
		// A Terraform that can defer is told to; the framework then
		// answers every read of this provider as deferred.
		if req.ClientCapabilities.DeferralAllowed {
			resp.Deferred = &provider.Deferred{Reason: provider.DeferredReasonProviderConfigUnknown}
		}
		return nil
	}

	token := valueOrEnv(m.AccessToken, envAccessToken)
	if token == "" {
		resp.Diagnostics.AddAttributeError(path.Root("access_token"), "Missing access token",
			"Set access_token in the provider block or the "+envAccessToken+" environment variable. Tokens are issued through the API's OAuth 2.0 flow; see the provider documentation.")
	}
	ctx = maskToken(ctx, token)
	baseURL := valueOrEnv(m.BaseURL, envBaseURL)
	if baseURL == "" {
		resp.Diagnostics.AddAttributeError(path.Root("base_url"), "Missing base URL",
			"Set base_url in the provider block or the "+envBaseURL+" environment variable. The API host is not guessed.")
	} else if _, err := client.ParseBaseURL(baseURL); err != nil {
		where := "base_url"
		if m.BaseURL.IsNull() {
			where = envBaseURL
		}
		resp.Diagnostics.AddAttributeError(path.Root("base_url"), "Invalid base URL", where+": "+err.Error())
	}
	cfg := client.Config{
		BaseURL:        baseURL,
		Token:          token,
		MaxConcurrency: int(m.MaxConcurrentRequests.ValueInt64()),
		MaxRetries:     int(m.MaxRetries.ValueInt64()),
		UserAgent:      fmt.Sprintf("terraform-provider-joinit/%s Terraform/%s", version, req.TerraformVersion),
		Logger:         tflogBridge{token: token},
		Paths:          paths,
		OrganizationID: organizationID(m.OrganizationID, &resp.Diagnostics),
	}
	if !m.MaxRetries.IsNull() && m.MaxRetries.ValueInt64() == 0 {
		cfg.MaxRetries = client.NoRetries
	}
	if !m.RequestTimeout.IsNull() {
		d, err := parseTimeout(m.RequestTimeout.ValueString())
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("request_timeout"), "Invalid request_timeout", err.Error())
		}
		cfg.Timeout = d
	}
	if !m.MaxRetryWait.IsNull() {
		d, err := parseTimeout(m.MaxRetryWait.ValueString())
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("max_retry_wait"), "Invalid max_retry_wait", err.Error())
		}
		cfg.MaxRetryWait = d
	}
	if resp.Diagnostics.HasError() {
		return nil
	}
	c, err := client.New(cfg)
	if err != nil {
		resp.Diagnostics.AddError("Invalid provider configuration", err.Error())
		return nil
	}
	tflog.Debug(ctx, "joinit client configured", map[string]any{
		"base_url": baseURL, "max_concurrent_requests": cfg.MaxConcurrency, "max_retries": cfg.MaxRetries,
		"max_retry_wait": cfg.MaxRetryWait.String(), "organization_id": cfg.OrganizationID,
	})
	return &providerData{client: c, strictFilters: m.StrictFilters.ValueBool(), scrub: client.Scrubber(token)}
}

func (m providerModel) hasUnknown() bool {
	return m.AccessToken.IsUnknown() || m.BaseURL.IsUnknown() || m.OrganizationID.IsUnknown() || m.MaxConcurrentRequests.IsUnknown() ||
		m.RequestTimeout.IsUnknown() || m.MaxRetries.IsUnknown() || m.MaxRetryWait.IsUnknown() || m.StrictFilters.IsUnknown() ||
		m.EndpointPaths.IsUnknown()
}

// endpointPaths are the endpoint_paths set, by endpoint name; unset ones
// keep the client's defaults. unknown reports a value not known yet.
func endpointPaths(o types.Object) (paths client.Paths, unknown bool) {
	if o.IsUnknown() {
		return nil, true
	}
	paths = client.Paths{}
	for name, v := range o.Attributes() { // none when null
		s, ok := v.(types.String)
		if !ok || s.IsUnknown() {
			return nil, ok && s.IsUnknown()
		}
		paths[name] = s.ValueString()
	}
	return paths, false
}

// organizationID is the organization guard's id: the attribute, or else
// JOINIT_ORGANIZATION_ID. A blank value is an error wherever it comes from:
// a CI variable that was never defined expands to "", and taken as "unset"
// it would turn the guard off without a word.
func organizationID(v types.String, diags *diag.Diagnostics) string {
	if !v.IsNull() {
		if strings.TrimSpace(v.ValueString()) == "" {
			diags.AddAttributeError(path.Root("organization_id"), "Blank organization_id",
				fmt.Sprintf("organization_id is %q: set it to the organization's id (the records' organization_id), or leave it out to check nothing.", v.ValueString()))
		}
		return v.ValueString()
	}
	env, set := os.LookupEnv(envOrganization)
	if set && strings.TrimSpace(env) == "" {
		diags.AddAttributeError(path.Root("organization_id"), "Blank "+envOrganization,
			fmt.Sprintf("The %s environment variable is set to %q: set it to the organization's id (the records' organization_id), "+
				"or unset it to check nothing. A CI variable that was never defined expands to an empty value; "+
				"the organization guard is not turned off by one.", envOrganization, env))
	}
	return env
}

func valueOrEnv(v types.String, env string) string {
	if !v.IsNull() {
		return v.ValueString()
	}
	return os.Getenv(env)
}
