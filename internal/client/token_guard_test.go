package client

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// A record that carries the access token fails the read, on full, lean
// and masked reads, naming the record's position and the field, never the
// value; a field the read does not decode (and so never hands on) does
// not, unless its raw JSON is kept, where the token counts in any JSON
// spelling.
func TestARecordCarryingTheTokenFailsTheRead(t *testing.T) {
	t.Parallel()
	var escaped strings.Builder // the token with every character a JSON \u escape
	for _, r := range testToken {
		fmt.Fprintf(&escaped, `\u%04x`, r)
	}
	for _, tc := range []struct {
		name, record, field string
		read                func(*Client) error
	}{
		{"display_name, full read", `{"_id":"m-2","display_name":"Ana ` + testToken + `"}`, "display_name", fullRead},
		{"e-mail, lean read", `{"_id":"m-2","email":"` + testToken + `@example.com"}`, "email", leanRead},
		{"the id, masked read", `{"_id":"` + testToken + `","email":"a@example.com"}`, "_id", maskedRead},
		{"a custom answer", `{"_id":"m-2","custom_answers":[{},{"answer":"` + testToken + `"}]}`, "custom_answers[1].answer", fullRead},
		{"a profile field", `{"_id":"m-2","profile":{"first_name":"` + testToken + `"}}`, "profile.first_name", fullRead},
		{"an unknown field, raw JSON kept, escaped", `{"_id":"m-2","x_note":"` + escaped.String() + `"}`, "raw JSON", rawRead},
		{"an unknown field, raw JSON kept, percent-encoded", `{"_id":"m-2","x_url":"https://x.example/?t=` + percentEncoded(testToken) + `"}`, "raw JSON", rawRead},
		{"an unknown field, raw JSON kept, HTML character references", `{"_id":"m-2","x_html":"` + htmlEncoded(testToken) + `"}`, "raw JSON", rawRead},
		{"display_name in base64", `{"_id":"m-2","display_name":"` + base64.StdEncoding.EncodeToString([]byte(testToken)) + `"}`, "display_name", fullRead},
		{"e-mail in hex, lean read", `{"_id":"m-2","email":"` + hex.EncodeToString([]byte(testToken)) + `@example.com"}`, "email", leanRead},
		{"an unknown field, raw JSON kept, base64 URL", `{"_id":"m-2","x_note":"` + base64.RawURLEncoding.EncodeToString([]byte(testToken)) + `"}`, "raw JSON", rawRead},
		{"an unknown field, not kept", `{"_id":"m-2","x_note":"` + testToken + `"}`, "", fullRead},
		{"a field the mask skips", `{"_id":"m-2","email":"a@example.com","display_name":"` + testToken + `"}`, "", maskedRead},
	} {
		c := newClient(t, Config{BaseURL: serveOnePage(t, []string{`{"_id":"m-1"}`, tc.record}).URL, Token: testToken})
		err := tc.read(c)
		var inRecord *TokenInRecordError
		if tc.field == "" {
			if err != nil {
				t.Errorf("%s: %v, want the read to pass (the token is not handed on)", tc.name, err)
			}
			continue
		}
		if !errors.As(err, &inRecord) || inRecord.Record != 2 || inRecord.Field != tc.field {
			t.Errorf("%s: got %v, want record 2, field %s", tc.name, err, tc.field)
			continue
		}
		if strings.Contains(err.Error(), testToken) || !strings.Contains(err.Error(), "memberships: record 2 holds the access token in its "+tc.field) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// percentEncoded spells every byte of s as %XX.
func percentEncoded(s string) string {
	var b strings.Builder
	for i := range len(s) {
		fmt.Fprintf(&b, "%%%02X", s[i])
	}
	return b.String()
}

// htmlEncoded spells every byte of s as an HTML decimal character
// reference (&#116;).
func htmlEncoded(s string) string {
	var b strings.Builder
	for i := range len(s) {
		fmt.Fprintf(&b, "&#%d;", s[i])
	}
	return b.String()
}

func fullRead(c *Client) error {
	_, err := c.Memberships(context.Background(), MembershipQuery{})
	return err
}

func rawRead(c *Client) error {
	_, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{KeepRaw: true}})
	return err
}

func leanRead(c *Client) error {
	_, err := c.MembershipSummaries(context.Background(), MembershipQuery{})
	return err
}

func maskedRead(c *Client) error {
	_, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{Fields: []string{"email"}}})
	return err
}

// BenchmarkTokenGuardPrefilter is the guard's cost for a record that does
// not hold the token (most records): the look for it, as it is and in
// base64 and hex, in the record's bytes.
//
//	go test ./internal/client -run '^$' -bench TokenGuardPrefilter
func BenchmarkTokenGuardPrefilter(b *testing.B) {
	raw := []byte(`{"_id":"m-1","email":"ana@example.com","display_name":"Ana Lima","membership_name":"Annual","status":100,` +
		`"joined":"2024-01-02T00:00:00.000Z","profile":{"first_name":"Ana","last_name":"Lima","company":"Acme","phone":"+1 555 0100"},` +
		`"custom_answers":[{"question_id":"q1","question":"Size?","answer":"M"}]}`)
	for b.Loop() {
		if d, r := mayHoldToken(raw, testToken); d || r {
			b.Fatal("a record without the token was taken for one that may hold it")
		}
	}
}
