package client

import (
	"context"
	"errors"
	"net/http"
	"sync"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
)

// The paths of payments and groups are assumed (the specification shows
// /payments, /groups): when page 1 answers 404 at the default path, the
// read asks once at the other; a page there is used, with a warning naming
// the endpoint_paths line to pin, and a 404 there too lists both URLs.

// pathChoice holds the path each endpoint is read at, switched to its
// alternate once the alternate answered.
type pathChoice struct {
	mu         sync.Mutex
	paths      Paths
	alternates map[string]string // endpoints on their default path, and where else to ask
	switched   map[string]bool
}

// alternatePaths are the alternates of the endpoints paths does not set.
func alternatePaths(paths Paths) map[string]string {
	out := map[string]string{}
	for _, e := range apispec.Endpoints {
		if e.Alternate != "" && paths[e.Name] == "" {
			out[e.Name] = e.Alternate
		}
	}
	return out
}

func newPathChoice(paths Paths, alternates map[string]string) *pathChoice {
	return &pathChoice{paths: paths, alternates: alternates, switched: map[string]bool{}}
}

// of is the path endpoint is read at now.
func (p *pathChoice) of(endpoint string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.switched[endpoint] {
		return p.alternates[endpoint]
	}
	return p.paths[endpoint]
}

// alternate is where else to ask for endpoint, when it is still on its
// default path and has an alternate.
func (p *pathChoice) alternate(endpoint string) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	alt, ok := p.alternates[endpoint]
	return alt, ok && !p.switched[endpoint]
}

func (p *pathChoice) switchTo(endpoint string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.switched[endpoint] = true
}

// AlternatePath reports the other path endpoint was read at, to pin.
func (c *Client) AlternatePath(endpoint string) (string, bool) {
	c.paths.mu.Lock()
	defer c.paths.mu.Unlock()
	if !c.paths.switched[endpoint] {
		return "", false
	}
	return c.paths.alternates[endpoint], true
}

// readAtEitherPath reads req, and after a 404 of page 1 at a default path,
// once more at its alternate.
func readAtEitherPath[R any](ctx context.Context, c *Client, req pageRequest, read func(pageRequest) (R, error)) (R, error) {
	out, err := read(req)
	alt, ok := c.paths.alternate(req.endpoint)
	if !ok || req.path == alt || !notFoundOnPage1(err) {
		return out, err
	}
	first := err
	req.path = alt
	out, err = read(req)
	switch {
	case err == nil:
		c.paths.switchTo(req.endpoint)
		c.cfg.Logger.Warn(ctx, "the default path answered 404; the specification's other path answered, and is used", map[string]any{
			"endpoint": req.endpoint, "path": alt,
		})
		return out, nil
	case notFoundOnPage1(err):
		var none R
		var apiErr *failure.APIError
		errors.As(first, &apiErr)
		also := *apiErr
		var again *failure.APIError
		errors.As(err, &again)
		also.AlsoURL = again.URL
		return none, &also
	}
	var none R
	return none, err
}

// notFoundOnPage1 reports a 404 answer to page 1.
func notFoundOnPage1(err error) bool {
	var apiErr *failure.APIError
	return errors.As(err, &apiErr) && apiErr.Status == http.StatusNotFound && apiErr.Page <= 1
}
