package provider

import (
	"fmt"
	"slices"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
)

// common is what every data source's state holds beside its own results:
// the arguments every list read takes, and the warnings of the read.
// registerDataSource declares their attributes (page_size and timeouts
// always, page_size from the endpoint's paging in apispec; include_raw_json
// and fields when the data source says it has them) and turns them into
// the client's ListOptions, so that a data source's read holds only what
// is its own.
type common struct {
	Timeouts       *tfattr.Timeouts
	PageSize       *int64
	IncludeRawJSON *bool // nil for a data source without include_raw_json
	fields         chosenFields
	warnings       []readWarning
	// strict is the data source's own strict_filters, for those that have
	// one; nil leaves it to the provider's.
	strict *bool
}

func (c *common) base() *common { return c }

// strictFilters is whether the read's filter warnings are errors: the
// data source's strict_filters when it has one set, else the provider's.
func (c *common) strictFilters(provider bool) bool {
	if c.strict != nil {
		return *c.strict
	}
	return provider
}

// stateHolder is what every data source's state is, by embedding common.
type stateHolder interface{ base() *common }

// listOptions are the client's options for the arguments: the page size,
// the raw JSON when include_raw_json is true (and, with fields, raw_json is
// chosen), and the JSON members of the chosen fields.
func (c *common) listOptions(from *recordFields) client.ListOptions {
	o := client.ListOptions{PageSize: int(*c.PageSize), KeepRaw: c.IncludeRawJSON != nil && *c.IncludeRawJSON}
	if c.fields.chosen != nil {
		o.KeepRaw = o.KeepRaw && slices.ContainsFunc(c.fields.chosen, func(a tfattr.Attr) bool { return a.Name() == "raw_json" })
		o.Fields = from.jsonMembers(c.fields.chosen)
	}
	return o
}

// commonAttrs are the attributes of common's arguments that a data source
// reading endpoint has: timeouts, page_size, sized as the endpoint pages,
// and include_raw_json and fields when asked for.
func commonAttrs[S any, PS interface {
	*S
	stateHolder
}](endpoint string, rawJSON bool, fields *recordFields) []tfattr.Attr {
	of := func(s *S) *common { return PS(s).base() }
	paging := apispec.Lookup(endpoint).Paging
	attrs := []tfattr.Attr{
		tfattr.TimeoutsBlock(func(s *S) **tfattr.Timeouts { return &of(s).Timeouts }),
		tfattr.IntArg(tfattr.IntSpec{Name: "page_size", Min: 1, Max: int64(paging.MaxSize), Default: new(int64(paging.MaxSize)),
			Desc: fmt.Sprintf("Records per request (the API's `%s`); the default, the largest, takes the fewest requests.", paging.SizeParam)},
			func(s *S) **int64 { return &of(s).PageSize }),
	}
	if rawJSON {
		attrs = append(attrs, tfattr.BoolArg("include_raw_json",
			"Set each record's `raw_json` to the record as the API sent it, including fields this provider does not know.", false,
			func(s *S) **bool { return &of(s).IncludeRawJSON }))
	}
	if fields != nil {
		attrs = append(attrs, fieldsArg(*fields, func(s *S) *chosenFields { return &of(s).fields }))
	}
	return attrs
}
