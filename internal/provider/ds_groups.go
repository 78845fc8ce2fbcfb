package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
)

type groupsState struct {
	withTimeouts
	PageSize *int64
	groups   []client.Group
}

var groupsDef = newDataSourceDef("groups",
	"Reads the organization's groups, in API order. The API specification does not show the fields of a group record: "+
		"`id`, `organization_id` and `name` are set where the API sends them, and `raw_json` always holds the whole record for `jsondecode`.",
	readGroups,
	pageSizeArg[groupsState](client.MaxCount, "count", func(s *groupsState) *int64 { return s.PageSize }),
	objectList("groups", "The groups, in API order, each once.",
		func(s *groupsState) ([]client.Group, bool) { return s.groups, true },
		str("id", "Group identifier (the API's `_id`, or `id`).", func(g *client.Group) *string { return g.GroupID() }),
		str("organization_id", "Owning organization.", func(g *client.Group) *string { return g.OrganizationID }),
		str("name", "Group name, where the API sends one.", func(g *client.Group) *string { return g.Name }),
		str("raw_json", "The record as the API sent it (JSON). Always set, since the group fields are not documented.", func(g *client.Group) *string { return nonEmpty(&g.RawJSON) }),
	),
)

func readGroups(ctx context.Context, c *client.Client, args arguments) (any, error) {
	var s groupsState
	var err error
	if s.PageSize, err = args.pageSize(client.MaxCount); err != nil {
		return nil, err
	}
	s.groups, err = c.Groups(ctx, client.ListOptions{PageSize: int(*s.PageSize)})
	if err != nil {
		return nil, err
	}
	return &s, nil
}

// pageSizeArg declares page_size for an endpoint whose page size parameter
// is param (count or limit) with the given maximum.
func pageSizeArg[S any](maxSize int, param string, get func(*S) *int64) attr {
	return asArg(num("page_size", "", get), schema.Int64Attribute{
		Optional: true, Computed: true,
		Description: fmt.Sprintf("Records per request (the API's `%s`), 1 to %d. Default %d, the fewest requests.", param, maxSize, maxSize),
		Validators:  []validator.Int64{int64validator.Between(1, int64(maxSize))},
	})
}

// rawJSONArg declares include_raw_json.
func rawJSONArg[S any](get func(*S) *bool) attr {
	return asArg(boolean("include_raw_json", "", get), schema.BoolAttribute{
		Optional: true, Computed: true,
		Description: "Set each record's `raw_json` to the record as the API sent it, including fields this provider does not know. Default false.",
	})
}
