package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
)

// unusableAnswer is a token endpoint's 2xx answer that is not a token
// response, described without any of its values.
type unusableAnswer struct{ problem string }

func (e *unusableAnswer) Error() string { return e.problem }

// tokenFields are the members of a token response (RFC 6749 §5.1, and the
// OpenID id_token) and the JSON kind each must have.
var tokenFields = map[string]string{
	"access_token":  "string",
	"token_type":    "string",
	"refresh_token": "string",
	"scope":         "string",
	"id_token":      "string",
	"expires_in":    "number",
}

// tokenAnswerProblem names what makes body not a token response, by field
// and JSON type only (never a value: a server may echo the client secret
// in one), or "" when nothing is wrong that it can see. An answer in form
// encoding (what some servers send) is x/oauth2's to read.
func tokenAnswerProblem(body []byte) string {
	trimmed := strings.TrimSpace(string(body))
	if trimmed == "" {
		return "the answer is empty"
	}
	if !strings.HasPrefix(trimmed, "{") {
		if strings.Contains(trimmed, "access_token=") {
			return "" // form encoding, which x/oauth2 reads
		}
		return "the answer is not a JSON object"
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil {
		return "the answer is not valid JSON"
	}
	var problems []string
	for _, name := range []string{"access_token", "token_type", "expires_in", "refresh_token", "scope", "id_token"} {
		raw, ok := members[name]
		if !ok || string(raw) == "null" {
			if name == "access_token" {
				problems = append(problems, "access_token is missing")
			}
			continue
		}
		// expires_in may be a number written as a string by some servers;
		// x/oauth2 refuses it all the same, so it is named.
		if got := jsonKind(raw); got != tokenFields[name] {
			problems = append(problems, fmt.Sprintf("%s is a JSON %s, not a %s", name, got, tokenFields[name]))
		}
	}
	return strings.Join(problems, "; ")
}

// jsonKind names the JSON type of a value by its first byte.
func jsonKind(raw json.RawMessage) string {
	switch s := strings.TrimSpace(string(raw)); {
	case s == "":
		return "nothing"
	case s[0] == '"':
		return "string"
	case s[0] == '{':
		return "object"
	case s[0] == '[':
		return "array"
	case s == "true" || s == "false":
		return "boolean"
	case s == "null":
		return "null"
	}
	return "number"
}

// usableToken refuses a token the provider could not send as it must: a
// token_type other than Bearer (case does not matter, RFC 6749 §5.1) or
// none (a "mac" or "DPoP" token is bound to a key this command does not
// hold), and an access_token with white space or any character that is
// not printable (a newline would end the header; an escape sequence,
// printed, would drive the user's terminal). It names the field, never
// the value.
func usableToken(tokenType, accessToken string) error {
	switch {
	case tokenType == "":
		return &unusableAnswer{problem: "the token answer has no token_type; only Bearer tokens can be used"}
	case !strings.EqualFold(tokenType, "bearer"):
		return &unusableAnswer{problem: fmt.Sprintf("token_type is not Bearer (%d characters, not shown); only Bearer tokens can be used", len([]rune(tokenType)))}
	case accessToken == "":
		return &unusableAnswer{problem: "access_token is empty"}
	}
	for i, r := range accessToken {
		if r > unicode.MaxASCII || !unicode.IsPrint(r) || unicode.IsSpace(r) {
			return &unusableAnswer{problem: fmt.Sprintf("access_token holds a character that is white space, not printable or not ASCII (at byte %d); it is not written", i)}
		}
	}
	return nil
}
