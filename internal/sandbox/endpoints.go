package sandbox

import (
	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
)

// An endpoint's index is its position in apispec.Endpoints, which is also
// the order the data set generates records in. The endpoints named here
// have behaviour of their own (paging, the status filter, deviations); a
// new list endpoint needs no name.
const (
	epMemberships = iota
	epPayments
	epGroups
	epOrgMetrics
)

const numEndpoints = len(apispec.Endpoints)

// endpointNames are the public names, by index.
var endpointNames = func() (names [numEndpoints]string) {
	for ep, e := range apispec.Endpoints {
		names[ep] = e.Name
	}
	return names
}()

// Endpoint names, as used by Requests and RequestRecord.Endpoint.
const (
	EndpointMemberships = apispec.EndpointMemberships
	EndpointPayments    = apispec.EndpointPayments
	EndpointGroups      = apispec.EndpointGroups
	EndpointOrgMetrics  = apispec.EndpointOrgMetrics
)

// Paths of the list endpoints by name, relative to the server root: the
// client's, from package apispec.
type Paths = apispec.Paths

// DefaultPaths returns the paths of the real API.
func DefaultPaths() Paths { return apispec.DefaultPaths() }
