package provider

import (
	"context"
	"runtime"
	"testing"
	"weak"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// A read's state, and the records it holds, are garbage by the time the
// memory after its encoding is released: gRPC's copy of the encoded state
// must not land on top of them. (The read's warnings, taken from the state
// after that release, kept 100,000 full memberships live: 316 MB of
// provider peak RSS instead of 240.)
//
// Not parallel: it replaces the package's hooks, so it runs before any
// parallel test does.
func TestReadStateIsGarbageWhenItsMemoryIsReleased(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 5, Memberships: 50})
	var state weak.Pointer[membershipsState]
	typed := false
	testHookReadState = func(s any) {
		if m, ok := s.(*membershipsState); ok {
			state, typed = weak.Make(m), true
		}
	}
	releases, alive := 0, true
	releaseMemory = func(int64) {
		releases++
		if releases == 2 {
			runtime.GC()
			alive = state.Value() != nil
		}
	}
	t.Cleanup(func() { testHookReadState, releaseMemory = nil, releaseMemoryAroundLargeState })

	ctx := context.Background()
	s := testServer(ctx, nil)
	conf, err := s.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: providerConfig(t, map[string]tftypes.Value{
		"base_url":     tftypes.NewValue(tftypes.String, url),
		"access_token": tftypes.NewValue(tftypes.String, sandbox.DefaultToken),
	})})
	if err != nil || len(conf.Diagnostics) > 0 {
		t.Fatalf("configure: %v %v", err, conf.Diagnostics)
	}
	resp, err := s.ReadDataSource(ctx, readRequest(t, membershipsDef, false))
	if err != nil || len(resp.Diagnostics) > 0 || resp.State == nil {
		t.Fatalf("read: %v %v", err, resp.Diagnostics)
	}
	if !typed || releases != 2 {
		t.Fatalf("state seen %t, memory released %d times; want a *membershipsState and 2", typed, releases)
	}
	if alive {
		t.Error("the read's state was still reachable when the memory after its encoding was released")
	}
}
