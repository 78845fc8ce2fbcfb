package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path"
	"slices"
	"testing"

	"go.yaml.in/yaml/v2"

	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// shippedWorkflow is the workflow the GitHub backend dispatches, as the
// provider ships it (the webhook relay guide renders it).
const shippedWorkflow = "../../examples/use-cases/ci-plan/joinit-sync.yml"

// The shipped workflow takes exactly what the relay's dispatch sends: its
// on.workflow_dispatch declares the inputs the request body carries, no
// more (GitHub refuses, 422, a dispatch that lacks a required input) and
// no fewer (nor one the workflow does not declare). The body is read from
// a running relay's request, so a change to either side turns this red.
func TestShippedWorkflowTakesWhatTheRelayDispatches(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(shippedWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	// Into a field tagged "on", yaml.v2 reads the key on (YAML 1.1's true)
	// as the string GitHub reads. on is the map of the events the workflow
	// runs on; workflow_dispatch's value is empty or holds its inputs.
	var wf struct {
		On map[string]any `yaml:"on"`
	}
	var inputs struct {
		On struct {
			Dispatch *struct {
				Inputs map[string]any `yaml:"inputs"`
			} `yaml:"workflow_dispatch"`
		} `yaml:"on"`
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatalf("%s: %v", shippedWorkflow, err)
	}
	if err := yaml.Unmarshal(data, &inputs); err != nil {
		t.Fatalf("%s: %v", shippedWorkflow, err)
	}
	if _, ok := wf.On["workflow_dispatch"]; !ok {
		t.Fatalf("%s: no on.workflow_dispatch among %d events: GitHub refuses the relay's dispatch (422)", shippedWorkflow, len(wf.On))
	}
	var declared []string
	if d := inputs.On.Dispatch; d != nil {
		for name := range d.Inputs {
			declared = append(declared, name)
		}
	}

	api, url := startFake(t, status(http.StatusNoContent))
	file := path.Base(shippedWorkflow)
	r := startRelay(t, relayOptions{env: []string{envGitHubToken + "=" + gitHubToken}, secrets: []string{gitHubToken}},
		"-quiet-period", "50ms", "-github-workflow", "acme/infra/"+file+"@main", "-github-api-url", url)
	post(t, r.hookURL, membership("m1", "memberships.inactive"))
	testutil.Eventually(t, "the workflow is dispatched", func() bool { return r.health().LastStarted != nil })
	r.waitIdle()
	if api.count() != 1 {
		t.Fatalf("GitHub got %d requests, want 1", api.count())
	}
	if got, want := api.requests[0].URL.Path, "/repos/acme/infra/actions/workflows/"+file+"/dispatches"; got != want {
		t.Errorf("dispatched %s, want %s", got, want)
	}
	// GitHub's API takes ref and inputs, nothing else.
	var sent struct {
		Ref    string         `json:"ref"`
		Inputs map[string]any `json:"inputs"`
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(api.bodies[0])))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sent); err != nil {
		t.Fatalf("the dispatch's body %s: %v", api.bodies[0], err)
	}
	if sent.Ref != "main" {
		t.Errorf("the dispatch's ref is %q, want main (after the @ of -github-workflow)", sent.Ref)
	}
	var given []string
	for name := range sent.Inputs {
		given = append(given, name)
	}
	slices.Sort(declared)
	slices.Sort(given)
	if !slices.Equal(declared, given) {
		t.Errorf("%s declares the workflow_dispatch inputs %q; the relay sends %q (body %s): keep them equal", shippedWorkflow, declared, given, api.bodies[0])
	}
}
