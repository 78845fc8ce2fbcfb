package provider

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
)

// The kinds of provider setting. Each constructor writes the end of the
// description from what it is given (environment variable, bounds,
// default), so the schema, the docs and the parse cannot disagree.

// setting is one attribute of the provider block.
type setting struct {
	name string
	env  string // the environment variable read when the attribute is null; "" for none
	// concerns is the client setting it becomes: the client's errors name
	// settings by it, and settingName words them by this declaration.
	concerns  client.Setting
	attribute schema.Attribute
	// parse puts the value into conf: the attribute's, else the
	// environment variable's (fromEnv), else null.
	parse func(v tftypes.Value, fromEnv bool, conf *configuration) *settingError
}

// configuration is what the settings parse into: the client's Config and
// what the provider keeps for itself.
type configuration struct {
	client client.Config
	strict bool
}

// settingError is a setting's bad value, reported against its attribute.
type settingError struct{ summary, detail string }

// Environment variables of the settings that have one.
const (
	envAccessToken  = "JOINIT_ACCESS_TOKEN"
	envBaseURL      = "JOINIT_BASE_URL"
	envOrganization = "JOINIT_ORGANIZATION_ID"
	envCACertFile   = "JOINIT_CA_CERT_FILE"
	envMaxValues    = "JOINIT_MAX_RESULT_VALUES"
)

// stringSpec declares a string setting.
type stringSpec struct {
	name, desc, env string
	sensitive       bool
	concerns        client.Setting
	validators      []validator.String
	// missing, for a required setting, is the summary of the error when
	// neither the attribute nor the environment variable gives a value;
	// missingDetail ends its detail.
	missing, missingDetail string
	// exact: the value is sent exactly, and white space or a control
	// character in it is refused (exactValueError).
	exact bool
	// use takes the value; fromEnv says it came from env.
	use func(v string, fromEnv bool, c *configuration) *settingError
}

// exactValueError refuses a value compared or sent exactly (a token, an
// id) that was pasted with more than the value (pastedMistake), naming
// where it came from. A secret's value is never shown; another's is, quoted, so the
// character shows.
func exactValueError(name, env string, sensitive bool, v, mistake string, fromEnv bool) *settingError {
	where := name
	if fromEnv {
		where = "the " + env + " environment variable"
	}
	shown := ""
	if !sensitive {
		shown = fmt.Sprintf(" (%q)", v)
	}
	return &settingError{"Invalid " + name, fmt.Sprintf("%s%s %s: the value is used exactly as given.", where, shown, mistake)}
}

func stringSetting(sp stringSpec) setting {
	desc := sp.desc
	switch {
	case sp.missing != "" && sp.env != "":
		desc += fmt.Sprintf(" Required, unless the `%s` environment variable is set: it is read when this is not.", sp.env)
	case sp.env != "":
		desc += fmt.Sprintf(" Defaults to the `%s` environment variable.", sp.env)
	}
	validators := sp.validators
	if sp.missing == "" {
		validators = append([]validator.String{stringvalidator.LengthAtLeast(1)}, validators...)
	}
	s := setting{name: sp.name, env: sp.env, concerns: sp.concerns,
		attribute: schema.StringAttribute{Optional: true, Sensitive: sp.sensitive, Description: desc, MarkdownDescription: tfattr.Markdown(desc), Validators: validators}}
	s.parse = func(v tftypes.Value, fromEnv bool, c *configuration) *settingError {
		var str string
		if !v.IsNull() {
			if err := v.As(&str); err != nil {
				return &settingError{"Invalid " + sp.name, err.Error()}
			}
		} else if sp.missing == "" {
			return nil // optional, and set nowhere
		}
		if sp.missing != "" && str == "" {
			if fromEnv {
				// Set, but empty: a CI secret that was never defined
				// expands to "". Say so, rather than that it is missing.
				return &settingError{sp.missing, fmt.Sprintf("The %s environment variable is set, but empty (a CI secret that was never defined expands to an empty value): give it a value, or set %s in the provider block. %s",
					sp.env, sp.name, sp.missingDetail)}
			}
			if !v.IsNull() {
				// access_token = "": set, to nothing.
				return &settingError{sp.missing, fmt.Sprintf("%s is set in the provider block, but empty: give it a value, or remove the line to read the %s environment variable. %s",
					sp.name, sp.env, sp.missingDetail)}
			}
			where := sp.name + " in the provider block"
			if sp.env != "" {
				where += " or the " + sp.env + " environment variable"
			}
			return &settingError{sp.missing, "Set " + where + ". " + sp.missingDetail}
		}
		if mistake := exactMistake(str, sp.sensitive); sp.exact && mistake != "" {
			return exactValueError(sp.name, sp.env, sp.sensitive, str, mistake, fromEnv)
		}
		return sp.use(str, fromEnv, c)
	}
	return s
}

