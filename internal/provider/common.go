package provider

import (
	"fmt"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/client"
)

// common is what every data source's state holds beside its own results:
// the arguments every list read takes, and the warnings of the read.
// registerDataSource declares their attributes (page_size always, from the
// endpoint's paging in apispec; include_raw_json and fields when the data
// source says it has them) and turns them into the client's ListOptions,
// so that a data source's read holds only what is its own.
type common struct {
	withTimeouts
	PageSize       *int64
	IncludeRawJSON *bool // nil for a data source without include_raw_json
	fields         chosenFields
	warnings       []readWarning
}

func (c *common) base() *common { return c }

func (c *common) readWarnings() []readWarning { return c.warnings }

// stateHolder is what every data source's state is, by embedding common.
type stateHolder interface {
	timeoutsHolder
	base() *common
}

// listOptions are the client's options for the arguments: the page size,
// the raw JSON when include_raw_json is true (and, with fields, raw_json is
// chosen), and the JSON members of the chosen fields.
func (c *common) listOptions(from *recordFields) client.ListOptions {
	o := client.ListOptions{PageSize: int(*c.PageSize), KeepRaw: c.IncludeRawJSON != nil && *c.IncludeRawJSON}
	if c.fields.chosen != nil {
		o.KeepRaw = o.KeepRaw && has(c.fields.chosen, "raw_json")
		o.Fields = from.jsonMembers(c.fields.chosen)
	}
	return o
}

// commonAttrs are the attributes of common's arguments that a data source
// reading endpoint has: page_size, sized as the endpoint pages, and
// include_raw_json and fields when asked for.
func commonAttrs[S any, PS interface {
	*S
	stateHolder
}](endpoint string, rawJSON bool, fields *recordFields) []attr {
	of := func(s *S) *common { return PS(s).base() }
	paging := apispec.Lookup(endpoint).Paging
	attrs := []attr{intArg(intSpec{name: "page_size", min: 1, max: int64(paging.MaxSize), def: ptr(int64(paging.MaxSize)),
		desc: fmt.Sprintf("Records per request (the API's `%s`); the default, the largest, takes the fewest requests.", paging.SizeParam)},
		func(s *S) **int64 { return &of(s).PageSize })}
	if rawJSON {
		attrs = append(attrs, boolArg("include_raw_json",
			"Set each record's `raw_json` to the record as the API sent it, including fields this provider does not know.", false,
			func(s *S) **bool { return &of(s).IncludeRawJSON }))
	}
	if fields != nil {
		attrs = append(attrs, fieldsArg(*fields, func(s *S) *chosenFields { return &of(s).fields }))
	}
	return attrs
}
