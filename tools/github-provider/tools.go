//go:build tools

// Package githubprovider pins the GitHub Terraform provider whose schema
// the GitHub team module's tests mock (examples/modules/github-team): the
// acceptance tests build it once into .tools/ and point Terraform at it, so
// mock_provider "github" checks the module against the real schema,
// offline. It has a module of its own so that the provider's dependencies
// cannot raise the versions this project builds with.
package githubprovider

import (
	_ "github.com/integrations/terraform-provider-github/v6"
)
