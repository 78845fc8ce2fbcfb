// Package e2e holds the end-to-end tests against real downstream servers,
// run by `make e2e` (and CI's .ci/run), never by `make test`: the build tag
// keeps them out of `go test ./...`, where this package has no tests.
//
// TestOffboardingOnKeystone applies examples/use-cases/keystone-group-sync
// (the openstack-group module) against a real OpenStack Keystone on
// PostgreSQL, both started on loopback ports in a temporary directory by
// servers.sh. The sandbox sends its webhooks to a real joinit-relay, whose
// command backend runs the apply; every step is checked through Keystone's
// own API, never Terraform's state, and printed as a line of a timeline.
//
// TestEmailChangeOnKeystone, in the same way, follows a member who changes
// their e-mail address (the sandbox's ChangeEmail): only in case, nothing
// changes; to another address, one run renames their user, which keeps its
// id, its group membership and a role given to it.
//
// Both copy the configuration with the modules it uses (openstack-group and
// member-sync), its git module source pointed at the copy.
package e2e
