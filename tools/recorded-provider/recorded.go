package main

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

// The recorded schemas are another project's interface, as that project's
// provider printed it (scripts/record-schema.sh): they are embedded so that
// the binary needs no file beside it and no network.
//
//go:embed schemas
var recorded embed.FS

// extraSchemas are schemas served beside the recorded ones, by name: the
// test fixture, in a build with the recordedfixture tag only.
var extraSchemas = map[string][]byte{}

// recordedFile is one file of schemas/: where the schema comes from, and
// the schema as `terraform providers schema -json` prints one provider's,
// less its descriptions.
type recordedFile struct {
	Address           string                    `json:"address"`
	Version           string                    `json:"version"`
	Source            string                    `json:"source"`
	Tag               string                    `json:"tag"`
	Commit            string                    `json:"commit"`
	RecordedWith      string                    `json:"recorded_with"`
	Provider          recordedSchema            `json:"provider"`
	ResourceSchemas   map[string]recordedSchema `json:"resource_schemas"`
	DataSourceSchemas map[string]recordedSchema `json:"data_source_schemas"`
}

// The types below are Terraform's JSON of a schema (its jsonprovider
// package), field for field, with the same omissions of empty values, so
// that the test's reverse encoding gives back the recorded text.

type recordedSchema struct {
	Version int64          `json:"version"`
	Block   *recordedBlock `json:"block,omitempty"`
}

type recordedBlock struct {
	Attributes map[string]*recordedAttribute `json:"attributes,omitempty"`
	BlockTypes map[string]*recordedBlockType `json:"block_types,omitempty"`
	Deprecated bool                          `json:"deprecated,omitempty"`
}

type recordedAttribute struct {
	Type       json.RawMessage     `json:"type,omitempty"`
	NestedType *recordedNestedType `json:"nested_type,omitempty"`
	Deprecated bool                `json:"deprecated,omitempty"`
	Required   bool                `json:"required,omitempty"`
	Optional   bool                `json:"optional,omitempty"`
	Computed   bool                `json:"computed,omitempty"`
	Sensitive  bool                `json:"sensitive,omitempty"`
	WriteOnly  bool                `json:"write_only,omitempty"`
}

type recordedNestedType struct {
	Attributes  map[string]*recordedAttribute `json:"attributes,omitempty"`
	NestingMode string                        `json:"nesting_mode,omitempty"`
}

type recordedBlockType struct {
	NestingMode string         `json:"nesting_mode,omitempty"`
	Block       *recordedBlock `json:"block,omitempty"`
	MinItems    int64          `json:"min_items,omitempty"`
	MaxItems    int64          `json:"max_items,omitempty"`
}

// schemaText is the JSON recorded for the provider called name.
func schemaText(name string) ([]byte, error) {
	if b, ok := extraSchemas[name]; ok {
		return b, nil
	}
	b, err := recorded.ReadFile("schemas/" + name + ".json")
	if err != nil {
		return nil, fmt.Errorf("no recorded schema for %q: this binary has %s", name, namesText())
	}
	return b, nil
}

// recordedNames are the names a binary of this build can be given.
func recordedNames() []string {
	var names []string
	entries, _ := fs.ReadDir(recorded, "schemas")
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".json"); ok {
			names = append(names, name)
		}
	}
	for name := range extraSchemas {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// namesText lists the names for a message.
func namesText() string {
	if names := recordedNames(); len(names) > 0 {
		return strings.Join(names, ", ")
	}
	return "none (schemas/ holds no NAME.json)"
}

// decodeRecorded decodes a recorded file strictly: a key this reader does
// not know (a description left in, a field of a newer Terraform) fails
// rather than being dropped from the schema served.
func decodeRecorded(b []byte) (*recordedFile, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var f recordedFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("decoding the recorded schema: %w", err)
	}
	if f.Address == "" {
		return nil, fmt.Errorf("the recorded schema has no address")
	}
	return &f, nil
}
