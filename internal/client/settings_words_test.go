package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/transport"
)

// An error's settings are values: Error names Config's fields, and Word
// names them as the caller does, where the error stands in a wrapped
// message.
func TestErrorsNameSettingsAsValues(t *testing.T) {
	t.Parallel()
	upper := func(s Setting) string { return strings.ToUpper(s.Field) + "/" + s.Key }
	for _, tc := range []struct {
		err  error
		want []Setting
	}{
		{&failure.APIError{Endpoint: "groups", Page: 1, Status: 404}, []Setting{SettingBaseURL, SettingPath("groups")}},
		{&failure.APIError{Endpoint: "groups", Page: 1, Status: 401}, []Setting{SettingToken}},
		{&failure.APIError{Endpoint: "groups", Page: 1, Status: 429}, []Setting{SettingMaxConcurrency, SettingMaxRetries}},
		{&failure.APIError{Endpoint: "groups", Page: 1, Status: 500}, nil},
		{&transport.RetryWaitError{Status: 429, Wait: time.Hour, Max: time.Minute}, []Setting{SettingMaxRetryWait}},
		{&transport.ConnectionError{Problem: "refused", BaseURL: "https://x", Err: errors.New("dial")}, []Setting{SettingBaseURL}},
		{&OrganizationError{Endpoint: "groups", Want: "a", Got: "b"}, []Setting{SettingOrganizationID, SettingToken, SettingOrganizationID}},
		{&transport.RedirectError{To: "https://elsewhere"}, []Setting{SettingBaseURL}},
		{ValidatePath("groups", "/https://x/groups"), []Setting{SettingBaseURL}},
	} {
		wrapped := fmt.Errorf("groups page 1: the request failed: %w", tc.err)
		var named []Setting
		worded := Word(wrapped, func(s Setting) string { named = append(named, s); return upper(s) })
		if !slices.Equal(named, tc.want) {
			t.Errorf("%T %v: names %v, want %v", tc.err, tc.err, named, tc.want)
		}
		if !strings.HasPrefix(worded, "groups page 1: the request failed: ") {
			t.Errorf("the wrapping text is lost: %s", worded)
		}
		for _, s := range tc.want {
			if !strings.Contains(wrapped.Error(), ConfigNames(s)) || !strings.Contains(worded, upper(s)) || strings.Contains(worded, ConfigNames(s)) {
				t.Errorf("%s is not worded by the namer:\n error %s\nworded %s", ConfigNames(s), wrapped, worded)
			}
		}
	}
}

// A redirect to a host that spells the token is refused, and its message
// redacted; worded for the provider, it still names the setting to fix,
// not Config's field: Word walks the chain, where replacing the redacted
// text would find nothing to replace.
func TestWordNamesTheSettingBesideRedactedServerText(t *testing.T) {
	t.Parallel()
	evil := strings.ToLower(testToken) + ".example"
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		http.Redirect(w, r, "https://"+evil+r.URL.RequestURI(), http.StatusFound)
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: strings.ToLower(testToken)})
	_, err := c.Groups(context.Background(), ListOptions{})
	if err == nil {
		t.Fatal("the redirect to another host was followed")
	}
	worded := Word(fmt.Errorf("reading groups: %w", err), func(s Setting) string {
		if s == SettingBaseURL {
			return "base_url (or JOINIT_BASE_URL)"
		}
		return ConfigNames(s)
	})
	if strings.Contains(strings.ToLower(worded), strings.ToLower(testToken)) {
		t.Fatalf("the token is in the worded message: %s", worded)
	}
	if !strings.Contains(worded, "redirected to another host") || !strings.Contains(worded, "set base_url (or JOINIT_BASE_URL) to the final address") || strings.Contains(worded, "Config.BaseURL") {
		t.Fatalf("the worded message does not name base_url: %s", worded)
	}
	if !strings.HasPrefix(worded, "reading groups: groups page 1: ") {
		t.Fatalf("the wrapping text is lost: %s", worded)
	}
}
