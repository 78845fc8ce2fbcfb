package client

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
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
		{&APIError{Endpoint: "groups", Page: 1, Status: 404}, []Setting{SettingBaseURL, SettingPath("groups")}},
		{&APIError{Endpoint: "groups", Page: 1, Status: 401}, []Setting{SettingToken}},
		{&APIError{Endpoint: "groups", Page: 1, Status: 429}, []Setting{SettingMaxConcurrency, SettingMaxRetries}},
		{&APIError{Endpoint: "groups", Page: 1, Status: 500}, nil},
		{&RetryWaitError{Status: 429, Wait: time.Hour, Max: time.Minute}, []Setting{SettingMaxRetryWait}},
		{&ConnectionError{Problem: "refused", BaseURL: "https://x", Err: errors.New("dial")}, []Setting{SettingBaseURL}},
		{&OrganizationError{Endpoint: "groups", Want: "a", Got: "b"}, []Setting{SettingOrganizationID, SettingToken, SettingOrganizationID}},
		{&attemptTimeoutError{limit: time.Second}, []Setting{SettingTimeout}},
		{&redirectError{to: "https://elsewhere"}, []Setting{SettingBaseURL}},
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
