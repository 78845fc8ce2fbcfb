package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// bareRead asks a sandbox what the paging rules ask of a read of pages 1
// to last (the empty one) in pages of size, conc in flight, with nothing
// of the client: page 1 alone; pages 2 to last, each as soon as a place
// frees; then page last at another size beside page 1 again (the end's
// other question and the closing check). Each answer's body is read and
// dropped: no decoding, no paging rules, no Terraform, no page sent past
// the end. Its span in the sandbox's log is what this machine's loopback,
// timers and sandbox add to the rules' floor (rulesFloor): no client of
// these rules can do better here.
func bareRead(ctx context.Context, baseURL string, last, size, conc int) error {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conc}}
	get := func(page, count int) error {
		q := url.Values{"page": {strconv.Itoa(page)}, "count": {strconv.Itoa(count)}}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, baseURL+sandbox.DefaultPaths()[sandbox.EndpointMemberships]+"?"+q.Encode(), nil)
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+sandbox.DefaultToken)
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("page %d of %d: %s", page, count, resp.Status)
		}
		return nil
	}
	if err := get(1, size); err != nil {
		return err
	}
	var next atomic.Int64
	next.Store(2)
	var g errgroup.Group
	for range conc {
		g.Go(func() error {
			for p := int(next.Add(1) - 1); p <= last; p = int(next.Add(1) - 1) {
				if err := get(p, size); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	g.Go(func() error { return get(last, size-1) })
	g.Go(func() error { return get(1, size) })
	return g.Wait()
}

// bareRequests is how many requests bareRead asks of a read whose empty
// page is last.
func bareRequests(last int) int { return last + 2 }

// settledLog is the sandbox's log once it holds at least want requests of
// memberships (a request is logged after its handler returns, which may
// be after the client has its answer); an error after a second without
// them, as a span measured on part of a read would be too short.
func settledLog(sb *sandbox.Server, want int) ([]sandbox.RequestRecord, error) {
	deadline := time.Now().Add(time.Second)
	for {
		log := sb.RequestLog()
		n := 0
		for _, r := range log {
			if r.Endpoint == sandbox.EndpointMemberships {
				n++
			}
		}
		if n >= want {
			return log, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("the sandbox's log holds %d of the %d requests asked", n, want)
		}
		time.Sleep(time.Millisecond)
	}
}
