package tfattr

import (
	"context"
	"fmt"
	"strings"

	fwattr "github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Schema is the framework schema of a data source declared by attrs:
// arguments as declared, results as computed attributes, blocks as blocks.
func Schema(desc string, attrs []Attr) schema.Schema {
	s := schema.Schema{Description: desc, MarkdownDescription: desc, Attributes: frameworkAttributes(attrs), Blocks: map[string]schema.Block{}}
	for _, a := range attrs {
		if a.block != nil {
			s.Blocks[a.name] = a.block
		}
	}
	return s
}

// frameworkAttributes turns attrs, other than blocks, into the framework
// schema's attributes.
func frameworkAttributes(attrs []Attr) map[string]schema.Attribute {
	out := make(map[string]schema.Attribute, len(attrs))
	for _, a := range attrs {
		if a.block == nil {
			out[a.name] = frameworkAttribute(a)
		}
	}
	return out
}

// Markdown is desc as a MarkdownDescription when it holds Markdown (a
// backtick), so editors render it; "" leaves the plain Description alone.
func Markdown(desc string) string {
	if strings.Contains(desc, "`") {
		return desc
	}
	return ""
}

func frameworkAttribute(a Attr) schema.Attribute {
	if a.arg != nil {
		return a.arg
	}
	switch a.kind {
	case kindString:
		return schema.StringAttribute{Computed: true, Description: a.desc, MarkdownDescription: Markdown(a.desc)}
	case kindInt:
		return schema.Int64Attribute{Computed: true, Description: a.desc, MarkdownDescription: Markdown(a.desc)}
	case kindBool:
		return schema.BoolAttribute{Computed: true, Description: a.desc, MarkdownDescription: Markdown(a.desc)}
	case kindStringList:
		return schema.ListAttribute{Computed: true, Description: a.desc, MarkdownDescription: Markdown(a.desc), ElementType: types.StringType}
	case kindStringSet:
		return schema.SetAttribute{Computed: true, Description: a.desc, MarkdownDescription: Markdown(a.desc), ElementType: types.StringType}
	case kindDynamic:
		return schema.DynamicAttribute{Computed: true, Description: a.desc, MarkdownDescription: Markdown(a.desc)}
	case kindObject:
		return schema.SingleNestedAttribute{Computed: true, Description: a.desc, MarkdownDescription: Markdown(a.desc), Attributes: frameworkAttributes(a.children)}
	case kindObjectList:
		// A list attribute of objects, not a list of nested attributes:
		// Terraform's mock_provider cannot fill a nested-attribute list
		// (hashicorp/terraform#38369), and users test their modules with
		// it. The value's type is the same list of objects; the elements'
		// descriptions go into the list's own (elementsDescribed).
		desc := elementsDescribed(a)
		return schema.ListAttribute{Computed: true, Description: desc, MarkdownDescription: Markdown(desc), ElementType: frameworkObjectType(a.children)}
	}
	panic("unknown attribute kind")
}

// frameworkType is the framework type of a's value.
func frameworkType(a Attr) fwattr.Type {
	switch a.kind {
	case kindString:
		return types.StringType
	case kindInt:
		return types.Int64Type
	case kindBool:
		return types.BoolType
	case kindStringList:
		return types.ListType{ElemType: types.StringType}
	case kindStringSet:
		return types.SetType{ElemType: types.StringType}
	case kindDynamic:
		return types.DynamicType
	case kindObject:
		return frameworkObjectType(a.children)
	case kindObjectList:
		return types.ListType{ElemType: frameworkObjectType(a.children)}
	}
	panic("unknown attribute kind")
}

func frameworkObjectType(attrs []Attr) types.ObjectType {
	out := make(map[string]fwattr.Type, len(attrs))
	for _, a := range attrs {
		out[a.name] = frameworkType(a)
	}
	return types.ObjectType{AttrTypes: out}
}

// elementsDescribed is a list of objects' description followed by its
// elements' attributes, each with its own description, nested objects
// indented under their attribute: what a nested-attribute list shows
// in the generated docs and in editors, kept for a list attribute.
func elementsDescribed(a Attr) string {
	var b strings.Builder
	b.WriteString(a.desc)
	b.WriteString(" Each element has:")
	writeChildren(&b, a.children, "\n  ")
	return b.String()
}

func writeChildren(b *strings.Builder, children []Attr, indent string) {
	for _, c := range children {
		fmt.Fprintf(b, "%s- `%s` (%s) %s", indent, c.name, typeWord(c), c.desc)
		if c.kind == kindObject || c.kind == kindObjectList {
			writeChildren(b, c.children, indent+"  ")
		}
	}
}

// typeWord names a's type as the generated docs do.
func typeWord(a Attr) string {
	switch a.kind {
	case kindString:
		return "String"
	case kindInt:
		return "Number"
	case kindBool:
		return "Boolean"
	case kindStringList:
		return "List of String"
	case kindStringSet:
		return "Set of String"
	case kindObject:
		return "Object"
	case kindObjectList:
		return "List of Object"
	}
	return "Dynamic"
}

// terraformType is the Terraform type of a's value: its framework type's.
func terraformType(a Attr) tftypes.Type { return frameworkType(a).TerraformType(context.Background()) }

func ObjectType(attrs []Attr) tftypes.Object {
	types := make(map[string]tftypes.Type, len(attrs))
	for _, a := range attrs {
		types[a.name] = terraformType(a)
	}
	return tftypes.Object{AttributeTypes: types}
}
