//go:build tools

// Package openstackprovider pins the OpenStack Terraform provider that the
// Keystone group module (examples/modules/openstack-group) is checked
// against: its offline tests mock the provider's schema, and `make e2e`
// applies it against a real Keystone. It has a module of its own so that
// the provider's dependencies cannot raise the versions this project
// builds with.
package openstackprovider

import (
	_ "github.com/terraform-provider-openstack/terraform-provider-openstack/v3"
)
