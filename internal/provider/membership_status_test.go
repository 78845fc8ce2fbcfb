package provider

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A status is a documented name, in any case, or a whole number, which
// is the code (documented or not: the read warns of an unknown one).
func TestParseStatus(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]int64{
		"prospective": 50, "pending": 75, "active": 100, "expired": 300, "cancelled": 350,
		"Active": 100, "CANCELLED": 350, "pEnDiNg": 75,
		"100": 100, "50": 50, "200": 200, "0": 0, "-5": -5, "+100": 100, "0100": 100,
		"9223372036854775807": 9223372036854775807,
	} {
		if got, err := parseStatus(v); err != nil || got != want {
			t.Errorf("parseStatus(%q) = %d, %v; want %d", v, got, err, want)
		}
	}
}

// Anything else is refused, naming the attribute, the value and every
// name with its code, and the closest name when one is near.
func TestParseStatusRefuses(t *testing.T) {
	t.Parallel()
	list := "Write a name or its code: 50 prospective, 75 pending, 100 active, 300 expired, 350 cancelled"
	for _, tc := range []struct{ v, want, suggest string }{
		{"activ", `status = "activ" is neither a status name nor a whole-number code.`, ` Did you mean "active"?`},
		{"canceled", `status = "canceled" is neither a status name nor a whole-number code.`, ` Did you mean "cancelled"?`},
		{" active", `status = " active" is neither`, ` Did you mean "active"?`},
		{"1.5", `status = "1.5" is neither a status name nor a whole-number code.`, ""},
		{"100.0", `status = "100.0" is neither`, ""},
		{"-", `status = "-" is neither a status name nor a whole-number code.`, ""},
		{"", `status = "" is neither`, ""},
		{"lapsed", `status = "lapsed" is neither`, ""},
		{"9223372036854775808", `status = "9223372036854775808" is too large for a status code.`, ""},
	} {
		_, err := parseStatus(tc.v)
		if err == nil {
			t.Errorf("parseStatus(%q) took it", tc.v)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, tc.want) || !strings.Contains(msg, list) || !strings.HasSuffix(msg, ")."+tc.suggest) {
			t.Errorf("parseStatus(%q): %q\nwant it to hold %q, then %q, and end in %q", tc.v, msg, tc.want, list, ")."+tc.suggest)
		}
	}
}

// The read parses status itself, for a value validation did not see: on
// both read paths, an unknown name fails the read with the parse's
// message on the attribute, and no request is sent.
func TestStatusRefusedAtTheRead(t *testing.T) {
	t.Parallel()
	var sent atomic.Int64
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		sent.Add(1)
		_, _ = w.Write([]byte("[]"))
	}))
	t.Cleanup(api.Close)
	fast, framework := readOnBothPaths(t, api.URL, map[string]tftypes.Value{"status": tftypes.NewValue(tftypes.String, "activ")})
	want := `status = "activ" is neither a status name nor a whole-number code. Write a name or its code: ` + knownStatusCodes()
	for path, resp := range map[string]*tfprotov6.ReadDataSourceResponse{"fast": fast, "framework": framework} {
		if len(resp.Diagnostics) != 1 {
			t.Fatalf("%s path: %v, want one error", path, resp.Diagnostics)
		}
		d := resp.Diagnostics[0]
		if d.Severity != tfprotov6.DiagnosticSeverityError || d.Summary != "Invalid status" || !strings.Contains(d.Detail, want) ||
			!strings.HasSuffix(d.Detail, `Did you mean "active"?`) || !d.Attribute.Equal(tftypes.NewAttributePath().WithAttributeName("status")) {
			t.Errorf("%s path: %v %q %q on %v, want an error on status saying %q", path, d.Severity, d.Summary, d.Detail, d.Attribute, want)
		}
	}
	if n := sent.Load(); n != 0 {
		t.Errorf("%d requests were sent for a status refused", n)
	}
}
