package provider

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// readOnBothPaths reads joinit_memberships with the given arguments through
// the provider's fast server and through the bare framework server, each
// configured for the sandbox, and returns both responses.
func readOnBothPaths(t *testing.T, url string, args map[string]tftypes.Value) (fast, framework *tfprotov6.ReadDataSourceResponse) {
	t.Helper()
	return readOnBothPathsWith(t, url, nil, args)
}

// readOnBothPathsWith reads with provider settings added to base_url and
// access_token.
func readOnBothPathsWith(t *testing.T, url string, settings, args map[string]tftypes.Value) (fast, framework *tfprotov6.ReadDataSourceResponse) {
	t.Helper()
	ctx := context.Background()
	servers := []tfprotov6.ProviderServer{testServer(context.Background(), nil), testFrameworkServer()}
	var out []*tfprotov6.ReadDataSourceResponse
	for _, s := range servers {
		provider := map[string]tftypes.Value{
			"base_url":     tftypes.NewValue(tftypes.String, url),
			"access_token": tftypes.NewValue(tftypes.String, sandbox.DefaultToken),
		}
		for k, v := range settings {
			provider[k] = v
		}
		conf, err := s.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: providerConfig(t, provider)})
		if err != nil || len(conf.Diagnostics) > 0 {
			t.Fatalf("configure: %v %v", err, conf.Diagnostics)
		}
		req := readRequest(t, membershipsDef, false)
		raw := emptyConfig(membershipsDef)
		var vals map[string]tftypes.Value
		if err := raw.As(&vals); err != nil {
			t.Fatal(err)
		}
		for k, v := range args {
			vals[k] = v
		}
		cfg, err := tfprotov6.NewDynamicValue(membershipsDef.stateType, tftypes.NewValue(membershipsDef.stateType, vals))
		if err != nil {
			t.Fatal(err)
		}
		req.Config = &cfg
		resp, err := s.ReadDataSource(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, resp)
	}
	return out[0], out[1]
}

func stringSet(values ...string) tftypes.Value {
	elems := make([]tftypes.Value, len(values))
	for i, v := range values {
		elems[i] = tftypes.NewValue(tftypes.String, v)
	}
	return tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, elems)
}

// A filter value that matches no record warns on its argument, naming the
// value and what the user may have meant, on both read paths alike, for
// full and lean reads; the read itself succeeds.
func TestFilterValuesThatMatchNothingWarn(t *testing.T) {
	t.Parallel()
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 51, Memberships: 60})
	lean := tftypes.NewValue(tftypes.Bool, false)
	cases := []struct {
		name string
		args map[string]tftypes.Value
		want [][]string // per warning: attribute, then texts the summary+detail hold
	}{
		{"case differs", map[string]tftypes.Value{"membership_names": stringSet("corporate", "Student")},
			[][]string{{"membership_names", `"corporate" matches no membership`, `Did you mean "Corporate"?`, "case included"}}},
		{"lean read, typo", map[string]tftypes.Value{"membership_names": stringSet("Studnet"), "include_records": lean},
			[][]string{{"membership_names", `"Studnet"`, `Did you mean "Student"?`}}},
		{"nothing near", map[string]tftypes.Value{"membership_names": stringSet("Platinum")},
			[][]string{{"membership_names", `"Platinum"`, `The values read are "Corporate", "Family", "Individual" and "Student".`}}},
		{"types", map[string]tftypes.Value{"membership_types": stringSet("no-such-type"), "include_records": lean},
			[][]string{{"membership_types", `membership_types value "no-such-type"`, "None of the 60 memberships read has membership_type"}}},
		{"every value matches", map[string]tftypes.Value{"membership_names": stringSet("Corporate", "Student")}, nil},
	}
	for _, tc := range cases {
		fast, framework := readOnBothPaths(t, url, tc.args)
		for path, resp := range map[string]*tfprotov6.ReadDataSourceResponse{"fast": fast, "framework": framework} {
			if resp.State == nil {
				t.Fatalf("%s, %s path: no state; diagnostics %v", tc.name, path, resp.Diagnostics)
			}
			if len(resp.Diagnostics) != len(tc.want) {
				t.Fatalf("%s, %s path: %d diagnostics, want %d: %v", tc.name, path, len(resp.Diagnostics), len(tc.want), resp.Diagnostics)
			}
			for i, want := range tc.want {
				d := resp.Diagnostics[i]
				if d.Severity != tfprotov6.DiagnosticSeverityWarning {
					t.Errorf("%s, %s path: severity %v, want a warning", tc.name, path, d.Severity)
				}
				if !d.Attribute.Equal(tftypes.NewAttributePath().WithAttributeName(want[0])) {
					t.Errorf("%s, %s path: on %v, want %s", tc.name, path, d.Attribute, want[0])
				}
				for _, text := range want[1:] {
					if !strings.Contains(d.Summary+" "+d.Detail, text) {
						t.Errorf("%s, %s path: %q / %q does not say %s", tc.name, path, d.Summary, d.Detail, text)
					}
				}
			}
		}
		if !reflect.DeepEqual(fast.Diagnostics, framework.Diagnostics) {
			t.Errorf("%s: the paths differ:\nfast      %v\nframework %v", tc.name, fast.Diagnostics, framework.Diagnostics)
		}
	}
}

