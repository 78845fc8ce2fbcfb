package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"hash/crc32"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	fwattr "github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// The fast path writes plain strings, numbers, bools, lists and objects and
// applies no custom type's semantics (server.go). An attribute given a
// custom type would be served differently by the two paths: refuse it.
func TestSchemaHasNoCustomTypes(t *testing.T) {
	t.Parallel()
	for _, def := range orderedDefs() {
		for name, a := range def.schema().Attributes {
			if err := plainType(a.GetType()); err != "" {
				t.Errorf("joinit_%s.%s: %s; the fast path (server.go) does not apply custom types", def.name, name, err)
			}
		}
		// The one block is the conventional timeouts block. Its custom type
		// (terraform-plugin-framework-timeouts) wraps a plain object of one
		// string and has no semantic equality, so the state is the same.
		for name, b := range def.schema().Blocks {
			typ, ok := b.Type().(timeouts.Type)
			if name != "timeouts" || !ok {
				t.Errorf("joinit_%s block %s of type %T: the fast path knows only the timeouts block", def.name, name, b.Type())
				continue
			}
			if err := plainType(typ.ObjectType); err != "" || len(typ.AttrTypes) != 1 {
				t.Errorf("joinit_%s.timeouts: %s (%d attributes)", def.name, err, len(typ.AttrTypes))
			}
			if _, semantic := any(timeouts.Value{}).(basetypes.ObjectValuableWithSemanticEquals); semantic {
				t.Errorf("the timeouts value has semantic equality, which the fast path does not apply")
			}
		}
	}
}

// plainType returns "" for the framework's own types, all the way down.
func plainType(typ fwattr.Type) string {
	switch typ := typ.(type) {
	case basetypes.StringType, basetypes.Int64Type, basetypes.NumberType, basetypes.BoolType, basetypes.DynamicType:
		return ""
	case basetypes.ListType:
		return plainType(typ.ElemType)
	case basetypes.SetType:
		return plainType(typ.ElemType)
	case basetypes.ObjectType:
		for name, at := range typ.AttrTypes {
			if err := plainType(at); err != "" {
				return name + ": " + err
			}
		}
		return ""
	}
	return fmt.Sprintf("its type %T is not one of the framework's base types", typ)
}

// providerConfig is the provider block as Terraform sends it.
func providerConfig(t *testing.T, set map[string]tftypes.Value) *tfprotov6.DynamicValue {
	t.Helper()
	typ := providerSchema().Type().TerraformType(context.Background()).(tftypes.Object)
	vals := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
		if v, ok := set[name]; ok {
			vals[name] = v
		}
	}
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, vals))
	if err != nil {
		t.Fatal(err)
	}
	return &dv
}

func readRequest(t *testing.T, def *dataSourceDef, deferralAllowed bool) *tfprotov6.ReadDataSourceRequest {
	t.Helper()
	cfg, err := tfprotov6.NewDynamicValue(def.stateType, emptyConfig(def))
	if err != nil {
		t.Fatal(err)
	}
	return &tfprotov6.ReadDataSourceRequest{TypeName: "joinit_" + def.name, Config: &cfg,
		ClientCapabilities: &tfprotov6.ReadDataSourceClientCapabilities{DeferralAllowed: deferralAllowed}}
}

// With a provider configuration unknown at plan, the read is the
// framework's: deferred when Terraform allows it, refused otherwise.
func TestServerHandsUnconfiguredReadsToFramework(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, deferralAllowed := range []bool{true, false} {
		s := testServer(context.Background(), nil)
		cfg := providerConfig(t, map[string]tftypes.Value{
			"base_url":     tftypes.NewValue(tftypes.String, "https://api.example.com"),
			"access_token": tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		})
		conf, err := s.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: cfg, TerraformVersion: "1.11.4",
			ClientCapabilities: &tfprotov6.ConfigureProviderClientCapabilities{DeferralAllowed: deferralAllowed}})
		if err != nil || len(conf.Diagnostics) > 0 {
			t.Fatalf("configure: %v %v", err, conf.Diagnostics)
		}
		resp, err := s.ReadDataSource(ctx, readRequest(t, membershipsDef, deferralAllowed))
		if err != nil {
			t.Fatal(err)
		}
		if deferralAllowed {
			if resp.Deferred == nil || resp.Deferred.Reason != tfprotov6.DeferredReasonProviderConfigUnknown || len(resp.Diagnostics) > 0 {
				t.Errorf("deferral allowed: got deferred %v, diagnostics %v; want deferred for an unknown provider configuration", resp.Deferred, resp.Diagnostics)
			}
			continue
		}
		if resp.Deferred != nil || len(resp.Diagnostics) != 1 || !strings.Contains(resp.Diagnostics[0].Detail, "not known until apply") {
			t.Errorf("deferral not allowed: got deferred %v, diagnostics %v; want the not-configured error", resp.Deferred, resp.Diagnostics)
		}
	}
}

