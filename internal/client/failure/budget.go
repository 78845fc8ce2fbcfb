package failure

import "fmt"

// SettingMaxValues is the budget of values one read may hold
// (Config.MaxValues): the error of a read past it names it.
var SettingMaxValues = Setting{Field: "MaxValues"}

// BudgetError is a read stopped at the first record past a bound
// (paging.Budget): MaxValues, MaxBytes, MaxRecordValues, or a page of more
// records than the whole budget.
type BudgetError struct {
	Endpoint string
	// Pages and Records are where the read stopped; Values and Bytes what
	// the records kept hold.
	Pages, Records      int
	Values, Bytes       int64
	MaxValues, MaxBytes int64
	// RecordValues is the last record's values when Over is OverRecord.
	RecordValues, MaxRecordValues int64
	Over                          Bound
}

// Bound names the bound a read passed.
type Bound string

// The bounds of a read.
const (
	OverValues Bound = "values" // MaxValues
	OverBytes  Bound = "bytes"  // MaxBytes
	OverRecord Bound = "record" // MaxRecordValues, by one record
	OverPage   Bound = "page"   // MaxValues, by one page's records alone
)

func (e *BudgetError) Error() string { return e.WordWith(ConfigNames) }

// WordWith names the budget's setting as the caller words it.
func (e *BudgetError) WordWith(name Namer) string {
	switch e.Over {
	case OverPage:
		return fmt.Sprintf("%s: page %d alone holds more than %s records, past the budget of %s values that bounds what one read holds and hands Terraform; "+
			"its decoding stopped there. To read more, raise %s", e.Endpoint, e.Pages, Thousands(int64(e.Records-1)), Thousands(e.MaxValues), name(SettingMaxValues))
	case OverRecord:
		return fmt.Sprintf("%s: record %s (page %d) holds %s values, its lists and nested objects included, more than the %s one record may hand Terraform "+
			"(a list this long in one record takes Terraform minutes and gigabytes to plan); the read fails rather than drop any of them",
			e.Endpoint, Thousands(int64(e.Records)), e.Pages, Thousands(e.RecordValues), Thousands(e.MaxRecordValues))
	}
	read := fmt.Sprintf("%s: the read stopped after %s records on %s, which hold %s values and %s bytes of text",
		e.Endpoint, Thousands(int64(e.Records)), plural(e.Pages, "page"), Thousands(e.Values), Thousands(e.Bytes))
	if e.Over == OverBytes {
		return read + fmt.Sprintf(", more than the %s bytes Terraform takes from a provider in one message, so the result could not be returned", Thousands(e.MaxBytes))
	}
	return read + fmt.Sprintf(", past the budget of %s values that bounds what one read holds and hands Terraform "+
		"(Terraform needs about 1 KB of memory for each value it plans, so a larger result risks the memory of the machine that plans). "+
		"To read more, raise %s", Thousands(e.MaxValues), name(SettingMaxValues))
}

// Thousands writes n with commas between groups of three digits.
func Thousands(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + Thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return Thousands(int64(n)) + " " + what + "s"
}
