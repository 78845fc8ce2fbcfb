package provider

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

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
			s := NewServer(context.Background(), "test")()
			return stoppableRead{s, context.Background(), func() {
				if _, err := s.StopProvider(context.Background(), &tfprotov6.StopProviderRequest{}); err != nil {
					t.Error(err)
				}
			}}
		},
		"interrupt": func(t *testing.T) stoppableRead {
			interrupt, signal := context.WithCancel(context.Background())
			t.Cleanup(signal)
			return stoppableRead{NewServer(interrupt, "test")(), context.Background(), signal}
		},
		"framework Read, request cancelled": func(t *testing.T) stoppableRead {
			request, cancel := context.WithCancel(context.Background())
			t.Cleanup(cancel)
			return stoppableRead{providerserver.NewProtocol6(newProvider("test"))(), request, cancel}
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

// stopInFlight configures the server for a sandbox whose every answer takes
// a minute, starts a read, and stops it once it is waiting on the API. It
// returns the read's answer, failing if that takes 5 s.
func (r stoppableRead) stopInFlight(t *testing.T) *tfprotov6.ReadDataSourceResponse {
	t.Helper()
	sb, url := startSandbox(t, sandbox.Options{Seed: 81, Memberships: 10, Faults: sandbox.Faults{Latency: time.Minute}})
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
	for deadline := time.Now().Add(10 * time.Second); sb.Requests(sandbox.EndpointMemberships) == 0; {
		if time.Now().After(deadline) {
			t.Fatal("the read sent no request within 10 s")
		}
		time.Sleep(5 * time.Millisecond) // until the read is waiting on the API
	}
	r.stop()
	select {
	case resp := <-done:
		if resp == nil {
			t.Fatal("no answer")
		}
		return resp
	case <-time.After(5 * time.Second):
		t.Fatal("the read did not stop within 5 s")
		return nil
	}
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