// With strict_filters, a filter value that matches nothing and a status
// code the API does not document are errors, on both read paths alike,
// saying the read failed and naming strict_filters; without it, warnings
// saying the read went on, each once (validation, which Terraform runs
// more than once a plan, says nothing of them). A data source's own
// strict_filters overrides the provider's either way.
func TestStrictFiltersMakeThemErrors(t *testing.T) {
	t.Parallel()
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 51, Memberships: 60})
	strict := map[string]tftypes.Value{"strict_filters": tftypes.NewValue(tftypes.Bool, true)}
	cases := []struct {
		name     string
		settings map[string]tftypes.Value
		args     map[string]tftypes.Value
		want     tfprotov6.DiagnosticSeverity // 0: no diagnostic
		attr     string
	}{
		{"name matches nothing", strict, map[string]tftypes.Value{"membership_names": stringSet("Studnet")}, tfprotov6.DiagnosticSeverityError, "membership_names"},
		{"lean read, type matches nothing", strict, map[string]tftypes.Value{"membership_types": stringSet("none"), "include_records": tftypes.NewValue(tftypes.Bool, false)},
			tfprotov6.DiagnosticSeverityError, "membership_types"},
		{"unknown status", strict, map[string]tftypes.Value{"status": tftypes.NewValue(tftypes.String, "10")}, tfprotov6.DiagnosticSeverityError, "status"},
		{"known status", strict, map[string]tftypes.Value{"status": tftypes.NewValue(tftypes.String, "100")}, 0, ""},
		{"known status by name", strict, map[string]tftypes.Value{"status": tftypes.NewValue(tftypes.String, "Active")}, 0, ""},
		{"not strict: a warning", nil, map[string]tftypes.Value{"membership_names": stringSet("Studnet")}, tfprotov6.DiagnosticSeverityWarning, "membership_names"},
		{"not strict: unknown status warns once", nil, map[string]tftypes.Value{"status": tftypes.NewValue(tftypes.String, "10")}, tfprotov6.DiagnosticSeverityWarning, "status"},
		{"the data source lenient under a strict provider", strict, map[string]tftypes.Value{"membership_names": stringSet("Studnet"), "strict_filters": tftypes.NewValue(tftypes.Bool, false)},
			tfprotov6.DiagnosticSeverityWarning, "membership_names"},
		{"the data source strict under a lenient provider", nil, map[string]tftypes.Value{"status": tftypes.NewValue(tftypes.String, "10"), "strict_filters": tftypes.NewValue(tftypes.Bool, true)},
			tfprotov6.DiagnosticSeverityError, "status"},
	}
	for _, tc := range cases {
		fast, framework := readOnBothPathsWith(t, url, tc.settings, tc.args)
		if !reflect.DeepEqual(fast.Diagnostics, framework.Diagnostics) {
			t.Fatalf("%s: the paths differ:\nfast      %v\nframework %v", tc.name, fast.Diagnostics, framework.Diagnostics)
		}
		if tc.want == 0 {
			if len(fast.Diagnostics) != 0 {
				t.Errorf("%s: %v, want none", tc.name, fast.Diagnostics)
			}
			continue
		}
		if len(fast.Diagnostics) != 1 || fast.Diagnostics[0].Severity != tc.want ||
			!fast.Diagnostics[0].Attribute.Equal(tftypes.NewAttributePath().WithAttributeName(tc.attr)) {
			t.Errorf("%s: %v, want one of severity %v on %s", tc.name, fast.Diagnostics, tc.want, tc.attr)
			continue
		}
		detail := fast.Diagnostics[0].Detail
		failed := strings.Contains(detail, "strict_filters is on, so the read failed") && strings.Contains(detail, "set strict_filters = false on this data source")
		wentOn := strings.Contains(detail, "all the same") || strings.Contains(detail, "keeps none")
		if tc.want == tfprotov6.DiagnosticSeverityError && (!failed || strings.Contains(detail, "all the same")) {
			t.Errorf("%s: the error does not say the read failed under strict_filters, or says it was made: %s", tc.name, detail)
		}
		if tc.want == tfprotov6.DiagnosticSeverityWarning && (failed || !wentOn) {
			t.Errorf("%s: the warning does not say what the read did: %s", tc.name, detail)
		}
	}
}

