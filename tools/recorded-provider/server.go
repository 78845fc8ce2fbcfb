package main

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// standIn is the provider server: it answers the calls about the schema
// and the Validate calls (terraform validate, and mock_provider, which
// hands these to the provider it wraps); standin_refusals.go refuses the
// rest. It holds no client and makes no network call.
type standIn struct {
	name   string // the provider's type name, from the binary's
	file   *recordedFile
	schema *tfprotov6.GetProviderSchemaResponse
	// err is why there is no schema (no file for the name, a file this
	// build cannot convert): every call says it, rather than the process
	// exiting before Terraform could show why.
	err error
}

// newStandIn loads and converts the schema recorded for name.
func newStandIn(name string) *standIn {
	s := &standIn{name: name}
	b, err := schemaText(name)
	if err == nil {
		s.file, err = decodeRecorded(b)
	}
	if err == nil {
		s.schema, err = providerSchema(s.file)
	}
	s.err = err
	return s
}

// address is the provider's registry address, or a placeholder when the
// schema did not load (tf6server names the server only in debug output).
func (s *standIn) address() string {
	if s.file != nil {
		return s.file.Address
	}
	return "registry.terraform.io/joinit-community/recorded-provider"
}

// schemaFailure is the error diagnostic of a schema that did not load.
func (s *standIn) schemaFailure() []*tfprotov6.Diagnostic {
	return []*tfprotov6.Diagnostic{{
		Severity: tfprotov6.DiagnosticSeverityError,
		Summary:  "The stand-in provider has no schema",
		Detail:   fmt.Sprintf("terraform-provider-%s (tools/recorded-provider): %v", s.name, s.err),
	}}
}

func (s *standIn) GetMetadata(context.Context, *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	if s.err != nil {
		return &tfprotov6.GetMetadataResponse{Diagnostics: s.schemaFailure()}, nil
	}
	resp := &tfprotov6.GetMetadataResponse{ServerCapabilities: s.schema.ServerCapabilities}
	for _, name := range slices.Sorted(maps.Keys(s.schema.ResourceSchemas)) {
		resp.Resources = append(resp.Resources, tfprotov6.ResourceMetadata{TypeName: name})
	}
	for _, name := range slices.Sorted(maps.Keys(s.schema.DataSourceSchemas)) {
		resp.DataSources = append(resp.DataSources, tfprotov6.DataSourceMetadata{TypeName: name})
	}
	return resp, nil
}

func (s *standIn) GetProviderSchema(context.Context, *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	if s.err != nil {
		return &tfprotov6.GetProviderSchemaResponse{Diagnostics: s.schemaFailure()}, nil
	}
	return s.schema, nil
}

// GetResourceIdentitySchemas answers that no resource has an identity: the
// recording holds none, and Terraform from 1.12 asks before any plan.
func (s *standIn) GetResourceIdentitySchemas(context.Context, *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return &tfprotov6.GetResourceIdentitySchemasResponse{IdentitySchemas: map[string]*tfprotov6.ResourceIdentitySchema{}}, nil
}

// GetFunctions answers that there are no functions: the recording holds
// none.
func (s *standIn) GetFunctions(context.Context, *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error) {
	return &tfprotov6.GetFunctionsResponse{Functions: map[string]*tfprotov6.Function{}}, nil
}

// The Validate calls find nothing: Terraform has already checked the
// configuration against the schema (names, types, required, bounds); what
// is left is the real provider's own rules, which a recording cannot hold.

func (s *standIn) ValidateProviderConfig(_ context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	return &tfprotov6.ValidateProviderConfigResponse{PreparedConfig: req.Config}, nil
}

func (s *standIn) ValidateResourceConfig(context.Context, *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return &tfprotov6.ValidateResourceConfigResponse{}, nil
}

func (s *standIn) ValidateDataResourceConfig(context.Context, *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return &tfprotov6.ValidateDataResourceConfigResponse{}, nil
}

func (s *standIn) ValidateEphemeralResourceConfig(context.Context, *tfprotov6.ValidateEphemeralResourceConfigRequest) (*tfprotov6.ValidateEphemeralResourceConfigResponse, error) {
	return &tfprotov6.ValidateEphemeralResourceConfigResponse{}, nil
}

// StopProvider succeeds: nothing is ever in flight.
func (s *standIn) StopProvider(context.Context, *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	return &tfprotov6.StopProviderResponse{}, nil
}
