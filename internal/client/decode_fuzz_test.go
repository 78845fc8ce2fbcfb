package client

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"
)

// decodeFuzzPage is the page decoder under test, with raw JSON kept.
func decodeFuzzPage(body []byte) ([]pagejson.Record[Membership], error) {
	return pagejson.DecodeArray[Membership](body, true, nil)
}

// leanMask is the lean read's mask: ids and e-mails.
var leanMask, _ = pagejson.NewMask[Membership]([]string{"email"})

// FuzzDecodeCountPage feeds arbitrary bytes to the count-style page decoder
// and the accumulator. It must never panic, and what it accepts must be a
// JSON array of objects whose records come out each once, in order.
func FuzzDecodeCountPage(f *testing.F) {
	for _, tc := range hostileCountBodies {
		f.Add([]byte(tc.body))
	}
	f.Add([]byte(`[]`))
	f.Add(testutil.ArrayOf([]string{"a", "b", "a", "c"}))
	f.Add([]byte(`[{},{},{"_id":""},{"_id":null}]`))
	f.Add([]byte(`[{"_id":"a","custom_answers":[{"answer":[1,{"x":null}]}],"profile":{"address":{"a":"b"}}}]`))

	f.Fuzz(func(t *testing.T, body []byte) {
		recs, err := decodeFuzzPage(body)
		if err != nil {
			if recs != nil {
				t.Fatalf("records returned with error %v", err)
			}
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		// Accepted: it is a JSON array of objects, or null (an empty list).
		trimmed := bytes.TrimSpace(body)
		if string(trimmed) == "null" {
			if len(recs) != 0 {
				t.Fatalf("null gave %d records", len(recs))
			}
			return
		}
		if len(trimmed) == 0 || trimmed[0] != '[' || !json.Valid(body) {
			t.Fatalf("accepted a body that is not a JSON array: %q", body)
		}
		var elems []json.RawMessage
		if err := json.Unmarshal(body, &elems); err != nil {
			t.Fatalf("accepted %q, encoding/json says %v", body, err)
		}
		if len(elems) != len(recs) {
			t.Fatalf("%d records from an array of %d", len(recs), len(elems))
		}
		// The lean decoder accepts whatever the full one does, and agrees
		// on the fields it decodes.
		lean, err := pagejson.DecodeArray[Membership](body, false, leanMask)
		if err != nil || len(lean) != len(recs) {
			t.Fatalf("the lean decoder got %d records (%v) where the full one got %d", len(lean), err, len(recs))
		}
		for i := range lean {
			if l, f := lean[i].Rec, recs[i].Rec; deref(l.ID) != deref(f.ID) || (l.ID == nil) != (f.ID == nil) || deref(l.Email) != deref(f.Email) || (l.Email == nil) != (f.Email == nil) {
				t.Fatalf("record %d: lean id %v email %v, full id %v email %v", i, l.ID, l.Email, f.ID, f.Email)
			}
		}
		keys := make([]string, len(recs))
		for i, d := range recs {
			if !bytes.HasPrefix(bytes.TrimSpace(d.Raw), []byte("{")) || !json.Valid(d.Raw) {
				t.Fatalf("record %d raw %q is not a JSON object", i, d.Raw)
			}
			// Field names match exactly ("_Id" is another field).
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(d.Raw, &obj); err != nil {
				t.Fatalf("record %d: %v", i, err)
			}
			var id *string
			if v, ok := obj["_id"]; ok {
				if err := json.Unmarshal(v, &id); err != nil {
					t.Fatalf("record %d: accepted _id %s", i, v)
				}
			}
			if deref(id) != deref(d.Rec.ID) || (id == nil) != (d.Rec.ID == nil) {
				t.Fatalf("record %d id %v, raw says %v", i, d.Rec.ID, id)
			}
			keys[i] = deref(d.Rec.ID)
		}

		// The metadata decoder sees the same bytes without panicking.
		_, _ = decodeMetadataPage[OrgMetric](body, 1, true)
	})
}
