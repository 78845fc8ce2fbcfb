package provider

import (
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// frameworkAttributes turns attrs into the framework schema's attributes:
// arguments as declared, results as computed attributes.
func frameworkAttributes(attrs []attr) map[string]schema.Attribute {
	out := make(map[string]schema.Attribute, len(attrs))
	for _, a := range attrs {
		if a.block == nil {
			out[a.name] = frameworkAttribute(a)
		}
	}
	return out
}

// frameworkBlocks are the attrs declared as blocks.
func frameworkBlocks(attrs []attr) map[string]schema.Block {
	out := map[string]schema.Block{}
	for _, a := range attrs {
		if a.block != nil {
			out[a.name] = a.block
		}
	}
	return out
}

// markdown is desc as a MarkdownDescription when it holds Markdown (a
// backtick), so editors render it; "" leaves the plain Description alone.
func markdown(desc string) string {
	if strings.Contains(desc, "`") {
		return desc
	}
	return ""
}

func frameworkAttribute(a attr) schema.Attribute {
	if a.arg != nil {
		return a.arg
	}
	switch a.kind {
	case kindString:
		return schema.StringAttribute{Computed: true, Description: a.desc, MarkdownDescription: markdown(a.desc)}
	case kindInt:
		return schema.Int64Attribute{Computed: true, Description: a.desc, MarkdownDescription: markdown(a.desc)}
	case kindBool:
		return schema.BoolAttribute{Computed: true, Description: a.desc, MarkdownDescription: markdown(a.desc)}
	case kindStringList:
		return schema.ListAttribute{Computed: true, Description: a.desc, MarkdownDescription: markdown(a.desc), ElementType: types.StringType}
	case kindStringSet:
		return schema.SetAttribute{Computed: true, Description: a.desc, MarkdownDescription: markdown(a.desc), ElementType: types.StringType}
	case kindDynamic:
		return schema.DynamicAttribute{Computed: true, Description: a.desc, MarkdownDescription: markdown(a.desc)}
	case kindObject:
		return schema.SingleNestedAttribute{Computed: true, Description: a.desc, MarkdownDescription: markdown(a.desc), Attributes: frameworkAttributes(a.children)}
	case kindObjectList:
		return schema.ListNestedAttribute{Computed: true, Description: a.desc, MarkdownDescription: markdown(a.desc),
			NestedObject: schema.NestedAttributeObject{Attributes: frameworkAttributes(a.children)}}
	}
	panic("unknown attribute kind")
}

// terraformType is the Terraform type of a's value.
func terraformType(a attr) tftypes.Type {
	switch a.kind {
	case kindString:
		return tftypes.String
	case kindInt:
		return tftypes.Number
	case kindBool:
		return tftypes.Bool
	case kindStringList:
		return tftypes.List{ElementType: tftypes.String}
	case kindStringSet:
		return tftypes.Set{ElementType: tftypes.String}
	case kindDynamic:
		return tftypes.DynamicPseudoType
	case kindObject:
		return objectType(a.children)
	case kindObjectList:
		return tftypes.List{ElementType: objectType(a.children)}
	}
	panic("unknown attribute kind")
}

func objectType(attrs []attr) tftypes.Object {
	types := make(map[string]tftypes.Type, len(attrs))
	for _, a := range attrs {
		types[a.name] = terraformType(a)
	}
	return tftypes.Object{AttributeTypes: types}
}
