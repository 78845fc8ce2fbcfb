package paging

import (
	"context"
	"fmt"
	"hash/maphash"
	"strings"
	"sync"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
)

// A server's 200s can lie for a moment: a lagging replica, a cache or a
// search backend that timed out answers an empty page where records are,
// or a page cut short. Asked again, it tells the truth. So an answer that
// would end a read, or that contradicts what the server said earlier in the
// run, is believed only once a second answer agrees with it (DESIGN.md,
// "Paging rules").

// answer is what one page said, reduced to what two answers of the same
// question are compared by: the records' ids in order (a record whose
// fields changed is the same answer), or the page's bytes for records
// without an id.
type answer struct {
	digest  uint64
	records int
}

// noRecords is the answer of an empty page, and of a page refused past
// the end of the list: both say there is nothing there.
var noRecords = answer{digest: newIDsHash().sum()}

// idsHash fingerprints record ids one at a time, as a page is looked at:
// no slice of a page's ids is made for it.
type idsHash struct{ h maphash.Hash }

func newIDsHash() *idsHash {
	var i idsHash
	i.h.SetSeed(hashSeed)
	return &i
}

func (i *idsHash) add(id string) {
	i.h.WriteString(id)
	i.h.WriteByte(0) // ids "ab","c" and "a","bc" differ
}

func (i *idsHash) sum() uint64 { return i.h.Sum64() }

// Answers remembers, for each question asked of the API in one run (a
// page of an endpoint with its filters and page size: its URL), the answer
// last believed. A full and a masked read ask the same question: the mask
// is the client's, not the URL's. Terraform reads data sources
// concurrently, so two data sources reading one URL moments apart must not
// end up with two different lists.
type Answers struct {
	mu      sync.Mutex
	answers map[string]answer
}

// NewAnswers are the answers of one client's run.
func NewAnswers() *Answers { return &Answers{answers: map[string]answer{}} }

// earlier is the answer believed before for question, if any.
func (b *Answers) earlier(question string) (answer, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	a, ok := b.answers[question]
	return a, ok
}

// record notes a believed answer. It holds a digest per page asked,
// a few bytes each, whatever the size of the read.
func (b *Answers) record(question string, a answer) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.answers[question] = a
}

// maxOpinions is how many times a doubted page is asked again for two
// answers that agree before the read fails. A server that lies for a
// moment tells the truth on the next ask; one that answers differently
// every time is changing faster than it can be read.
const maxOpinions = 3

// askUntilTwoAgree asks page again until an answer agrees with one already
// had (known: the doubted answer, and the run's earlier one when they
// differ), and returns that answer. Every answer it gets is had from then
// on, so two lies in a row are outvoted by two truths. It fails, saying the
// server gave different answers, when maxOpinions asks agree with nothing.
func askUntilTwoAgree[P any](ctx context.Context, endpoint string, page int, known []answer,
	ask func(ctx context.Context, page int) (P, error), answerOf func(P) answer,
) (P, error) {
	had := append([]answer(nil), known...)
	for range maxOpinions {
		again, err := ask(ctx, page)
		if err != nil {
			return again, err
		}
		a := answerOf(again)
		for _, k := range had {
			if k.digest == a.digest {
				return again, nil
			}
		}
		had = append(had, a)
	}
	var zero P
	return zero, &failure.PageError{Endpoint: endpoint, Page: page, Err: failure.ErrInconsistentAnswers, Reason: fmt.Sprintf(
		"the server gave %d different answers for this page (%s), none of them twice; it may be serving from replicas that disagree: try again later", len(had), recordCounts(had))}
}

// confirmOrAskAgain takes a page's first answer as true, or first asks the page
// again (askUntilTwoAgree): when doubted (it would end the read, or tell where
// it ends) or when it contradicts the run's earlier answer to the same
// question. It returns the answer believed, noted in the run's answers, and
// whether the page was asked again; discard, when set, lets the first
// answer go before the page is asked again.
func confirmOrAskAgain[P any](ctx context.Context, answers *Answers, endpoint string, page int, first P, question string, doubted bool,
	said func(P) answer, ask func(context.Context, int) (P, error), discard func(P),
) (P, bool, error) {
	earlier, asked := answers.earlier(question)
	contradicts := asked && earlier.digest != said(first).digest
	if !contradicts && !doubted {
		answers.record(question, said(first))
		return first, false, nil
	}
	known := []answer{said(first)}
	if contradicts {
		known = append(known, earlier)
	}
	if discard != nil {
		discard(first)
	}
	again, err := askUntilTwoAgree(ctx, endpoint, page, known, ask, said)
	if err != nil {
		return again, false, err
	}
	answers.record(question, said(again))
	return again, true, nil
}

// recordCounts lists how many records each answer held, for an error.
func recordCounts(as []answer) string {
	parts := make([]string, len(as))
	for i, a := range as {
		parts[i] = fmt.Sprintf("%d records", a.records)
	}
	return strings.Join(parts, ", then ")
}
