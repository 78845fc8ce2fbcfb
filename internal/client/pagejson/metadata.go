package pagejson

import (
	"errors"
	"fmt"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// metadataObject is the object the limit-style endpoints answer: results,
// page, limit and totalPages, as the specification describes it.
type metadataObject struct {
	Results    jsontext.Value `json:"results"` // nil when absent, "null" when null
	Page       *int           `json:"page"`
	Limit      *int           `json:"limit"`
	TotalPages *int           `json:"totalPages"`
}

// MetadataPage is one decoded page of a limit-style endpoint.
type MetadataPage[T any] struct {
	Records    []Record[T]
	TotalPages int
	// Results is the results array as sent: two answers agree when they
	// hold the same results and the same totalPages.
	Results []byte
}

// OtherPageError is a metadata page that names another page than was
// asked for. What that means (a server that does not advance) is the
// paging rules' to say.
type OtherPageError struct{ Asked, Answered int }

func (e *OtherPageError) Error() string {
	return fmt.Sprintf("the server answered page %d when page %d was asked for", e.Answered, e.Asked)
}

// DecodeMetadata checks the metadata object of page asked and decodes its
// results.
func DecodeMetadata[T any](body []byte, asked int, keepRaw bool) (MetadataPage[T], error) {
	if err := ExpectStart(body, '{'); err != nil {
		return MetadataPage[T]{}, err
	}
	var m metadataObject
	if err := jsonv2.Unmarshal(body, &m); err != nil {
		return MetadataPage[T]{}, DescribeError(err)
	}
	switch {
	case m.Results == nil:
		return MetadataPage[T]{}, errors.New("the response has no results array")
	case m.TotalPages == nil:
		return MetadataPage[T]{}, errors.New("the response has no totalPages")
	case *m.TotalPages < 0:
		return MetadataPage[T]{}, fmt.Errorf("totalPages is negative (%d)", *m.TotalPages)
	case m.Page == nil:
		return MetadataPage[T]{}, errors.New("the response has no page number")
	case *m.Page != asked:
		return MetadataPage[T]{}, &OtherPageError{Asked: asked, Answered: *m.Page}
	}
	recs, err := DecodeArray[T](m.Results, keepRaw, nil)
	if err != nil {
		return MetadataPage[T]{}, fmt.Errorf("results: %w", err)
	}
	if *m.TotalPages == 0 && len(recs) > 0 {
		return MetadataPage[T]{}, fmt.Errorf("totalPages is 0 but the page holds %d results", len(recs))
	}
	return MetadataPage[T]{Records: recs, TotalPages: *m.TotalPages, Results: m.Results}, nil
}
