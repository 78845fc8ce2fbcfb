package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// Every diagnostic the provider sends Terraform passes one redaction at the
// last moment (client.Scrubber): the token in every spelling a server may
// echo it in. The client redacts what it builds from server text already;
// this is the net under it, so that no message built anywhere, now or
// later, can carry the token out.

// scrubText is providerData's redaction; none before (or without) Configure,
// when no token is known.
func (d *providerData) scrubText(s string) string {
	if d == nil || d.scrub == nil {
		return s
	}
	return d.scrub(s)
}

// scrubProtocol scrubs the fast path's diagnostics in place.
func (d *providerData) scrubProtocol(diags []*tfprotov6.Diagnostic) {
	for _, dg := range diags {
		dg.Summary, dg.Detail = d.scrubText(dg.Summary), d.scrubText(dg.Detail)
	}
}

// scrubFramework returns the framework path's diagnostics scrubbed.
func (d *providerData) scrubFramework(in diag.Diagnostics) diag.Diagnostics {
	var out diag.Diagnostics
	for _, dg := range in {
		summary, detail := d.scrubText(dg.Summary()), d.scrubText(dg.Detail())
		withPath, hasPath := dg.(diag.DiagnosticWithPath)
		switch {
		case hasPath && dg.Severity() == diag.SeverityError:
			out.AddAttributeError(withPath.Path(), summary, detail)
		case hasPath:
			out.AddAttributeWarning(withPath.Path(), summary, detail)
		case dg.Severity() == diag.SeverityError:
			out.AddError(summary, detail)
		default:
			out.AddWarning(summary, detail)
		}
	}
	return out
}
