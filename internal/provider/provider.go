// Package provider is the Terraform glue: the provider's schema and
// configuration, and the mapping of API records to Terraform values.
//
// Its files, bottom up (each uses only those above it): address, pasted,
// record_values, suggest (words and values any file may use); setting_kinds,
// setting_checks, settings, log, provider_config (the provider block);
// warnings, fields, common, datasource, read_failure (what a data source
// is); membership_status, filters, membership_record, ds_* (the data
// sources); result_size, read, framework_datasource, provider, server (the
// two read paths). DESIGN.md, "The provider's layers", has them in rows.
package provider

import (
	"context"
	"maps"
	"os"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
)

// joinitProvider is the framework provider. It is read-only: data sources only.
//
// Configure hands the provider data to the framework's data sources as
// DataSourceData, as the framework intends, and keeps it in configured for
// the fast ReadDataSource (server.go), which the framework does not serve.
// Both are of this provider instance: each server has its own.
type joinitProvider struct {
	version    string
	configured atomic.Pointer[providerData]
	// resultLimit is the largest encoded state a read may return
	// (maxResultBytes; tests set less).
	resultLimit int64
	// lookupEnv reads the environment the settings fall back on:
	// os.LookupEnv. A test gives its provider an environment of its own,
	// so that it need not set the process's and can run beside others.
	lookupEnv func(name string) (string, bool)
	// tuneClient, when not nil, changes the client's configuration after
	// the settings: tests shorten the retry waits. Nil in use.
	tuneClient func(*client.Config)
}

var _ provider.Provider = (*joinitProvider)(nil)

func newProvider(version string) *joinitProvider {
	return &joinitProvider{version: version, resultLimit: maxResultBytes, lookupEnv: os.LookupEnv}
}

// data is the configured provider data, nil before (or without) Configure.
func (p *joinitProvider) data() *providerData { return p.configured.Load() }

func (p *joinitProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "joinit"
	resp.Version = p.version
}

func (p *joinitProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = providerSchema()
}

func providerSchema() schema.Schema {
	return schema.Schema{
		Description: "Reads an organization's memberships, groups, payments and metrics from the Join It API. Read-only: data sources only.",
		Attributes:  settingsSchema(),
	}
}

func (p *joinitProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	data := configure(ctx, p.version, p.resultLimit, p.lookupEnv, p.tuneClient, req, resp)
	if data == nil {
		return
	}
	p.configured.Store(data)
	resp.DataSourceData = data
}

func (p *joinitProvider) DataSources(context.Context) []func() datasource.DataSource {
	var out []func() datasource.DataSource
	for _, def := range orderedDefs() {
		out = append(out, func() datasource.DataSource { return &frameworkDataSource{def: def, limit: p.resultLimit} })
	}
	return out
}

func (p *joinitProvider) Resources(context.Context) []func() resource.Resource { return nil }

// orderedDefs lists every data source once, by name: each registers
// itself in its ds_<name>.go (registerDataSource).
func orderedDefs() []*dataSourceDef {
	out := slices.Collect(maps.Values(registeredDefs))
	slices.SortFunc(out, func(a, b *dataSourceDef) int { return strings.Compare(a.name, b.name) })
	return out
}
