package client

import (
	"errors"
	"strings"
)

// The client speaks of the API and of its own Config only. An error whose
// fix is a setting (a refused token, a path that answers 404, a wait longer
// than allowed) names that setting as a value, a Setting, and words it
// through a Namer: Error() names Config's fields, and the provider, with
// Word, names its attributes and environment variables instead.

// Setting is a part of Config an error concerns.
type Setting struct {
	Field string // the Config field: "BaseURL", "Token", "Paths", ...
	Key   string // for Paths: the endpoint's name
}

// The settings errors name.
var (
	SettingBaseURL        = Setting{Field: "BaseURL"}
	SettingToken          = Setting{Field: "Token"}
	SettingOrganizationID = Setting{Field: "OrganizationID"}
	SettingMaxConcurrency = Setting{Field: "MaxConcurrency"}
	SettingMaxRetries     = Setting{Field: "MaxRetries"}
	SettingMaxRetryWait   = Setting{Field: "MaxRetryWait"}
	SettingTimeout        = Setting{Field: "Timeout"}
)

// SettingPath is the path of one endpoint, Config.Paths[endpoint].
func SettingPath(endpoint string) Setting { return Setting{Field: "Paths", Key: endpoint} }

// Namer words a setting for the person who configures the client.
type Namer func(Setting) string

// ConfigNames names a setting as the Config field it is: what the
// errors' Error methods say.
func ConfigNames(s Setting) string {
	if s.Key != "" {
		return "Config." + s.Field + "[" + s.Key + "]"
	}
	return "Config." + s.Field
}

// settingsError is an error whose message names settings.
type settingsError interface {
	error
	wordWith(name Namer) string
}

// Word returns err's message with every setting it names worded by name.
// An error of the client wrapped in others (fmt.Errorf("...: %w")) is
// worded where it stands in the message.
func Word(err error, name Namer) string {
	msg := err.Error()
	for _, e := range chain(err) {
		if w, ok := e.(settingsError); ok {
			msg = strings.Replace(msg, w.Error(), w.wordWith(name), 1)
		}
	}
	return msg
}

// chain is err and every error it wraps, outermost first.
func chain(err error) []error {
	var out []error
	var walk func(error)
	walk = func(e error) {
		if e == nil {
			return
		}
		out = append(out, e)
		switch u := e.(type) {
		case interface{ Unwrap() []error }:
			for _, inner := range u.Unwrap() {
				walk(inner)
			}
		default:
			walk(errors.Unwrap(e))
		}
	}
	walk(err)
	return out
}
