package client

import (
	"context"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"
)

// repairText returns body with its strings repaired (pagejson.RepairStrings),
// saying at WARN how many values it repaired.
func (c *Client) repairText(ctx context.Context, body []byte, endpoint string, page int) []byte {
	fixed, values := pagejson.RepairStrings(body)
	if values > 0 {
		c.cfg.Logger.Warn(ctx, "replaced text that is not valid Unicode with U+FFFD", map[string]any{
			"endpoint": endpoint, "page": page, "values_repaired": values,
		})
	}
	return fixed
}
