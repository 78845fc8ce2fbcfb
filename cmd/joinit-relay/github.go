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

// gitHubBackend dispatches a workflow (POST
// /repos/{owner}/{repo}/actions/workflows/{file}/dispatches). Plain
// net/http through go-retryablehttp: one request does not need a GitHub
// client library.
type gitHubBackend struct {
	url, ref string
	d        *dispatcher
}

var workflowPattern = regexp.MustCompile(`^([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)/([^/@]+)@(.+)$`)

func newGitHubBackend(workflow, apiURL, token string) (*gitHubBackend, error) {
	m := workflowPattern.FindStringSubmatch(workflow)
	if m == nil {
		return nil, fmt.Errorf("-github-workflow %q is not OWNER/REPO/WORKFLOW_FILE@REF (for example acme/infra/member-sync.yml@main)", workflow)
	}
	if token == "" {
		return nil, errors.New("-github-workflow needs GITHUB_TOKEN: a token that may run the workflow (fine-grained: Actions read and write on " + m[1] + "/" + m[2] + ")")
	}
	api, err := checkBaseURL("github-api-url", apiURL)
	if err != nil {
		return nil, err
	}
	u := api.JoinPath("repos", m[1], m[2], "actions", "workflows", m[3], "dispatches")
	return &gitHubBackend{url: u.String(), ref: m[4], d: newDispatcher("GitHub", token, gitHubHints)}, nil
}

// gitHubHints say what a refusal means for the settings.
var gitHubHints = map[int]string{
	http.StatusUnauthorized:        "GITHUB_TOKEN is not a valid token",
	http.StatusNotFound:            "no such workflow, or GITHUB_TOKEN may not see it: check -github-workflow and the token's repository access",
	http.StatusUnprocessableEntity: "the workflow needs an on: workflow_dispatch trigger, and the ref must exist",
}

func (b *gitHubBackend) Describe() string { return "github-workflow" }

// Longest bounds one start: one POST, retried.
func (b *gitHubBackend) Longest() time.Duration { return dispatchLongest }

func (b *gitHubBackend) Start(ctx context.Context, _ *os.File) error {
	body, err := json.Marshal(map[string]string{"ref": b.ref})
	if err != nil {
		return err
	}
	h := http.Header{}
	h.Set("Accept", "application/vnd.github+json")
	h.Set("X-GitHub-Api-Version", "2022-11-28")
	return b.d.post(ctx, b.url, "application/json", body, h)
}
