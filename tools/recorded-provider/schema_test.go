package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// Every schema the binary embeds, and the fixture, converts to the
// protocol's schema and back to its recorded text, key for key: the
// converter loses nothing Terraform checks a configuration against.
func TestConversionRoundTrips(t *testing.T) {
	t.Parallel()
	texts := map[string][]byte{"testdata/fixture.json": readFile(t, "testdata/fixture.json")}
	for _, name := range recordedNames() {
		b, err := schemaText(name)
		if err != nil {
			t.Fatal(err)
		}
		texts["schemas/"+name+".json"] = b
	}
	for file, text := range texts {
		t.Run(file, func(t *testing.T) {
			t.Parallel()
			f, err := decodeRecorded(text)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := providerSchema(f)
			if err != nil {
				t.Fatal(err)
			}
			var want map[string]any
			if err := json.Unmarshal(text, &want); err != nil {
				t.Fatal(err)
			}
			got := jsonValue(t, map[string]any{
				"provider":            recordedSchemaOf(t, resp.Provider),
				"resource_schemas":    recordedSchemasOf(t, resp.ResourceSchemas),
				"data_source_schemas": recordedSchemasOf(t, resp.DataSourceSchemas),
			})
			for _, part := range slices.Sorted(maps.Keys(got)) {
				if d := difference(part, want[part], got[part]); d != "" {
					t.Errorf("converted and back, %s", d)
				}
			}
			if len(f.ResourceSchemas) == 0 || len(f.DataSourceSchemas) == 0 {
				t.Errorf("%d resource and %d data source schemas: a recording without either is cut short", len(f.ResourceSchemas), len(f.DataSourceSchemas))
			}
		})
	}
}

// A type or a nesting mode the converter does not know fails, naming the
// attribute's path in the file.
func TestConversionNamesWhatItCannotConvert(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, block, want string }{
		{"unknown primitive", `{"attributes":{"users":{"type":["set","strng"],"optional":true}}}`,
			`resource_schemas.r.block.attributes.users.type[set]: unknown type "strng"`},
		{"unknown collection", `{"attributes":{"tags":{"type":["bag","string"],"optional":true}}}`,
			`resource_schemas.r.block.attributes.tags.type: unknown type ["bag","string"]`},
		{"object attribute", `{"attributes":{"u":{"type":["list",["object",{"id":"strin"}]],"computed":true}}}`,
			`resource_schemas.r.block.attributes.u.type[list][object].id: unknown type "strin"`},
		{"optional object attributes", `{"attributes":{"u":{"type":["object",{"id":"string"},["id"]],"optional":true}}}`,
			`resource_schemas.r.block.attributes.u.type: not a type: ["object",{"id":"string"},["id"]]`},
		{"block nesting", `{"block_types":{"rule":{"nesting_mode":"bag","block":{}}}}`,
			`resource_schemas.r.block.block_types.rule.nesting_mode: unknown nesting mode "bag"`},
		{"nested type nesting", `{"attributes":{"s":{"nested_type":{"attributes":{"a":{"type":"string","optional":true}},"nesting_mode":"group"},"optional":true}}}`,
			`resource_schemas.r.block.attributes.s.nested_type.nesting_mode: unknown nesting mode "group"`},
		{"deep in a nested block", `{"block_types":{"rule":{"nesting_mode":"list","block":{"attributes":{"w":{"type":"int","optional":true}}}}}}`,
			`resource_schemas.r.block.block_types.rule.block.attributes.w.type: unknown type "int"`},
		{"no type", `{"attributes":{"x":{"optional":true}}}`,
			`resource_schemas.r.block.attributes.x: neither a type nor a nested_type`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			text := `{"address":"registry.terraform.io/a/b","provider":{"version":0,"block":{}},` +
				`"resource_schemas":{"r":{"version":0,"block":` + c.block + `}},"data_source_schemas":{}}`
			f, err := decodeRecorded([]byte(text))
			if err != nil {
				t.Fatal(err)
			}
			_, err = providerSchema(f)
			if err == nil || err.Error() != c.want {
				t.Fatalf("got %v, want %s", err, c.want)
			}
		})
	}
}

