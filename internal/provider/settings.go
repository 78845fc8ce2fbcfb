package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
)

// A provider setting is declared once, in providerSettings, by one of the
// constructors of setting_kinds.go, as a data source's arguments are:
// name, description, environment variable, default, bounds, validators and
// the parse that puts its value in the client's configuration. From that
// one declaration come the schema attribute (its description ending in the
// environment variable, the bounds and the default), configure's reading
// of the value, the README and docs/index.md tables (`make readme`), and
// the words for the client's errors that name it (settingName).

// providerSettings are the provider block's attributes, in the order the
// README lists them (sorted by name).
var providerSettings = []setting{
	stringSetting(stringSpec{name: "access_token", env: envAccessToken, sensitive: true, exact: true, concerns: client.SettingToken,
		desc:    "OAuth 2.0 access token, sent as `Authorization: Bearer <token>`. Never logged and never stored in state.",
		missing: "Missing access token", missingDetail: "Tokens are issued through the API's OAuth 2.0 flow; see the provider documentation.",
		use: func(v string, _ bool, c *configuration) *settingError { c.client.Token = v; return nil }}),
	stringSetting(stringSpec{name: "base_url", env: envBaseURL, concerns: client.SettingBaseURL,
		desc: "Address of the API; it may carry a path prefix. Defaults to `" + client.DefaultBaseURL + "`, the service's API host " +
			"(the host of its token endpoint, and the one public code reads memberships from); set it for a proxy, a sandbox or another deployment. " +
			"Must be `https`, except for loopback hosts (127.0.0.0/8, ::1, localhost).",
		validators: []validator.String{baseURL},
		use: func(v string, fromEnv bool, c *configuration) *settingError {
			if v == "" && fromEnv {
				// A CI secret that was never defined expands to "": not
				// the default host, which the user did not choose.
				return &settingError{"Invalid base URL", "The " + envBaseURL + " environment variable is set, but empty (a CI secret that was never defined expands to an empty value): " +
					"give it a value, or unset it to read " + client.DefaultBaseURL + "."}
			}
			if _, err := client.ParseBaseURL(v); err != nil {
				where := "base_url"
				if fromEnv {
					where = envBaseURL
				}
				return &settingError{"Invalid base URL", where + ": " + err.Error()}
			}
			c.client.BaseURL = v
			return nil
		}}),
	stringSetting(stringSpec{name: "ca_cert_file", env: envCACertFile, concerns: client.SettingCACerts,
		desc: "Path of a PEM file of certificate authorities to trust for the API's TLS, besides the system's: a private CA, " +
			"or a corporate proxy that intercepts TLS. On Linux `SSL_CERT_FILE` replaces the system's authorities instead; " +
			"on macOS and Windows this is the only way. Unset, the system's authorities alone are trusted.",
		use: useCACertFile}),
	endpointPathsSetting(),
	intSetting(intSettingSpec{name: "max_concurrent_requests", def: client.DefaultMaxConcurrency, min: 1, max: 16, concerns: client.SettingMaxConcurrency,
		desc: "Most requests in flight at once for the whole provider: every data source of this provider configuration shares them. " +
			"After HTTP 429 (or 503 with `Retry-After`) every read waits as the server asked, then resumes at the same limit.",
		use: func(n int64, c *configuration) { c.client.MaxConcurrency = int(n) }}),
	intSetting(intSettingSpec{name: "max_result_values", env: envMaxValues, def: client.DefaultMaxValues, min: 1_000, max: 1_000_000_000,
		concerns: client.SettingMaxValues,
		desc: "Most values one read may hand Terraform: every attribute of every record, null or not, every element of a list and every attribute " +
			"nested in one (a membership of the sandbox holds about 34). A read fails as soon as what it holds passes it, naming the pages and records read, " +
			"instead of handing Terraform more than a CI runner can plan: Terraform needs about 1 KB of memory for each value it plans " +
			"(the full read of 100,000 memberships, 3.4 million values, takes it 2.7 GB). The lean read (`include_records = false`) and `fields` hold far fewer. " +
			"Apart from it, a read fails when its text passes the 256 MiB Terraform takes from a provider in one message.",
		use: func(n int64, c *configuration) { c.client.MaxValues = n }}),
	intSetting(intSettingSpec{name: "max_retries", def: client.DefaultMaxRetries, min: 0, max: 20, concerns: client.SettingMaxRetries,
		desc: "Retries of a request that failed with a network error, HTTP 429 or a 5xx other than 501. `Retry-After` is honoured; otherwise the wait grows exponentially, with jitter. " +
			"A request refused for the rate (429, or 503 with `Retry-After`) while other requests of the provider get through is not counted: it is bounded by time instead (`max_retry_wait` per wait, the data source's `timeouts`).",
		use: func(n int64, c *configuration) {
			c.client.MaxRetries = int(n)
			if n == 0 {
				c.client.MaxRetries = client.NoRetries
			}
		}}),
	durationSetting("max_retry_wait", client.DefaultMaxRetryWait, client.SettingMaxRetryWait,
		"Longest wait before a retry, as a Go duration such as `60s` or `5m`. A server that asks for a longer wait "+
			"(`Retry-After` on HTTP 429 or 503) fails the read at once with a diagnostic that names the wait, instead of holding the plan; "+
			"exponential backoff waits are capped at it too.",
		func(d time.Duration, c *configuration) { c.client.MaxRetryWait = d }),
	stringSetting(stringSpec{name: "organization_id", env: envOrganization, concerns: client.SettingOrganizationID,
		desc: "The organization the access token must read, as the records' `organization_id`. When set, a read in which any record " +
			"names another organization fails, naming both ids: a token of another organization (staging in a production pipeline) " +
			"stops the plan instead of handing modules the wrong people. Records whose `organization_id` is null or absent pass. " +
			"Lean and `fields` reads decode `organization_id` to check it. Unset, nothing is checked.",
		use: useOrganizationID}),
	durationSetting("request_timeout", client.DefaultTimeout, client.SettingTimeout,
		"Time limit of one HTTP attempt, including reading its body, as a Go duration such as `60s` or `2m`.",
		func(d time.Duration, c *configuration) { c.client.Timeout = d }),
	boolSetting("strict_filters", false,
		"When true, a filter that keeps nothing it was meant to is an error, not a warning: a `membership_names` or `membership_types` value "+
			"no membership read has, and a `status` code the API does not document. For CI, where warnings scroll by and a typo would plan an empty list. "+
			"A data source's own `strict_filters` overrides it for that data source.",
		func(b bool, c *configuration) { c.strict = b }),
}

