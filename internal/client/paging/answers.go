package paging

import (
	"context"
	"fmt"
	"hash/maphash"
	"strings"
	"sync"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
)

// A lagging replica or a timed-out backend answers 200 with an empty or
// short page for a moment, so an answer that would end a read, or that
// contradicts the run's earlier one, is believed once a second agrees
// (DESIGN.md, "Paging rules").

// answer is what one page said: its records' ids in order (a record whose
// fields changed is the same answer), or its bytes for records without id.
type answer struct {
	digest  uint64
	records int
}

// noRecords is the answer of an empty page, and of a page refused past
// the end of the list: both say there is nothing there. It is answerOf's
// digest of no ids.
var noRecords = answer{digest: maphash.String(hashSeed, "")}

// Answers are the answers last believed in one run, by question (a page's
// URL): two data sources reading one URL must not get two lists.
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

// record notes a believed answer: a digest per page asked.
func (b *Answers) record(question string, a answer) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.answers[question] = a
}

// maxOpinions is how many times a doubted page is asked again for two
// answers that agree before the read fails.
const maxOpinions = 3

// askUntilTwoAgree asks page again until an answer agrees with one had
// (known, then every answer it gets), and returns it; maxOpinions asks
// that agree with nothing fail the read.
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

// confirmOrAskAgain believes a page's first answer, or, when doubted or
// at odds with the run's earlier answer, the one askUntilTwoAgree finds.
// It notes the answer believed and says whether the page was asked again;
// discard, when set, lets the first answer go before that.
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
