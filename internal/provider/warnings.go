package provider

import (
	"cmp"

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
	attr    string // the top-level argument it concerns; "" for the provider's settings
	summary string
	detail  string
	// filter marks a filter that keeps nothing it was meant to (a value
	// no record has, a status code the API does not document): with
	// strict_filters it is an error, for CI, where warnings scroll by.
	filter bool
	// strictDetail, for a filter, is the detail of the error strict_filters
	// makes of it: the warning's detail says the read went on, which the
	// error must not.
	strictDetail string
	// advice ends that error; "" is strictAdvice, a type filter's.
	advice string
}

// strictAdvice ends every error strict_filters makes of a filter.
const strictAdvice = " strict_filters is on, so the read failed rather than return a list without them. " +
	"Correct the value; or, where a value may rightly match nothing at times (a membership type that can empty), " +
	"set strict_filters = false on this data source."

// text is w's summary and detail, and whether it is an error: a filter's
// is with strict_filters.
func (w readWarning) text(strict bool) (summary, detail string, isError bool) {
	if !w.filter || !strict {
		return w.summary, w.detail, false
	}
	return w.summary, w.strictDetail + cmp.Or(w.advice, strictAdvice), true
}

// protocolWarnings are the warnings as the fast path returns them.
func protocolWarnings(warns []readWarning, strict bool) []*tfprotov6.Diagnostic {
	var out []*tfprotov6.Diagnostic
	for _, w := range warns {
		summary, detail, isError := w.text(strict)
		d := &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityWarning, Summary: summary, Detail: detail}
		if isError {
			d.Severity = tfprotov6.DiagnosticSeverityError
		}
		if w.attr != "" {
			d.Attribute = tftypes.NewAttributePath().WithAttributeName(w.attr)
		}
		out = append(out, d)
	}
	return out
}

// addFrameworkWarnings adds the warnings as the framework's Read returns them.
func addFrameworkWarnings(diags *diag.Diagnostics, warns []readWarning, strict bool) {
	for _, w := range warns {
		switch summary, detail, isError := w.text(strict); {
		case isError:
			diags.AddAttributeError(path.Root(w.attr), summary, detail)
		case w.attr == "":
			diags.AddWarning(summary, detail)
		default:
			diags.AddAttributeWarning(path.Root(w.attr), summary, detail)
		}
	}
}
