package provider

import (
	"strings"
	"unicode"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
)

// pastedMistake is client.PastedMistake, and for a token the "Bearer "
// scheme the provider sends itself.
func pastedMistake(v string, token bool) string {
	if t := strings.TrimSpace(v); token && len(t) > len("Bearer ") && strings.EqualFold(t[:len("Bearer ")], "Bearer ") {
		return `starts with "Bearer ": give the token alone; the provider sends "Authorization: Bearer <token>" itself`
	}
	return client.PastedMistake(v)
}

// exactMistake is pastedMistake, and white space or a control character
// anywhere: a token or an id has none.
func exactMistake(v string, token bool) string {
	if m := pastedMistake(v, token); m != "" || !hasSpaceOrControl(v) {
		return m
	}
	return "contains white space or control characters: remove them"
}

// keyMistake is pastedMistake for a lookup's key: quotes or a newline are
// never part of one; white space around one may be (an external id as
// stored), and an e-mail is compared without it.
func keyMistake(v string) string {
	if m := pastedMistake(v, false); m != client.SurroundingSpace {
		return m
	}
	return ""
}

// hasSpaceOrControl reports white space or a control character anywhere
// in s: a value read from a file or a CI secret often ends in a newline.
func hasSpaceOrControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) })
}
