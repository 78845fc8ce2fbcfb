// Package failure is the vocabulary of a read's failures every layer of
// the client shares. An error whose fix is a setting names it (Setting):
// Error() as Config's field, Word as the provider names it.
package failure

import (
	"errors"
	"strings"
)

// Setting is a part of the client's Config an error concerns.
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
	SettingCACerts        = Setting{Field: "CACertPEM"}
	// SettingPaths is Config.Paths as a whole; SettingPath one endpoint's.
	SettingPaths = Setting{Field: "Paths"}
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

// Worded is an error whose message names settings, or wraps one that
// does: WordWith is its message with every setting worded by name.
type Worded interface {
	error
	WordWith(name Namer) string
}

// Word returns err's message with every setting it names worded by name;
// an error that is not Worded keeps its text, with the one it wraps worded.
func Word(err error, name Namer) string {
	if w, ok := err.(Worded); ok { //nolint:errorlint // the outermost error words itself; one it wraps is reached through Unwrap below, keeping the wrapper's own text
		return w.WordWith(name)
	}
	msg := err.Error()
	inner := errors.Unwrap(err)
	if inner == nil {
		return msg
	}
	innerMsg := inner.Error()
	i := strings.LastIndex(msg, innerMsg)
	if i < 0 {
		return msg
	}
	return msg[:i] + Word(inner, name) + msg[i+len(innerMsg):]
}
