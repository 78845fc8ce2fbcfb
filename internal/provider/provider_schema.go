package provider

import (
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/client"
)

// Environment variables the provider reads when an attribute is not set.
const (
	envAccessToken  = "JOINIT_ACCESS_TOKEN"
	envBaseURL      = "JOINIT_BASE_URL"
	envOrganization = "JOINIT_ORGANIZATION_ID"
)

// Bounds of the provider's settings; their defaults are the client's.
const (
	maxConcurrentRequestsLimit = 16
	maxRetriesLimit            = 20
)

// seconds prints a default duration as the examples write it: 60s.
func seconds(d time.Duration) string { return fmt.Sprintf("`%ds`", int64(d/time.Second)) }

func providerSchema() schema.Schema {
	return schema.Schema{
		Description: "Reads an organization's memberships, groups, payments and metrics from the Join It API. Read-only: data sources only.",
		Attributes: map[string]schema.Attribute{
			"access_token": schema.StringAttribute{
				Optional:    true,
				Sensitive:   true,
				Description: "OAuth 2.0 access token, sent as `Authorization: Bearer <token>`. Required, unless the `" + envAccessToken + "` environment variable is set: it is read when this is not. Never logged and never stored in state.",
			},
			"base_url": schema.StringAttribute{
				Optional:    true,
				Description: "Address of the API, for example `https://api.example.com`; it may carry a path prefix. Required, unless the `" + envBaseURL + "` environment variable is set: it is read when this is not. Must be `https`, except for loopback hosts (127.0.0.0/8, ::1, localhost).",
				Validators:  []validator.String{baseURLValidator{}},
			},
			"organization_id": schema.StringAttribute{
				Optional: true,
				Description: "The organization the access token must read, as the records' `organization_id`. When set, a read in which any record " +
					"names another organization fails, naming both ids: a token of another organization (staging in a production pipeline) " +
					"stops the plan instead of handing modules the wrong people. Records whose `organization_id` is null or absent pass. " +
					"Lean and `fields` reads decode `organization_id` to check it. Defaults to the `" + envOrganization + "` environment variable; unset, nothing is checked.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"max_concurrent_requests": schema.Int64Attribute{
				Optional: true,
				Description: "Most requests in flight at once for the whole provider: every data source of this provider configuration shares them. " +
					"After HTTP 429 (or 503 with `Retry-After`) every read waits as the server asked, then fewer requests are in flight (halved, and grown back as requests succeed). " +
					fmt.Sprintf("Default %d, from 1 to %d.", client.DefaultMaxConcurrency, maxConcurrentRequestsLimit),
				Validators: []validator.Int64{int64validator.Between(1, maxConcurrentRequestsLimit)},
			},
			"request_timeout": schema.StringAttribute{
				Optional:    true,
				Description: "Time limit of one HTTP attempt, including reading its body, as a Go duration such as `60s` or `2m`. Default " + seconds(client.DefaultTimeout) + ".",
				Validators:  []validator.String{durationValidator{}},
			},
			"max_retry_wait": schema.StringAttribute{
				Optional: true,
				Description: "Longest wait before a retry, as a Go duration such as `60s` or `5m`. A server that asks for a longer wait " +
					"(`Retry-After` on HTTP 429 or 503) fails the read at once with a diagnostic that names the wait, instead of holding the plan; " +
					"exponential backoff waits are capped at it too. Default " + seconds(client.DefaultMaxRetryWait) + ".",
				Validators: []validator.String{durationValidator{}},
			},
			"max_retries": schema.Int64Attribute{
				Optional: true,
				Description: "Retries of a request that failed with a network error, HTTP 429 or a 5xx other than 501. `Retry-After` is honoured; otherwise the wait grows exponentially, with jitter. " +
					"A request refused for the rate (429, or 503 with `Retry-After`) while other requests of the provider get through is not counted: it is bounded by time instead (`max_retry_wait` per wait, the data source's `timeouts`). " +
					fmt.Sprintf("Default %d, from 0 to %d.", client.DefaultMaxRetries, maxRetriesLimit),
				Validators: []validator.Int64{int64validator.Between(0, maxRetriesLimit)},
			},
			"strict_filters": schema.BoolAttribute{
				Optional: true,
				Description: "When true, a filter that keeps nothing it was meant to is an error, not a warning: a `membership_names` or `membership_types` value " +
					"no membership read has, and a `status` code the API does not document. For CI, where warnings scroll by and a typo would plan an empty list. Default false.",
			},
			"endpoint_paths": endpointPathsAttribute(),
		},
	}
}

// endpointPathsAttribute has one attribute per endpoint of apispec's table,
// each validated by the client's own rule.
func endpointPathsAttribute() schema.SingleNestedAttribute {
	attrs := map[string]schema.Attribute{}
	var shown, assumed []string
	for _, e := range apispec.Endpoints {
		attrs[e.Name] = schema.StringAttribute{
			Optional:    true,
			Description: "Path of the " + e.Name + " endpoint, relative to `base_url`. Default `" + e.DefaultPath + "`.",
			Validators:  []validator.String{endpointPathValidator{endpoint: e.Name}},
		}
		if e.Shown {
			shown = append(shown, e.Name)
		} else {
			assumed = append(assumed, e.Name)
		}
	}
	return schema.SingleNestedAttribute{
		Optional: true,
		Description: "Overrides of the endpoint paths. The API specification shows the full paths of " + andList(shown) +
			" only; the " + andList(assumed) + " defaults are an assumption.",
		Attributes: attrs,
	}
}

// andList writes names as prose: "a", "a and b", "a, b and c".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