// interruptedDetail is the diagnostic of a stopped read, on either path.
const interruptedDetail = "the read was interrupted (Ctrl-C, or Terraform stopped the provider); " +
	"a read returns every record or none, so nothing was stored"

// A read in flight ends at once, not when the API answers, and says it was
// interrupted, however it is stopped: StopProvider or the interrupt (SIGINT
// in main.go) on the provider's server, or, on the framework's own Read, a
// cancelled request, which is how terraform-plugin-go passes StopProvider
// on to the framework.
func TestReadInFlightStopsAndSaysInterrupted(t *testing.T) {
	t.Parallel()
	cases := map[string]func(t *testing.T) stoppableRead{
		"StopProvider": func(t *testing.T) stoppableRead {
			s := testServer(context.Background(), nil)
			return stoppableRead{s, context.Background(), func() {
				if _, err := s.StopProvider(context.Background(), &tfprotov6.StopProviderRequest{}); err != nil {
					t.Error(err)
				}
			}}
		},
		"interrupt": func(t *testing.T) stoppableRead {
			interrupt, signal := context.WithCancel(context.Background())
			t.Cleanup(signal)
			return stoppableRead{testServer(interrupt, nil), context.Background(), signal}
		},
		"framework Read, request cancelled": func(t *testing.T) stoppableRead {
			request, cancel := context.WithCancel(context.Background())
			t.Cleanup(cancel)
			return stoppableRead{testFrameworkServer(), request, cancel}
		},
	}
	for name, setUp := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			resp := setUp(t).stopInFlight(t)
			if len(resp.Diagnostics) != 1 || hasRecords(t, resp) {
				t.Fatalf("a stopped read should fail with one diagnostic and no records, got %+v", resp)
			}
			d := resp.Diagnostics[0]
			if d.Severity != tfprotov6.DiagnosticSeverityError || d.Summary != "Failed to read joinit_memberships" || d.Detail != interruptedDetail {
				t.Errorf("got %s %q: %q; want the error Failed to read joinit_memberships: %s", d.Severity, d.Summary, d.Detail, interruptedDetail)
			}
		})
	}
}

// stoppableRead is a server, the context its read runs under, and how to
// stop that read.
type stoppableRead struct {
	server tfprotov6.ProviderServer
	ctx    context.Context
	stop   func()
}

// stopInFlight configures the server for a sandbox whose every answer waits
// an hour, starts a read, and stops it once it is waiting on the API. It
// returns the read's answer, which can then only have come from the stop:
// the API has not answered. A read that does not stop fails the test at
// testutil's hang limit, not at a time a loaded machine could miss.
func (r stoppableRead) stopInFlight(t *testing.T) *tfprotov6.ReadDataSourceResponse {
	t.Helper()
	sb, url := sandbox.StartForTest(t, sandbox.Options{Seed: 81, Memberships: 10, Faults: sandbox.Faults{Latency: time.Hour}})
	conf, err := r.server.ConfigureProvider(context.Background(), &tfprotov6.ConfigureProviderRequest{Config: providerConfig(t, map[string]tftypes.Value{
		"base_url":     tftypes.NewValue(tftypes.String, url),
		"access_token": tftypes.NewValue(tftypes.String, sandbox.DefaultToken),
	})})
	if err != nil || len(conf.Diagnostics) > 0 {
		t.Fatalf("configure: %v %v", err, conf.Diagnostics)
	}
	req := readRequest(t, membershipsDef, false)
	done := make(chan *tfprotov6.ReadDataSourceResponse, 1)
	go func() {
		resp, err := r.server.ReadDataSource(r.ctx, req)
		if err != nil {
			t.Error(err)
		}
		done <- resp
	}()
	testutil.Eventually(t, "the read's first request", func() bool { return sb.Requests(sandbox.EndpointMemberships) > 0 })
	r.stop()
	var resp *tfprotov6.ReadDataSourceResponse
	testutil.Eventually(t, "the stopped read's answer", func() bool {
		select {
		case resp = <-done:
			return true
		default:
			return false
		}
	})
	if resp == nil {
		t.Fatal("no answer")
	}
	// And the read let go of its request in flight: the sandbox logs it
	// unanswered (status 0) once the client has closed it.
	testutil.Eventually(t, "the request in flight let go", func() bool { return len(sb.RequestLog()) > 0 })
	for _, rec := range sb.RequestLog() {
		if rec.Status != 0 {
			t.Errorf("the API answered a request (%d, page %s) before the read stopped: its answers wait an hour", rec.Status, rec.Query.Get("page"))
		}
	}
	return resp
}

