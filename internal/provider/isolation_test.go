package provider

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// Each call of a test factory must be a provider of its own: acceptance
// tests run in parallel, and a provider shared by two of them would read
// from whichever API was configured last. Two providers of one factory are
// configured for two APIs serving different records, then the first
// reads: it must see its own API's records.
func TestEachFactoryCallIsAProviderOfItsOwn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for name, factories := range map[string]map[string]func() (tfprotov6.ProviderServer, error){
		"fast path": providerFactories, "framework": frameworkFactories,
	} {
		first, second := mustServe(t, factories), mustServe(t, factories)
		sbA, urlA := startSandbox(t, sandbox.Options{Seed: 101, Memberships: 3})
		_, urlB := startSandbox(t, sandbox.Options{Seed: 202, Memberships: 5})
		configureFor(t, first, urlA)
		configureFor(t, second, urlB)
		resp, err := first.ReadDataSource(ctx, readRequest(t, membershipsDef, false))
		if err != nil || resp.State == nil {
			t.Fatalf("%s: read: %v %v", name, err, resp.Diagnostics)
		}
		if got, want := stateIDs(t, resp.State), sandboxIDs(t, sbA); !slices.Equal(got, want) {
			t.Errorf("%s: the first provider read %v, want its own API's %v: providers share a client", name, got, want)
		}
	}
}

func mustServe(t *testing.T, factories map[string]func() (tfprotov6.ProviderServer, error)) tfprotov6.ProviderServer {
	t.Helper()
	s, err := factories["joinit"]()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func configureFor(t *testing.T, s tfprotov6.ProviderServer, url string) {
	t.Helper()
	ctx := context.Background()
	// The framework serves a data source only after GetProviderSchema.
	if _, err := s.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{}); err != nil {
		t.Fatal(err)
	}
	conf, err := s.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: providerConfig(t, map[string]tftypes.Value{
		"base_url":     tftypes.NewValue(tftypes.String, url),
		"access_token": tftypes.NewValue(tftypes.String, sandbox.DefaultToken),
	})})
	if err != nil || len(conf.Diagnostics) > 0 {
		t.Fatalf("configure: %v %v", err, conf.Diagnostics)
	}
}

// stateIDs are the ids of a joinit_memberships state.
func stateIDs(t *testing.T, state *tfprotov6.DynamicValue) []string {
	t.Helper()
	v, err := state.Unmarshal(membershipsDef.stateType)
	if err != nil {
		t.Fatal(err)
	}
	var attrs map[string]tftypes.Value
	var ids []tftypes.Value
	if err := v.As(&attrs); err != nil {
		t.Fatal(err)
	}
	if err := attrs["ids"].As(&ids); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		if err := id.As(&out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// sandboxIDs are the ids of a sandbox's memberships, in order.
func sandboxIDs(t *testing.T, s *sandbox.Server) []string {
	t.Helper()
	var out []string
	for _, raw := range s.MembershipsJSON(nil) {
		var rec struct {
			ID string `json:"_id"`
		}
		if err := json.Unmarshal(raw, &rec); err != nil {
			t.Fatal(err)
		}
		out = append(out, rec.ID)
	}
	return out
}
