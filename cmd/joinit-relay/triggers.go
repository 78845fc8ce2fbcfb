package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// triggers are the webhook_event_type values of API.md#event-types: the
// only values -events takes, and the only event types the relay logs as
// they came.
var triggers = []string{
	"memberships.all", "memberships.created", "memberships.inactive", "memberships.updated", "memberships.renewal",
	"payments.created",
	"check_ins.all", "check_ins.created", "check_ins.updated", "check_ins.checked_out",
	"registrations.created",
}

// membershipEvents are the event types of the membership triggers, the
// default of -events.
var membershipEvents = triggers[:5]

// meantAs are words an operator may write for a trigger named otherwise:
// the service calls a cancellation or an expiry "inactive", and a renewal
// "renewal".
var meantAs = map[string]string{
	"cancelled": "memberships.inactive", "canceled": "memberships.inactive", "cancel": "memberships.inactive",
	"expired": "memberships.inactive", "expire": "memberships.inactive", "deleted": "memberships.inactive",
	"renewed": "memberships.renewal", "renew": "memberships.renewal", "new": "memberships.created",
}

// eventSet reads -events: names of triggers, comma-separated. A name that
// is none is refused, naming the trigger it most likely meant: accepted, it
// would make every real webhook "ignored".
func eventSet(v string) (map[string]bool, error) {
	set := map[string]bool{}
	for _, e := range strings.Split(v, ",") {
		e = strings.TrimSpace(e)
		switch {
		case e == "":
		case slices.Contains(triggers, e):
			set[e] = true
		default:
			return nil, fmt.Errorf("-events: %q is not an event type the service sends; did you mean %q? The event types: %s",
				logSafe(e), closestTrigger(e), strings.Join(triggers, ", "))
		}
	}
	if len(set) == 0 {
		return nil, fmt.Errorf("-events names no event type; the default is %s", strings.Join(membershipEvents, ","))
	}
	if !slices.ContainsFunc(membershipEvents, func(e string) bool { return set[e] }) {
		return nil, fmt.Errorf("-events names no membership trigger, so every cancellation would be ignored: add memberships.inactive (or memberships.all), or leave -events out for its default, %s", strings.Join(membershipEvents, ","))
	}
	return set, nil
}

// eventList is -events in effect, for the start-up line.
func eventList(set map[string]bool) string {
	var names []string
	for _, t := range triggers {
		if set[t] {
			names = append(names, t)
		}
	}
	return strings.Join(names, ",")
}

// closestTrigger is the trigger a mistyped name most likely meant: by a
// word the service says otherwise, else by edit distance.
func closestTrigger(name string) string {
	_, last, _ := strings.Cut(strings.ToLower(name), ".")
	if t, ok := meantAs[last]; ok {
		return t
	}
	best, bestDistance := "", -1
	for _, t := range triggers {
		if d := editDistance(strings.ToLower(name), t); bestDistance < 0 || d < bestDistance {
			best, bestDistance = t, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// eventForLog is a webhook's event type as a log line may hold it: a
// trigger's name as sent, anything else not (the sender chose it).
func eventForLog(eventType string) string {
	switch {
	case eventType == "":
		return "(none)"
	case slices.Contains(triggers, eventType):
		return eventType
	default:
		return "(other)"
	}
}

// idShape is what an _id looks like: the service's are 24 hex digits;
// opaque ids of letters, digits, "-" and "_" pass too. An e-mail, a name
// or a sentence put in an _id does not.
var idShape = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// idForLog is a record's _id as a log line may hold it: only with the
// shape of an id.
func idForLog(id string) string {
	switch {
	case id == "":
		return "(none)"
	case idShape.MatchString(id):
		return id
	default:
		return "(not an id)"
	}
}

// logSafe keeps at most 64 characters of text a sender chose, each a
// letter, digit or one of "._:-", others as "?": for a message that must
// quote what an operator wrote (an -events name), never for a webhook's
// fields.
func logSafe(s string) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() == 64 {
			return b.String() + "…"
		}
		if r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._:-", r)) {
			b.WriteRune(r)
		} else {
			b.WriteByte('?')
		}
	}
	return b.String()
}