// hasRecords says whether a read answered records. The fast path answers
// no state with an error; the framework answers the configuration.
func hasRecords(t *testing.T, resp *tfprotov6.ReadDataSourceResponse) bool {
	t.Helper()
	if resp.State == nil {
		return false
	}
	v, err := resp.State.Unmarshal(membershipsDef.stateType)
	if err != nil {
		t.Fatal(err)
	}
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		t.Fatal(err)
	}
	return !attrs["ids"].IsNull()
}

// frameworkFactories serve the provider without the fast path: a provider
// of its own on each call, as providerFactories do, so that parallel tests
// never configure each other's client.
var frameworkFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"joinit": func() (tfprotov6.ProviderServer, error) {
		return providerserver.NewProtocol6WithError(testProvider(nil))()
	},
}

// The fast path's state equals the framework's, on real Terraform, for
// every registered data source in each of its coverageVariants, in pages
// of 5: every variant a block of one configuration, read by one provider
// and then the other (two runs of Terraform, where a run for each variant
// took 44). A data source's own arguments (filters) add cases of their
// own in its test file.
func TestAccFastPathEqualsFramework(t *testing.T) {
	var blocks []fastPathBlock
	for _, d := range registeredTests() {
		for name, args := range coverageVariants(d) {
			args = maps.Clone(args)
			args["page_size"] = tftypes.NewValue(tftypes.Number, 5)
			blocks = append(blocks, fastPathBlock{d.def, variantLabel(name), variantArgs(args)})
		}
	}
	testFastPathEqualsFramework(t, blocks...)
}

// fastPathBlock is a data block both read paths read: a data source, the
// block's label and its arguments.
type fastPathBlock struct {
	def         *dataSourceDef
	label, args string
}

// variantArgs are args as the lines of a data block.
func variantArgs(args map[string]tftypes.Value) string {
	var lines []string
	for _, name := range slices.Sorted(maps.Keys(args)) {
		lines = append(lines, name+" = "+hclValue(args[name]))
	}
	return strings.Join(lines, "\n  ")
}

// testFastPathEqualsFramework serves the edge records followed by some of
// the sandbox's, so both unusual and ordinary records are compared, and
// holds each attribute of each block the same on both paths.
func testFastPathEqualsFramework(t *testing.T, blocks ...fastPathBlock) {
	// Data of this test's own: a read that reached another test's server
	// would see other records, and fail the comparison.
	seed := int64(crc32.ChecksumIEEE([]byte(t.Name())))
	sb := sandbox.New(sandbox.Options{Seed: seed, Memberships: 20, Payments: 10, Groups: 6, OrgMetrics: 7, Records: sandboxRecords(7)})
	records := map[string][]string{}
	for _, d := range registeredTests() {
		records[d.def.endpoint] = append(d.edge[:len(d.edge):len(d.edge)], recordTexts(sb.RecordsJSON(d.def.endpoint))...)
	}
	url := fixtureAPI(t, records)
	config := providerBlock(url)
	var fast, framework []statecheck.StateCheck
	for _, b := range blocks {
		address := "data.joinit_" + b.def.name + "." + b.label
		config += "data \"joinit_" + b.def.name + "\" \"" + b.label + "\" {\n  " + b.args + "\n}\n"
		for _, a := range b.def.attrs {
			same := statecheck.CompareValue(compare.ValuesSame())
			fast = append(fast, same.AddStateValue(address, tfjsonpath.New(a.Name())))
			framework = append(framework, checkNamed(address+"."+a.Name(), same.AddStateValue(address, tfjsonpath.New(a.Name()))))
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{ProtoV6ProviderFactories: providerFactories, Config: config, ConfigStateChecks: fast},
			{ProtoV6ProviderFactories: frameworkFactories, Config: config, ConfigStateChecks: framework},
		},
	})
}

// checkNamed is check, its failure prefixed with what it checks.
func checkNamed(what string, check statecheck.StateCheck) statecheck.StateCheck {
	return stateCheckFunc(func(ctx context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
		check.CheckState(ctx, req, resp)
		if resp.Error != nil {
			resp.Error = fmt.Errorf("%s: %w", what, resp.Error)
		}
	})
}
