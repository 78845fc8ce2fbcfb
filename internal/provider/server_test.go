package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	fwattr "github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
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
	case basetypes.StringType, basetypes.Int64Type, basetypes.BoolType, basetypes.DynamicType:
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
	typ := providerSchema().Type().TerraformType(context.Background()).(tftypes.Object) //nolint:forcetypeassert // a schema's type is an object
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
		s := NewServer(context.Background(), "test")()
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
