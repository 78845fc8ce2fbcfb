package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
)

// serverTextLimit is how many characters of one value the server sent a
// warning quotes.
const serverTextLimit = 80

// readWarning is something a read found that the user should know of,
// though the read succeeded: a filter value that matched no record.
// Both read paths report a state's warnings the same way, on the argument
// they concern.
type readWarning struct {
	attr    string // the top-level argument it concerns; "" for the provider's settings
	summary string
	detail  string
	// filter marks a filter that keeps nothing it was meant to (a value
	// no record has, a status code the API does not document): with
	// strict_filters it is an error, for CI, where warnings scroll by.
	filter bool
	// strictOnly is said only with strict_filters: without it, the
	// schema's validation warns of it already.
	strictOnly bool
}

// severity is how w is reported: an error for a filter with
// strict_filters, else a warning; shown reports false for a strictOnly
// warning without strict_filters.
func (w readWarning) severity(strict bool) (sev tfprotov6.DiagnosticSeverity, shown bool) {
	switch {
	case w.strictOnly && !strict:
		return 0, false
	case w.filter && strict:
		return tfprotov6.DiagnosticSeverityError, true
	}
	return tfprotov6.DiagnosticSeverityWarning, true
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
func protocolWarnings(warns []readWarning, strict bool) []*tfprotov6.Diagnostic {
	var out []*tfprotov6.Diagnostic
	for _, w := range warns {
		if sev, shown := w.severity(strict); shown {
			d := &tfprotov6.Diagnostic{Severity: sev, Summary: w.summary, Detail: w.detail}
			if w.attr != "" {
				d.Attribute = tftypes.NewAttributePath().WithAttributeName(w.attr)
			}
			out = append(out, d)
		}
	}
	return out
}

// addFrameworkWarnings adds the warnings as the framework's Read returns them.
func addFrameworkWarnings(diags *diag.Diagnostics, warns []readWarning, strict bool) {
	for _, w := range warns {
		switch sev, shown := w.severity(strict); {
		case !shown:
		case sev == tfprotov6.DiagnosticSeverityError:
			diags.AddAttributeError(path.Root(w.attr), w.summary, w.detail)
		case w.attr == "":
			diags.AddWarning(w.summary, w.detail)
		default:
			diags.AddAttributeWarning(path.Root(w.attr), w.summary, w.detail)
		}
	}
}

// alternatePathWarning says that an endpoint was read at the other path
// the specification allows, after its default path answered 404, and what
// to pin so that the next run does not ask twice.
func alternatePathWarning(c *client.Client, endpoint string) []readWarning {
	path, ok := c.AlternatePath(endpoint)
	if !ok {
		return nil
	}
	return []readWarning{{summary: fmt.Sprintf("The %s endpoint answered at %s", endpoint, path),
		detail: fmt.Sprintf("The default path of %s answered 404 for page 1, and %s, the path the API specification shows, answered a page: "+
			"this read used it. Pin it in the provider block, so that every run asks there first:\n\n  endpoint_paths = { %s = %q }",
			endpoint, path, endpoint, path)}}
}
