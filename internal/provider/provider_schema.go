package provider

import (
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
)

func providerSchema() schema.Schema {
	return schema.Schema{
		Description: "Reads an organization's memberships, groups, payments and metrics from the Join It API. Read-only: data sources only.",
		Attributes:  settingsSchema(),
	}
}

// andList writes names as prose: "a", "a and b", "a, b and c".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
