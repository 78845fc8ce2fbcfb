package tfattr

import (
	"context"
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

// DefaultReadTimeout bounds a read when the timeouts block does not.
const DefaultReadTimeout = 20 * time.Minute

// Timeouts is the block as configured, written back to state; nil when
// the configuration has none.
type Timeouts struct {
	read  *string       // as configured; nil when unset
	limit time.Duration // read, parsed
}

// ReadLimit is how long the whole read may take.
func (t *Timeouts) ReadLimit() time.Duration {
	if t == nil || t.read == nil {
		return DefaultReadTimeout
	}
	return t.limit
}

// TimeoutsBlock declares the block, parsed into *field(state). Its
// framework schema is the library's own block, whose custom type is a
// plain object of one string: the state is the same object either way.
func TimeoutsBlock[S any](field func(*S) **Timeouts) Attr {
	readDesc := fmt.Sprintf("How long the whole read may take, as a duration such as `30s`, `10m` or `1h`. Default `%s`. "+
		"A read that passes it fails and says so.", ShortDuration(DefaultReadTimeout))
	a := Object("timeouts", "Time limits.", func(s *S) *Timeouts { return *field(s) },
		Str("read", readDesc, func(t *Timeouts) *string { return t.read }))
	a.block = readTimeoutBlock(readDesc)
	a.parse = func(args arguments, state any) (err error) {
		*field(parentAs[S](state)), err = args.timeouts()
		return err
	}
	return a
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
	read.Validators = []validator.String{Duration}
	read.MarkdownDescription = Markdown(read.Description)
	b.Attributes["read"] = read
	// The library's block has no description of its own: the registry page
	// showed it bare.
	b.Description = "Time limits of the read: `read`, how long the whole read may take."
	b.MarkdownDescription = b.Description
	return b
}

// timeouts reads the timeouts block of a configuration.
func (a arguments) timeouts() (*Timeouts, error) {
	block, ok, err := a.set("timeouts")
	if err != nil || !ok {
		return nil, err
	}
	var fields arguments
	if err := block.As((*map[string]tftypes.Value)(&fields)); err != nil {
		return nil, &ArgError{"timeouts", err.Error()}
	}
	read, ok, err := fields.set("read")
	if err != nil {
		return nil, &ArgError{"timeouts", "read is not known yet; data sources are read with known arguments only"}
	}
	if !ok {
		return &Timeouts{}, nil
	}
	var s string
	if err := read.As(&s); err != nil {
		return nil, &ArgError{"timeouts", err.Error()}
	}
	d, err := ParseDuration(s)
	if err != nil {
		return nil, &ArgError{"timeouts", "read: " + err.Error()}
	}
	return &Timeouts{read: &s, limit: d}, nil
}
