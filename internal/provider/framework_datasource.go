package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
)

// frameworkDataSource adapts a dataSourceDef to the framework.
type frameworkDataSource struct {
	def *dataSourceDef
	// limit is the largest encoded state a read may return (the
	// provider's resultLimit).
	limit int64
	data  *providerData // from the provider's Configure; nil before it, or unconfigured
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
// server.go) and hands a read here only when the provider has no client,
// and so fails at once (errNotConfigured) unless the framework deferred
// it; the bare framework server of the tests uses it for every read.
func (f *frameworkDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	state, _, err := f.def.readChecked(ctx, f.data.clientOrNil(), req.Config.Raw, f.limit)
	if err != nil {
		if fail := f.def.failure(err); fail.attr != "" {
			resp.Diagnostics.AddAttributeError(path.Root(fail.attr), fail.summary, fail.detail)
		} else {
			resp.Diagnostics.AddError(fail.summary, fail.detail)
		}
		return
	}
	addFrameworkWarnings(&resp.Diagnostics, state.base().warnings, state.base().strictFilters(f.data.strict()))
	resp.State.Raw = tfattr.ReferenceValue(f.def.attrs, state)
}
