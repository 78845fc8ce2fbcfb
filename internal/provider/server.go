package provider

import (
	"context"
	"runtime/debug"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
)

// NewServer returns the provider's protocol 6 server: the framework's, with
// ReadDataSource answered directly for this provider's data sources.
//
// Why: at 100,000 memberships the framework spends most of a plan turning
// the result into its own values, copying and comparing them, before it
// encodes them. Here the result is encoded straight to msgpack from the
// records. The framework still owns everything else: schema, validation,
// provider configuration.
//
// What the fast path does not do that the framework's Read does, and why
// that is safe here:
//   - semantic equality: no attribute has a custom type with semantic
//     equality rules, so there is nothing to compare
//     (TestSchemaHasNoCustomTypes fails if one is ever given one);
//   - custom types: likewise, every value is a plain string, number, bool,
//     list or object, which is all the encoder writes;
//   - data source Configure: it only takes the provider data Configure made;
//     the fast path takes the same data from joinitProvider.data();
//   - ProviderMeta: the provider declares no provider_meta schema;
//   - client capabilities and deferral: a read is handed to the framework
//     whenever the provider has no client, which is the only case in which
//     it defers (provider configuration unknown at plan);
//   - the framework's check that the state conforms to the schema: the
//     encoder writes from the same declaration the schema is built from,
//     and TestAccFastPathEqualsFramework* compare whole states on real
//     Terraform.
//
// Once interrupt is done, every read stops as on StopProvider: main.go
// makes it the context of SIGINT. Terraform sends no StopProvider while
// `terraform apply` computes its plan (1.11), but a terminal's Ctrl-C
// reaches the provider too, and go-plugin only counts it.
func NewServer(interrupt context.Context, version string) func() tfprotov6.ProviderServer {
	return func() tfprotov6.ProviderServer {
		p := newProvider(version)
		stopped, stop := context.WithCancel(interrupt)
		return &server{
			ProviderServer: providerserver.NewProtocol6(p)(),
			provider:       p,
			stopped:        stopped,
			stop:           stop,
		}
	}
}

// server embeds the framework's server as the plain ProviderServer
// interface, which hides the optional list-resource, action and state-store
// interfaces: this provider has none of those, so Terraform is told they are
// unimplemented, which is true.
type server struct {
	tfprotov6.ProviderServer
	provider *joinitProvider

	// stopped is cancelled by StopProvider or the interrupt; every read
	// stops with it.
	stopped context.Context
	stop    context.CancelFunc
}

func (s *server) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	// terraform-plugin-go's gRPC layer also cancels requests on
	// StopProvider, but not on the interrupt; this makes the promise here,
	// for both read paths, whatever serves us.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(s.stopped, cancel)()

	def, ok := registeredDefs[req.TypeName]
	c := s.provider.data().clientOrNil()
	if !ok || req.Config == nil || c == nil {
		// Unknown type, no configuration or no client: the framework's
		// answer (its diagnostics, its deferral) is the right one.
		return s.ProviderServer.ReadDataSource(ctx, req)
	}
	fail := func(d *tfprotov6.Diagnostic) (*tfprotov6.ReadDataSourceResponse, error) {
		return &tfprotov6.ReadDataSourceResponse{Diagnostics: []*tfprotov6.Diagnostic{d}}, nil
	}
	raw, err := req.Config.Unmarshal(def.stateType)
	if err != nil {
		return fail(errorDiagnostic("Invalid configuration for joinit_"+def.name, err.Error(), nil))
	}
	state, size, err := def.readChecked(ctx, c, raw, s.provider.resultLimit)
	if err == nil && testHookReadState != nil {
		testHookReadState(state)
	}
	if err != nil {
		f := def.failure(err)
		var at *tftypes.AttributePath
		if f.attr != "" {
			at = tftypes.NewAttributePath().WithAttributeName(f.attr)
		}
		return fail(errorDiagnostic(f.summary, f.detail, at))
	}
	releaseMemory(size)
	encoded, err := tfattr.EncodeSized(def.attrs, state, size)
	if err != nil {
		return fail(errorDiagnostic(def.errorSummary(), "encoding the result: "+err.Error(), nil))
	}
	// The warnings are taken from the state before the release below, so
	// that nothing after it refers to the state: its records are garbage
	// there, and freed, before gRPC copies the encoded state. (Read after
	// it, they were live: 316 MB of peak RSS at 100,000 full memberships
	// instead of 240, in joinit-bench's plan table.)
	warnings := protocolWarnings(state.base().warnings, state.base().strictFilters(s.provider.data().strict()))
	releaseMemory(size)
	return &tfprotov6.ReadDataSourceResponse{State: &tfprotov6.DynamicValue{MsgPack: encoded}, Diagnostics: warnings}, nil
}

// A test watches the release of a read's memory through these: whether
// the read's state is still reachable when the memory after its encoding
// is released (TestReadStateIsGarbageWhenItsMemoryIsReleased).
var (
	releaseMemory     = releaseMemoryAroundLargeState
	testHookReadState func(state any)
)

// largeState is the encoded size past which releaseMemoryAroundLargeState runs.
const largeState = 32 << 20

// releaseMemoryAroundLargeState collects garbage and returns the freed memory to
// the operating system around the encoding of a large state. Before it, the
// read leaves decoding scratch as garbage; after it, the records themselves
// are garbage (the client keeps no large result, see its cache). A state's
// buffer is one large block that freed small pages cannot hold, so without
// handing those pages back it lands on top of the read's high-water mark,
// and gRPC's copy of it on top of that. Measured at 100,000 full
// memberships (87 MB of state), provider peak RSS: 366 MB with no
// collection; 332 MB with a runtime.GC before encoding; 257 MB with one
// after encoding too, large results not cached and page bodies recycled;
// 232 MB with debug.FreeOSMemory in place of runtime.GC. Each takes a
// fraction of a second of a plan of tens of seconds.
func releaseMemoryAroundLargeState(size int64) {
	if size > largeState {
		debug.FreeOSMemory()
	}
}

// StopProvider cancels every read in flight, then lets the framework do
// its part.
func (s *server) StopProvider(ctx context.Context, req *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	s.stop()
	return s.ProviderServer.StopProvider(ctx, req)
}

func errorDiagnostic(summary, detail string, at *tftypes.AttributePath) *tfprotov6.Diagnostic {
	return &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityError, Summary: summary, Detail: detail, Attribute: at}
}