// Validation (`terraform validate`) refuses a status that is neither a
// name nor a whole number, with the parse's message (TestParseStatusRefuses)
// on the attribute, and says nothing of a code the API does not document:
// the read warns of it, once (TestStrictFiltersMakeThemErrors). A number
// written in the configuration arrives as a string: Terraform converts it.
func TestStatusValidation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testServer(context.Background(), nil)
	for _, tc := range []struct {
		status string
		want   string // "": no diagnostic
	}{
		{"10", ""}, {"999", ""}, {"100", ""}, {"350", ""}, {"active", ""}, {"Cancelled", ""},
		{"100.5", `status = "100.5" is neither a status name nor a whole-number code`},
		{"activ", `status = "activ" is neither a status name nor a whole-number code. Write a name or its code: ` + knownStatusCodes()},
	} {
		vals := map[string]tftypes.Value{}
		if err := emptyConfig(membershipsDef).As(&vals); err != nil {
			t.Fatal(err)
		}
		vals["status"] = tftypes.NewValue(tftypes.String, tc.status)
		cfg, err := tfprotov6.NewDynamicValue(membershipsDef.stateType, tftypes.NewValue(membershipsDef.stateType, vals))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := s.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: "joinit_memberships", Config: &cfg})
		if err != nil {
			t.Fatal(err)
		}
		if tc.want == "" {
			if len(resp.Diagnostics) != 0 {
				t.Errorf("status = %q: %v, want no diagnostics", tc.status, resp.Diagnostics)
			}
			continue
		}
		if len(resp.Diagnostics) != 1 {
			t.Fatalf("status = %q: %v, want one error", tc.status, resp.Diagnostics)
		}
		d := resp.Diagnostics[0]
		if d.Severity != tfprotov6.DiagnosticSeverityError || d.Summary != "Invalid status" || !strings.Contains(d.Detail, tc.want) ||
			!d.Attribute.Equal(tftypes.NewAttributePath().WithAttributeName("status")) {
			t.Errorf("status = %q: %v %q %q on %v, want an error on status saying %q", tc.status, d.Severity, d.Summary, d.Detail, d.Attribute, tc.want)
		}
	}
}

// The values a warning quotes came from the server: the token is redacted
// from them, and each is cut; the status filter is named. (A value holding
// the token whole fails the read, TestAccTokenInARecordFailsThePlan; one
// holding a run of 12 characters of it passes, and is redacted here.)
func TestFilterWarningQuotesServerTextRedacted(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 200)
	var spelled strings.Builder                    // a run of the token, not the whole of it
	spelled.WriteString(sandbox.DefaultToken[:12]) // redact.MinRun
	url := fixtureAPI(t, map[string][]string{apispec.EndpointMemberships: {
		`{"_id":"m-1","status":100,"membership_name":"Gold ` + spelled.String() + `"}`,
		`{"_id":"m-2","status":100,"membership_name":"` + long + `"}`,
	}})
	fast, framework := readOnBothPaths(t, url, map[string]tftypes.Value{
		"membership_names": stringSet("Platinum"), "status": tftypes.NewValue(tftypes.String, "100"),
	})
	for path, resp := range map[string]*tfprotov6.ReadDataSourceResponse{"fast": fast, "framework": framework} {
		if len(resp.Diagnostics) != 1 {
			t.Fatalf("%s path: %v, want one warning", path, resp.Diagnostics)
		}
		d := resp.Diagnostics[0].Detail
		if strings.Contains(d, spelled.String()) || !strings.Contains(d, `"Gold [redacted]"`) {
			t.Errorf("%s path: the token is not redacted from %q", path, d)
		}
		if strings.Contains(d, long) || !strings.Contains(d, strings.Repeat("x", 80)+"…") {
			t.Errorf("%s path: a long value is not cut in %q", path, d)
		}
		if !strings.Contains(d, "None of the 2 memberships read (status = 100) has membership_name") {
			t.Errorf("%s path: the detail does not name the status filter: %q", path, d)
		}
	}
}

