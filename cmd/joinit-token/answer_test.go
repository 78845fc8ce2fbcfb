package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// A token endpoint that answers with the client secret where a field of
// another type belongs: the failure names the field and its JSON type, and
// holds the secret in no spelling (x/oauth2's own error quotes the value
// it could not read, Go-quoted).
func TestTokenAnswerOfTheWrongShapeNamesTheFieldNotTheValue(t *testing.T) {
	t.Parallel()
	secret := `s3cr"et/é-\Z9`
	js, _ := json.Marshal(secret)
	for name, tc := range map[string]struct {
		body, want string
	}{
		"expires_in a string":   {fmt.Sprintf(`{"access_token":"tok","token_type":"Bearer","expires_in":%s}`, js), "expires_in is a JSON string, not a number"},
		"access_token a number": {`{"access_token":12345,"token_type":"Bearer"}`, "access_token is a JSON number, not a string"},
		"token_type an object":  {fmt.Sprintf(`{"access_token":"tok","token_type":{"v":%s}}`, js), "token_type is a JSON object, not a string"},
		"not JSON":              {"<html>" + secret + "</html>", "the answer is not a JSON object"},
		"cut JSON":              {fmt.Sprintf(`{"access_token":%s`, js), "the answer is not valid JSON"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, tc.body)
			}))
			t.Cleanup(srv.Close)
			c := &config{authURL: srv.URL, clientID: testClientID, redirectRaw: "http://127.0.0.1:8910/callback"}
			_, err := exchangeCode(context.Background(), srv.Client(), c, secret, "the-code", "the-verifier", func(string, ...any) {})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to say %q", err, tc.want)
			}
			q := strconv.Quote(string(js))
			for _, spelled := range []string{secret, string(js[1 : len(js)-1]), q[1 : len(q)-1], url.QueryEscape(secret)} {
				if strings.Contains(err.Error(), spelled) {
					t.Fatalf("error %q holds the secret as %q", err, spelled)
				}
			}
		})
	}
}
