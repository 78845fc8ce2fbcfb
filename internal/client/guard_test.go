package client

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/url"
	"strings"
	"testing"
)

// A record that carries the access token fails the read, on full, lean
// and masked reads, naming the record's position and the field, never the
// value; a field the read does not decode (and so never hands on) does
// not, unless its raw JSON is kept, where the token counts in any of its
// spellings (redact.Spellings).
func TestARecordCarryingTheTokenFailsTheRead(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, record, field string
		read                func(*Client) error
	}{
		{"display_name, full read", `{"_id":"m-2","display_name":"Ana ` + testToken + `"}`, "display_name", fullRead},
		{"e-mail, lean read", `{"_id":"m-2","email":"` + testToken + `@example.com"}`, "email", leanRead},
		{"the id, masked read", `{"_id":"` + testToken + `","email":"a@example.com"}`, "_id", maskedRead},
		{"a custom answer", `{"_id":"m-2","custom_answers":[{},{"answer":"` + testToken + `"}]}`, "custom_answers[1].answer", fullRead},
		{"a profile field", `{"_id":"m-2","profile":{"first_name":"` + testToken + `"}}`, "profile.first_name", fullRead},
		{"an unknown field, raw JSON kept", `{"_id":"m-2","x_note":"` + testToken + `"}`, "raw JSON", rawRead},
		{"an unknown field, raw JSON kept, percent-encoded twice", `{"_id":"m-2","x_url":"https://x.example/?t=` + url.QueryEscape(url.QueryEscape("="+testToken)) + `"}`, "raw JSON", rawRead},
		{"display_name, a character of the token a \\u escape", `{"_id":"m-2","display_name":"Ana \u0074` + testToken[1:] + `"}`, "display_name", fullRead},
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

// A token shorter than redact.MinLength is too short to be a secret: a
// record holding it is read as any other (a 4-character token the sandbox
// accepts would otherwise fail reads whose e-mails hold it).
func TestATokenTooShortToBeASecretIsNotGuarded(t *testing.T) {
	t.Parallel()
	for token, guarded := range map[string]bool{"ab12": false, "ab12ab1": false, "ab12ab12": true} {
		c := newClient(t, Config{BaseURL: serveOnePage(t, []string{`{"_id":"m-1","email":"x` + token + `@example.com"}`}).URL, Token: token})
		err := fullRead(c)
		if got := errors.As(err, new(*TokenInRecordError)); got != guarded {
			t.Errorf("token %q: the read failed %v (%v), want %v", token, got, err, guarded)
		}
	}
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
// not hold the token (most records): the look for the starts of its
// spellings in the record's bytes.
//
//	go test ./internal/client -run '^$' -bench TokenGuardPrefilter
func BenchmarkTokenGuardPrefilter(b *testing.B) {
	raw := []byte(`{"_id":"m-1","email":"ana@example.com","display_name":"Ana Lima","membership_name":"Annual","status":100,` +
		`"joined":"2024-01-02T00:00:00.000Z","profile":{"first_name":"Ana","last_name":"Lima","company":"Acme","phone":"+1 555 0100"},` +
		`"custom_answers":[{"question_id":"q1","question":"Size?","answer":"M"}]}`)
	g := newRecordGuard[Membership](&Client{cfg: Config{Token: testToken}}, "memberships", true)
	var m Membership
	for b.Loop() {
		g.See(&m, raw)
	}
	if g.Err() != nil {
		b.Fatal("a record without the token was taken for one that holds it")
	}
}