// intSettingSpec declares a whole-number setting with bounds and a default.
type intSettingSpec struct {
	name, desc    string
	env           string // the environment variable read when the attribute is null; "" for none
	def, min, max int64
	concerns      client.Setting
	use           func(n int64, c *configuration)
}

func intSetting(sp intSettingSpec) setting {
	desc := sp.desc + fmt.Sprintf(" Default %d, from %d to %d.", sp.def, sp.min, sp.max)
	if sp.env != "" {
		desc += fmt.Sprintf(" Defaults to the `%s` environment variable.", sp.env)
	}
	rule := tfattr.WholeNumber{Min: sp.min, Max: sp.max}
	s := setting{name: sp.name, env: sp.env, concerns: sp.concerns, attribute: schema.NumberAttribute{Optional: true,
		Description: desc, MarkdownDescription: tfattr.Markdown(desc), Validators: []validator.Number{rule}}}
	s.parse = func(v tftypes.Value, fromEnv bool, c *configuration) *settingError {
		name := sp.name
		if fromEnv {
			// The variable's text, as a number: "1e7" and "10000000" alike.
			var text string
			_ = v.As(&text)
			f, _, err := big.ParseFloat(strings.TrimSpace(text), 10, 256, big.ToNearestEven)
			if err != nil {
				return &settingError{"Invalid " + sp.env, fmt.Sprintf("%s is %q, not a whole number", sp.env, text)}
			}
			name, v = sp.env, tftypes.NewValue(tftypes.Number, f)
		}
		n := sp.def
		if !v.IsNull() {
			var err error
			if n, err = rule.Parse(name, v); err != nil {
				return &settingError{"Invalid " + name, err.Error()}
			}
		}
		sp.use(n, c)
		return nil
	}
	return s
}

// durationSetting declares a Go duration ("60s") with a default, by the
// one duration rule of the provider (tfattr.ParseDuration).
func durationSetting(name string, def time.Duration, concerns client.Setting, desc string, use func(time.Duration, *configuration)) setting {
	s := setting{name: name, concerns: concerns, attribute: schema.StringAttribute{Optional: true,
		Description: desc + " Default " + seconds(def) + ".", MarkdownDescription: tfattr.Markdown(desc + " Default " + seconds(def) + "."), Validators: []validator.String{tfattr.Duration}}}
	s.parse = func(v tftypes.Value, _ bool, c *configuration) *settingError {
		d := def
		if !v.IsNull() {
			var str string
			if err := v.As(&str); err != nil {
				return &settingError{"Invalid " + name, err.Error()}
			}
			var err error
			if d, err = tfattr.ParseDuration(str); err != nil {
				return &settingError{"Invalid " + name, err.Error()}
			}
		}
		use(d, c)
		return nil
	}
	return s
}

// seconds prints a default duration as the examples write it: 60s.
func seconds(d time.Duration) string { return fmt.Sprintf("`%ds`", int64(d/time.Second)) }

// boolSetting declares a bool with a default.
func boolSetting(name string, def bool, desc string, use func(bool, *configuration)) setting {
	desc += " Default " + strconv.FormatBool(def) + "."
	s := setting{name: name, attribute: schema.BoolAttribute{Optional: true, Description: desc, MarkdownDescription: tfattr.Markdown(desc)}}
	s.parse = func(v tftypes.Value, _ bool, c *configuration) *settingError {
		b := def
		if !v.IsNull() {
			if err := v.As(&b); err != nil {
				return &settingError{"Invalid " + name, err.Error()}
			}
		}
		use(b, c)
		return nil
	}
	return s
}
