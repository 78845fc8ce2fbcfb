package provider

import (
	"crypto/x509"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
)

// A provider setting is declared once, in providerSettings, by one of the
// constructors below (settings_kinds.go), as a data source's arguments are:
// name, description, environment variable, default, bounds, validators and
// the parse that puts its value in the client's configuration. From that
// one declaration come the schema attribute (its description ending in the
// environment variable, the bounds and the default), configure's reading
// of the value, the README and docs/index.md tables (`make readme`), and
// the words for the client's errors that name it (settingName).

// setting is one attribute of the provider block.
type setting struct {
	name string
	env  string // the environment variable read when the attribute is null; "" for none
	// concerns is the client setting it becomes: the client's errors name
	// settings by it, and settingName words them by this declaration.
	concerns  client.Setting
	attribute schema.Attribute
	// parse puts the value into conf: the attribute's, else the
	// environment variable's (fromEnv), else null.
	parse func(v tftypes.Value, fromEnv bool, conf *configuration) *settingError
}

// configuration is what the settings parse into: the client's Config and
// what the provider keeps for itself.
type configuration struct {
	client client.Config
	strict bool
}

// settingError is a setting's bad value, reported against its attribute.
type settingError struct{ summary, detail string }

// Environment variables of the settings that have one.
const (
	envAccessToken  = "JOINIT_ACCESS_TOKEN"
	envBaseURL      = "JOINIT_BASE_URL"
	envOrganization = "JOINIT_ORGANIZATION_ID"
	envCACertFile   = "JOINIT_CA_CERT_FILE"
	envMaxValues    = "JOINIT_MAX_RESULT_VALUES"
)

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
		validators: []validator.String{baseURLValidator{}},
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

// useCACertFile reads the PEM file of authorities to trust; the client
// refuses one that holds no certificate.
func useCACertFile(path string, fromEnv bool, c *configuration) *settingError {
	where := "ca_cert_file"
	if fromEnv {
		where = envCACertFile
	}
	pem, err := os.ReadFile(path)
	if err != nil {
		return &settingError{"Invalid ca_cert_file", fmt.Sprintf("%s: %v", where, err)}
	}
	if !x509.NewCertPool().AppendCertsFromPEM(pem) {
		return &settingError{"Invalid ca_cert_file", fmt.Sprintf("%s: %s holds no PEM certificate: it must hold \"-----BEGIN CERTIFICATE-----\" blocks", where, path)}
	}
	c.client.CACertPEM = pem
	return nil
}

// useOrganizationID takes the organization guard's id. A blank value is an
// error wherever it comes from: a CI variable that was never defined
// expands to "", and taken as "unset" it would turn the guard off without
// a word.
func useOrganizationID(v string, fromEnv bool, c *configuration) *settingError {
	if strings.TrimSpace(v) != "" {
		if mistake := exactMistake(v, false); mistake != "" {
			// Compared exactly with every record's organization_id: a
			// trailing newline would fail every read with two ids that
			// print alike.
			return exactValueError("organization_id", envOrganization, false, v, mistake, fromEnv)
		}
		c.client.OrganizationID = v
		return nil
	}
	if fromEnv {
		return &settingError{"Blank " + envOrganization,
			fmt.Sprintf("The %s environment variable is set to %q: set it to the organization's id (the records' organization_id), "+
				"or unset it to check nothing. A CI variable that was never defined expands to an empty value; "+
				"the organization guard is not turned off by one.", envOrganization, v)}
	}
	return &settingError{"Blank organization_id",
		fmt.Sprintf("organization_id is %q: set it to the organization's id (the records' organization_id), or leave it out to check nothing.", v)}
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

// envValue is the setting's environment variable, when it has one and it
// is set.
func (s setting) envValue() (string, bool) {
	if s.env == "" {
		return "", false
	}
	return os.LookupEnv(s.env)
}

// settingsSchema is the provider schema's attributes, from the declarations.
func settingsSchema() map[string]schema.Attribute {
	out := make(map[string]schema.Attribute, len(providerSettings))
	for _, s := range providerSettings {
		out[s.name] = s.attribute
	}
	return out
}