// A key the reader does not know fails the file, rather than being
// dropped from the schema served.
func TestRecordedFileRefusesUnknownKeys(t *testing.T) {
	t.Parallel()
	text := `{"address":"registry.terraform.io/a/b","provider":{"version":0,"block":{"attributes":{"x":{"type":"string","optional":true,"description":"left in"}}}}}`
	if _, err := decodeRecorded([]byte(text)); err == nil || !strings.Contains(err.Error(), `"description"`) {
		t.Fatalf("got %v, want an error naming \"description\"", err)
	}
}

// The reverse encoder: the protocol's schema in Terraform's JSON of it, with
// the types as terraform-plugin-go sends them to Terraform.

func recordedSchemasOf(t *testing.T, in map[string]*tfprotov6.Schema) map[string]recordedSchema {
	out := map[string]recordedSchema{}
	for name, s := range in {
		out[name] = recordedSchemaOf(t, s)
	}
	return out
}

func recordedSchemaOf(t *testing.T, s *tfprotov6.Schema) recordedSchema {
	return recordedSchema{Version: s.Version, Block: recordedBlockOf(t, s.Block)}
}

func recordedBlockOf(t *testing.T, b *tfprotov6.SchemaBlock) *recordedBlock {
	out := &recordedBlock{Attributes: recordedAttributesOf(t, b.Attributes), Deprecated: b.Deprecated}
	for _, bt := range b.BlockTypes {
		if out.BlockTypes == nil {
			out.BlockTypes = map[string]*recordedBlockType{}
		}
		out.BlockTypes[bt.TypeName] = &recordedBlockType{
			NestingMode: nestingName(bt.Nesting.String()),
			Block:       recordedBlockOf(t, bt.Block),
			MinItems:    bt.MinItems,
			MaxItems:    bt.MaxItems,
		}
	}
	return out
}

func recordedAttributesOf(t *testing.T, in []*tfprotov6.SchemaAttribute) map[string]*recordedAttribute {
	var out map[string]*recordedAttribute
	for _, a := range in {
		if out == nil {
			out = map[string]*recordedAttribute{}
		}
		r := &recordedAttribute{Deprecated: a.Deprecated, Required: a.Required, Optional: a.Optional,
			Computed: a.Computed, Sensitive: a.Sensitive, WriteOnly: a.WriteOnly}
		if a.Type != nil {
			b, err := a.Type.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			r.Type = b
		}
		if n := a.NestedType; n != nil {
			r.NestedType = &recordedNestedType{Attributes: recordedAttributesOf(t, n.Attributes), NestingMode: nestingName(n.Nesting.String())}
		}
		out[a.Name] = r
	}
	return out
}

// nestingName is a nesting mode's name in Terraform's JSON, from the
// protocol's (NESTING_MODE_LIST or LIST: list).
func nestingName(protocolName string) string {
	return strings.ToLower(strings.TrimPrefix(protocolName, "NESTING_MODE_"))
}

// jsonValue is v as encoding/json decodes its text into an any.
func jsonValue(t *testing.T, v any) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// difference describes the first place, in the order of keys, where two
// decoded JSON values differ, or is "".
func difference(path string, want, got any) string {
	wm, wok := want.(map[string]any)
	gm, gok := got.(map[string]any)
	if !wok || !gok {
		if !reflect.DeepEqual(want, got) {
			return fmt.Sprintf("%s: recorded %s, got %s", path, typeText(want), typeText(got))
		}
		return ""
	}
	keys := slices.Sorted(maps.Keys(wm))
	for k := range gm {
		if _, ok := wm[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		if d := difference(path+"."+k, wm[k], gm[k]); d != "" {
			return d
		}
	}
	return ""
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
