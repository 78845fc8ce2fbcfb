package provider

import "strings"

// pastedMistake names how a value a user pasted differs from the value
// meant: the quotes of a .env file, a token's "Bearer " scheme, a trailing
// newline of a file or a CI secret, white space around it. "" when none.
// The value itself is never part of it: a token's must not be shown.
func pastedMistake(v string, token bool) string {
	t := strings.TrimSpace(v)
	switch {
	case token && len(t) > len("Bearer ") && strings.EqualFold(t[:len("Bearer ")], "Bearer "):
		return `starts with "Bearer ": give the token alone; the provider sends "Authorization: Bearer <token>" itself`
	case len(t) >= 2 && (t[0] == '"' && t[len(t)-1] == '"' || t[0] == '\'' && t[len(t)-1] == '\''):
		return "is in quotes, as a .env file or a copied shell line can leave them: remove the quotes"
	case strings.ContainsAny(v, "\r\n"):
		return "contains a newline: a trailing newline, as a value read from a file or a CI secret often has? Remove it"
	case t != v:
		return surroundingSpace
	}
	return ""
}

const surroundingSpace = "has white space around it: remove it"

// keyMistake is pastedMistake for a lookup's key: quotes or a newline are
// never part of one; white space around one may be (an external id as
// stored), and an e-mail is compared without it.
func keyMistake(v string) string {
	if m := pastedMistake(v, false); m != surroundingSpace {
		return m
	}
	return ""
}

// exactMistake is pastedMistake, and white space or a control character
// anywhere: a token or an id has none.
func exactMistake(v string, token bool) string {
	if m := pastedMistake(v, token); m != "" || !hasSpaceOrControl(v) {
		return m
	}
	return "contains white space or control characters: remove them"
}
