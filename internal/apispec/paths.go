// Package apispec holds facts of the API specification that both the client
// and the sandbox (its fake) need, so that each is written once. It imports
// nothing of this project.
package apispec

// Paths are the four list endpoints' paths, relative to the base URL.
type Paths struct {
	Memberships string
	Payments    string
	Groups      string
	OrgMetrics  string
}

// DefaultPaths returns the paths of the real API. The specification shows
// the full path of memberships and org metrics only; payments and groups
// follow the same /api/v1/organizations/me/ shape by assumption, which is
// why every path can be overridden.
func DefaultPaths() Paths {
	return Paths{
		Memberships: "/api/v1/organizations/me/memberships",
		Payments:    "/api/v1/organizations/me/payments",
		Groups:      "/api/v1/organizations/me/groups",
		OrgMetrics:  "/api/v1/organizations/me/org_metrics",
	}
}

// WithDefaults fills the empty paths from DefaultPaths.
func (p Paths) WithDefaults() Paths {
	d := DefaultPaths()
	return Paths{
		Memberships: orDefault(p.Memberships, d.Memberships),
		Payments:    orDefault(p.Payments, d.Payments),
		Groups:      orDefault(p.Groups, d.Groups),
		OrgMetrics:  orDefault(p.OrgMetrics, d.OrgMetrics),
	}
}

func orDefault(path, def string) string {
	if path == "" {
		return def
	}
	return path
}

// The list endpoints' names: what errors, logs and request counts call
// them, and the keys of the provider's endpoint_paths.
const (
	EndpointMemberships = "memberships"
	EndpointPayments    = "payments"
	EndpointGroups      = "groups"
	EndpointOrgMetrics  = "org_metrics"
)

// ByName returns the paths keyed by endpoint name.
func (p Paths) ByName() map[string]string {
	return map[string]string{
		EndpointMemberships: p.Memberships, EndpointPayments: p.Payments,
		EndpointGroups: p.Groups, EndpointOrgMetrics: p.OrgMetrics,
	}
}
