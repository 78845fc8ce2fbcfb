package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The converter from a recorded schema (Terraform's JSON of it) to the
// schema the protocol carries. It must lose nothing Terraform checks a
// configuration against: a type, a nesting, a bound, a flag. The test
// converts back and compares with the recorded text.
//
// Every error names the JSON path of what it could not convert, so a
// schema recorded with a newer Terraform says where it differs.

// providerSchema is the answer to GetProviderSchema for f.
func providerSchema(f *recordedFile) (*tfprotov6.GetProviderSchemaResponse, error) {
	provider, err := schemaOf("provider", f.Provider)
	if err != nil {
		return nil, err
	}
	resources, err := schemasOf("resource_schemas", f.ResourceSchemas)
	if err != nil {
		return nil, err
	}
	dataSources, err := schemasOf("data_source_schemas", f.DataSourceSchemas)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.GetProviderSchemaResponse{
		ServerCapabilities: &tfprotov6.ServerCapabilities{},
		Provider:           provider,
		ResourceSchemas:    resources,
		DataSourceSchemas:  dataSources,
	}, nil
}

// schemasOf converts the schemas of one kind (resources, data sources),
// by type name.
func schemasOf(path string, in map[string]recordedSchema) (map[string]*tfprotov6.Schema, error) {
	out := make(map[string]*tfprotov6.Schema, len(in))
	for _, name := range slices.Sorted(maps.Keys(in)) {
		s, err := schemaOf(path+"."+name, in[name])
		if err != nil {
			return nil, err
		}
		out[name] = s
	}
	return out, nil
}

// schemaOf converts one schema: its version, which Terraform compares with
// a state's to decide on an upgrade, and its block. A schema recorded with
// no block (a provider block with nothing in it) serves an empty one.
func schemaOf(path string, s recordedSchema) (*tfprotov6.Schema, error) {
	block := &tfprotov6.SchemaBlock{}
	if s.Block != nil {
		var err error
		if block, err = blockOf(path+".block", s.Block); err != nil {
			return nil, err
		}
	}
	return &tfprotov6.Schema{Version: s.Version, Block: block}, nil
}

// blockOf converts a block: its attributes and nested blocks, each in the
// order of its name, so that the answer is the same at every start.
func blockOf(path string, b *recordedBlock) (*tfprotov6.SchemaBlock, error) {
	out := &tfprotov6.SchemaBlock{Deprecated: b.Deprecated}
	attrs, err := attributesOf(path+".attributes", b.Attributes)
	if err != nil {
		return nil, err
	}
	out.Attributes = attrs
	for _, name := range slices.Sorted(maps.Keys(b.BlockTypes)) {
		nb, err := nestedBlockOf(path+".block_types."+name, name, b.BlockTypes[name])
		if err != nil {
			return nil, err
		}
		out.BlockTypes = append(out.BlockTypes, nb)
	}
	return out, nil
}

// attributesOf converts the attributes of a block or of a nested type.
func attributesOf(path string, in map[string]*recordedAttribute) ([]*tfprotov6.SchemaAttribute, error) {
	var out []*tfprotov6.SchemaAttribute
	for _, name := range slices.Sorted(maps.Keys(in)) {
		a, err := attributeOf(path+"."+name, name, in[name])
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// attributeOf converts one attribute, which has either a type or a nested
// type (attributes of their own, nested single, or as a list, set or map).
func attributeOf(path, name string, a *recordedAttribute) (*tfprotov6.SchemaAttribute, error) {
	out := &tfprotov6.SchemaAttribute{
		Name:       name,
		Required:   a.Required,
		Optional:   a.Optional,
		Computed:   a.Computed,
		Sensitive:  a.Sensitive,
		Deprecated: a.Deprecated,
		WriteOnly:  a.WriteOnly,
	}
	switch {
	case a.Type != nil && a.NestedType != nil:
		return nil, fmt.Errorf("%s: both a type and a nested_type", path)
	case a.NestedType != nil:
		nested, err := nestedObjectOf(path+".nested_type", a.NestedType)
		if err != nil {
			return nil, err
		}
		out.NestedType = nested
	case a.Type != nil:
		var typeJSON any
		if err := json.Unmarshal(a.Type, &typeJSON); err != nil {
			return nil, fmt.Errorf("%s.type: %w", path, err)
		}
		t, err := typeOf(path+".type", typeJSON)
		if err != nil {
			return nil, err
		}
		out.Type = t
	default:
		return nil, fmt.Errorf("%s: neither a type nor a nested_type", path)
	}
	return out, nil
}

// nestedObjectOf converts a nested type: attributes of its own, and how
// many objects of them the attribute holds.
func nestedObjectOf(path string, n *recordedNestedType) (*tfprotov6.SchemaObject, error) {
	nesting, err := objectNesting(path+".nesting_mode", n.NestingMode)
	if err != nil {
		return nil, err
	}
	attrs, err := attributesOf(path+".attributes", n.Attributes)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.SchemaObject{Attributes: attrs, Nesting: nesting}, nil
}

// nestedBlockOf converts a nested block: its block, its nesting and the
// bounds on how many of it a configuration may write.
func nestedBlockOf(path, name string, bt *recordedBlockType) (*tfprotov6.SchemaNestedBlock, error) {
	nesting, err := blockNesting(path+".nesting_mode", bt.NestingMode)
	if err != nil {
		return nil, err
	}
	if bt.Block == nil {
		return nil, fmt.Errorf("%s: no block", path)
	}
	block, err := blockOf(path+".block", bt.Block)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.SchemaNestedBlock{
		TypeName: name,
		Block:    block,
		Nesting:  nesting,
		MinItems: bt.MinItems,
		MaxItems: bt.MaxItems,
	}, nil
}

// blockNesting is a nested block's nesting mode, as Terraform writes it.
func blockNesting(path, mode string) (tfprotov6.SchemaNestedBlockNestingMode, error) {
	switch mode {
	case "single":
		return tfprotov6.SchemaNestedBlockNestingModeSingle, nil
	case "list":
		return tfprotov6.SchemaNestedBlockNestingModeList, nil
	case "set":
		return tfprotov6.SchemaNestedBlockNestingModeSet, nil
	case "map":
		return tfprotov6.SchemaNestedBlockNestingModeMap, nil
	case "group":
		return tfprotov6.SchemaNestedBlockNestingModeGroup, nil
	}
	return tfprotov6.SchemaNestedBlockNestingModeInvalid, fmt.Errorf("%s: unknown nesting mode %q", path, mode)
}

// objectNesting is a nested type's nesting mode: a nested type has no
// group.
func objectNesting(path, mode string) (tfprotov6.SchemaObjectNestingMode, error) {
	switch mode {
	case "single":
		return tfprotov6.SchemaObjectNestingModeSingle, nil
	case "list":
		return tfprotov6.SchemaObjectNestingModeList, nil
	case "set":
		return tfprotov6.SchemaObjectNestingModeSet, nil
	case "map":
		return tfprotov6.SchemaObjectNestingModeMap, nil
	}
	return tfprotov6.SchemaObjectNestingModeInvalid, fmt.Errorf("%s: unknown nesting mode %q", path, mode)
}

// typeOf converts a type in cty's JSON, decoded: a primitive's name, or
// [kind, element] for a list, set or map, ["object", {name: type}] and
// ["tuple", [types]]. An object with optional attributes (a third
// element) is a type constraint, never a schema's type: it fails.
func typeOf(path string, t any) (tftypes.Type, error) {
	switch t := t.(type) {
	case string:
		return primitiveType(path, t)
	case []any:
		if len(t) == 2 {
			if kind, ok := t[0].(string); ok {
				return collectionType(path, kind, t[1])
			}
		}
	}
	return nil, fmt.Errorf("%s: not a type: %s", path, typeText(t))
}

// primitiveType is the type a primitive's name stands for.
func primitiveType(path, name string) (tftypes.Type, error) {
	switch name {
	case "string":
		return tftypes.String, nil
	case "number":
		return tftypes.Number, nil
	case "bool":
		return tftypes.Bool, nil
	case "dynamic":
		return tftypes.DynamicPseudoType, nil
	}
	return nil, fmt.Errorf("%s: unknown type %q", path, name)
}

// collectionType is the type [kind, inner] stands for.
func collectionType(path, kind string, inner any) (tftypes.Type, error) {
	switch kind {
	case "list", "set", "map":
		elem, err := typeOf(path+"["+kind+"]", inner)
		if err != nil {
			return nil, err
		}
		switch kind {
		case "list":
			return tftypes.List{ElementType: elem}, nil
		case "set":
			return tftypes.Set{ElementType: elem}, nil
		}
		return tftypes.Map{ElementType: elem}, nil
	case "object":
		if fields, ok := inner.(map[string]any); ok {
			attrs := make(map[string]tftypes.Type, len(fields))
			for _, name := range slices.Sorted(maps.Keys(fields)) {
				t, err := typeOf(path+"[object]."+name, fields[name])
				if err != nil {
					return nil, err
				}
				attrs[name] = t
			}
			return tftypes.Object{AttributeTypes: attrs}, nil
		}
	case "tuple":
		if elems, ok := inner.([]any); ok {
			types := make([]tftypes.Type, len(elems))
			for i, e := range elems {
				t, err := typeOf(fmt.Sprintf("%s[tuple][%d]", path, i), e)
				if err != nil {
					return nil, err
				}
				types[i] = t
			}
			return tftypes.Tuple{ElementTypes: types}, nil
		}
	}
	return nil, fmt.Errorf("%s: unknown type %s", path, typeText([]any{kind, inner}))
}

// typeText is a type's JSON again, for an error.
func typeText(t any) string {
	b, err := json.Marshal(t)
	if err != nil {
		return fmt.Sprint(t)
	}
	return string(b)
}
