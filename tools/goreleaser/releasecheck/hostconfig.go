package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"

	"go.yaml.in/yaml/v3"
)

// Keys of a GoReleaser build that choose its platforms. They are replaced by
// a single `targets` entry; every other key is kept as the project wrote it.
var platformKeys = map[string]bool{
	"goos": true, "goarch": true, "goarm": true, "goarm64": true, "goamd64": true,
	"go386": true, "gomips": true, "goppc64": true, "goriscv64": true,
	"ignore": true, "targets": true,
}

func runHostConfig(args []string) error {
	fs := flag.NewFlagSet("host-config", flag.ContinueOnError)
	in := fs.String("in", ".goreleaser.yml", "the project's GoReleaser configuration")
	out := fs.String("out", "", "where to write the host-only configuration")
	dist := fs.String("dist", "", "GoReleaser's dist directory for the snapshot")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || *dist == "" {
		return errors.New("host-config needs -out and -dist")
	}
	src, err := os.ReadFile(*in)
	if err != nil {
		return err
	}
	b, err := hostConfig(src, runtime.GOOS+"_"+runtime.GOARCH, *dist)
	if err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	return os.WriteFile(*out, b, 0o644)
}

// hostConfig edits the YAML tree, not a decoded struct, so that the result
// is the project's configuration, comments included, but for the platforms
// and the dist directory.
func hostConfig(src []byte, target, dist string) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errors.New("not a YAML mapping")
	}
	root := doc.Content[0]
	builds := mappingValue(root, "builds")
	if builds == nil || builds.Kind != yaml.SequenceNode || len(builds.Content) == 0 {
		return nil, errors.New("no builds list")
	}
	for _, b := range builds.Content {
		if b.Kind != yaml.MappingNode {
			return nil, errors.New("a build is not a mapping")
		}
		var kept []*yaml.Node
		for i := 0; i+1 < len(b.Content); i += 2 {
			if !platformKeys[b.Content[i].Value] {
				kept = append(kept, b.Content[i], b.Content[i+1])
			}
		}
		b.Content = append(kept, scalar("targets"), &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{scalar(target)}})
	}
	if v := mappingValue(root, "dist"); v != nil {
		v.Value = dist
	} else {
		root.Content = append(root.Content, scalar("dist"), scalar(dist))
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), enc.Close()
}

func mappingValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func scalar(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }
