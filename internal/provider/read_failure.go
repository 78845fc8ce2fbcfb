package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
)

// readChecked reads a data source and checks that what it would hand
// Terraform fits the message ceiling: the read both paths make. size is
// the encoded state's.
func (d *dataSourceDef) readChecked(ctx context.Context, c *client.Client, raw tftypes.Value, limit int64) (state any, size int64, err error) {
	state, err = d.readState(ctx, c, raw)
	if err != nil {
		return nil, 0, err
	}
	size, err = checkResultSize(d, state, limit)
	if err != nil {
		return nil, 0, err
	}
	return state, size, nil
}

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
	var bad *argError
	if errors.As(err, &bad) {
		return readFailure{attr: bad.attr, summary: "Invalid " + bad.attr, detail: bad.msg}
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
