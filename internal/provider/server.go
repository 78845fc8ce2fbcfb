package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// NewServer returns the provider's protocol 6 server: the framework's, with
// ReadDataSource answered directly for this provider's data sources.
//
// Why: at 100,000 memberships the framework spends most of a plan turning
// the result into its own values, copying and comparing them, before it
// encodes them. Here the result is encoded straight to msgpack from the
// records. The framework still owns everything else: schema, validation,
// provider configuration.
func NewServer(version string) func() tfprotov6.ProviderServer {
	return func() tfprotov6.ProviderServer {
		p := newProvider(version)
		return &server{ProviderServer: providerserver.NewProtocol6(p)(), provider: p, defs: dataSourceDefs()}
	}
}

// server embeds the framework's server as the plain ProviderServer
// interface, which hides the optional list-resource, action and state-store
// interfaces: this provider has none of those, so Terraform is told they are
// unimplemented, which is true.
type server struct {
	tfprotov6.ProviderServer
	provider *joinitProvider
	defs     map[string]*dataSourceDef // by full type name
}

func (s *server) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	def, ok := s.defs[req.TypeName]
	if !ok || req.Config == nil {
		return s.ProviderServer.ReadDataSource(ctx, req)
	}
	fail := func(d *tfprotov6.Diagnostic) (*tfprotov6.ReadDataSourceResponse, error) {
		return &tfprotov6.ReadDataSourceResponse{Diagnostics: []*tfprotov6.Diagnostic{d}}, nil
	}
	raw, err := req.Config.Unmarshal(def.stateType)
	if err != nil {
		return fail(errorDiagnostic("Invalid configuration for joinit_"+def.name, err.Error(), nil))
	}
	state, err := def.readState(ctx, s.provider.data().clientOrNil(), raw)
	if err != nil {
		var bad *argError
		if errors.As(err, &bad) {
			return fail(errorDiagnostic("Invalid "+bad.attr, bad.msg, tftypes.NewAttributePath().WithAttributeName(bad.attr)))
		}
		return fail(errorDiagnostic(def.errorSummary(), err.Error(), nil))
	}
	encoded, err := encodeState(def.attrs, state)
	if err != nil {
		return fail(errorDiagnostic(def.errorSummary(), "encoding the result: "+err.Error(), nil))
	}
	return &tfprotov6.ReadDataSourceResponse{State: &tfprotov6.DynamicValue{MsgPack: encoded}}, nil
}

func errorDiagnostic(summary, detail string, at *tftypes.AttributePath) *tfprotov6.Diagnostic {
	return &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityError, Summary: summary, Detail: detail, Attribute: at}
}
