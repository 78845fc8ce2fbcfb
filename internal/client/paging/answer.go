package paging

import (
	"hash/maphash"
	"sync"
)

// hashSeed is per process: hashes only compare pages of one run.
var hashSeed = maphash.MakeSeed()

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
