package provider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
)

// readChecked is the read both paths make: it parses the configuration,
// reads under the read timeout, and checks that what it would hand
// Terraform fits the message ceiling (limit). size is the encoded state's.
func (d *dataSourceDef) readChecked(ctx context.Context, c *client.Client, config tftypes.Value, limit int64) (state stateHolder, size int64, err error) {
	if c == nil {
		return nil, 0, errNotConfigured
	}
	if state, err = d.parseArguments(config); err != nil {
		return nil, 0, err
	}
	err = readWithTimeout(ctx, state.base().Timeouts.ReadLimit(), func(ctx context.Context) error { return d.read(ctx, c, state) })
	if err != nil {
		return nil, 0, err
	}
	if size, err = checkResultSize(d, state, limit); err != nil {
		return nil, 0, err
	}
	return state, size, nil
}

var errNotConfigured = errors.New("the provider is not configured: its configuration has values that are not known until apply " +
	"(for example an access_token taken from a resource that does not exist yet), so no data can be read during this plan. " +
	"Apply the resource that provides the value first (terraform apply -target=...), or set the value statically or through " +
	envAccessToken + ", " + envBaseURL + " and " + envOrganization)

// readWithTimeout runs read under the read timeout and says so when the
// timeout ended it, or when the caller did (errInterrupted).
func readWithTimeout(ctx context.Context, limit time.Duration, read func(context.Context) error) error {
	readCtx, cancel := context.WithTimeoutCause(ctx, limit, errReadTimeout)
	defer cancel()
	err := read(readCtx)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded) && errors.Is(context.Cause(readCtx), errReadTimeout):
		return fmt.Errorf("the read did not finish within its read timeout of %s: raise it with `timeouts { read = \"…\" }` (default %s), or read less (a status filter, include_records = false)",
			tfattr.ShortDuration(limit), tfattr.ShortDuration(tfattr.DefaultReadTimeout))
	case errors.Is(ctx.Err(), context.Canceled):
		// Whatever the client made of it, the caller stopped the read.
		return errInterrupted
	}
	return err
}

var errReadTimeout = errors.New("read timeout")

// errInterrupted is the error of a read its caller cancelled: Terraform
// stopped the provider (StopProvider) or the user pressed Ctrl-C (SIGINT,
// see NewServer). The client fails with context.Canceled, which Terraform
// would show as a bare "context canceled".
var errInterrupted = errors.New("the read was interrupted (Ctrl-C, or Terraform stopped the provider); " +
	"a read returns every record or none, so nothing was stored")