// settingName words a client setting as a user configures it: the
// attribute, with its environment variable when it has one, as
// "base_url (or JOINIT_BASE_URL)"; an endpoint's path as
// "endpoint_paths.groups".
func settingName(s client.Setting) string {
	for _, st := range providerSettings {
		if st.concerns.Field != s.Field {
			continue
		}
		name := st.name
		if s.Key != "" {
			name += "." + s.Key
		}
		if st.env != "" {
			name += " (or " + st.env + ")"
		}
		return name
	}
	return client.ConfigNames(s) // a bug: TestEverySettingTheClientNamesIsDeclared
}

// message is an error of a read as the user reads it: the client's settings
// worded as the provider's.
func message(err error) string { return client.Word(err, settingName) }

// settingsSchema is the provider schema's attributes, from the declarations.
func settingsSchema() map[string]schema.Attribute {
	out := make(map[string]schema.Attribute, len(providerSettings))
	for _, s := range providerSettings {
		out[s.name] = s.attribute
	}
	return out
}

// endpointPathsSetting declares endpoint_paths: one attribute per endpoint
// of apispec's table, each validated by the client's own rule.
func endpointPathsSetting() setting {
	var shown, assumed, defaults []string
	for _, e := range apispec.Endpoints {
		defaults = append(defaults, fmt.Sprintf("`%s` (default `%s`)", e.Name, e.DefaultPath))
		if e.Shown {
			shown = append(shown, e.Name)
		} else {
			assumed = append(assumed, e.Name)
		}
	}
	// A map, not an object: Terraform converts an object literal to an
	// object type by dropping the attributes the type lacks, so a typo
	// ({ group = "/x" }) would never reach the provider.
	desc := "Overrides of the endpoint paths, relative to `base_url`, by endpoint: " + andList(defaults) +
		". The API specification shows the full paths of " + andList(shown) + " only; the " + andList(assumed) +
		" defaults are an assumption. A key that names no endpoint is refused."
	s := setting{name: "endpoint_paths", concerns: client.SettingPaths, attribute: schema.MapAttribute{
		Optional: true, ElementType: types.StringType, Description: desc, MarkdownDescription: tfattr.Markdown(desc),
		Validators: []validator.Map{endpointPathsValidator{}},
	}}
	s.parse = func(v tftypes.Value, _ bool, c *configuration) *settingError {
		var paths map[string]tftypes.Value
		if err := v.As(&paths); err != nil {
			return &settingError{"Invalid endpoint_paths", err.Error()}
		}
		c.client.Paths = client.Paths{}
		for _, name := range slices.Sorted(maps.Keys(paths)) { // none when null
			if detail := unknownEndpointKey(name); detail != "" {
				return &settingError{"Invalid endpoint_paths key", detail}
			}
			p := paths[name]
			if p.IsNull() {
				continue
			}
			var str string
			if err := p.As(&str); err != nil {
				return &settingError{"Invalid endpoint_paths." + name, err.Error()}
			}
			c.client.Paths[name] = str
		}
		return nil
	}
	return s
}

// unknownEndpointKey says why name is not a key of endpoint_paths, naming
// the endpoints and the nearest; "" for an endpoint's name.
func unknownEndpointKey(name string) string {
	if slices.Contains(apispec.Names(), name) {
		return ""
	}
	return fmt.Sprintf("endpoint_paths has no endpoint %q: the endpoints are %s.%s", name, quotedList(apispec.Names(), "and"), didYouMean(name, apispec.Names()))
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
