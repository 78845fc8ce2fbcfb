package main

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// Every call that would configure the provider, read, plan, apply, import
// or move fails: a stand-in that answered them would fake the downstream
// API. Terraform's mock_provider answers these itself (Terraform 1.11,
// internal/providers/mock.go) and never passes them on, and neither does
// terraform validate; they arrive only when a configuration runs the
// stand-in as a real provider.

// refusal is the error diagnostic of a call a stand-in does not serve.
func (s *standIn) refusal(call string) []*tfprotov6.Diagnostic {
	from := "a recorded schema"
	if s.file != nil {
		from = fmt.Sprintf("the schema of %s %s, recorded from %s", s.file.Address, s.file.Version, s.file.Source)
	}
	return []*tfprotov6.Diagnostic{{
		Severity: tfprotov6.DiagnosticSeverityError,
		Summary:  "A stand-in provider: it serves only a schema",
		Detail: fmt.Sprintf("terraform-provider-%s (tools/recorded-provider) serves %s, for terraform validate and for terraform test with mock_provider. It does not answer %s: it has no API behind it. Use the real provider, or mock it in a test.",
			s.name, from, call),
	}}
}

func (s *standIn) ConfigureProvider(context.Context, *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	return &tfprotov6.ConfigureProviderResponse{Diagnostics: s.refusal("ConfigureProvider")}, nil
}

func (s *standIn) ReadDataSource(context.Context, *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	return &tfprotov6.ReadDataSourceResponse{Diagnostics: s.refusal("ReadDataSource")}, nil
}

func (s *standIn) UpgradeResourceState(context.Context, *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	return &tfprotov6.UpgradeResourceStateResponse{Diagnostics: s.refusal("UpgradeResourceState")}, nil
}

func (s *standIn) ReadResource(context.Context, *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return &tfprotov6.ReadResourceResponse{Diagnostics: s.refusal("ReadResource")}, nil
}

func (s *standIn) PlanResourceChange(context.Context, *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return &tfprotov6.PlanResourceChangeResponse{Diagnostics: s.refusal("PlanResourceChange")}, nil
}

func (s *standIn) ApplyResourceChange(context.Context, *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: s.refusal("ApplyResourceChange")}, nil
}

func (s *standIn) ImportResourceState(context.Context, *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return &tfprotov6.ImportResourceStateResponse{Diagnostics: s.refusal("ImportResourceState")}, nil
}

// MoveResourceState is refused too, though mock_provider passes it on: a
// move between resource types is the real provider's code. The schema
// does not claim the capability, so Terraform refuses such a move first.
func (s *standIn) MoveResourceState(context.Context, *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	return &tfprotov6.MoveResourceStateResponse{Diagnostics: s.refusal("MoveResourceState")}, nil
}

func (s *standIn) UpgradeResourceIdentity(context.Context, *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	return &tfprotov6.UpgradeResourceIdentityResponse{Diagnostics: s.refusal("UpgradeResourceIdentity")}, nil
}

func (s *standIn) GenerateResourceConfig(context.Context, *tfprotov6.GenerateResourceConfigRequest) (*tfprotov6.GenerateResourceConfigResponse, error) {
	return &tfprotov6.GenerateResourceConfigResponse{Diagnostics: s.refusal("GenerateResourceConfig")}, nil
}

// CallFunction is refused (mock_provider passes it on), though the schema
// names no function to call.
func (s *standIn) CallFunction(context.Context, *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	return &tfprotov6.CallFunctionResponse{Error: &tfprotov6.FunctionError{Text: s.refusal("CallFunction")[0].Detail}}, nil
}

func (s *standIn) OpenEphemeralResource(context.Context, *tfprotov6.OpenEphemeralResourceRequest) (*tfprotov6.OpenEphemeralResourceResponse, error) {
	return &tfprotov6.OpenEphemeralResourceResponse{Diagnostics: s.refusal("OpenEphemeralResource")}, nil
}

func (s *standIn) RenewEphemeralResource(context.Context, *tfprotov6.RenewEphemeralResourceRequest) (*tfprotov6.RenewEphemeralResourceResponse, error) {
	return &tfprotov6.RenewEphemeralResourceResponse{Diagnostics: s.refusal("RenewEphemeralResource")}, nil
}

func (s *standIn) CloseEphemeralResource(context.Context, *tfprotov6.CloseEphemeralResourceRequest) (*tfprotov6.CloseEphemeralResourceResponse, error) {
	return &tfprotov6.CloseEphemeralResourceResponse{Diagnostics: s.refusal("CloseEphemeralResource")}, nil
}
