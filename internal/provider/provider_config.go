package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
)

// providerData is what Configure makes for the data sources.
type providerData struct {
	client *client.Client
	// strictFilters makes a filter that keeps nothing an error (strict_filters).
	strictFilters bool
}

// strict reports strict_filters; false before (or without) Configure.
func (d *providerData) strict() bool { return d != nil && d.strictFilters }

func (d *providerData) clientOrNil() *client.Client {
	if d == nil {
		return nil
	}
	return d.client
}

// configure builds the provider data from the provider block and the
// environment, setting by setting as providerSettings declares them. It
// returns nil, with diagnostics on error, or without them when the block
// holds values unknown until apply: then data sources say they cannot read
// yet (or are deferred, where Terraform allows it), as the framework
// advises, instead of failing here.
//
// limit is the largest encoded state a read may return: the client stops a
// read whose text alone passes it (client.Config.MaxBytes). lookupEnv reads
// the environment the settings fall back on (os.LookupEnv in use); tune,
// when not nil, changes the client's configuration last (tests shorten its
// retry waits).
func configure(ctx context.Context, version string, limit int64, lookupEnv func(string) (string, bool), tune func(*client.Config),
	req provider.ConfigureRequest, resp *provider.ConfigureResponse) *providerData {
	if !req.Config.Raw.IsFullyKnown() {
		tflog.Warn(ctx, "provider configuration has values unknown until apply; the joinit client is not configured during this plan")
		// A Terraform that can defer is told to; the framework then
		// answers every read of this provider as deferred.
		if req.ClientCapabilities.DeferralAllowed {
			resp.Deferred = &provider.Deferred{Reason: provider.DeferredReasonProviderConfigUnknown}
		}
		return nil
	}
	var block map[string]tftypes.Value
	if err := req.Config.Raw.As(&block); err != nil {
		resp.Diagnostics.AddError("Invalid provider configuration", err.Error())
		return nil
	}
	conf := configuration{client: client.Config{
		UserAgent: fmt.Sprintf("terraform-provider-joinit/%s Terraform/%s", version, req.TerraformVersion),
		MaxBytes:  limit,
	}}
	for _, s := range providerSettings {
		v, fromEnv := settingValue(s, block[s.name], lookupEnv)
		if bad := s.parse(v, fromEnv, &conf); bad != nil {
			resp.Diagnostics.AddAttributeError(path.Root(s.name), bad.summary, bad.detail)
		}
	}
	token := conf.client.Token
	ctx = maskToken(ctx, token)
	if resp.Diagnostics.HasError() {
		return nil
	}
	conf.client.Logger = tflogBridge{token: token}
	if tune != nil {
		tune(&conf.client)
	}
	c, err := client.New(conf.client)
	if err != nil {
		resp.Diagnostics.AddError("Invalid provider configuration", message(err))
		return nil
	}
	tflog.Debug(ctx, "joinit client configured", map[string]any{
		"base_url": conf.client.BaseURL, "max_concurrent_requests": conf.client.MaxConcurrency, "max_retries": conf.client.MaxRetries,
		"max_retry_wait": conf.client.MaxRetryWait.String(), "organization_id": conf.client.OrganizationID,
		"max_result_values": conf.client.MaxValues,
	})
	return &providerData{client: c, strictFilters: conf.strict}
}

// settingValue is a setting's value: the attribute's when set, else its
// environment variable's when that is set (fromEnv), else null.
func settingValue(s setting, attr tftypes.Value, lookupEnv func(string) (string, bool)) (v tftypes.Value, fromEnv bool) {
	if attr.Type() != nil && !attr.IsNull() {
		return attr, false
	}
	if env, ok := lookupEnv(s.env); s.env != "" && ok {
		return tftypes.NewValue(tftypes.String, env), true
	}
	return tftypes.NewValue(s.attribute.GetType().TerraformType(context.Background()), nil), false
}
