//go:build recordedfixture

package main

import _ "embed"

// The test fixture, served as terraform-provider-fixture in a build with
// the recordedfixture tag only (the end-to-end test's): a release of the
// stand-in serves only what schemas/ records.
//
//go:embed testdata/fixture.json
var fixtureSchema []byte

func init() { extraSchemas["fixture"] = fixtureSchema }
