package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// serverTextLimit is how many characters of one value the server sent a
// warning quotes.
const serverTextLimit = 80

// readWarning is something a read found that the user should know of,
// though the read succeeded: a filter value that matched no record.
// Both read paths report a state's warnings the same way, on the argument
// they concern.
type readWarning struct {
	attr    string // the top-level argument it concerns
	summary string
	detail  string
}

// warnedState is a state that carries warnings of its read.
type warnedState interface{ readWarnings() []readWarning }

// warningsOf returns the warnings a state carries; none for most.
func warningsOf(state any) []readWarning {
	if w, ok := state.(warnedState); ok {
		return w.readWarnings()
	}
	return nil
}

// protocolWarnings are the warnings as the fast path returns them.
func protocolWarnings(warns []readWarning) []*tfprotov6.Diagnostic {
	var out []*tfprotov6.Diagnostic
	for _, w := range warns {
		out = append(out, &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityWarning, Summary: w.summary,
			Detail: w.detail, Attribute: tftypes.NewAttributePath().WithAttributeName(w.attr)})
	}
	return out
}

// addFrameworkWarnings adds the warnings as the framework's Read returns them.
func addFrameworkWarnings(diags *diag.Diagnostics, warns []readWarning) {
	for _, w := range warns {
		diags.AddAttributeWarning(path.Root(w.attr), w.summary, w.detail)
	}
}
