package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"time"
)

// tfeBackend queues a run in an HCP Terraform or Terraform Enterprise
// workspace (POST /api/v2/runs). Plain net/http through go-retryablehttp:
// one JSON:API request does not need go-tfe.
type tfeBackend struct {
	url, workspace string
	d              *dispatcher
}

var workspacePattern = regexp.MustCompile(`^ws-[A-Za-z0-9]+$`)

// runMessage is the run's message in HCP Terraform's list of runs.
const runMessage = "Queued by joinit-relay: a Join It membership changed"

func newTFEBackend(workspace, address, token string) (*tfeBackend, error) {
	if !workspacePattern.MatchString(workspace) {
		return nil, fmt.Errorf("-tfe-workspace %q is not a workspace id (ws-…; the workspace's settings page shows it)", workspace)
	}
	if token == "" {
		return nil, errors.New("-tfe-workspace needs TFE_TOKEN: a user or team token that may queue runs in the workspace (organization tokens cannot create runs)")
	}
	base, err := checkBaseURL("tfe-address", address)
	if err != nil {
		return nil, err
	}
	return &tfeBackend{url: base.JoinPath("api", "v2", "runs").String(), workspace: workspace, d: newDispatcher("HCP Terraform", token, tfeHints)}, nil
}

// tfeHints say what a refusal means for the settings.
var tfeHints = map[int]string{
	http.StatusUnauthorized: "TFE_TOKEN is not a valid token for -tfe-address",
	http.StatusForbidden:    tfeCannotQueue,
	http.StatusNotFound:     tfeCannotQueue,
}

const tfeCannotQueue = "no such workspace, or TFE_TOKEN may not queue runs in it: use a user or team token with the workspace's queue-runs permission (organization tokens cannot create runs)"

func (b *tfeBackend) Describe() string { return "tfe-workspace" }

// Longest bounds one start: one POST, retried.
func (b *tfeBackend) Longest() time.Duration { return dispatchLongest }

// tfeRun is the JSON:API document that creates a run.
type tfeRun struct {
	Data struct {
		Type       string `json:"type"`
		Attributes struct {
			Message string `json:"message"`
		} `json:"attributes"`
		Relationships struct {
			Workspace struct {
				Data struct {
					Type string `json:"type"`
					ID   string `json:"id"`
				} `json:"data"`
			} `json:"workspace"`
		} `json:"relationships"`
	} `json:"data"`
}

func (b *tfeBackend) Start(ctx context.Context, _ *os.File) error {
	var run tfeRun
	run.Data.Type = "runs"
	run.Data.Attributes.Message = runMessage
	run.Data.Relationships.Workspace.Data.Type = "workspaces"
	run.Data.Relationships.Workspace.Data.ID = b.workspace
	body, err := json.Marshal(run)
	if err != nil {
		return err
	}
	return b.d.post(ctx, b.url, "application/vnd.api+json", body, nil)
}
