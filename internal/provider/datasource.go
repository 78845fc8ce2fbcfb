package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
)

// dataSourceDef is everything one data source is: its schema, declared once
// as attrs, and how it reads. Both the framework's Read
// (framework_datasource.go) and the fast ReadDataSource of server.go serve
// it. A data source declares it with registerDataSource, in its ds_*.go,
// which is also what makes the provider serve it.
type dataSourceDef struct {
	name        string // the type name without the provider prefix
	endpoint    string // the apispec endpoint it reads
	description string
	attrs       []tfattr.Attr // top level, sorted: arguments and results
	stateType   tftypes.Object
	// fields are the record attributes `fields` chooses from; nil when the
	// data source has no `fields`.
	fields *recordFields
	// readLess says how to make a result smaller, for the error of a
	// result over Terraform's message ceiling (result_size.go).
	readLess string
	// newState is a zero state, for the arguments to be parsed into.
	newState func() stateHolder
	// check refuses combinations of arguments no one argument can see;
	// nil when there are none. configValidators say the same to the
	// framework, which runs them at validation, before values are known.
	check            func(state stateHolder) error
	configValidators []datasource.ConfigValidator
	// read fetches what the parsed arguments in the state ask for, and
	// puts the results in it.
	read func(ctx context.Context, c *client.Client, state stateHolder) error
}

// dataSource declares a data source whose state is S. It reads endpoint,
// in apispec.Endpoints, whose paging gives page_size; unset, the endpoint
// is the one of its name (joinit_memberships reads memberships).
type dataSource[S any] struct {
	name, endpoint string
	description    string
	readLess       string        // how to make a result smaller
	attrs          []tfattr.Attr // its own arguments and results
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

// registeredDefs are the data sources the provider serves, by full type
// name (joinit_memberships).
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
	s := tfattr.Sorted(append(ds.attrs, commonAttrs[S, PS](ds.endpoint, ds.rawJSON, ds.fields)...))
	d := &dataSourceDef{name: ds.name, endpoint: ds.endpoint, description: ds.description, attrs: s, stateType: tfattr.ObjectType(s), readLess: ds.readLess, fields: ds.fields,
		configValidators: ds.configValidators,
		newState:         func() stateHolder { return PS(new(S)) },
		read: func(ctx context.Context, c *client.Client, state stateHolder) error {
			s := state.(PS) //nolint:forcetypeassert // newState made it
			return ds.read(ctx, c, s, s.base().listOptions(ds.fields))
		}}
	if ds.check != nil {
		d.check = func(state stateHolder) error { return ds.check(state.(PS)) } //nolint:forcetypeassert // newState made it
	}
	if _, dup := registeredDefs["joinit_"+d.name]; dup {
		panic("two data sources named joinit_" + d.name)
	}
	registeredDefs["joinit_"+d.name] = d
	return d
}

func (d *dataSourceDef) schema() schema.Schema { return tfattr.Schema(d.description, d.attrs) }

// parseArguments makes a state holding the configured arguments.
func (d *dataSourceDef) parseArguments(config tftypes.Value) (stateHolder, error) {
	state := d.newState()
	if err := tfattr.Parse(d.attrs, config, state); err != nil {
		return nil, err
	}
	if d.check != nil {
		if err := d.check(state); err != nil {
			return nil, err
		}
	}
	return state, nil
}

// errorSummary titles a failed read for its diagnostic.
func (d *dataSourceDef) errorSummary() string {
	return fmt.Sprintf("Failed to read joinit_%s", d.name)
}
