package paging

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"
)

// testRecord is a record of the scripted APIs: an id, and its JSON kept.
type testRecord struct {
	ID  *string `json:"_id"`
	Raw string  `json:"-"`
}

func (r *testRecord) Key() string {
	if r.ID == nil {
		return ""
	}
	return *r.ID
}

func (r *testRecord) SetRaw(raw []byte) { r.Raw = string(raw) }

// scriptedAPI answers one ask of a page of size records, as a server
// would: a status and a body. It may be called concurrently.
type scriptedAPI func(page, size int) (status int, body []byte)

// scriptedRead reads a count-style endpoint whose pages api answers,
// fetched as the client's transport does with one retry (scriptedFetch).
func scriptedRead(api scriptedAPI, size, maxPages, maxInFlight int) Read[testRecord] {
	const endpoint = "memberships"
	return Read[testRecord]{
		Endpoint: endpoint, Size: size, DefaultSize: 50, MaxPages: maxPages, MaxInFlight: maxInFlight, KeepRaw: true,
		Fetch: scriptedFetch(api, endpoint, func(body []byte, _ int) (Page[testRecord], error) {
			recs, err := pagejson.DecodeArray[testRecord](body, true, nil)
			return Page[testRecord]{Records: recs, Body: body}, err
		}),
		Question: func(page, size int) string { return fmt.Sprintf("/%s?count=%d&page=%d", endpoint, size, page) },
		Answers:  NewAnswers(),
		Logger:   discard{},
	}
}

// scriptedFetch fetches pages from api as the client's transport does with
// one retry: an answer that is a 5xx, or a 2xx whose body does not decode,
// is asked once more; no sockets, no timers.
func scriptedFetch(api scriptedAPI, endpoint string, decode func(body []byte, page int) (Page[testRecord], error)) func(context.Context, int, int) (Page[testRecord], error) {
	return func(ctx context.Context, page, size int) (Page[testRecord], error) {
		var last error
		for attempt := 1; attempt <= 2; attempt++ {
			if err := ctx.Err(); err != nil {
				return Page[testRecord]{}, err
			}
			status, body := api(page, size)
			if status != http.StatusOK {
				last = &failure.APIError{Endpoint: endpoint, Page: page, Status: status, Attempts: attempt}
				if status >= 500 {
					continue
				}
				return Page[testRecord]{}, last
			}
			Arrived(ctx) // as the client's fetchPage: each attempt's body, before decoding
			p, err := decode(body, page)
			if err != nil {
				last = err
				continue
			}
			return p, nil
		}
		return Page[testRecord]{}, &failure.PageError{Endpoint: endpoint, Page: page, Reason: "the request failed after 2 attempts", Err: last}
	}
}

// ids are the records' ids in order.
func ids(recs []testRecord) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.Key()
	}
	return out
}

type discard struct{}

func (discard) Debug(context.Context, string, map[string]any) {}
func (discard) Warn(context.Context, string, map[string]any)  {}

// asks counts the asks of each page, for APIs whose first answer differs.
type asks struct {
	mu sync.Mutex
	n  map[int]int
}

// ask notes an ask of page and says whether it is the first.
func (a *asks) ask(page int) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.n == nil {
		a.n = map[int]int{}
	}
	a.n[page]++
	return a.n[page] == 1
}
