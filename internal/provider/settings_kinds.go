package provider

import (
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/client"
)

// The kinds of provider setting. Each constructor writes the end of the
// description from what it is given (environment variable, bounds,
// default), so the schema, the docs and the parse cannot disagree.

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

// hasSpaceOrControl reports white space or a control character anywhere
// in s: a value read from a file or a CI secret often ends in a newline.
func hasSpaceOrControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) })
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
		attribute: schema.StringAttribute{Optional: true, Sensitive: sp.sensitive, Description: desc, MarkdownDescription: markdown(desc), Validators: validators}}
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
	s := setting{name: sp.name, env: sp.env, concerns: sp.concerns, attribute: schema.NumberAttribute{Optional: true,
		Description: desc, MarkdownDescription: markdown(desc), Validators: []validator.Number{wholeNumber{min: sp.min, max: sp.max}}}}
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
		// The data-source arguments' parse, with its bounds check.
		n, err := argumentOf(name, v).int64Value(intSpec{name: name, def: &sp.def, min: sp.min, max: sp.max})
		if err != nil {
			return invalidSetting(name, err)
		}
		sp.use(*n, c)
		return nil
	}
	return s
}

// argumentOf is a setting's value as the one argument of a configuration,
// for the parses data-source arguments use.
func argumentOf(name string, v tftypes.Value) arguments {
	return arguments{attrs: map[string]tftypes.Value{name: v}}
}

// invalidSetting reports an argument's parse error against its setting.
func invalidSetting(name string, err error) *settingError {
	if bad, ok := err.(*argError); ok { //nolint:errorlint // the parses return it unwrapped
		return &settingError{"Invalid " + name, bad.msg}
	}
	return &settingError{"Invalid " + name, err.Error()}
}

// durationSetting declares a Go duration ("60s") with a default, by the
// one duration rule of the provider (parseTimeout, durationValidator).
func durationSetting(name string, def time.Duration, concerns client.Setting, desc string, use func(time.Duration, *configuration)) setting {
	s := setting{name: name, concerns: concerns, attribute: schema.StringAttribute{Optional: true,
		Description: desc + " Default " + seconds(def) + ".", MarkdownDescription: markdown(desc + " Default " + seconds(def) + "."), Validators: []validator.String{durationValidator{}}}}
	s.parse = func(v tftypes.Value, _ bool, c *configuration) *settingError {
		d := def
		if !v.IsNull() {
			var str string
			if err := v.As(&str); err != nil {
				return &settingError{"Invalid " + name, err.Error()}
			}
			var err error
			if d, err = parseTimeout(str); err != nil {
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
	s := setting{name: name, attribute: schema.BoolAttribute{Optional: true, Description: desc + " Default " + strconv.FormatBool(def) + ".", MarkdownDescription: markdown(desc + " Default " + strconv.FormatBool(def) + ".")}}
	s.parse = func(v tftypes.Value, _ bool, c *configuration) *settingError {
		b, err := argumentOf(name, v).boolValue(name, def)
		if err != nil {
			return invalidSetting(name, err)
		}
		use(*b, c)
		return nil
	}
	return s
}

// endpointPathsSetting declares endpoint_paths: one attribute per endpoint
// of apispec's table, each validated by the client's own rule.
func endpointPathsSetting() setting {
	var shown, assumed, defaults []string
	for _, e := range apispec.Endpoints {
		defaults = append(defaults, fmt.Sprintf("`%s` (default `%s`)", e.Name, e.DefaultPath))
		if e.Shown {
			shown = append(shown, e.Name)
		} else {
			assumed = append(assumed, e.Name)
		}
	}
	// A map, not an object: Terraform converts an object literal to an
	// object type by dropping the attributes the type lacks, so a typo
	// ({ group = "/x" }) would never reach the provider.
	desc := "Overrides of the endpoint paths, relative to `base_url`, by endpoint: " + andList(defaults) +
		". The API specification shows the full paths of " + andList(shown) + " only; the " + andList(assumed) +
		" defaults are an assumption. A key that names no endpoint is refused."
	s := setting{name: "endpoint_paths", concerns: client.SettingPaths, attribute: schema.MapAttribute{
		Optional: true, ElementType: types.StringType, Description: desc, MarkdownDescription: markdown(desc),
		Validators: []validator.Map{endpointPathsValidator{}},
	}}
	s.parse = func(v tftypes.Value, _ bool, c *configuration) *settingError {
		var paths map[string]tftypes.Value
		if err := v.As(&paths); err != nil {
			return &settingError{"Invalid endpoint_paths", err.Error()}
		}
		c.client.Paths = client.Paths{}
		for _, name := range slices.Sorted(maps.Keys(paths)) { // none when null
			if detail := unknownEndpointKey(name); detail != "" {
				return &settingError{"Invalid endpoint_paths key", detail}
			}
			p := paths[name]
			if p.IsNull() {
				continue
			}
			var str string
			if err := p.As(&str); err != nil {
				return &settingError{"Invalid endpoint_paths." + name, err.Error()}
			}
			c.client.Paths[name] = str
		}
		return nil
	}
	return s
}

// unknownEndpointKey says why name is not a key of endpoint_paths, naming
// the endpoints and the nearest; "" for an endpoint's name.
func unknownEndpointKey(name string) string {
	if slices.Contains(apispec.Names(), name) {
		return ""
	}
	return fmt.Sprintf("endpoint_paths has no endpoint %q: the endpoints are %s.%s", name, quotedList(apispec.Names(), "and"), didYouMean(name, apispec.Names()))
}
