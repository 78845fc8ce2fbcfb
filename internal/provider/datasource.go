package provider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
)

// dataSourceDef is everything one data source is: its schema, declared once
// as attrs, and how it reads. Both the framework's Read and the fast
// ReadDataSource of server.go serve it. A data source declares it with
// registerDataSource, in its ds_*.go, which is also what makes the
// provider serve it.
type dataSourceDef struct {
	name        string // the type name without the provider prefix
	endpoint    string // the apispec endpoint it reads
	description string
	attrs       []attr // top level, sorted: arguments and results
	stateType   tftypes.Object
	// fields are the record attributes `fields` chooses from; nil when the
	// data source has no `fields`.
	fields *recordFields
	// readLess says how to make a result smaller, for the error of a
	// result over Terraform's message ceiling (result_size.go).
	readLess string
	// newState is a zero state, for the arguments to be parsed into.
	newState func() timeoutsHolder
	// check refuses combinations of arguments no one argument can see;
	// nil when there are none. configValidators say the same to the
	// framework, which runs them at validation, before values are known.
	check            func(state any) error
	configValidators []datasource.ConfigValidator
	// read fetches what the parsed arguments in the state ask for, and
	// puts the results in it.
	read func(ctx context.Context, c *client.Client, state any) error
}

// dataSource declares a data source whose state is S. It reads endpoint,
// in apispec.Endpoints, whose paging gives page_size; unset, the endpoint
// is the one of its name (joinit_memberships reads memberships).
type dataSource[S any] struct {
	name, endpoint string
	description    string
	readLess       string // how to make a result smaller
	attrs          []attr // its own arguments and results
	// rawJSON gives it include_raw_json; fields, the `fields` argument
	// choosing from these record attributes.
	rawJSON bool
	fields  *recordFields
	check   func(*S) error // optional
	// configValidators check at validation what check checks at the read.
	configValidators []datasource.ConfigValidator
	// read is the API call, with the client's options for the common
	// arguments (page_size, include_raw_json, fields).
	read func(context.Context, *client.Client, *S, client.ListOptions) error
}

// registeredDefs are the data sources the provider serves, by name.
var registeredDefs = map[string]*dataSourceDef{}

// registerDataSource makes the definition of a declared data source and
// has the provider serve it. Every one also gets the timeouts block and
// the common arguments: S must embed common.
func registerDataSource[S any, PS interface {
	*S
	stateHolder
}](ds dataSource[S]) *dataSourceDef {
	if ds.endpoint == "" {
		ds.endpoint = ds.name
	}
	s := sorted(append(append(ds.attrs, timeoutsAttr()), commonAttrs[S, PS](ds.endpoint, ds.rawJSON, ds.fields)...))
	d := &dataSourceDef{name: ds.name, endpoint: ds.endpoint, description: ds.description, attrs: s, stateType: objectType(s), readLess: ds.readLess, fields: ds.fields,
		configValidators: ds.configValidators,
		newState:         func() timeoutsHolder { return PS(new(S)) },
		read: func(ctx context.Context, c *client.Client, state any) error {
			s := parentAs[S](state)
			return ds.read(ctx, c, s, PS(s).base().listOptions(ds.fields))
		}}
	if ds.check != nil {
		d.check = func(state any) error { return ds.check(parentAs[S](state)) }
	}
	if _, dup := registeredDefs[d.name]; dup {
		panic("two data sources named joinit_" + d.name)
	}
	registeredDefs[d.name] = d
	return d
}

func (d *dataSourceDef) schema() schema.Schema {
	return schema.Schema{Description: d.description, MarkdownDescription: d.description,
		Attributes: frameworkAttributes(d.attrs), Blocks: frameworkBlocks(d.attrs)}
}

// parseArguments makes a state holding the configured arguments.
func (d *dataSourceDef) parseArguments(raw tftypes.Value) (timeoutsHolder, time.Duration, error) {
	args, err := newArguments(raw)
	if err != nil {
		return nil, 0, err
	}
	block, limit, err := args.readTimeout()
	if err != nil {
		return nil, 0, err
	}
	state := d.newState()
	state.setTimeouts(block)
	for _, a := range d.attrs {
		if a.parse != nil {
			if err := a.parse(args, state); err != nil {
				return nil, 0, err
			}
		}
	}
	if d.check != nil {
		if err := d.check(state); err != nil {
			return nil, 0, err
		}
	}
	return state, limit, nil
}

// readState parses the configuration and reads; the caller encodes the result.
func (d *dataSourceDef) readState(ctx context.Context, c *client.Client, raw tftypes.Value) (any, error) {
	if c == nil {
		return nil, errNotConfigured
	}
	state, limit, err := d.parseArguments(raw)
	if err != nil {
		return nil, err
	}
	if err := readWithTimeout(ctx, limit, func(ctx context.Context) error { return d.read(ctx, c, state) }); err != nil {
		return nil, err
	}
	return state, nil
}

var errNotConfigured = errors.New("the provider is not configured: its configuration has values that are not known until apply " +
	"(for example an access_token taken from a resource that does not exist yet), so no data can be read during this plan. " +
	"Apply the resource that provides the value first (terraform apply -target=...), or set the value statically or through " +
	envAccessToken + ", " + envBaseURL + " and " + envOrganization)

// errorSummary titles a failed read for its diagnostic.
func (d *dataSourceDef) errorSummary() string {
	return fmt.Sprintf("Failed to read joinit_%s", d.name)
}

// frameworkDataSource adapts a dataSourceDef to the framework.
type frameworkDataSource struct {
	def      *dataSourceDef
	provider *joinitProvider
	data     *providerData // from the provider's Configure; nil before it, or unconfigured
}

var (
	_ datasource.DataSourceWithConfigure        = (*frameworkDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*frameworkDataSource)(nil)
)

func (f *frameworkDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return f.def.configValidators
}

// Configure takes the provider data the provider's Configure made.
func (f *frameworkDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if req.ProviderData == nil {
		return // not configured yet, or the configuration is unknown at plan
	}
	data, ok := req.ProviderData.(*providerData)
	if !ok {
		resp.Diagnostics.AddError("Unexpected provider data", fmt.Sprintf("got %T, want *providerData: a bug in the provider", req.ProviderData))
		return
	}
	f.data = data
}

func (f *frameworkDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + f.def.name
}

func (f *frameworkDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = f.def.schema()
}

// Read is the framework's path: a full tftypes.Value handed to the
// framework. The provider's server answers ReadDataSource itself (see
// server.go) and hands a read here only when the provider has no client;
// the bare framework server of the tests uses it for every read.
func (f *frameworkDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	state, _, err := f.def.readChecked(ctx, f.data.clientOrNil(), req.Config.Raw, f.provider.resultLimit)
	if err != nil {
		if fail := f.def.failure(err); fail.attr != "" {
			resp.Diagnostics.AddAttributeError(path.Root(fail.attr), fail.summary, fail.detail)
		} else {
			resp.Diagnostics.AddError(fail.summary, fail.detail)
		}
		return
	}
	addFrameworkWarnings(&resp.Diagnostics, warningsOf(state), strictFor(state, f.data.strict()))
	resp.State.Raw = referenceValue(f.def.attrs, state)
}
