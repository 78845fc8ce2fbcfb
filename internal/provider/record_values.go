package provider

// timestampNote ends the description of every timestamp attribute.
const timestampNote = " A timestamp string as the API sends it, not parsed: ISO 8601 UTC with milliseconds, such as `2024-01-02T00:00:00.000Z` " +
	"(compare with `timecmp`, format with `formatdate`)."

// nonEmpty is a record's raw JSON, null when the read kept none.
func nonEmpty(s *string) *string {
	if *s == "" {
		return nil
	}
	return s
}
