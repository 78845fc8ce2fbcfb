package paging

import (
	"context"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"
)

// A lagging replica or a timed-out backend answers 200 with an empty or
// short page for a moment, so an answer that would end a read, or that
// contradicts the run's earlier one, is believed once a second agrees
// (DESIGN.md, "Paging rules").

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

// A cache keyed by URL repeats a lie however often it is asked, so an
// answer that ends a read is confirmed by another question: the page that
// holds the claimed end, asked with another page size (DESIGN.md, "Paging
// rules"). A lie only takes records away, so records past the end refute
// the claim, and an answer lacking records the read holds tells nothing.
// The end falls in the first half of the other page (2r < size), so that
// a page cut in half still shows records past a false end.

// endClaim is an answer claiming that the list ends at position end (no
// record there), with the fingerprints of the records the read holds at
// positions [from, end): the page before and the claiming page's own.
type endClaim struct {
	end, from int
	held      []uint64
}

// verdict is what another question's answer says of a claim.
type verdict int

const (
	unusable verdict = iota // it lacks records the read holds: a lie of its own
	confirms                // the held records, and nothing past the end
	refutes                 // records past the end: the claim was false
)

// otherQuestions are up to n questions (page, size) whose page holds the
// end in its first half and starts among the held records, sizes nearest
// to size first; for an empty list (end 0), page 1.
func (c endClaim) otherQuestions(size, maxSize, n int) [][2]int {
	var out [][2]int
	for d := 1; len(out) < n && (size-d >= 2 || size+d <= maxSize); d++ {
		for _, s := range []int{size - d, size + d} {
			if s < 2 || s > maxSize || len(out) == n {
				continue
			}
			if c.end == 0 {
				out = append(out, [2]int{1, s})
				continue
			}
			r := c.end % s
			if r >= 1 && 2*r < s && c.end-r >= c.from {
				out = append(out, [2]int{c.end/s + 1, s})
			}
		}
	}
	return out
}

// judge reads another question's answer, whose page starts at position
// start: the records it holds in fingerprints.
func (c endClaim) judge(start int, answer []uint64) verdict {
	before := c.end - start // records it must repeat
	if len(answer) < before || !slices.Equal(answer[:before], c.held[start-c.from:]) {
		return unusable
	}
	if len(answer) > before {
		return refutes
	}
	return confirms
}

// otherOpinions is how many other questions a claim may take; an empty
// list needs two to agree, as no held record tells its lie from the truth.
const otherOpinions = 3

// claimAt is the end a page claims, its records fingerprinted in own,
// when another question can test it: the server keeps to the size asked
// (sizeKept), and the page before was full (before holds size records), so
// the end is at (page-1)·size + len(own). Count-style and limit-style
// reads claim alike.
func claimAt(page, size, maxSize int, sizeKept bool, before, own []uint64) (endClaim, bool) {
	if maxSize < 2 || !sizeKept || size < 1 || (page > 1 && len(before) != size) {
		return endClaim{}, false
	}
	start := (page - 1) * size
	return endClaim{end: start + len(own), from: max(start-size, 0), held: append(slices.Clip(before), own...)}, true
}

// sentAhead is an other question sent before the answer it tests (a page
// after a short page 1, countReader.sendAhead), so that the two share a
// round trip: a one-page read takes two rounds, not three.
type sentAhead[T any] struct {
	question [2]int // page, size
	g        errgroup.Group
	cancel   context.CancelFunc
	p        Page[T]
	err      error
	taken    bool // by askOther, which recycles its body
}

// askOther tests a claim with other questions, each a page of rd's
// endpoint at another size (ahead's answer, if it is one of them),
// fingerprinted: confirms, refutes, or unusable when no answer lines up
// with the read's pages (a server that ignores the size asked); the caller
// then asks the page itself again.
func askOther[T any, PT interface {
	*T
	Record
}](ctx context.Context, rd *Read[T], c endClaim, size int, ahead *sentAhead[T]) (verdict, error) {
	need := 1
	if c.end == 0 {
		need = 2
	}
	confirmed := 0
	for _, q := range c.otherQuestions(size, rd.MaxSize, otherOpinions) {
		var p Page[T]
		var err error
		if ahead != nil && !ahead.taken && ahead.question == q {
			_ = ahead.g.Wait()
			p, err, ahead.taken = ahead.p, ahead.err, true
		} else {
			p, err = rd.Fetch(ctx, q[0], q[1])
		}
		if err != nil {
			return unusable, err
		}
		answer := printsOf[T, PT](p.Records)
		rd.Recycle(p.Body)
		switch c.judge((q[0]-1)*q[1], answer) {
		case refutes:
			return refutes, nil
		case confirms:
			if confirmed++; confirmed == need {
				return confirms, nil
			}
		}
	}
	return unusable, nil
}

// printsOf fingerprints records for a claim: by id, or by their bytes
// for records without one (before the page's body is recycled).
func printsOf[T any, PT interface {
	*T
	Record
}](recs []pagejson.Record[T]) []uint64 {
	out := make([]uint64, len(recs))
	for i := range recs {
		if id := PT(&recs[i].Rec).Key(); id != "" {
			out[i] = maphash.String(hashSeed, id)
		} else {
			out[i] = maphash.Bytes(hashSeed, recs[i].Raw)
		}
	}
	return out
}

// maxRefuted is how many times a refuted page is asked again for another
// answer before the read fails.
const maxRefuted = 4

// askUntilOther asks page again until its answer differs from the refuted
// one, and returns that answer.
func askUntilOther[P any](ctx context.Context, endpoint string, page int, refuted answer,
	ask func(context.Context, int) (P, error), said func(P) answer,
) (P, error) {
	for range maxRefuted {
		again, err := ask(ctx, page)
		if err != nil || said(again).digest != refuted.digest {
			return again, err
		}
	}
	var zero P
	return zero, &failure.PageError{Endpoint: endpoint, Page: page, Err: failure.ErrInconsistentAnswers, Reason: fmt.Sprintf(
		"the page's answer (%d records) ends the list, but the same page asked with another page size holds records past that end, and asked %d times more the page gave the same answer: the server repeats an answer that is not true; try again later", refuted.records, maxRefuted)}
}
