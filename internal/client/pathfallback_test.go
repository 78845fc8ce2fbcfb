package client

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// A service that answers payments and groups at the bare paths the
// specification shows: page 1 at the default path answers 404, the read
// asks once at the bare path, reads there, and says so; later reads go
// there at once.
func TestDefaultPathNotFoundTriesTheOtherShape(t *testing.T) {
	t.Parallel()
	sb, base := startSandbox(t, sandbox.Options{Seed: 71, Payments: 12, Groups: 5,
		Paths: sandbox.Paths{sandbox.EndpointPayments: "/payments", sandbox.EndpointGroups: "/groups"}})
	c := newClient(t, Config{BaseURL: base})
	ps, err := c.Payments(context.Background(), ListOptions{PageSize: 10})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "payments", paymentIDs(ps), rawIDs(t, sb.PaymentsJSON()))
	if p, ok := c.AlternatePath("payments"); !ok || p != "/payments" {
		t.Fatalf("AlternatePath(payments) = %q, %v", p, ok)
	}
	gs, err := c.Groups(context.Background(), ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "groups", groupIDs(gs), rawIDs(t, sb.GroupsJSON()))
	unknown := sb.Requests("") - sb.Requests("payments") - sb.Requests("groups")
	if unknown != 2 {
		t.Fatalf("%d requests at the default paths, want one for each endpoint", unknown)
	}
	// A second read, of another page size: at the bare path at once.
	if _, err := c.Payments(context.Background(), ListOptions{PageSize: 5}); err != nil {
		t.Fatal(err)
	}
	if again := sb.Requests("") - sb.Requests("payments") - sb.Requests("groups"); again != unknown {
		t.Fatalf("the second read asked the default path again")
	}
}

// When the other path answers 404 too, the error lists both URLs; a path
// the user set is never second-guessed.
func TestNotFoundAtBothPathsListsBoth(t *testing.T) {
	t.Parallel()
	_, base := startSandbox(t, sandbox.Options{Seed: 72, Payments: 3, Paths: sandbox.Paths{sandbox.EndpointPayments: "/v9/payments"}})
	c := newClient(t, Config{BaseURL: base})
	_, err := c.Payments(context.Background(), ListOptions{})
	var apiErr *failure.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 404 || apiErr.Page != 1 {
		t.Fatalf("%v (%T), want a 404 of page 1", err, err)
	}
	for _, want := range []string{base + "/api/v1/organizations/me/payments and for " + base + "/payments (the other path the API specification allows)", "Config.Paths[payments]"} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("error %q does not say %q", err, want)
		}
	}
	set := newClient(t, Config{BaseURL: base, Paths: Paths{"payments": "/api/v1/organizations/me/payments"}})
	_, err = set.Payments(context.Background(), ListOptions{})
	if err == nil || strings.Contains(err.Error(), "and for") {
		t.Fatalf("a path the user set was second-guessed: %v", err)
	}
}
