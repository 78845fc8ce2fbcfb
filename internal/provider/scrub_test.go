package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
)

// The last redaction catches the token in any spelling in a diagnostic
// built anywhere, on both read paths, whatever built it.
func TestDiagnosticsAreScrubbedOnTheWayOut(t *testing.T) {
	t.Parallel()
	d := &providerData{scrub: client.Scrubber(hostileToken)}
	for name, spelled := range tokenSpellings {
		proto := []*tfprotov6.Diagnostic{{Severity: tfprotov6.DiagnosticSeverityError, Summary: "x " + spelled, Detail: "echoed: " + spelled + " end"}}
		d.scrubProtocol(proto)
		var fw diag.Diagnostics
		fw.AddAttributeError(path.Root("status"), "x "+spelled, "echoed: "+spelled+" end")
		fw.AddWarning("w", spelled)
		fw = d.scrubFramework(fw)
		texts := []string{proto[0].Summary, proto[0].Detail}
		for _, dg := range fw {
			texts = append(texts, dg.Summary(), dg.Detail())
		}
		for _, text := range texts {
			if strings.Contains(text, spelled) || strings.Contains(text, hostileToken) {
				t.Errorf("%s: %q still holds the token", name, text)
			}
		}
		if _, ok := fw[0].(diag.DiagnosticWithPath); !ok || fw[0].Severity() != diag.SeverityError || fw[1].Severity() != diag.SeverityWarning {
			t.Errorf("%s: scrubbing changed the diagnostics' kinds: %v", name, fw)
		}
	}
	// Before Configure there is no token, and nothing to scrub.
	var none *providerData
	if got := none.scrubText("a " + hostileToken); got != "a "+hostileToken {
		t.Errorf("an unconfigured provider changed %q", got)
	}
}