// A service that answers payments and groups at the bare paths the
// specification shows: the read fails at the assumed path, on both read
// paths alike, with the endpoint_paths value that reads it there.
func TestNotFoundNamesThePathTheSpecificationShows(t *testing.T) {
	t.Parallel()
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 73, Payments: 4, Groups: 3,
		Paths: sandbox.Paths{sandbox.EndpointPayments: "/payments", sandbox.EndpointGroups: "/groups"}})
	for _, def := range []*dataSourceDef{paymentsDef, groupsDef} {
		var diags [][]*tfprotov6.Diagnostic
		for _, s := range []tfprotov6.ProviderServer{testServer(context.Background(), nil), testFrameworkServer()} {
			conf, err := s.ConfigureProvider(context.Background(), &tfprotov6.ConfigureProviderRequest{Config: providerConfig(t, map[string]tftypes.Value{
				"base_url":     tftypes.NewValue(tftypes.String, url),
				"access_token": tftypes.NewValue(tftypes.String, sandbox.DefaultToken),
			})})
			if err != nil || len(conf.Diagnostics) > 0 {
				t.Fatalf("configure: %v %v", err, conf.Diagnostics)
			}
			resp, err := s.ReadDataSource(context.Background(), readRequest(t, def, false))
			if err != nil {
				t.Fatalf("%s: %v", def.name, err)
			}
			diags = append(diags, resp.Diagnostics)
		}
		if !reflect.DeepEqual(diags[0], diags[1]) {
			t.Fatalf("%s: the paths differ: %v, %v", def.name, diags[0], diags[1])
		}
		want := fmt.Sprintf(`HTTP 404 for %s/api/v1/organizations/me/%s: no such endpoint; check base_url (or JOINIT_BASE_URL) and endpoint_paths.%s. `+
			`The API specification shows this list as GET /%s: if the API serves it there, set endpoint_paths.%s to "/%s"`, url, def.name, def.name, def.name, def.name, def.name)
		if len(diags[0]) != 1 || diags[0][0].Severity != tfprotov6.DiagnosticSeverityError || !strings.Contains(diags[0][0].Detail, want) {
			t.Fatalf("%s: %s: %s, want an error saying %s", def.name, diags[0][0].Summary, diags[0][0].Detail, want)
		}
	}
}

// An unknown status says how many memberships the API returned with it,
// and its strict error advises for a status, not for a membership type.
func TestUnknownStatusSaysHowManyHoldIt(t *testing.T) {
	t.Parallel()
	status := int64(999)
	ws := unknownStatusWarnings(&status, 209)
	if len(ws) != 1 {
		t.Fatalf("%d warnings", len(ws))
	}
	_, detail, isError := ws[0].text(true)
	want := "status = 999 is not a status code the API documents (the known codes are " + knownStatusCodes() + "); the API returned 209 memberships with status 999. " +
		"strict_filters is on, so the read failed. If 999 is a code the API has added, set strict_filters = false on this data source to read it; otherwise correct it."
	if !isError || detail != want {
		t.Fatalf("strict: %v\n got %s\nwant %s", isError, detail, want)
	}
	if _, warning, _ := ws[0].text(false); !strings.Contains(warning, "the API returned 209 memberships with status 999") {
		t.Fatalf("the warning does not say how many hold it: %s", warning)
	}
}
