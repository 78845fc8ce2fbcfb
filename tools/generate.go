//go:build generate

package tools

// `cd tools && go generate ./...` (go generate sets the "generate" build tag)
// formats the examples and renders docs/ from templates/, examples/ and the
// provider schema. tfplugindocs builds the provider from the repository root
// and reads its schema with the terraform binary found on PATH; it downloads
// Terraform only when none is there.

//go:generate terraform fmt -recursive ../examples/
//go:generate go run github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs generate --provider-dir .. --provider-name joinit
