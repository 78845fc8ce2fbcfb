package provider

import (
	"errors"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
)

// readFailure is how a failed read is told, on both read paths: an
// argument that is wrong names its attribute; anything else is the data
// source's summary with the client's message worded for the provider
// (settings as attributes and environment variables, message).
type readFailure struct {
	attr            string // "" when no argument is at fault
	summary, detail string
}

// resultError refuses what a read found (a lookup that matched nothing,
// or too much), against the argument that asked for it.
type resultError struct {
	attr, summary, detail string
}

func (e *resultError) Error() string { return e.summary + ": " + e.detail }

func (d *dataSourceDef) failure(err error) readFailure {
	var bad *tfattr.ArgError
	if errors.As(err, &bad) {
		return readFailure{attr: bad.Attr, summary: "Invalid " + bad.Attr, detail: bad.Msg}
	}
	var refused *resultError
	if errors.As(err, &refused) {
		return readFailure{attr: refused.attr, summary: refused.summary, detail: refused.detail}
	}
	detail := message(err)
	if over, ok := errors.AsType[*client.BudgetError](err); ok {
		switch over.Over {
		case client.OverValues, client.OverPage: // raising the budget is the first way
			detail += ". Or read less: " + d.readLess
		default:
			detail += ". Read less: " + d.readLess
		}
	}
	return readFailure{summary: d.errorSummary(), detail: detail}
}
