package main

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

func TestReadEventStreamsTheThreeFieldsItReads(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, body string
		want       event
		problem    string
	}{
		{"a webhook", `{"_id":"m1","organization_id":"o1","email":"a@b.c","webhook_event_type":"memberships.inactive","profile":{"x":[1,{"y":2}]}}`, event{"memberships.inactive", "o1", "m1"}, ""},
		{"the last of a repeated name wins", `{"_id":"m1","_id":"m2"}`, event{id: "m2"}, ""},
		{"a repeated event type: the last counts", `{"webhook_event_type":5,"webhook_event_type":"memberships.all"}`, event{eventType: "memberships.all"}, ""},
		{"a repeated event type, the last not a string", `{"webhook_event_type":"memberships.all","webhook_event_type":5}`, event{}, "webhook_event_type is not a string"},
		{"an escaped name", `{"\u005fid":"m1","webhook_event_type":"memberships\u002eall"}`, event{"memberships.all", "", "m1"}, ""},
		{"a null event type is absent", `{"webhook_event_type":null,"_id":"m1"}`, event{id: "m1"}, ""},
		{"an object where an id was", `{"_id":{"a":[1,2]},"organization_id":7}`, event{}, ""},
		{"invalid UTF-8 elsewhere", "{\"note\":\"\xff\",\"_id\":\"m1\"}", event{id: "m1"}, ""},
		{"an event type not a string", `{"webhook_event_type":["memberships.all"]}`, event{}, "webhook_event_type is not a string"},
		{"an empty event type", `{"webhook_event_type":""}`, event{}, "webhook_event_type is not a string"},
		{"two objects", `{"_id":"m1"}{}`, event{}, "the body is not a JSON object"},
		{"an array", `[{"_id":"m1"}]`, event{}, "the body is not a JSON object"},
		{"cut short", `{"_id":"m1"`, event{}, "the body is not a JSON object"},
		{"empty", ``, event{}, "the body is not a JSON object"},
	}
	for _, c := range cases {
		ev, err := readEvent(strings.NewReader(c.body))
		var problem errBody
		if errors.As(err, &problem) != (c.problem != "") || string(problem) != c.problem {
			t.Errorf("%s: error %v, want %q", c.name, err, c.problem)
			continue
		}
		if c.problem == "" && ev != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, ev, c.want)
		}
	}
}

func TestReadEventPassesTheSizeLimitsErrorOn(t *testing.T) {
	t.Parallel()
	body := `{"pad":"` + strings.Repeat("x", 2000) + `"}`
	r := http.MaxBytesReader(nil, nopCloser{strings.NewReader(body)}, 1000)
	var tooLarge *http.MaxBytesError
	if _, err := readEvent(r); !errors.As(err, &tooLarge) {
		t.Errorf("a body over the limit: %v, want the reader's *http.MaxBytesError", err)
	}
}

type nopCloser struct{ *strings.Reader }

func (nopCloser) Close() error { return nil }
