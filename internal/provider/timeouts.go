package provider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Every data source has the conventional `timeouts { read = "…" }` block
// (terraform-plugin-framework-timeouts): a read that passes it fails and
// names it, instead of holding a plan until CI gives up.

// defaultReadTimeout bounds a read when the timeouts block does not.
const defaultReadTimeout = 20 * time.Minute

// timeoutsBlock is the block as configured; it is written back to state.
type timeoutsBlock struct{ Read *string }

// withTimeouts is embedded in every data source's state, so the one
// timeouts attr can read any of them.
type withTimeouts struct{ timeouts *timeoutsBlock }

func (w *withTimeouts) setTimeouts(t *timeoutsBlock)  { w.timeouts = t }
func (w *withTimeouts) timeoutsValue() *timeoutsBlock { return w.timeouts }

type timeoutsHolder interface {
	setTimeouts(*timeoutsBlock)
	timeoutsValue() *timeoutsBlock
}

// timeoutsAttr declares the block. Its framework schema is the library's
// own block, whose custom type is a plain object of one string: the state
// is the same object either way (TestSchemaHasNoCustomTypes allows it).
func timeoutsAttr() attr {
	readDesc := fmt.Sprintf("How long the whole read may take, as a duration such as `30s`, `10m` or `1h`. Default `%s`. "+
		"A read that passes it fails and says so.", shortDuration(defaultReadTimeout))
	return attr{
		name: "timeouts", kind: kindObject,
		desc:     "Time limits.",
		children: []attr{str("read", readDesc, func(t *timeoutsBlock) *string { return t.Read })},
		obj: func(p any) (any, bool) {
			t := p.(timeoutsHolder).timeoutsValue() //nolint:forcetypeassert // every state embeds withTimeouts; TestEncodeStateMatchesFrameworkEncoding reads each one
			return t, t != nil
		},
		block: readTimeoutBlock(readDesc),
	}
}

// readTimeoutBlock is the library's timeouts block with the provider's
// duration rule on `read` in place of the library's validator, whose
// message ("must be a string containing a sequence of decimal numbers …",
// with "-1.5h" among its examples) differs from what request_timeout and
// max_retry_wait say of the same mistake.
func readTimeoutBlock(desc string) schema.Block {
	b, ok := timeouts.BlockWithOpts(context.Background(), timeouts.Opts{ReadDescription: desc}).(schema.SingleNestedBlock)
	if !ok {
		panic("terraform-plugin-framework-timeouts: the timeouts block is no longer a SingleNestedBlock")
	}
	read, ok := b.Attributes["read"].(schema.StringAttribute)
	if !ok {
		panic("terraform-plugin-framework-timeouts: timeouts.read is no longer a StringAttribute")
	}
	read.Validators = []validator.String{durationValidator{}}
	read.MarkdownDescription = markdown(read.Description)
	b.Attributes["read"] = read
	// The library's block has no description of its own: the registry page
	// showed it bare.
	b.Description = "Time limits of the read: `read`, how long the whole read may take."
	b.MarkdownDescription = b.Description
	return b
}

// readTimeout reads the timeouts block of a configuration: the block to
// echo into state and the time limit of the read.
func (a arguments) readTimeout() (*timeoutsBlock, time.Duration, error) {
	v, ok := a.attrs["timeouts"]
	if !ok || v.IsNull() {
		return nil, defaultReadTimeout, nil
	}
	if !v.IsKnown() {
		return nil, 0, &argError{"timeouts", "the value is not known yet; data sources are read with known arguments only"}
	}
	var fields map[string]tftypes.Value
	if err := v.As(&fields); err != nil {
		return nil, 0, &argError{"timeouts", err.Error()}
	}
	r := fields["read"]
	if r.IsNull() {
		return &timeoutsBlock{}, defaultReadTimeout, nil
	}
	if !r.IsKnown() {
		return nil, 0, &argError{"timeouts", "read is not known yet; data sources are read with known arguments only"}
	}
	var s string
	if err := r.As(&s); err != nil {
		return nil, 0, &argError{"timeouts", err.Error()}
	}
	d, err := parseTimeout(s)
	if err != nil {
		return nil, 0, &argError{"timeouts", "read: " + err.Error()}
	}
	return &timeoutsBlock{Read: &s}, d, nil
}

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
			shortDuration(limit), shortDuration(defaultReadTimeout))
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

// shortDuration prints 20m rather than 20m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	for _, unit := range []string{"m0s", "h0m"} {
		if len(s) > len(unit) && s[len(s)-len(unit):] == unit {
			s = s[:len(s)-len(unit)+1]
		}
	}
	return s
}
