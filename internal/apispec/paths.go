// Package apispec holds facts of the API specification that both the client
// and the sandbox (its fake) need, so that each is written once. It imports
// nothing of this project.
package apispec

// The list endpoints' names: what errors, logs and request counts call
// them, and the keys of Paths and of the provider's endpoint_paths.
const (
	EndpointMemberships = "memberships"
	EndpointPayments    = "payments"
	EndpointGroups      = "groups"
	EndpointOrgMetrics  = "org_metrics"
	// EndpointMembershipTypes is the list of membership types. Its object
	// is documented publicly, its list's path is not: the default is an
	// assumption of the same shape as the others.
	EndpointMembershipTypes = "membership_types"
)

// Endpoint is one list endpoint of the API.
type Endpoint struct {
	Name string
	// DefaultPath is its path relative to the base URL.
	DefaultPath string
	// Shown is true when the specification shows the full path; the
	// others follow the /api/v1/organizations/me/ shape by assumption,
	// which is why every path can be overridden.
	Shown bool
	// Alternate, for an endpoint whose full path is not shown, is the
	// other path the specification allows: the bare shape its table shows
	// (/payments). A 404 of page 1 at the default path names it, with the
	// endpoint_paths value that reads it there.
	Alternate string
	// Paging is how it pages: CountPaging or LimitPaging.
	Paging Paging
	// Filters are the query parameters it filters by, beside paging.
	Filters []string
}

// Endpoints are the list endpoints, one row each: a new endpoint is one
// row here (its Paths key, its default, its endpoint_paths attribute).
// An array, so that its length is a constant (the sandbox sizes by it).
var Endpoints = [...]Endpoint{
	{Name: EndpointMemberships, DefaultPath: "/api/v1/organizations/me/memberships", Shown: true, Paging: CountPaging, Filters: []string{"status"}},
	{Name: EndpointPayments, DefaultPath: "/api/v1/organizations/me/payments", Alternate: "/payments", Paging: CountPaging},
	{Name: EndpointGroups, DefaultPath: "/api/v1/organizations/me/groups", Alternate: "/groups", Paging: CountPaging},
	{Name: EndpointOrgMetrics, DefaultPath: "/api/v1/organizations/me/org_metrics", Shown: true, Paging: LimitPaging},
	{Name: EndpointMembershipTypes, DefaultPath: "/api/v1/organizations/me/membership_types", Paging: CountPaging},
}

// Lookup returns the endpoint of that name; it panics for a name no row
// has, which is a bug of the caller: names are this table's constants.
func Lookup(name string) Endpoint {
	for _, e := range Endpoints {
		if e.Name == name {
			return e
		}
	}
	panic("apispec: no endpoint named " + name)
}

// Names are the endpoints' names, in the table's order.
func Names() []string {
	out := make([]string, len(Endpoints))
	for i, e := range Endpoints {
		out[i] = e.Name
	}
	return out
}

// DefaultBaseURL is the service's API host: the host of the token
// endpoint in its current authentication documentation, and the host
// public code that calls the service reads memberships from: an
// assumption (API.md#hosts-and-paths).
const DefaultBaseURL = "https://app.joinitapi.com"

// Paths are endpoint paths by endpoint name, relative to the base URL.
type Paths map[string]string

// DefaultPaths returns the paths of the real API.
func DefaultPaths() Paths {
	p := Paths{}
	for _, e := range Endpoints {
		p[e.Name] = e.DefaultPath
	}
	return p
}

// WithDefaults returns the paths with every endpoint's default where p
// names none (or an empty one).
func (p Paths) WithDefaults() Paths {
	out := DefaultPaths()
	for name, path := range p {
		if path != "" {
			out[name] = path
		}
	}
	return out
}
