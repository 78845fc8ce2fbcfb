package provider

import (
	"fmt"

	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
)

// Terraform receives a data source's state in one gRPC message, and takes
// at most 256 MiB in one. Past that it shows only an opaque "Plugin error …
// ResourceExhausted", so the provider measures the encoded state before
// answering and, over the ceiling, fails with what to do instead.

// maxResultBytes is the ceiling: the message limit less room for the rest
// of the response (diagnostics, framing).
const maxResultBytes = 256<<20 - 64<<10

// resultTooLargeError is a state over the ceiling.
type resultTooLargeError struct {
	readLess string // the data source's advice
	size     int64
	limit    int64
}

func (e *resultTooLargeError) Error() string {
	return fmt.Sprintf("the result is %s (%d bytes) when encoded, over the %s (%d bytes) that Terraform accepts from a provider in one message, "+
		"so it cannot be returned. Read less: %s",
		megabytes(e.size), e.size, megabytes(e.limit), e.limit, e.readLess)
}

func megabytes(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }

// checkResultSize measures the encoded state against the ceiling. It
// returns the size, for the encoder to allocate exactly once.
func checkResultSize(def *dataSourceDef, state any, limit int64) (int64, error) {
	n, err := tfattr.EncodedSize(def.attrs, state)
	if err != nil {
		return 0, err
	}
	if n > limit {
		return n, &resultTooLargeError{readLess: def.readLess, size: n, limit: limit}
	}
	return n, nil
}
